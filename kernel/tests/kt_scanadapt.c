// SPDX-License-Identifier: GPL-2.0
/*
 * kt-scanadapt: kernel.numa_balancing_scan_adapt=1.
 *
 * A task whose hinting faults are all local (nothing migrates) scans
 * 10 ms slower per fault, so its numa_scan_period in /proc/self/sched
 * grows; once it stops faulting, the period goes back to the minimum
 * after numa_balancing_scan_period_reset_ms. The fault statistics that
 * place tasks keep counting per scan, as with adapt=0.
 */
#include "kt_numa.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define BYTES		(8UL << 20)
#define MIN_MS		100
#define MAX_MS		3000
#define RESET_MS	4000
/* Up to 20 faults of 10 ms on the pages the test itself uses */
#define RESET_SLACK_MS	200
/* Scans over which numa_faults_locality must not keep growing */
#define LOCALITY_SCANS	10
#define LOCALITY_SECS	30.0

/* The value of @name in /proc/self/sched */
static long sched_field(const char *name)
{
	FILE *f = fopen("/proc/self/sched", "r");
	size_t len = strlen(name);
	char line[256];
	long val = -1;

	if (!f)
		kt_bail("cannot open /proc/self/sched");
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, name, len) && colon &&
		    (line[len] == ' ' || line[len] == ':')) {
			sscanf(colon + 1, "%ld", &val);
			break;
		}
	}
	fclose(f);
	if (val < 0)
		kt_bail("no %s in /proc/self/sched", name);
	return val;
}

static long scan_period(void)
{
	return sched_field("numa_scan_period");
}

/* Fault on local pages until the period reaches @target or @secs passed */
static long grow(void *buf, long target, double secs)
{
	double end = kt_now() + secs;
	long period = scan_period();

	while (period < target && kt_now() < end) {
		kt_read_pages(buf, BYTES);
		period = scan_period();
	}
	return period;
}

/* Run without touching @buf; the lowest period seen and when */
static long idle_min(double secs, double *when)
{
	double start = kt_now();
	long lowest = scan_period();

	*when = 0;
	while (lowest > MIN_MS + RESET_SLACK_MS && kt_now() - start < secs) {
		long period = scan_period();

		if (period < lowest) {
			lowest = period;
			*when = kt_now() - start;
		}
	}
	return lowest;
}

/*
 * task_numa_placement() weighs each scan's faults by the task's faults
 * since its last placement, numa_faults_locality. 6.1 clears those in
 * update_task_scan_period(), which adapt=1 replaces: unless the adaptation
 * clears them too, they count every fault of the task's life and the
 * NUMA_CPU statistics that place tasks and pages fade to nothing.
 */
static void check_locality(void *buf)
{
	long seq = sched_field("mm->numa_scan_seq");
	long faults = kt_vmstat("numa_hint_faults");
	double end = kt_now() + LOCALITY_SECS;
	long scans, locality;

	kt_sysctl_set("numa_balancing_scan_period_max_ms", MIN_MS * 2);
	while (sched_field("mm->numa_scan_seq") < seq + LOCALITY_SCANS &&
	       kt_now() < end)
		kt_read_pages(buf, BYTES);
	scans = sched_field("mm->numa_scan_seq") - seq;
	faults = kt_vmstat("numa_hint_faults") - faults;
	locality = sched_field("numa_faults_locality[0]") +
		   sched_field("numa_faults_locality[1]");
	kt_diag("%ld scans, %ld hint faults, numa_faults_locality %ld",
		scans, faults, locality);
	kt_ok(scans >= LOCALITY_SCANS / 2 && locality <= faults / 2,
	      "numa_faults_locality counts the faults since the last placement only (%ld of %ld faults in %ld scans)",
	      locality, faults, scans);
}

int main(void)
{
	long before[KT_NR_COUNTERS], after[KT_NR_COUNTERS];
	long first, grown, lowest;
	double when;
	void *buf;

	kt_require_nodes(1);
	kt_fast_scan();
	kt_sysctl_set("numa_balancing_scan_period_max_ms", MAX_MS);
	kt_sysctl_set("numa_balancing_scan_period_min_ms", MIN_MS);
	kt_sysctl_set("numa_balancing_scan_period_reset_ms", RESET_MS);
	kt_sysctl_set("numa_balancing_scan_adapt", 1);

	kt_run_on_node(0);
	kt_second_thread();
	buf = kt_alloc(BYTES, false);
	kt_touch(buf, BYTES);

	first = scan_period();
	kt_counters(before);
	grown = grow(buf, first + 1000, 20.0);
	kt_counters(after);
	kt_diag("scan period %ld ms -> %ld ms after %ld PTE updates, %ld hint faults (%ld local), %ld pages migrated",
		first, grown,
		after[KT_PTE_UPDATES] - before[KT_PTE_UPDATES],
		after[KT_HINT_FAULTS] - before[KT_HINT_FAULTS],
		after[KT_HINT_FAULTS_LOCAL] - before[KT_HINT_FAULTS_LOCAL],
		after[KT_PAGES_MIGRATED] - before[KT_PAGES_MIGRATED]);
	kt_ok(grown >= first + 1000,
	      "the scan period grows while faults do not migrate (%ld -> %ld ms)",
	      first, grown);

	lowest = idle_min((RESET_MS + MAX_MS) / 1000.0 + 5, &when);
	kt_diag("lowest period %ld ms, %.1f s after the faults stopped",
		lowest, when);
	/*
	 * The reset happens in the scan that then marks the stack and heap,
	 * and the few faults on them add 10 ms each before the next read.
	 */
	kt_ok(lowest <= MIN_MS + RESET_SLACK_MS,
	      "the scan period returns to the minimum after the reset period (%ld ms, min %d)",
	      lowest, MIN_MS);

	check_locality(buf);
	munmap(buf, BYTES);
	return kt_done();
}
