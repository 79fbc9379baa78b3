// SPDX-License-Identifier: GPL-2.0
/*
 * Address-to-node decoding for QEMU 7.2's RAM offsets and for guest-physical
 * addresses, with q35's RAM on both sides of the 4 GiB hole.
 */
#include <criterion/criterion.h>

#include "../../bench/plugin/addrmap.h"

#define MiB (1ULL << 20)
#define GiB (1ULL << 30)
#define ALL_LOW UINT64_MAX	/* no RAM above the hole */

static const uint64_t sizes[] = { 512 * MiB, 256 * MiB, 1024 * MiB };
static struct bnb_addrmap m;

Test(plugin_addrmap, qemu72_offsets)
{
	bnb_addrmap_build(&m, BNB_MAP_QEMU72, 3, sizes, ALL_LOW);
	/* node 0: [0, 512M); node 1: [2*512M, +256M); node 2: [2*768M, +1G) */
	cr_assert_eq(bnb_addrmap_node(&m, 0), 0);
	cr_assert_eq(bnb_addrmap_node(&m, 512 * MiB - 1), 0);
	cr_assert_eq(bnb_addrmap_node(&m, 512 * MiB), -1, "gap after node 0");
	cr_assert_eq(bnb_addrmap_node(&m, 1024 * MiB - 1), -1);
	cr_assert_eq(bnb_addrmap_node(&m, 1024 * MiB), 1);
	cr_assert_eq(bnb_addrmap_node(&m, 1280 * MiB - 1), 1);
	cr_assert_eq(bnb_addrmap_node(&m, 1280 * MiB), -1);
	cr_assert_eq(bnb_addrmap_node(&m, 1536 * MiB), 2);
	cr_assert_eq(bnb_addrmap_node(&m, 2560 * MiB - 1), 2);
	cr_assert_eq(bnb_addrmap_node(&m, 2560 * MiB), -1);
	cr_assert_eq(bnb_addrmap_node(&m, UINT64_MAX), -1);
}

Test(plugin_addrmap, measured_pitfall_example)
{
	/* facts: 1G/1G, guest-physical 0x4080_0000 came back as 0x8080_0000 */
	const uint64_t gig[] = { 1024 * MiB, 1024 * MiB };

	bnb_addrmap_build(&m, BNB_MAP_QEMU72, 2, gig, ALL_LOW);
	cr_assert_eq(bnb_addrmap_node(&m, 0x80800000ULL), 1);
	bnb_addrmap_build(&m, BNB_MAP_LINEAR, 2, gig, ALL_LOW);
	cr_assert_eq(bnb_addrmap_node(&m, 0x80800000ULL), -1,
		     "the linear map must not claim 7.2's offsets");
	cr_assert_eq(bnb_addrmap_node(&m, 0x40800000ULL), 1);
}

Test(plugin_addrmap, linear_back_to_back)
{
	bnb_addrmap_build(&m, BNB_MAP_LINEAR, 3, sizes, ALL_LOW);
	cr_assert_eq(bnb_addrmap_node(&m, 512 * MiB - 1), 0);
	cr_assert_eq(bnb_addrmap_node(&m, 512 * MiB), 1);
	cr_assert_eq(bnb_addrmap_node(&m, 768 * MiB - 1), 1);
	cr_assert_eq(bnb_addrmap_node(&m, 768 * MiB), 2);
	cr_assert_eq(bnb_addrmap_node(&m, 1792 * MiB - 1), 2);
	cr_assert_eq(bnb_addrmap_node(&m, 1792 * MiB), -1);
}

Test(plugin_addrmap, every_byte_of_64_nodes)
{
	uint64_t s[BNB_SHM_MAX_NODES];

	for (int i = 0; i < BNB_SHM_MAX_NODES; i++)
		s[i] = (2 + i % 3) * MiB;
	bnb_addrmap_build(&m, BNB_MAP_QEMU72, BNB_SHM_MAX_NODES, s, ALL_LOW);
	cr_assert_eq(m.n, BNB_SHM_MAX_NODES);
	for (int i = 0; i < BNB_SHM_MAX_NODES; i++) {
		cr_assert_eq(bnb_addrmap_node(&m, m.start[i]), i);
		cr_assert_eq(bnb_addrmap_node(&m, m.start[i] + s[i] - 1), i);
		cr_assert_eq(bnb_addrmap_node(&m, m.start[i] + s[i]), -1);
	}
}

/* hw/i386/pc_q35.c: all RAM below 4 GiB up to 2.75 GiB, else 2 GiB of it */
Test(plugin_addrmap, q35_split)
{
	cr_assert_eq(bnb_q35_below_4g(256 * MiB), 256 * MiB);
	cr_assert_eq(bnb_q35_below_4g(2 * GiB), 2 * GiB);
	cr_assert_eq(bnb_q35_below_4g(0xb0000000ULL - MiB), 0xb0000000ULL - MiB);
	cr_assert_eq(bnb_q35_below_4g(0xb0000000ULL), 2 * GiB);
	cr_assert_eq(bnb_q35_below_4g(4 * GiB), 2 * GiB);
	cr_assert_eq(bnb_q35_below_4g(16 * GiB), 2 * GiB);
}

/* The guest: --nodes 4 --mem 1G, nodes 2 and 3 above the hole. */
Test(plugin_addrmap, four_by_1g_above_the_hole)
{
	const uint64_t s[] = { GiB, GiB, GiB, GiB };

	bnb_addrmap_build(&m, BNB_MAP_LINEAR, 4, s, bnb_q35_below_4g(4 * GiB));
	cr_assert_eq(bnb_addrmap_node(&m, 0), 0);
	cr_assert_eq(bnb_addrmap_node(&m, GiB - 1), 0);
	cr_assert_eq(bnb_addrmap_node(&m, GiB), 1);
	cr_assert_eq(bnb_addrmap_node(&m, 2 * GiB - 1), 1);
	for (uint64_t a = 2 * GiB; a < 4 * GiB; a += 256 * MiB)
		cr_assert_eq(bnb_addrmap_node(&m, a), -1, "%#llx is the hole",
			     (unsigned long long)a);
	cr_assert_eq(bnb_addrmap_node(&m, 4 * GiB), 2, "node 2 starts at 4 GiB");
	cr_assert_eq(bnb_addrmap_node(&m, 5 * GiB - 1), 2);
	cr_assert_eq(bnb_addrmap_node(&m, 5 * GiB), 3);
	cr_assert_eq(bnb_addrmap_node(&m, 6 * GiB - 1), 3);
	cr_assert_eq(bnb_addrmap_node(&m, 6 * GiB), -1);
}

/* 2 x 8 GiB: node 0 on both sides of the hole, node 1 all above it. */
Test(plugin_addrmap, node_split_by_the_hole)
{
	const uint64_t s[] = { 8 * GiB, 8 * GiB };

	bnb_addrmap_build(&m, BNB_MAP_LINEAR, 2, s, bnb_q35_below_4g(16 * GiB));
	cr_assert_eq(m.n, 3, "node 0 twice, node 1 once");
	cr_assert_eq(bnb_addrmap_node(&m, 2 * GiB - 1), 0);
	cr_assert_eq(bnb_addrmap_node(&m, 2 * GiB), -1);
	cr_assert_eq(bnb_addrmap_node(&m, 4 * GiB - 1), -1);
	cr_assert_eq(bnb_addrmap_node(&m, 4 * GiB), 0);
	cr_assert_eq(bnb_addrmap_node(&m, 10 * GiB - 1), 0, "6 GiB of node 0 above the hole");
	cr_assert_eq(bnb_addrmap_node(&m, 10 * GiB), 1);
	cr_assert_eq(bnb_addrmap_node(&m, 18 * GiB - 1), 1);
	cr_assert_eq(bnb_addrmap_node(&m, 18 * GiB), -1);
}

/* A split on a node boundary gives no empty range. */
Test(plugin_addrmap, split_on_a_node_boundary)
{
	const uint64_t s[] = { 2 * GiB, GiB };

	bnb_addrmap_build(&m, BNB_MAP_LINEAR, 2, s, bnb_q35_below_4g(3 * GiB));
	cr_assert_eq(m.n, 2);
	cr_assert_eq(bnb_addrmap_node(&m, 2 * GiB - 1), 0);
	cr_assert_eq(bnb_addrmap_node(&m, 2 * GiB), -1);
	cr_assert_eq(bnb_addrmap_node(&m, 4 * GiB), 1);
	cr_assert_eq(bnb_addrmap_node(&m, 5 * GiB - 1), 1);
	cr_assert_eq(bnb_addrmap_node(&m, 5 * GiB), -1);
}

/* 7.2's offsets do not see the hole: RAM offsets, whichever alias was used. */
Test(plugin_addrmap, qemu72_ignores_the_hole)
{
	const uint64_t s[] = { GiB, GiB, GiB, GiB };

	bnb_addrmap_build(&m, BNB_MAP_QEMU72, 4, s, bnb_q35_below_4g(4 * GiB));
	cr_assert_eq(bnb_addrmap_node(&m, 4 * GiB), 2);
	cr_assert_eq(bnb_addrmap_node(&m, 6 * GiB), 3);
	cr_assert_eq(bnb_addrmap_node(&m, 7 * GiB - 1), 3);
}
