// SPDX-License-Identifier: GPL-2.0
/* addrmap.c - lay out the node ranges for one of the address conventions. */
#include "addrmap.h"

void bnb_addrmap_build(struct bnb_addrmap *m, enum bnb_map_mode mode,
		       unsigned int n_nodes, const uint64_t *sizes)
{
	/* 7.2 RAM offsets advance twice as fast as the guest-physical base */
	uint64_t scale = mode == BNB_MAP_QEMU72 ? 2 : 1;
	uint64_t base = 0;

	m->n_nodes = n_nodes;
	for (unsigned int i = 0; i < n_nodes; i++) {
		m->start[i] = scale * base;
		m->len[i] = sizes[i];
		base += sizes[i];
	}
}
