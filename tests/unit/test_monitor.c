// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-monitor's parsers (bench/monitor), built for the host: trace_pipe
 * lines and /proc/PID/sched text captured in the guest
 * (fixtures/monitor), and the walk that finds the workload's tasks, on a
 * /proc-like tree made here.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture_dir.h"
#include "monitor.h"
#include "scratch.h"

static char fixtures[PATH_MAX + 64];

static void setup(void)
{
	fixture_dir(fixtures, sizeof(fixtures), "monitor");
}

TestSuite(monitor, .init = setup);

static FILE *fixture(const char *name)
{
	char path[PATH_MAX + 128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	f = fopen(path, "r");
	cr_assert(f, "%s", path);
	return f;
}

Test(monitor, trace_lines_from_the_guest)
{
	struct trace_rec r, first[N_EVENTS];
	int count[N_EVENTS] = { 0 }, bad = 0;
	char line[1024];
	FILE *f = fixture("trace_pipe.txt");

	while (fgets(line, sizeof(line), f)) {
		if (trace_parse_line(line, &r)) {
			bad++;
			continue;
		}
		if (!count[r.ev]++)
			first[r.ev] = r;
	}
	fclose(f);
	cr_assert_eq(bad, 0);
	cr_assert_eq(count[EV_MOVE], 2);
	cr_assert_eq(count[EV_SWAP], 1);
	cr_assert_eq(count[EV_STICK], 6);
	cr_assert_eq(count[EV_MIGRATE], 10);
	r = first[EV_MOVE];	/* pid=66 tgid=63 ngid=0 src_cpu=2 src_nid=1 dst_cpu=0 dst_nid=0 */
	cr_assert(r.pid == 66 && r.src_cpu == 2 && r.src_nid == 1 && r.dst_cpu == 0 &&
		  r.dst_nid == 0 && r.dst_pid == -1);
	cr_assert_float_eq(r.ts, 10.054705, 1e-9);
	r = first[EV_SWAP];
	cr_assert(r.pid == 68 && r.src_nid == 0 && r.dst_pid == 70, "swap %ld -> %ld", r.pid,
		  r.dst_pid);
	r = first[EV_STICK];	/* no destination: dst_cpu=-1 dst_nid=-1 */
	cr_assert(r.pid == 70 && r.src_nid == 1 && r.dst_nid == -1 && r.dst_cpu == -1);
	r = first[EV_MIGRATE];	/* autonuma-68 ... nr_succeeded=1 ... reason=numa_misplaced */
	cr_assert_eq(r.pid, 68, "the task from the line's header");
	cr_assert_eq(r.succeeded, 1);
	cr_assert_eq(r.failed, 0);
	cr_assert_str_eq(trace_reasons[r.reason], "numa_misplaced");
}

Test(monitor, trace_lines_that_are_not_ours)
{
	static const char *const lines[] = {
		"# tracer: nop",
		"",
		"  sched_move_numa-5  [000] .....  1.0: sched_wakeup: comm=x pid=1",
		"  a-1  [000] .....  1.000: sched_move_numa: tgid=1 src_cpu=0",
		"  a-1  [000] .....  nan: sched_move_numa: pid=1 src_cpu=0 src_nid=0 dst_cpu=1 dst_nid=1",
		"  a-1  [000] .....  2.5: mm_migrate_pages: nr_failed=0 reason=numa_misplaced",
		"  a-1  [000] .....  2.5: mm_migrate_pages: nr_succeeded=x nr_failed=0",
	};
	struct trace_rec r;
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		cr_assert_neq(trace_parse_line(lines[i], &r), 0, "%s", lines[i]);
	cr_assert_eq(trace_parse_line("  x-1  [0] ...  3.25: mm_migrate_pages: nr_succeeded=4 "
				      "nr_failed=1 reason=compaction", &r), 0);
	cr_assert_str_eq(trace_reasons[r.reason], "compaction");
}

Test(monitor, proc_sched_from_the_guest)
{
	static char text[SCHED_TEXT_MAX];
	struct sched_fields sf;
	char comm[32];
	FILE *f = fixture("sched.txt");
	size_t n = fread(text, 1, sizeof(text) - 1, f);

	fclose(f);
	text[n] = 0;
	cr_assert_eq(sched_parse(text, &sf), 0);
	/* two tasks' files in one: both tasks' values, the last wins */
	cr_assert_eq(sf.scan_period, 572);
	cr_assert_eq(sf.preferred_nid, 0);
	cr_assert_eq(sf.scan_seq, 5);
	cr_assert_eq(sf.total_faults, 8);
	sched_comm(text, comm, sizeof(comm));
	cr_assert_str_eq(comm, "autonuma");
	cr_assert_eq(sched_parse("numa_scan_period   :   1000\nse.nr_migrations : 3", &sf), 0);
	cr_assert_eq(sf.scan_period, 1000, "the last line needs no newline");
	cr_assert_eq(sf.preferred_nid, -1, "absent");
	cr_assert_eq(sched_parse("numa_scan_period_x : 5\nnuma_scan_period : x\n", &sf), -1,
		     "a longer name or no number is not the field");
	cr_assert_eq(sched_parse("nothing here\n", &sf), -1);
	sched_comm("a (b), c (12, #threads: 1)\nx", comm, sizeof(comm));
	cr_assert_str_eq(comm, "a (b)_ c", "the name ends at the last \" (\"; no commas");
}

Test(monitor, tasks_of_the_command)
{
	char root[64], gone[128];
	static struct proc_tree pt;
	struct mon_task t[16];
	int n, i, seen13 = 0, seen12 = 0;

	scratch_make(root, sizeof(root), "proc");
	scratch_write(root, "1/stat", "1 (init) S 0 1 1\n");
	scratch_write(root, "10/stat", "10 (sh) S 1 10 10\n");
	scratch_write(root, "10/task/10/stat", "");
	scratch_write(root, "11/stat", "11 (a) b) R 10 10 10\n");	/* a ')' in the name */
	scratch_write(root, "11/task/11/stat", "");
	scratch_write(root, "11/task/13/stat", "");
	scratch_write(root, "12/stat", "12 (other) S 1 12 12\n");
	scratch_write(root, "12/task/12/stat", "");
	scratch_write(root, "14/stat", "14 (grandchild) S 11 10 10\n");
	scratch_write(root, "14/task/14/stat", "");
	proc_tree_init(&pt, root);
	n = tasks_of(&pt, 10, t, 16);
	for (i = 0; i < n; i++) {
		seen13 += t[i].pid == 11 && t[i].tid == 13;
		seen12 += t[i].pid == 12;
	}
	cr_assert_eq(n, 4, "sh, both threads of a) b, the grandchild");
	cr_assert_eq(seen13, 1);
	cr_assert_eq(seen12, 0, "not a descendant");
	cr_assert_eq(tasks_of(&pt, 10, t, 2), 2, "bounded by the caller");

	/* the next walk reads new PIDs only: 12's stat is not read again */
	scratch_write(root, "12/stat", "12 (other) S 10 12 12\n");
	scratch_write(root, "15/stat", "15 (new) S 14 10 10\n");
	scratch_write(root, "15/task/15/stat", "");
	snprintf(gone, sizeof(gone), "%s/11", root);
	scratch_remove(gone);
	n = tasks_of(&pt, 10, t, 16);
	cr_assert_eq(n, 1, "only sh: 11 has gone, and with it the way to 14 and 15 (%d)", n);
	scratch_write(root, "11/stat", "11 (back) S 10 10 10\n");
	scratch_write(root, "11/task/11/stat", "");
	n = tasks_of(&pt, 10, t, 16);
	cr_assert_eq(n, 4, "sh, 11 read anew, 14, 15 (not 12, whose parent was cached)");
	for (i = 0; i < n; i++)
		cr_assert_neq(t[i].pid, 12);
	scratch_remove(root);
}
