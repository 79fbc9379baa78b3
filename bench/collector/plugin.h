/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ground truth from the TCG plugin: local and remote RAM accesses of all
 * vCPUs, read from the plugin's shared-memory file
 * (bench/include/bnb_plugin_shm.h) at each sample.  The file is mapped
 * read-only and its header is validated like any untrusted input.
 */
#ifndef BNB_COLLECTOR_PLUGIN_H
#define BNB_COLLECTOR_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bnb_plugin_shm.h"

struct plugin_state {
	const char *path;		/* NULL: no plugin */
	const void *map;
	size_t map_size;
	uint64_t generation;
	bool warned;			/* last problem already reported */

	/* Per sample, filled by series_update() */
	bool valid;			/* this sample has plugin data */
	bool have_prev;
	uint64_t raw_local, raw_remote;	/* counters as read */
	unsigned long long local, remote;	/* since the first sample */
	unsigned long long d_local, d_remote;
	bool locality_defined;
	double true_locality;		/* d_local / (d_local + d_remote) */
	uint64_t raw_misses, raw_excess10;
	/*
	 * The memory tiers: accesses to nodes with vCPUs (fast) and without
	 * (slow: CXL memory, which the guest kernel puts in a lower tier).
	 */
	bool tiered;			/* the guest has a node without vCPUs */
	uint64_t raw_fast, raw_slow;
	unsigned long long fast, slow;	/* since the first sample */
	unsigned long long d_fast, d_slow;
	unsigned long long work_fast, work_slow;	/* as work_local */
	bool tier_share_defined;
	double fast_tier_share;		/* d_fast / (d_fast + d_slow) */
	unsigned long long d_misses, d_excess10;
	/* per sample: plugin_totals' local and remote misses and their stall */
	bool model;
	uint64_t raw_miss_local, raw_miss_remote;
	double raw_stall_local_ns, raw_stall_remote_ns;
	unsigned long long d_miss_local, d_miss_remote;
	double d_stall_local_ns, d_stall_remote_ns;
	/*
	 * the vCPUs' busy time in the interval, all of them and the busiest
	 * one's, guest s: their ratio is how many ran at once
	 */
	unsigned int n_busy;
	uint64_t raw_busy_ps[BNB_SHM_MAX_VCPUS];
	double d_busy_sum_s, d_busy_max_s;
	bool work_seen;			/* a sample saw the workload's WORK marker */
	bool work_over;			/* and every started work's WORK_END marker */
	double t_work_end;		/* the end of the sample that saw them */
	double t_work;			/* when, estimated: s since the first sample */
	unsigned long long work_local, work_remote;	/* in the intervals after it */
	unsigned long long work_misses, work_excess10;
	double base_s;			/* length of the "before" window so far, guest s;
					 * until it is complete, work_* are its counts */
	bool baseline_set;
	double remote_share0;		/* remote share of the "before" window */
	double excess0;			/* its extra latency per miss, in local misses */
	double benefit_cum;		/* u, the cost model's unit */
	double acc_avoided_cum;		/* remote accesses avoided (hits included) */
};

/* What one read of the counters file gives. */
struct plugin_totals {
	uint64_t local, remote;		/* RAM accesses of all vCPUs */
	uint64_t fast, slow;		/* the same by the memory node's tier */
	bool tiered;			/* some node has no vCPUs: a slow tier */
	/*
	 * Accesses that went to memory: the model cache's misses, or every
	 * access when the plugin has no cache. A miss from node c to node m
	 * costs distance[c][m] / 10 local misses, so excess10 sums
	 * misses * (distance - 10): the extra latency, in tenths of a local miss.
	 */
	uint64_t misses, excess10;
	/*
	 * The model cache's misses to the vCPU's own node and to others, and
	 * the stall the machine model charged for them (hardware ns; 0
	 * without the model): what a local and a remote miss cost.
	 */
	uint64_t miss_local, miss_remote;
	double stall_local_ns, stall_remote_ns;
	bool model;			/* the machine model charged stalls */
	/* each vCPU's busy guest time (the time keeper's), ps; n_busy: 0 without it */
	unsigned int n_busy;
	uint64_t busy_ps[BNB_SHM_MAX_VCPUS];
	uint64_t work_marks;		/* workloads that marked their start */
	uint64_t work_ends;		/* and their end */
};

/*
 * The "before" window: the first second of the workload's measured work
 * (one 100 ms interval swings between 10 % and 80 % remote as the guest's
 * other activity comes and goes), and at least this many accesses.
 */
#define PLUGIN_BASELINE_S		1.0
#define PLUGIN_BASELINE_MIN_ACCESSES	10000

/*
 * Read the current totals.  Maps (or re-maps, when the plugin restarted)
 * the file on demand.  Returns false with a reason in err when there is
 * nothing valid to read right now.
 */
bool plugin_read(struct plugin_state *p, struct plugin_totals *t, char *err, size_t errlen);

/* Check a header of file_size bytes; 0, or -1 with the reason in err. */
int plugin_check_header(const void *map, size_t file_size, char *err, size_t errlen);

void plugin_close(struct plugin_state *p);

#endif /* BNB_COLLECTOR_PLUGIN_H */
