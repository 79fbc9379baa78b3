/* SPDX-License-Identifier: GPL-2.0 */
/*
 * addrmap.h - which memory node owns the address QEMU reports for an access.
 *
 * QEMU 7.2's qemu_plugin_hwaddr_phys_addr() returns, for RAM, the RAM
 * block's allocation offset plus the offset inside it, which for the node
 * memdevs declared first in node order puts node i (base B_i = sum of the
 * earlier sizes, size S_i) at [2*B_i, 2*B_i + S_i).  Newer QEMU returns the
 * guest-physical address, [B_i, B_i + S_i).  The guest-side map check
 * proves at every run which one holds.
 */
#ifndef BNB_PLUGIN_ADDRMAP_H
#define BNB_PLUGIN_ADDRMAP_H

#include <stdint.h>

#include "args.h"

struct bnb_addrmap {
	unsigned int n_nodes;
	uint64_t start[BNB_SHM_MAX_NODES];
	uint64_t len[BNB_SHM_MAX_NODES];
};

void bnb_addrmap_build(struct bnb_addrmap *m, enum bnb_map_mode mode,
		       unsigned int n_nodes, const uint64_t *sizes);

/* The node owning addr, or -1 for an address outside every node. */
static inline int bnb_addrmap_node(const struct bnb_addrmap *m, uint64_t addr)
{
	for (unsigned int i = 0; i < m->n_nodes; i++)
		if (addr - m->start[i] < m->len[i])	/* wraps when addr < start */
			return i;
	return -1;
}

#endif /* BNB_PLUGIN_ADDRMAP_H */
