/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page locality: where a sample of a workload's pages sits, asked of the
 * kernel with move_pages(2) (nodes == NULL only queries), compared with
 * the node of the CPU that uses each page.
 */
#ifndef WL_LOCALITY_H
#define WL_LOCALITY_H

#include <stddef.h>
#include <sys/types.h>

struct wl_sample {
	void **pages;		/* page addresses queried */
	int *status;		/* node of each page, or -errno */
	unsigned int *owner;	/* which worker uses each page */
	unsigned int n, cap;
	pid_t pid;		/* process whose pages these are, 0: ourselves */
};

int wl_sample_init(struct wl_sample *s, unsigned int cap, pid_t pid);
void wl_sample_free(struct wl_sample *s);

/*
 * Add up to @n pages spread evenly over [base, base + len); the region is
 * split in @owners equal parts used by workers first_owner, first_owner + 1...
 * Returns the number of pages added.
 */
unsigned int wl_sample_add(struct wl_sample *s, const void *base, size_t len,
			   unsigned int n, unsigned int first_owner, unsigned int owners);

/* Ask the kernel where every sampled page is now. */
int wl_sample_query(struct wl_sample *s);

/*
 * Fraction of the sampled pages present in memory that sit on the node of
 * their owner (owner_node[owner]; a negative entry counts as any node);
 * NaN when no sampled page is present.
 */
double wl_sample_locality(const struct wl_sample *s, const int *owner_node);

/* The same as counts, added to *local and *present, to combine samples. */
void wl_sample_count(const struct wl_sample *s, const int *owner_node,
		     unsigned int *local, unsigned int *present);

/* Sampled pages whose node differs between @before and now. */
unsigned int wl_sample_moved(const struct wl_sample *s, const int *before);

#endif
