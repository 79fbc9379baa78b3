// SPDX-License-Identifier: GPL-2.0
/*
 * kt-disabled: with kernel.numa_balancing=0 none of the balancing
 * counters move, whatever the balancenuma knobs say.
 */
#include "kt_numa.h"

int main(void)
{
	struct kt_remote_run run;
	int i;

	kt_require_nodes(2);
	kt_fast_scan();
	kt_sysctl_set("numa_balancing_migrate_policy", 1);
	kt_sysctl_set("numa_balancing_migrate_ratelimit_mb", 1);
	kt_sysctl_set("numa_balancing", 0);

	/* 101%: never reached, so the reads go on until the timeout */
	kt_remote_reads(8UL << 20, 101, 3.0, &run);
	for (i = 0; i < KT_NR_COUNTERS; i++)
		kt_ok(run.counters[i] == 0,
		      "%s does not move with numa_balancing=0 (%ld)",
		      kt_counter_names[i], run.counters[i]);
	kt_ok(run.on_target == 0, "no page moved to node 1 (%ld)",
	      run.on_target);
	return kt_done();
}
