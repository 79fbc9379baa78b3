// SPDX-License-Identifier: GPL-2.0
/* Address-to-node decoding for QEMU 7.2's RAM offsets and for linear addresses. */
#include <criterion/criterion.h>

#include "../../bench/plugin/addrmap.h"

#define MiB (1ULL << 20)

static const uint64_t sizes[] = { 512 * MiB, 256 * MiB, 1024 * MiB };
static struct bnb_addrmap m;

Test(plugin_addrmap, qemu72_offsets)
{
	bnb_addrmap_build(&m, BNB_MAP_QEMU72, 3, sizes);
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

	bnb_addrmap_build(&m, BNB_MAP_QEMU72, 2, gig);
	cr_assert_eq(bnb_addrmap_node(&m, 0x80800000ULL), 1);
	bnb_addrmap_build(&m, BNB_MAP_LINEAR, 2, gig);
	cr_assert_eq(bnb_addrmap_node(&m, 0x80800000ULL), -1,
		     "the linear map must not claim 7.2's offsets");
	cr_assert_eq(bnb_addrmap_node(&m, 0x40800000ULL), 1);
}

Test(plugin_addrmap, linear_back_to_back)
{
	bnb_addrmap_build(&m, BNB_MAP_LINEAR, 3, sizes);
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
	bnb_addrmap_build(&m, BNB_MAP_QEMU72, BNB_SHM_MAX_NODES, s);
	for (int i = 0; i < BNB_SHM_MAX_NODES; i++) {
		cr_assert_eq(bnb_addrmap_node(&m, m.start[i]), i);
		cr_assert_eq(bnb_addrmap_node(&m, m.start[i] + s[i] - 1), i);
		cr_assert_eq(bnb_addrmap_node(&m, m.start[i] + s[i]), -1);
	}
}
