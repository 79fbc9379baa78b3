/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The balancing cost model of commit 03c5a6e16322 ("mm: numa: Add pte
 * updates, hinting and migration stats"), in units of u = one machine
 * word access, and the variant MMTests reports as "AutoNUMA cost".
 * bench/collector/FORMAT.md lists every parameter and how it was chosen.
 */
#ifndef BNB_COLLECTOR_COST_H
#define BNB_COLLECTOR_COST_H

#include <stdbool.h>

struct cost_params {
	double u;		/* sizeof(void *) of the guest, bytes */
	double page_size;	/* PAGE_SIZE of the guest, bytes */
	double struct_page;	/* sizeof(struct page) of the guest, bytes */
	double Ca;		/* struct page access = struct_page / u */
	double Cpte;		/* PTE access = Ca */
	double Wlock;		/* taking or releasing a lock */
	double Cupdate;		/* PTE update = 2*Cpte + 2*Wlock (reported only) */
	double Cnumahint;	/* one NUMA hinting (minor) fault */
	double Cpagerw;		/* read or write a page = Ca + PAGE_SIZE/u */
	double Wi;		/* locking cost of isolating a page */
	double Ci;		/* page isolation = Ca + Wi */
	double Wnuma;		/* NUMA factor: remote / local access cost */
	double Cpagecopy;	/* Cpagerw + Cpagerw*Wnuma + Ci + Ci*Wnuma */
	bool page_copy;		/* false in the MMTests variant */
};

/* The seed's defaults; Wnuma is the caller's (see topo.h). */
#define COST_U			8
#define COST_PAGE_SIZE		4096
#define COST_STRUCT_PAGE	64	/* 6.1 x86_64 */
#define COST_WLOCK		8	/* one cache line: 64 / u */
#define COST_WI			12	/* MMTests: 8 for the lock, 4 for the list */
#define COST_CNUMAHINT		1000
#define MMTESTS_STRUCT_PAGE	56
#define MMTESTS_CNUMAHINT	5000

struct cost_terms {
	double pte;		/* Cpte * numa_pte_updates */
	double hint;		/* Cnumahint * numa_hint_faults */
	double isolate;		/* Ci * numa_pages_migrated */
	double copy;		/* Cpagecopy * numa_pages_migrated */
	double total;
};

/* Derive every dependent parameter from the independent ones. */
void cost_params_derive(struct cost_params *p);

/* The seed's model with the given NUMA factor. */
void cost_params_seed(struct cost_params *p, double wnuma);

/* MMTests' "AutoNUMA cost": Ca = 56/8, Cnumahint = 5000, no page copy. */
void cost_params_mmtests(struct cost_params *p, double wnuma);

void cost_eval(const struct cost_params *p, unsigned long long pte_updates,
	       unsigned long long hint_faults, unsigned long long pages_migrated,
	       struct cost_terms *out);

#endif /* BNB_COLLECTOR_COST_H */
