// SPDX-License-Identifier: GPL-2.0
/* Scan settings and workloads shared by the kt-* placement tests. */
#include "kt_numa.h"

#include <sys/mman.h>

void kt_fast_scan(void)
{
	kt_sysctl_set("numa_balancing", 1);
	kt_sysctl_set("numa_balancing_scan_delay_ms", 100);
	kt_sysctl_set("numa_balancing_scan_period_min_ms", 100);
	kt_sysctl_set("numa_balancing_scan_period_max_ms", 400);
	kt_sysctl_set("numa_balancing_scan_size_mb", 256);
}

static void remote_reads(size_t bytes, int want_pct, double timeout, bool thp,
			 struct kt_remote_run *run)
{
	long before[KT_NR_COUNTERS];
	void *buf = kt_alloc(bytes, thp);
	long want;
	double start, next_check;
	int i;

	run->pages = bytes / 4096;
	want = run->pages * want_pct / 100;

	kt_run_on_node(0);
	kt_touch(buf, bytes);
	kt_run_on_node(1);

	kt_counters(before);
	start = kt_now();
	next_check = start;
	for (;;) {
		double now;

		kt_read_pages(buf, bytes);
		now = kt_now();
		if (now < next_check)
			continue;
		run->on_target = kt_pages_on_node(buf, bytes, 1);
		if (run->on_target >= want || now - start > timeout)
			break;
		next_check = now + 0.2;
	}
	run->secs = kt_now() - start;
	kt_counters(run->counters);
	for (i = 0; i < KT_NR_COUNTERS; i++)
		run->counters[i] -= before[i];
	munmap(buf, bytes);
}

void kt_remote_reads(size_t bytes, int want_pct, double timeout,
		     struct kt_remote_run *run)
{
	remote_reads(bytes, want_pct, timeout, false, run);
}

void kt_remote_reads_thp(size_t bytes, int want_pct, double timeout,
			 struct kt_remote_run *run)
{
	remote_reads(bytes, want_pct, timeout, true, run);
}
