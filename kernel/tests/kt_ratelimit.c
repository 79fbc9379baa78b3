// SPDX-License-Identifier: GPL-2.0
/*
 * kt-ratelimit: kernel.numa_balancing_migrate_ratelimit_mb.
 *
 * 64 MB touched on node 0 and read from node 1 under the migrate-on-
 * reference policy would all migrate; with a 1 MB budget per 100 ms
 * window, no more than the budget moves per window and the refused pages
 * show up in numa_migrate_ratelimited.
 *
 * Then the same with transparent huge pages: a THP charges 512 pages. A
 * 1 MB budget is 256 pages, so only the first migration of a window (the
 * series lets that one through) can move a THP: at most one THP per
 * window, and every refused THP adds 512 to numa_migrate_ratelimited. Small
 * pages (the test's own stack and heap, other processes) are refused one
 * at a time in the same counter, so it is 512 per refused THP plus those:
 * at least 512, not a multiple of 512.
 */
#include "kt_numa.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#define THP_BYTES	(32UL << 20)
#define THP_SIZE	(2UL << 20)

#define BYTES		(64UL << 20)
#define LIMIT_MB	1
#define INTERVAL_MS	100
#define RUN_SECS	4.0
/*
 * Small scans: a scan that marks all 64 MB takes so long under TCG that
 * task_numa_work() holds the next one back (32 times its cost) past the
 * second after a window in which scanning on the limited node is off.
 */
#define SCAN_MB		4

/*
 * A THP-backed buffer touched on node 0, read from node 1 for RUN_SECS;
 * counter deltas in @d, THPs migrated in *@thps.
 */
static double thp_remote_reads(long d[KT_NR_COUNTERS], long *thps)
{
	long before[KT_NR_COUNTERS], thp0;
	char *raw = kt_alloc(THP_BYTES + THP_SIZE, true);
	char *buf = (char *)(((uintptr_t)raw + THP_SIZE - 1) & ~(THP_SIZE - 1));
	double start;
	int i;

	kt_run_on_node(0);
	kt_touch(buf, THP_BYTES);
	kt_run_on_node(1);
	kt_counters(before);
	thp0 = kt_vmstat("thp_migration_success");
	start = kt_now();
	while (kt_now() - start < RUN_SECS)
		kt_read_pages(buf, THP_BYTES);
	start = kt_now() - start;
	*thps = kt_vmstat("thp_migration_success") - thp0;
	kt_counters(d);
	for (i = 0; i < KT_NR_COUNTERS; i++)
		d[i] -= before[i];
	munmap(raw, THP_BYTES + THP_SIZE);
	return start;
}

static void thp_case(void)
{
	long d[KT_NR_COUNTERS], thps, windows;
	double secs = thp_remote_reads(d, &thps);

	windows = (long)(secs * 1000 / INTERVAL_MS) + 2;
	kt_diag("THP: %.1f s: %ld THPs and %ld pages migrated, %ld pages refused, %ld windows",
		secs, thps, d[KT_PAGES_MIGRATED], d[KT_MIGRATE_RATELIMITED], windows);
	kt_ok(thps > 0, "a THP still migrates under a budget below 2 MB (%ld)", thps);
	kt_ok(thps <= windows, "at most one THP per %d ms window (%ld THPs, %ld windows)",
	      INTERVAL_MS, thps, windows);
	kt_ok(d[KT_MIGRATE_RATELIMITED] >= 512,
	      "a refused THP counts 512 pages in numa_migrate_ratelimited (%ld)",
	      d[KT_MIGRATE_RATELIMITED]);
}

int main(void)
{
	struct kt_remote_run run;
	long budget, windows, migrated;
	long window_pages = (LIMIT_MB << 20) / 4096;

	kt_require_nodes(2);
	kt_fast_scan();
	kt_sysctl_set("numa_balancing_scan_size_mb", SCAN_MB);
	kt_sysctl_set("numa_balancing_migrate_policy", 1);
	kt_sysctl_set("numa_balancing_migrate_interval_ms", INTERVAL_MS);
	kt_sysctl_set("numa_balancing_migrate_ratelimit_mb", LIMIT_MB);

	/* 101%: never reached, so the reads go on for RUN_SECS */
	kt_remote_reads(BYTES, 101, RUN_SECS, &run);
	migrated = run.counters[KT_PAGES_MIGRATED];
	/* A run of s seconds meets at most s / interval + 1 windows */
	windows = (long)(run.secs * 1000 / INTERVAL_MS) + 2;
	budget = windows * window_pages;
	kt_diag("%.1f s: %ld pages migrated (budget %ld), %ld refused, %ld scans skipped, %ld/%ld on node 1",
		run.secs, migrated, budget,
		run.counters[KT_MIGRATE_RATELIMITED],
		run.counters[KT_PTE_SCAN_RATELIMITED],
		run.on_target, run.pages);

	/* A window that never reopened would let one budget through, ever */
	kt_ok(migrated > window_pages,
	      "windows reopen: more than one window's budget migrates (%ld > %ld)",
	      migrated, window_pages);
	kt_ok(migrated <= budget,
	      "no more than %d MB per %d ms window migrates (%ld <= %ld pages)",
	      LIMIT_MB, INTERVAL_MS, migrated, budget);
	kt_ok(run.counters[KT_MIGRATE_RATELIMITED] > 0,
	      "numa_migrate_ratelimited grows (%ld)",
	      run.counters[KT_MIGRATE_RATELIMITED]);
	kt_ok(run.counters[KT_PTE_SCAN_RATELIMITED] > 0,
	      "scans by a task on the limited node are skipped: numa_pte_scan_ratelimited grows (%ld)",
	      run.counters[KT_PTE_SCAN_RATELIMITED]);
	kt_ok(run.on_target < run.pages,
	      "the limit keeps most of the 64 MB on node 0 (%ld/%ld moved)",
	      run.on_target, run.pages);
	thp_case();
	return kt_done();
}
