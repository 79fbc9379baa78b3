/* SPDX-License-Identifier: GPL-2.0 */
/* Scan settings and workloads shared by the kt-* placement tests. */
#ifndef KT_NUMA_H
#define KT_NUMA_H

#include <stddef.h>

#include "kt.h"

/* Scan every 100 ms (the floor of task_scan_min() at 256 MB per scan) */
void kt_fast_scan(void);

struct kt_remote_run {
	long counters[KT_NR_COUNTERS];	/* deltas over the run */
	long pages;			/* pages in the buffer */
	long on_target;			/* of which on node 1 at the end */
	double secs;
};

/*
 * First-touch @bytes on node 0, then read them from node 1 until at least
 * @want_pct percent are on node 1 or @timeout seconds passed.
 */
void kt_remote_reads(size_t bytes, int want_pct, double timeout,
		     struct kt_remote_run *run);
/* The same on transparent huge pages. */
void kt_remote_reads_thp(size_t bytes, int want_pct, double timeout,
			 struct kt_remote_run *run);

#endif
