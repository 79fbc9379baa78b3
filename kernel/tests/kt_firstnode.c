// SPDX-License-Identifier: GPL-2.0
/*
 * kt-firstnode: kernel.numa_balancing_scan_first_node=1.
 *
 * While a task stays on the node it first ran on, its address space is
 * not scanned: numa_pte_updates does not move. Once it runs on another
 * node, scanning starts.
 */
#include "kt_numa.h"

#include <sys/mman.h>

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

int main(void)
{
	long control, home, away;
	void *buf;

	kt_require_nodes(2);
	kt_run_on_node(0);
	kt_fast_scan();
	/* Else local pages would not be scanned with or without the knob */
	kt_second_thread();
	buf = kt_alloc(BYTES, false);
	kt_touch(buf, BYTES);

	control = pte_updates_while_reading(buf, PHASE_SECS);
	kt_ok(control > 0,
	      "with the knob off the same task on node 0 is scanned (%ld)",
	      control);

	/* The next scan attempt records node 0; let one in flight finish */
	kt_sysctl_set("numa_balancing_scan_first_node", 1);
	pte_updates_while_reading(buf, 0.5);
	home = pte_updates_while_reading(buf, PHASE_SECS);
	kt_ok(home == 0,
	      "no numa_pte_updates while the task stays on its first node (%ld)",
	      home);

	kt_run_on_node(1);
	away = pte_updates_while_reading(buf, PHASE_SECS);
	kt_ok(away > 0,
	      "numa_pte_updates start once the task runs on another node (%ld)",
	      away);

	munmap(buf, BYTES);
	return kt_done();
}
