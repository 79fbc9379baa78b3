/* SPDX-License-Identifier: GPL-2.0 */
/*
 * addrmap.h - which memory node owns the address QEMU reports for an access.
 *
 * bnb-vm declares one memdev per node, in node order, so the machine's RAM
 * is node 0's S_0 bytes, then node 1's, ...: node i holds RAM offsets
 * [B_i, B_i + S_i), B_i = S_0 + ... + S_{i-1}.
 *
 * QEMU 10 reports the guest-physical address (map=linear).  The PC
 * machines map RAM offsets below their below-4G size 1:1 and the rest at
 * 4 GiB, above the hole for PCI, the IO-APIC and the firmware
 * (hw/i386/pc.c, pc_memory_init: aliases ram-below-4g and ram-above-4g),
 * so a node may own two ranges, one on each side of the hole.
 *
 * QEMU 7.2's qemu_plugin_hwaddr_phys_addr() returns, for RAM, the RAM
 * block's allocation offset plus the offset inside it plus the memdev's
 * place in the machine's RAM, which puts node i at [2*B_i, 2*B_i + S_i)
 * whichever side of the hole the access went to (map=qemu72).
 *
 * The guest-side map check proves at every run which one holds.
 */
#ifndef BNB_PLUGIN_ADDRMAP_H
#define BNB_PLUGIN_ADDRMAP_H

#include <stdint.h>

#include "args.h"

#define BNB_ADDRMAP_4G		(1ULL << 32)
/* Where the PC machines put RAM beyond the below-4G size. */
#define BNB_ADDRMAP_HIGH_BASE	BNB_ADDRMAP_4G
/* Each node once, and one of them twice: the one the hole splits. */
#define BNB_ADDRMAP_MAX		(BNB_SHM_MAX_NODES + 1)

struct bnb_addrmap {
	unsigned int n;				/* ranges, in address order */
	uint64_t start[BNB_ADDRMAP_MAX];
	uint64_t len[BNB_ADDRMAP_MAX];
	int node[BNB_ADDRMAP_MAX];
};

/*
 * How much of ram_bytes QEMU's q35 machine maps below 4 GiB, as
 * hw/i386/pc_q35.c decides without max-ram-below-4g: all of it up to
 * 2.75 GiB (leaving room for the PCI hole and MMCONFIG), else 2 GiB, so
 * that 1 GiB-aligned guest addresses stay 1 GiB-aligned in the RAM.
 */
uint64_t bnb_q35_below_4g(uint64_t ram_bytes);

/*
 * Lay out n_nodes nodes of sizes[] for mode.  below_4g: the RAM mapped
 * below 4 GiB (linear map only; the rest lies at BNB_ADDRMAP_HIGH_BASE).
 */
void bnb_addrmap_build(struct bnb_addrmap *m, enum bnb_map_mode mode,
		       unsigned int n_nodes, const uint64_t *sizes, uint64_t below_4g);

/* The layout on bnb-vm's q35 machine: bnb_q35_below_4g() of all the RAM. */
void bnb_addrmap_build_q35(struct bnb_addrmap *m, enum bnb_map_mode mode,
			   unsigned int n_nodes, const uint64_t *sizes);

/* The index of the range holding addr, or -1. */
static inline int bnb_addrmap_range(const struct bnb_addrmap *m, uint64_t addr)
{
	for (unsigned int i = 0; i < m->n; i++)
		if (addr - m->start[i] < m->len[i])	/* wraps when addr < start */
			return i;
	return -1;
}

/* The node owning addr, or -1 for an address outside every node. */
static inline int bnb_addrmap_node(const struct bnb_addrmap *m, uint64_t addr)
{
	for (unsigned int i = 0; i < m->n; i++)
		if (addr - m->start[i] < m->len[i])	/* wraps when addr < start */
			return m->node[i];
	return -1;
}

#endif /* BNB_PLUGIN_ADDRMAP_H */
