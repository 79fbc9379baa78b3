// SPDX-License-Identifier: GPL-2.0
/* The plugin's per-vCPU table of user-page translations. */
#include <criterion/criterion.h>

#include "../../bench/plugin/xlate.h"

static struct bnb_xlate x;

Test(plugin_xlate, empty_until_added)
{
	uint64_t pa;
	int node;

	bnb_xlate_init(&x);
	cr_assert_not(bnb_xlate_find(&x, 0x400000, &pa, &node));
	cr_assert_not(bnb_xlate_find(&x, 0, &pa, &node), "page 0 is not there either");
}

Test(plugin_xlate, keeps_the_offset_in_the_page)
{
	uint64_t pa = 0;
	int node = -1;

	bnb_xlate_init(&x);
	bnb_xlate_add(&x, 0x7f0000401000 + 0x10, 0x2345000 + 0x10, 1);
	cr_assert(bnb_xlate_find(&x, 0x7f0000401ff8, &pa, &node));
	cr_assert_eq(pa, 0x2345ff8);
	cr_assert_eq(node, 1);
	cr_assert_not(bnb_xlate_find(&x, 0x7f0000402000, &pa, &node), "the next page");
}

Test(plugin_xlate, forget_drops_everything)
{
	uint64_t pa;
	int node;

	bnb_xlate_init(&x);
	bnb_xlate_add(&x, 0x1000, 0x9000, 0);
	bnb_xlate_forget(&x);
	cr_assert_not(bnb_xlate_find(&x, 0x1000, &pa, &node));
	bnb_xlate_add(&x, 0x1000, 0xa000, 1);
	cr_assert(bnb_xlate_find(&x, 0x1000, &pa, &node));
	cr_assert_eq(pa, 0xa000, "the new page, not the forgotten one");
}

Test(plugin_xlate, a_wrapped_generation_revives_nothing)
{
	uint64_t pa;
	int node;

	bnb_xlate_init(&x);
	x.gen = UINT32_MAX;
	bnb_xlate_add(&x, 0x5000, 0x6000, 0);
	bnb_xlate_forget(&x);
	cr_assert_eq(x.gen, 1, "generation 0 would match the cleared slots");
	cr_assert_not(bnb_xlate_find(&x, 0x5000, &pa, &node));
}

/* Three arrays 8 MiB apart (the stream's layout) must not share a slot. */
Test(plugin_xlate, power_of_two_strides_spread)
{
	uint64_t base = 0x7f0000000000, stride = 8 << 20, pa;
	int node;

	bnb_xlate_init(&x);
	for (uint64_t p = 0; p < 16; p++) {
		for (int i = 0; i < 3; i++)
			bnb_xlate_add(&x, base + i * stride + p * 4096, (i * 100 + p) << 12, i);
		for (int i = 0; i < 3; i++)
			cr_assert(bnb_xlate_find(&x, base + i * stride + p * 4096, &pa, &node),
				  "array %d page %lu evicted", i, (unsigned long)p);
	}
}
