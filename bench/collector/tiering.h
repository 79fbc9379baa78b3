/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory tiering: promotion to the fast tier (NUMA balancing mode 2 on a
 * kernel with memory tiers) and demotion to the slow one (reclaim), from
 * the guest's pgpromote_* and pgdemote_* counters.  A kernel without a
 * counter (6.1 has no pgdemote_khugepaged) leaves it absent, never 0.
 */
#ifndef BNB_COLLECTOR_TIERING_H
#define BNB_COLLECTOR_TIERING_H

#include <stdbool.h>

enum tier_counter {
	TIER_PROMOTED, TIER_CANDIDATES, TIER_DEMOTED_KSWAPD, TIER_DEMOTED_DIRECT,
	TIER_DEMOTED_KHUGEPAGED, N_TIER_COUNTERS
};

/* The /proc/vmstat names, in enum order; all count base pages. */
extern const char *const tiering_counters[N_TIER_COUNTERS];

/* The kernel's rate limit counts MB/s of 2^20 bytes; so do these rates. */
#define TIERING_MB		(1024.0 * 1024.0)

struct tiering {
	int col[N_TIER_COUNTERS];	/* series column, -1: none */
	/* this sample */
	bool promote_known, demote_known;	/* the counters are present */
	double promote_mbps, demote_mbps;	/* over the interval; 0 without one */
	/* since the first sample */
	bool promote_ever, demote_ever;
	unsigned long long demoted;	/* every present pgdemote_* summed */
	double promote_mbps_max;
	/* over the workload's work (the plugin's WORK .. WORK_END markers) */
	double work_s;
	unsigned long long work_promoted, work_demoted;
};

struct series;

/* Find the counters' columns, once they are fixed. */
void tiering_columns(struct series *s);

/* Account one sample, after its counters; IN_WORK: its interval was the workload's. */
void tiering_update(struct series *s, bool in_work);

#endif /* BNB_COLLECTOR_TIERING_H */
