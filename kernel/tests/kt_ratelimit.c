// SPDX-License-Identifier: GPL-2.0
/*
 * kt-ratelimit: kernel.numa_balancing_migrate_ratelimit_mb.
 *
 * 64 MB touched on node 0 and read from node 1 under the migrate-on-
 * reference policy would all migrate; with a 1 MB budget per 100 ms
 * window, no more than the budget moves per window and the refused pages
 * show up in numa_migrate_ratelimited.
 */
#include "kt_numa.h"

#include <stdio.h>

#define BYTES		(64UL << 20)
#define LIMIT_MB	1
#define INTERVAL_MS	100
#define RUN_SECS	4.0

int main(void)
{
	struct kt_remote_run run;
	long budget, windows, migrated;

	kt_require_nodes(2);
	kt_fast_scan();
	kt_sysctl_set("numa_balancing_migrate_policy", 1);
	kt_sysctl_set("numa_balancing_migrate_interval_ms", INTERVAL_MS);
	kt_sysctl_set("numa_balancing_migrate_ratelimit_mb", LIMIT_MB);

	/* 101%: never reached, so the reads go on for RUN_SECS */
	kt_remote_reads(BYTES, 101, RUN_SECS, &run);
	migrated = run.counters[KT_PAGES_MIGRATED];
	/* A run of s seconds meets at most s / interval + 1 windows */
	windows = (long)(run.secs * 1000 / INTERVAL_MS) + 2;
	budget = windows * (LIMIT_MB << 20) / 4096;
	kt_diag("%.1f s: %ld pages migrated (budget %ld), %ld refused, %ld scans skipped, %ld/%ld on node 1",
		run.secs, migrated, budget,
		run.counters[KT_MIGRATE_RATELIMITED],
		run.counters[KT_PTE_SCAN_RATELIMITED],
		run.on_target, run.pages);

	kt_ok(migrated > 0, "pages still migrate under the limit (%ld)",
	      migrated);
	kt_ok(migrated <= budget,
	      "no more than %d MB per %d ms window migrates (%ld <= %ld pages)",
	      LIMIT_MB, INTERVAL_MS, migrated, budget);
	kt_ok(run.counters[KT_MIGRATE_RATELIMITED] > 0,
	      "numa_migrate_ratelimited grows (%ld)",
	      run.counters[KT_MIGRATE_RATELIMITED]);
	kt_ok(run.on_target < run.pages,
	      "the limit keeps most of the 64 MB on node 0 (%ld/%ld moved)",
	      run.on_target, run.pages);
	return kt_done();
}
