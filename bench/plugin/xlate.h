/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xlate.h - a vCPU's recent user-page translations, kept by the plugin.
 *
 * Every memory callback needs the access's guest-physical address and
 * its node; asking QEMU (qemu_plugin_get_hwaddr() and the hwaddr calls,
 * then the address map) costs more than the cache model's lookup.  So a
 * vCPU remembers, for user pages it touched since it last touched kernel
 * memory, the physical page and node QEMU gave, in a small direct-mapped
 * table.
 *
 * Why that is safe: a user mapping changes under a vCPU only through
 * that vCPU's kernel.  Its own kernel writes the page table entry and
 * flushes its TLB; another vCPU's change reaches it as a shootdown
 * interrupt, since Linux clears a present entry and flushes every CPU
 * running the mm before it maps another page there.  Either way the vCPU
 * touches kernel memory before its next user access sees the new page,
 * and bnb_xlate_forget() (a generation step: no clearing) drops the
 * whole table on that kernel access.  Only RAM pages go in: I/O and
 * unmapped addresses always ask QEMU.  (Boot code that runs at low
 * addresses, with paging off or identity-mapped, sees v = p until the
 * kernel moves to its own half.)
 */
#ifndef BNB_PLUGIN_XLATE_H
#define BNB_PLUGIN_XLATE_H

#include <stdbool.h>
#include <stdint.h>

#define BNB_XLATE_BITS		6	/* 64 pages: more than a loop streams */
#define BNB_XLATE_PAGE_SHIFT	12	/* x86's smallest page */

struct bnb_xlate_entry {
	uint64_t vpage;
	uint64_t ppage;
	uint32_t gen;
	int32_t node;
};

struct bnb_xlate {
	struct bnb_xlate_entry e[1 << BNB_XLATE_BITS];
	uint32_t gen;		/* entries of another generation are empty */
};

static inline void bnb_xlate_init(struct bnb_xlate *x)
{
	*x = (struct bnb_xlate){ .gen = 1 };
}

/* multiplicative hash: arrays a power-of-two size apart still spread */
static inline struct bnb_xlate_entry *bnb_xlate_slot(struct bnb_xlate *x, uint64_t vpage)
{
	return &x->e[(vpage * 0x9e3779b97f4a7c15ULL) >> (64 - BNB_XLATE_BITS)];
}

/* The physical address of vaddr and its node, if the table has its page. */
static inline bool bnb_xlate_find(struct bnb_xlate *x, uint64_t vaddr,
				  uint64_t *paddr, int *node)
{
	uint64_t vpage = vaddr >> BNB_XLATE_PAGE_SHIFT;
	const struct bnb_xlate_entry *e = bnb_xlate_slot(x, vpage);

	if (e->gen != x->gen || e->vpage != vpage)
		return false;
	*paddr = e->ppage << BNB_XLATE_PAGE_SHIFT |
		 (vaddr & ((1ULL << BNB_XLATE_PAGE_SHIFT) - 1));
	*node = e->node;
	return true;
}

static inline void bnb_xlate_add(struct bnb_xlate *x, uint64_t vaddr,
				 uint64_t paddr, int node)
{
	uint64_t vpage = vaddr >> BNB_XLATE_PAGE_SHIFT;

	*bnb_xlate_slot(x, vpage) = (struct bnb_xlate_entry){
		.vpage = vpage,
		.ppage = paddr >> BNB_XLATE_PAGE_SHIFT,
		.gen = x->gen,
		.node = node,
	};
}

/* Drop every entry.  A wrapped generation could revive old entries: clear. */
static inline void bnb_xlate_forget(struct bnb_xlate *x)
{
	if (__builtin_expect(++x->gen == 0, 0))
		bnb_xlate_init(x);
}

#endif /* BNB_PLUGIN_XLATE_H */
