// SPDX-License-Identifier: GPL-2.0
/*
 * kt-firstnode: kernel.numa_balancing_scan_first_node=1.
 *
 * While a task stays on the node it first ran on, its address space is
 * not scanned: numa_pte_updates does not move. Once it runs on another
 * node, scanning starts. A control run with the knob off shows that the
 * same task on its first node is scanned otherwise.
 *
 * The child starts on node 1 and execs, so that its address space is a
 * new one set up by mm_init(): were numa_first_nid left at 0 there, node 0
 * would be its first node and node 1 would already count as another.
 *
 * Each run is a fresh child: a task that has just scanned is held back
 * from scanning again for 32 times the time the scan took (task_numa_work),
 * which under a busy TCG host can outlast a whole phase.
 */
#include "kt_numa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BYTES		(8UL << 20)
#define PHASE_SECS	3.0

/* numa_pte_updates while reading @buf for @secs */
static long pte_updates_while_reading(void *buf, double secs)
{
	long before = kt_vmstat("numa_pte_updates");
	double end = kt_now() + secs;

	while (kt_now() < end)
		kt_read_pages(buf, BYTES);
	return kt_vmstat("numa_pte_updates") - before;
}

#define CHILD_ARG	"--child"
#define FIRST_NODE	1
#define OTHER_NODE	0

/*
 * In the exec'd child, on FIRST_NODE: numa_pte_updates while it stays
 * there, then, if @move, while it runs on OTHER_NODE. The child writes
 * both to @fd.
 */
static void child(int fd, bool move)
{
	long updates[2] = { 0, 0 };
	void *buf;

	/* Else local pages would not be scanned with or without the knob */
	kt_second_thread();
	buf = kt_alloc(BYTES, false);
	kt_touch(buf, BYTES);
	/* Let the first scan attempt, after the scan delay, find its node */
	pte_updates_while_reading(buf, 0.5);
	updates[0] = pte_updates_while_reading(buf, PHASE_SECS);
	if (move) {
		kt_run_on_node(OTHER_NODE);
		updates[1] = pte_updates_while_reading(buf, PHASE_SECS);
	}
	if (write(fd, updates, sizeof(updates)) != sizeof(updates))
		_exit(1);
	_exit(0);
}

static bool run_child(bool move, long updates[2])
{
	int fd;
	pid_t pid = kt_fork_reporter(&fd);

	if (!pid) {
		char fdtext[16];

		kt_run_on_node(FIRST_NODE);
		snprintf(fdtext, sizeof(fdtext), "%d", fd);
		execl("/proc/self/exe", "kt-firstnode", CHILD_ARG, fdtext,
		      move ? "1" : "0", (char *)NULL);
		_exit(127);
	}
	return kt_child_report(pid, fd, updates, 2 * sizeof(long));
}

int main(int argc, char **argv)
{
	long updates[2];

	if (argc == 4 && !strcmp(argv[1], CHILD_ARG))
		child(atoi(argv[2]), argv[3][0] == '1');

	kt_require_nodes(2);
	kt_fast_scan();

	if (!run_child(false, updates))
		kt_bail("the control child failed");
	kt_ok(updates[0] > 0,
	      "with the knob off a task on node 1 is scanned (%ld PTE updates)",
	      updates[0]);

	kt_sysctl_set("numa_balancing_scan_first_node", 1);
	if (!run_child(true, updates))
		kt_bail("the child failed");
	kt_ok(updates[0] == 0,
	      "no numa_pte_updates while the task stays on its first node (%ld)",
	      updates[0]);
	kt_ok(updates[1] > 0,
	      "numa_pte_updates start once the task runs on another node (%ld)",
	      updates[1]);
	return kt_done();
}
