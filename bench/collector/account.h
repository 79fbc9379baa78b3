/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The account of balancing in one run: what the balancer cost and what
 * it saved, both in hardware seconds, so that the two can be set side by
 * side as the seed's cost model meant them to be (commit 03c5a6e16322).
 *
 * The benefit is the memory stall that balancing removed: each interval's
 * misses against the run's remote share before balancing acted (the
 * counterfactual: without it the pages would have stayed where they
 * were), each miss made local priced at what the machine model charged
 * for a remote miss over a local one in this run (its own stalls by
 * memory node). The cost is the balancer's work: the kernel's own
 * instructions and stalls in its scan, fault and migration functions
 * (numa_work_hw_s, the plugin's symbol attribution), spread over the run
 * in the shape of the seed's cost, whose counters move with it.
 *
 * Pure computation on intervals (the collector's timeseries rows): no
 * files, so the unit tests hand it intervals whose account is known.
 */
#ifndef BNB_COLLECTOR_ACCOUNT_H
#define BNB_COLLECTOR_ACCOUNT_H

#include <stdbool.h>
#include <stdio.h>

/* One sample interval, as timeseries.csv gives it. */
struct acct_interval {
	double t_s;		/* its end, guest s since the first sample */
	double miss_local, miss_remote;		/* model-cache misses */
	double stall_local_ns, stall_remote_ns;	/* their stall, hardware ns */
	double cost_u;		/* the seed's cost of the interval */
	double pte_updates;	/* numa_pte_updates in it */
	double busy_sum_s;	/* the vCPUs' busy time, all of them, guest s */
	double busy_max_s;	/* the busiest one's */
};

struct acct_params {
	double d;		/* time factor: guest s per hardware s */
	double work_from_s;	/* the work's start and end, guest s (t_s scale) */
	double work_to_s;	/* NAN: to the last interval */
	double hw_s_per_u;	/* the cost's unit in hardware s */
	/*
	 * The plugin's misses from the WORK marker to the balancer's first
	 * work after it (bnb_plugin_shm.h, acct_*): NAN when it has none;
	 * acted: the balancer did work after the marker (else the window
	 * runs to the end, and the work's intervals say the same).
	 */
	double win_local, win_remote;
	bool acted;
};

/* Fewer misses than this in the window say too little of the placement. */
#define ACCT_MIN_WINDOW	200

/* Where the counterfactual remote share was taken. */
enum acct_r0_from {
	ACCT_R0_NONE,		/* no misses to take it from */
	ACCT_R0_WINDOW,		/* the plugin's window before the balancer acted */
	ACCT_R0_WORK,		/* the balancer never acted in the work: all of it */
	ACCT_R0_FIRST,		/* no window: the work's first interval, a lower bound */
};

extern const char *const acct_r0_names[];

struct account {
	double r0;			/* remote share of misses before balancing acted */
	enum acct_r0_from r0_from;
	double r0_misses;		/* misses it was taken over */
	double price_local_ns;		/* mean stall of a local miss, hardware ns */
	double price_remote_ns;		/* of a remote one: as balancing removed it */
	bool price_removed;		/* known so, not the work's mean */
	double benefit_s;		/* stall removed over the work, hardware s */
	double cost_s;			/* balancing's work within the work, hardware s */
	double cost_all_s;		/* over the whole run */
	double net_s;			/* benefit - cost */
	double vcpus;			/* vCPUs busy at once over the work (its
					 * busy time over the busiest vCPU's), NAN
					 * unknown: the workload's parallelism, over
					 * which a saving spreads */
	double first_scan_s;		/* guest s of the first PTE update, NAN none */
	double breakeven_s;		/* hardware s after the first scan when the
					 * cumulative benefit first exceeds the
					 * cumulative cost; NAN: never */
	bool priced;			/* both prices known: a benefit at all */
	char why[160];			/* why not priced */
};

/*
 * The account of N intervals under P into A; when OUT is not NULL, its
 * cumulative course as CSV rows (t_hw_s since the work's start,
 * cost_hw_s, benefit_hw_s). Returns 0, or -1 when there is no interval
 * of the work (A->why says so).
 */
int account_compute(const struct acct_interval *iv, int n, const struct acct_params *p,
		    struct account *a, FILE *out);

#endif /* BNB_COLLECTOR_ACCOUNT_H */
