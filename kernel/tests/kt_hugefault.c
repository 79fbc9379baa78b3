// SPDX-License-Identifier: GPL-2.0
/*
 * kt-hugefault: numa_huge_hint_faults and numa_huge_hint_faults_local
 * count the hinting faults taken on a huge PMD, and only those: memory on
 * transparent huge pages read from the other node takes them (each among
 * numa_hint_faults, the local ones among the local faults too); the same
 * on 4 KiB pages takes hinting faults but no huge one.
 */
#include "kt_numa.h"

#define BYTES		(8UL << 20)
/* A bound for a hung kernel, not a time budget: a busy host is slow */
#define MAX_SECS	60.0

int main(void)
{
	struct kt_remote_run run;
	long *c = run.counters;

	kt_require_nodes(2);
	kt_fast_scan();
	kt_sysctl_set("numa_balancing", 1);

	kt_remote_reads_thp(BYTES, 50, MAX_SECS, &run);
	kt_diag("huge pages: %ld of %ld hint faults on a huge PMD (%ld local), %ld huge PMDs "
		"scanned, %ld pages migrated", c[KT_HUGE_HINT_FAULTS], c[KT_HINT_FAULTS],
		c[KT_HUGE_HINT_FAULTS_LOCAL], c[KT_HUGE_PTE_UPDATES], c[KT_PAGES_MIGRATED]);
	kt_ok(c[KT_HUGE_PTE_UPDATES] > 0, "the scanner marked huge PMDs (%ld)",
	      c[KT_HUGE_PTE_UPDATES]);
	kt_ok(c[KT_HUGE_HINT_FAULTS] > 0, "reads from the other node take huge hinting faults (%ld)",
	      c[KT_HUGE_HINT_FAULTS]);
	kt_ok(c[KT_HUGE_HINT_FAULTS] <= c[KT_HINT_FAULTS],
	      "they are among numa_hint_faults (%ld of %ld)", c[KT_HUGE_HINT_FAULTS],
	      c[KT_HINT_FAULTS]);
	kt_ok(c[KT_HUGE_HINT_FAULTS_LOCAL] <= c[KT_HUGE_HINT_FAULTS] &&
	      c[KT_HUGE_HINT_FAULTS_LOCAL] <= c[KT_HINT_FAULTS_LOCAL],
	      "their local ones are among both (%ld)", c[KT_HUGE_HINT_FAULTS_LOCAL]);

	kt_remote_reads(BYTES, 50, MAX_SECS, &run);
	kt_ok(c[KT_HINT_FAULTS] > 0 && c[KT_HUGE_HINT_FAULTS] == 0,
	      "4 KiB pages take hinting faults (%ld) but no huge one (%ld)", c[KT_HINT_FAULTS],
	      c[KT_HUGE_HINT_FAULTS]);
	return kt_done();
}
