// SPDX-License-Identifier: GPL-2.0
/*
 * kt-ratewindow: the windows of kernel.numa_balancing_migrate_ratelimit_mb
 * (kt-ratelimit checks the budget itself).
 *
 * 1. The 1 s bound. After a window in which node 1 refused a migration,
 *    tasks on node 1 skip their scans until 1000 ms after that window
 *    ended. A task on node 1 reading far more node-0 memory than one
 *    budget makes each scan pass refuse, so its passes come about 1.1 s
 *    apart: scanning stops for most of a second (the flag is honoured)
 *    and starts again although no fault opens a window meanwhile (the
 *    bound ends it).
 * 2. interval_ms. A run shorter than one 5000 ms window meets one
 *    window: at most one budget of pages moves (a run the host
 *    stretched past 5 s of the guest's clock meets two).
 * 3. Nodes are limited independently. Right after that run, node 1's
 *    window is still open and has refused; a task on node 0 reading half
 *    a budget of node-1 memory skips no scan and moves all of it.
 */
#include "kt_numa.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define LIMIT_MB	1
#define WINDOW_PAGES	((LIMIT_MB << 20) / 4096)
#define SCAN_MB		2	/* 512 PTEs: twice a budget, a short scan */
#define BYTES		(16UL << 20)

#define BOUND_PASSES	3	/* after the first skip, then stop */
#define BOUND_SECS	20.0	/* or stop then */
#define BOUND_MIN_GAP	0.9	/* the bound, less a 100 ms window */
/*
 * 1 s + the window + the scan period, and task_numa_work() holding the
 * next scan back by 32 times the cost of the last one, which a loaded
 * host stretches.
 */
#define BOUND_MAX_GAP	4.0

#define LONG_INTERVAL_MS	5000
#define LONG_RUN_SECS		2.5
#define NODE0_BYTES		(WINDOW_PAGES / 2 * 4096UL)
#define NODE0_SECS		3.0	/* ends before node 1's flag can */

struct passes {
	int nr;			/* scan passes that marked pages */
	int after_skip;		/* of which after the first skipped scan */
	double first_skip;	/* seconds into the run, or -1 */
	double longest_gap;	/* between passes, or after the last one */
	double secs;		/* the run took */
};

/*
 * Read @buf from node 1, timing the scan passes, until BOUND_PASSES
 * passes came after the first skipped scan or @secs passed.
 */
static void time_passes(const void *buf, double secs, struct passes *p)
{
	long updates = kt_vmstat("numa_pte_updates");
	long skips = kt_vmstat("numa_pte_scan_ratelimited");
	double start = kt_now(), last = start, now;

	*p = (struct passes){ .first_skip = -1 };
	do {
		long u, s;

		kt_read_pages(buf, BYTES);
		u = kt_vmstat("numa_pte_updates");
		s = kt_vmstat("numa_pte_scan_ratelimited");
		now = kt_now();
		if (s > skips && p->first_skip < 0)
			p->first_skip = now - start;
		skips = s;
		if (u == updates)
			continue;
		updates = u;
		/* The gap from the start is the scan delay, not the bound */
		if (p->nr && now - last > p->longest_gap)
			p->longest_gap = now - last;
		last = now;
		p->nr++;
		if (p->first_skip >= 0)
			p->after_skip++;
	} while (now - start < secs && p->after_skip < BOUND_PASSES);
	if (p->nr && now - last > p->longest_gap)
		p->longest_gap = now - last;
	p->secs = now - start;
}

static void bound_case(void)
{
	char *buf = kt_alloc(BYTES, false);
	struct passes p;

	kt_sysctl_set("numa_balancing_migrate_interval_ms", 100);
	kt_run_on_node(0);
	kt_touch(buf, BYTES);
	kt_run_on_node(1);
	time_passes(buf, BOUND_SECS, &p);
	munmap(buf, BYTES);
	kt_diag("bound: %d scan passes in %.1f s, %d after the first skip at %.2f s, longest gap %.2f s",
		p.nr, p.secs, p.after_skip, p.first_skip, p.longest_gap);

	kt_ok(p.first_skip >= 0, "a task on node 1 skips scans once node 1 refused");
	kt_ok(p.after_skip >= BOUND_PASSES,
	      "its scanning starts again after the 1 s bound: %d passes after the first skip (%.0f s at most)",
	      p.after_skip, BOUND_SECS);
	kt_ok(p.longest_gap <= BOUND_MAX_GAP,
	      "no stretch without a scan pass is longer than %.1f s (%.2f s)",
	      BOUND_MAX_GAP, p.longest_gap);
	kt_ok(p.longest_gap >= BOUND_MIN_GAP,
	      "scanning stays off for most of the 1 s after a refusing window (longest gap %.2f s)",
	      p.longest_gap);
}

/*
 * Read @buf from node 1 a megabyte at a time until @secs passed; returns
 * how long it took. Checking the clock per megabyte, not per pass over
 * @buf, keeps the run from overshooting when the guest gets little host
 * CPU.
 */
static double read_for(const char *buf, double secs)
{
	double start = kt_now(), now;
	size_t off = 0;

	do {
		kt_read_pages(buf + off, 1UL << 20);
		off = (off + (1UL << 20)) % BYTES;
		now = kt_now();
	} while (now - start < secs);
	return now - start;
}

/*
 * One run of LONG_RUN_SECS with LONG_INTERVAL_MS windows; returns with
 * node 1's window still open, for independent_case().
 */
static void interval_case(void)
{
	char *buf = kt_alloc(BYTES, false);
	long moved, placed, migrated, windows;
	long refused = kt_vmstat("numa_migrate_ratelimited");
	double secs;

	/* Let the 100 ms window of bound_case() and its 1 s bound end */
	usleep(1500 * 1000);
	kt_sysctl_set("numa_balancing_migrate_interval_ms", LONG_INTERVAL_MS);
	kt_run_on_node(0);
	kt_touch(buf, BYTES);
	/* what node 0 could not hold landed on node 1 without migrating */
	placed = kt_pages_on_node(buf, BYTES, 1);
	kt_run_on_node(1);
	migrated = kt_vmstat("numa_pages_migrated");
	secs = read_for(buf, LONG_RUN_SECS);
	migrated = kt_vmstat("numa_pages_migrated") - migrated;
	moved = kt_pages_on_node(buf, BYTES, 1) - placed;
	refused = kt_vmstat("numa_migrate_ratelimited") - refused;
	munmap(buf, BYTES);
	/*
	 * The first migration opens a window; a run that the host stretched
	 * past the window's end (the guest's clock goes on while QEMU waits
	 * for a core) meets a second one, and a second budget may move.
	 */
	windows = 1 + (long)(secs * 1000) / LONG_INTERVAL_MS;
	kt_diag("interval %d ms: %ld pages moved (%ld migrated) in %.2f s, %ld refused, %ld on node 1 at first touch",
		LONG_INTERVAL_MS, moved, migrated, secs, refused, placed);

	kt_ok(moved > 0 && refused > 0,
	      "node 1 takes pages and refuses more (%ld moved, %ld refused)",
	      moved, refused);
	kt_ok(moved <= windows * WINDOW_PAGES && migrated <= windows * WINDOW_PAGES,
	      "a %.2f s run meets %ld %d ms window(s): at most that many budgets move (%ld pages, %ld migrated <= %ld)",
	      secs, windows, LONG_INTERVAL_MS, moved, migrated, windows * WINDOW_PAGES);
}

struct node0_run {
	long pages, moved;
	long d[KT_NR_COUNTERS];
	double secs;
};

/* Half a budget of node-1 memory read from node 0, until it all moved */
static void node0_reads(struct node0_run *r)
{
	char *buf = kt_alloc(NODE0_BYTES, false);
	long before[KT_NR_COUNTERS];
	double start;
	int i;

	r->pages = NODE0_BYTES / 4096;
	kt_run_on_node(1);
	kt_touch(buf, NODE0_BYTES);
	/* else the last pages touched stay in node 1's LRU batch, unscanned */
	kt_drain_lru();
	kt_run_on_node(0);
	/* From here on: a scan while touching on node 1 may well be skipped */
	kt_counters(before);
	start = kt_now();
	do {
		kt_read_pages(buf, NODE0_BYTES);
		r->moved = kt_pages_on_node(buf, NODE0_BYTES, 0);
	} while (kt_now() - start < NODE0_SECS && r->moved < r->pages);
	r->secs = kt_now() - start;
	kt_counters(r->d);
	for (i = 0; i < KT_NR_COUNTERS; i++)
		r->d[i] -= before[i];
}

/*
 * In a child: task_numa_work() holds a task's next scan back by 32 times
 * the cost of its last one, which after interval_case()'s scans can
 * outlast node 1's flag; a new task starts with no such debt.
 */
static void independent_case(void)
{
	struct node0_run *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long skips;
	pid_t pid;
	int status;

	if (r == MAP_FAILED)
		kt_bail("mmap: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		kt_bail("fork: %s", strerror(errno));
	if (pid == 0) {
		node0_reads(r);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		kt_bail("the node-0 reader failed (status %#x)", status);
	skips = r->d[KT_PTE_SCAN_RATELIMITED];
	kt_diag("node 0: %ld/%ld pages moved in %.2f s: %ld PTEs marked, %ld faults, %ld migrated, %ld refused, %ld scans skipped",
		r->moved, r->pages, r->secs, r->d[KT_PTE_UPDATES], r->d[KT_HINT_FAULTS],
		r->d[KT_PAGES_MIGRATED], r->d[KT_MIGRATE_RATELIMITED], skips);

	kt_ok(skips == 0, "node 1's refusals do not stop scanning on node 0 (%ld skipped)",
	      skips);
	kt_ok(r->moved == r->pages,
	      "nor migrations to node 0: all its %ld pages moved (%ld)", r->pages, r->moved);
	munmap(r, sizeof(*r));
}

int main(void)
{
	kt_require_nodes(2);
	kt_fast_scan();
	kt_sysctl_set("numa_balancing_scan_size_mb", SCAN_MB);
	kt_sysctl_set("numa_balancing_migrate_policy", 1);
	kt_sysctl_set("numa_balancing_migrate_ratelimit_mb", LIMIT_MB);

	bound_case();
	interval_case();
	independent_case();
	return kt_done();
}
