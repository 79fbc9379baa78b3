// SPDX-License-Identifier: GPL-2.0
/*
 * kt-placement: kernel.numa_balancing_task_placement.
 *
 * A task whose memory is all on node 1 runs on node 0, free to run on
 * either, under the 2012 last-node filter (migrate_policy 2). That policy
 * leaves a page where it is on its first hinting fault, so the first scan
 * only records faults on node 1: enough for 6.1's task placement to make
 * node 1 the task's preferred node and move the task there. With task
 * placement 0 the same faults set no preferred node, the task stays on
 * node 0, and the memory moves to it instead.
 *
 * Each run is a fresh child, so that the fault statistics and the
 * preferred node of one run do not carry into the next.
 */
#include "kt_numa.h"

#include <numa.h>
#include <sched.h>
#include <unistd.h>

#define BYTES		(8UL << 20)
#define TASK_NODE	0
#define MEM_NODE	1
/* Scans after which 6.1 has long made MEM_NODE the preferred node */
#define MIN_SCANS	4
#define MOVED_PCT	90
#define TIMEOUT_SECS	30.0

struct placement_run {
	bool preferred_mem;	/* numa_preferred_nid was MEM_NODE at a sample */
	bool preferred_any;	/* numa_preferred_nid was ever set */
	bool ran_on_mem;	/* the task ran on MEM_NODE at a sample */
	long pages_on_task;	/* pages on TASK_NODE at the end */
	long pages;
	long hint_faults;	/* numa_hint_faults over the run */
	long scans;		/* mm->numa_scan_seq over the run */
	double secs;
};

static int current_node(void)
{
	int cpu = sched_getcpu();

	if (cpu < 0)
		kt_bail("sched_getcpu failed");
	return numa_node_of_cpu(cpu);
}

/*
 * Whether the run has shown what it is there to show: with placement,
 * the task on its memory's node; without, the memory on the task's node
 * after enough scans for 6.1 to have moved the task.
 */
static bool run_done(const struct placement_run *run, bool placement)
{
	if (placement)
		return run->preferred_mem && run->ran_on_mem;
	return run->scans >= MIN_SCANS &&
	       run->pages_on_task * 100 >= run->pages * MOVED_PCT;
}

static void sample(struct placement_run *run, void *buf, long seq0)
{
	long preferred = kt_sched_field("numa_preferred_nid");

	run->preferred_any |= preferred != -1;
	run->preferred_mem |= preferred == MEM_NODE;
	run->ran_on_mem |= current_node() == MEM_NODE;
	run->scans = kt_sched_field("mm->numa_scan_seq") - seq0;
	run->pages_on_task = kt_pages_on_node(buf, BYTES, TASK_NODE);
}

/* In the child: the memory on MEM_NODE, the task on TASK_NODE, then free */
static void child(int fd, bool placement)
{
	struct placement_run run = { .pages = BYTES / 4096 };
	long faults0, seq0;
	double start, next = 0;
	void *buf = kt_alloc(BYTES, false);

	kt_run_on_node(MEM_NODE);
	kt_touch(buf, BYTES);
	kt_drain_lru();
	kt_run_on_node(TASK_NODE);
	/* Any CPU from now on: the task stays where it is unless moved */
	if (numa_run_on_node(-1))
		kt_bail("cannot widen the CPU affinity");

	faults0 = kt_vmstat("numa_hint_faults");
	seq0 = kt_sched_field("mm->numa_scan_seq");
	start = kt_now();
	while (!run_done(&run, placement) && kt_now() - start < TIMEOUT_SECS) {
		kt_read_pages(buf, BYTES);
		run.ran_on_mem |= current_node() == MEM_NODE;
		if (kt_now() < next)
			continue;
		sample(&run, buf, seq0);
		next = kt_now() + 0.1;
	}
	sample(&run, buf, seq0);
	run.secs = kt_now() - start;
	run.hint_faults = kt_vmstat("numa_hint_faults") - faults0;
	if (write(fd, &run, sizeof(run)) != sizeof(run))
		_exit(1);
	_exit(0);
}

static void run_child(bool placement, struct placement_run *run)
{
	int fd;
	pid_t pid;

	kt_sysctl_set("numa_balancing_task_placement", placement);
	pid = kt_fork_reporter(&fd);
	if (!pid)
		child(fd, placement);
	if (!kt_child_report(pid, fd, run, sizeof(*run)))
		kt_bail("the child with task_placement %d failed", placement);
	kt_diag("task_placement %d: %.1f s, %ld scans, %ld hinting faults, "
		"%ld of %ld pages on node %d", placement, run->secs, run->scans,
		run->hint_faults, run->pages_on_task, run->pages, TASK_NODE);
}

int main(void)
{
	struct placement_run run;

	kt_require_nodes(2);
	kt_fast_scan();
	kt_sysctl_set("numa_balancing_migrate_policy", 2);

	run_child(true, &run);
	kt_ok(run.preferred_mem,
	      "with task_placement 1 the faults make node %d the preferred node",
	      MEM_NODE);
	kt_ok(run.ran_on_mem,
	      "with task_placement 1 the scheduler moves the task to node %d",
	      MEM_NODE);

	run_child(false, &run);
	kt_ok(run.hint_faults > 0 && run.scans >= MIN_SCANS,
	      "with task_placement 0 hinting faults are taken (%ld over %ld scans)",
	      run.hint_faults, run.scans);
	kt_ok(!run.preferred_any,
	      "with task_placement 0 no node is preferred");
	kt_ok(!run.ran_on_mem,
	      "with task_placement 0 the task stays on node %d", TASK_NODE);
	kt_ok(run.pages_on_task * 100 >= run.pages * MOVED_PCT,
	      "with task_placement 0 the memory moves to the task: %ld of %ld pages on node %d",
	      run.pages_on_task, run.pages, TASK_NODE);
	return kt_done();
}
