// SPDX-License-Identifier: GPL-2.0
/*
 * kt-scanadapt: kernel.numa_balancing_scan_adapt=1.
 *
 * A task whose hinting faults are all local (nothing migrates) scans ten
 * jiffies slower per fault, so its numa_scan_period in /proc/self/sched
 * grows in steps of 40 ms (HZ=250, kernel/config/guest.config) up to the
 * maximum period and no further; faults that migrate do not slow it. Once
 * it stops faulting, the period goes back to the minimum
 * after numa_balancing_scan_period_reset_ms. The fault statistics that
 * place tasks keep counting per scan, as with adapt=0.
 */
#include "kt_numa.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define BYTES		(8UL << 20)
#define PAGES		((long)(BYTES / 4096))
/* jiffies_to_msecs(10) at the guest's CONFIG_HZ=250 */
#define STEP_MS		40
#define MIN_MS		100
/* Not on either lattice MIN_MS + k * 10 or + k * 40: only a clamp hits it */
#define MAX_MS		3005
#define RESET_MS	4000
/* Up to 20 faults on the pages the test itself uses */
#define RESET_SLACK_MS	(20 * STEP_MS)
/* Period increases to see, one page read between samples */
#define STEP_SAMPLES	16
#define STEP_SECS	30.0
#define MIGRATE_SECS	60.0
/* Scans over which numa_faults_locality must not keep growing */
#define LOCALITY_SCANS	10
#define LOCALITY_SECS	30.0

static long scan_period(void)
{
	return kt_sched_field("numa_scan_period");
}

static long gcd(long a, long b)
{
	while (b) {
		long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * Read one page at a time and look at the period after each: most
 * increases then come from a single fault. Their greatest common divisor
 * is the step.
 */
static void check_step(void *buf)
{
	long prev = scan_period(), step = 0, seen = 0, page = 0;
	double end = kt_now() + STEP_SECS;

	while (seen < STEP_SAMPLES && kt_now() < end) {
		long period;

		kt_read_pages((char *)buf + page * 4096, 4096);
		page = (page + 1) % PAGES;
		period = scan_period();
		if (period > prev && period < MAX_MS && prev < MAX_MS) {
			step = gcd(period - prev, step);
			seen++;
		}
		prev = period;
	}
	kt_diag("%ld period increases, greatest common divisor %ld ms",
		seen, step);
	kt_ok(seen >= STEP_SAMPLES / 2 && step == STEP_MS,
	      "a fault that does not migrate adds ten jiffies, %d ms (%ld ms over %ld increases)",
	      STEP_MS, step, seen);
}

/*
 * A fresh single-threaded child on node 1 reads pages it touched on node 0
 * under policy 1: nearly every fault migrates. Its period may grow by the
 * faults that did not migrate only.
 */
struct migrate_run {
	long before, after, faults, migrated, on_target;
};

static void migrating_child(int fd)
{
	long c0[KT_NR_COUNTERS], c1[KT_NR_COUNTERS];
	struct migrate_run r;
	void *buf = kt_alloc(BYTES, false);
	double end = kt_now() + MIGRATE_SECS;

	kt_run_on_node(0);
	kt_touch(buf, BYTES);
	kt_run_on_node(1);
	r.before = scan_period();
	kt_counters(c0);
	do {
		kt_read_pages(buf, BYTES);
		r.on_target = kt_pages_on_node(buf, BYTES, 1);
	} while (r.on_target < PAGES * 95 / 100 && kt_now() < end);
	kt_counters(c1);
	r.after = scan_period();
	r.faults = c1[KT_HINT_FAULTS] - c0[KT_HINT_FAULTS];
	r.migrated = c1[KT_PAGES_MIGRATED] - c0[KT_PAGES_MIGRATED];
	_exit(write(fd, &r, sizeof(r)) == sizeof(r) ? 0 : 1);
}

static void check_migrating_faults(void)
{
	struct migrate_run r;
	int fds[2];
	pid_t pid;
	bool got;

	kt_sysctl_set("numa_balancing_migrate_policy", 1);
	kt_sysctl_set("numa_balancing_scan_period_max_ms", MAX_MS);
	kt_sysctl_set("numa_balancing_scan_period_reset_ms", 600000);
	if (pipe(fds))
		kt_bail("pipe failed");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		kt_bail("fork failed");
	if (!pid) {
		close(fds[0]);
		migrating_child(fds[1]);
	}
	close(fds[1]);
	got = read(fds[0], &r, sizeof(r)) == sizeof(r);
	close(fds[0]);
	waitpid(pid, NULL, 0);
	kt_sysctl_set("numa_balancing_migrate_policy", 0);
	kt_sysctl_set("numa_balancing_scan_period_reset_ms", RESET_MS);
	if (!got)
		kt_bail("the migrating child reported nothing");
	kt_diag("migrating child: period %ld -> %ld ms, %ld hint faults, %ld pages migrated, %ld/%ld on node 1",
		r.before, r.after, r.faults, r.migrated, r.on_target, PAGES);
	kt_ok(r.on_target >= PAGES * 95 / 100 && r.after < MAX_MS &&
	      r.after - r.before <= STEP_MS * (r.faults - r.migrated),
	      "faults that migrate do not slow scanning (%ld -> %ld ms for %ld faults, %ld migrated)",
	      r.before, r.after, r.faults, r.migrated);
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
	long seq = kt_sched_field("mm->numa_scan_seq");
	long faults = kt_vmstat("numa_hint_faults");
	double end = kt_now() + LOCALITY_SECS;
	long scans, locality;

	kt_sysctl_set("numa_balancing_scan_period_max_ms", MIN_MS * 2);
	while (kt_sched_field("mm->numa_scan_seq") < seq + LOCALITY_SCANS &&
	       kt_now() < end)
		kt_read_pages(buf, BYTES);
	scans = kt_sched_field("mm->numa_scan_seq") - seq;
	faults = kt_vmstat("numa_hint_faults") - faults;
	locality = kt_sched_field("numa_faults_locality[0]") +
		   kt_sched_field("numa_faults_locality[1]");
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

	check_step(buf);
	first = scan_period();
	kt_counters(before);
	grown = grow(buf, MAX_MS, 20.0);
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
	kt_ok(grown == MAX_MS,
	      "the period stops at the maximum, %d ms (%ld ms)", MAX_MS, grown);

	lowest = idle_min((RESET_MS + MAX_MS) / 1000.0 + 5, &when);
	kt_diag("lowest period %ld ms, %.1f s after the faults stopped",
		lowest, when);
	/*
	 * The reset happens in the scan that then marks the stack and heap,
	 * and the few faults on them add a step each before the next read.
	 */
	kt_ok(lowest <= MIN_MS + RESET_SLACK_MS,
	      "the scan period returns to the minimum after the reset period (%ld ms, min %d)",
	      lowest, MIN_MS);

	check_locality(buf);
	munmap(buf, BYTES);
	check_migrating_faults();
	return kt_done();
}
