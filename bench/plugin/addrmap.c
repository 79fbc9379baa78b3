// SPDX-License-Identifier: GPL-2.0
/* addrmap.c - lay out the node ranges for one of the address conventions. */
#include "addrmap.h"

/* pc_q35.c: RAM from 0xb0000000 on no longer fits below the hole */
#define Q35_ALL_LOW_BELOW	0xb0000000ULL
#define Q35_SPLIT		0x80000000ULL

uint64_t bnb_q35_below_4g(uint64_t ram_bytes)
{
	return ram_bytes >= Q35_ALL_LOW_BELOW ? Q35_SPLIT : ram_bytes;
}

static void add_range(struct bnb_addrmap *m, int node, uint64_t start, uint64_t len)
{
	if (!len)
		return;
	m->start[m->n] = start;
	m->len[m->n] = len;
	m->node[m->n] = node;
	m->n++;
}

/* RAM offsets [off, off + len) of node: below the split 1:1, above it at 4 GiB. */
static void add_linear(struct bnb_addrmap *m, int node, uint64_t off, uint64_t len,
		       uint64_t below_4g)
{
	uint64_t low = off < below_4g ? below_4g - off : 0;

	if (low > len)
		low = len;
	add_range(m, node, off, low);
	add_range(m, node, BNB_ADDRMAP_HIGH_BASE + off + low - below_4g, len - low);
}

void bnb_addrmap_build(struct bnb_addrmap *m, enum bnb_map_mode mode,
		       unsigned int n_nodes, const uint64_t *sizes, uint64_t below_4g)
{
	uint64_t base = 0;

	m->n = 0;
	for (unsigned int i = 0; i < n_nodes; i++) {
		/* 7.2 RAM offsets advance twice as fast as the RAM, hole or not */
		if (mode == BNB_MAP_QEMU72)
			add_range(m, i, 2 * base, sizes[i]);
		else
			add_linear(m, i, base, sizes[i], below_4g);
		base += sizes[i];
	}
}

void bnb_addrmap_build_q35(struct bnb_addrmap *m, enum bnb_map_mode mode,
			   unsigned int n_nodes, const uint64_t *sizes)
{
	uint64_t ram = 0;

	for (unsigned int i = 0; i < n_nodes; i++)
		ram += sizes[i];
	bnb_addrmap_build(m, mode, n_nodes, sizes, bnb_q35_below_4g(ram));
}
