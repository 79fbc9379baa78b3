// SPDX-License-Identifier: GPL-2.0
/*
 * The autonuma-benchmark programs' plan (workloads/autonuma_plan.c) held
 * against the upstream semantics: thread and pass counts, who zeroes what,
 * and where HARD_BIND and INVERSE_BIND put each process and thread; and
 * where the buffers start as upstream's shipped builds place them.
 */
#include <criterion/criterion.h>

#include "autonuma.h"
#include "lib/parse.h"

#define MIB (1ull << 20)

static struct an_plan p;
static char err[256];

static int plan(enum an_test t, enum an_bind b, unsigned int nodes, unsigned int ncpus,
		uint64_t size)
{
	err[0] = 0;
	return an_plan_make(&p, t, b, nodes, ncpus, size, 0, 0, 0, err, sizeof(err));
}

Test(autonuma, numa01_shares_the_buffer)
{
	cr_assert_eq(plan(AN_NUMA01, AN_NO_BIND, 4, 48, 3072 * MIB), 0);
	cr_assert_eq(p.processes, 2);
	cr_assert_eq(p.threads, 24, "ncpus/2 threads per process");
	cr_assert_eq(p.passes, 50);
	cr_assert_eq(p.thread_size, 3072 * MIB, "every thread zeroes the whole buffer");
	cr_assert_eq(an_thread_offset(&p, 7), 0);
	/* the first whole-buffer zeroing, then 50 passes of SIZE */
	cr_assert_eq(an_thread_bytes(&p), 51 * 3072 * MIB);
	cr_assert_eq(an_total_bytes(&p), 2 * 24 * 51 * 3072 * MIB);
}

Test(autonuma, numa01_thread_alloc_slices)
{
	cr_assert_eq(plan(AN_NUMA01_THREAD_ALLOC, AN_NO_BIND, 2, 8, 64 * MIB), 0);
	cr_assert_eq(p.threads, 4);
	cr_assert_eq(p.passes, 1000);
	cr_assert_eq(p.thread_size, 16 * MIB, "SIZE/THREADS each");
	cr_assert_eq(an_thread_offset(&p, 3), 48 * MIB, "at i * THREAD_SIZE");
	cr_assert_eq(an_thread_bytes(&p), 64 * MIB + 1000 * 16 * MIB);
}

Test(autonuma, numa02_writes_800_sizes)
{
	cr_assert_eq(plan(AN_NUMA02, AN_NO_BIND, 2, 4, 1024 * MIB), 0);
	cr_assert_eq(p.processes, 1);
	cr_assert_eq(p.threads, 4, "ncpus threads");
	cr_assert_eq(p.passes, 800);
	cr_assert_eq(p.node_size, 512 * MIB, "the main thread faults SIZE/N per node");
	cr_assert_eq(an_total_bytes(&p) - 1024 * MIB, 800 * 1024 * MIB);
	cr_assert_eq(plan(AN_NUMA02_SMT, AN_NO_BIND, 2, 4, 1024 * MIB), 0);
	cr_assert_eq(p.threads, 2, "_SMT: ncpus/2 threads");
	cr_assert_eq(p.thread_size, 512 * MIB);
	cr_assert_eq(an_total_bytes(&p) - 1024 * MIB, 800 * 1024 * MIB);
}

Test(autonuma, numa01_halves)
{
	unsigned int first, end;

	cr_assert_eq(plan(AN_NUMA01, AN_HARD_BIND, 4, 8, 64 * MIB), 0);
	for (int mem = 0; mem < 2; mem++) {
		an_process_nodes(&p, 0, mem, &first, &end);
		cr_assert(first == 0 && end == 2, "HARD_BIND child on [0, N/2), got [%u, %u)",
			  first, end);
		an_process_nodes(&p, 1, mem, &first, &end);
		cr_assert(first == 2 && end == 4, "HARD_BIND parent on [N/2, N), got [%u, %u)",
			  first, end);
	}
	cr_assert_eq(plan(AN_NUMA01_THREAD_ALLOC, AN_INVERSE_BIND, 4, 8, 64 * MIB), 0);
	an_process_nodes(&p, 0, false, &first, &end);
	cr_assert(first == 0 && end == 2, "INVERSE_BIND child keeps its CPUs, got [%u, %u)",
		  first, end);
	an_process_nodes(&p, 0, true, &first, &end);
	cr_assert(first == 2 && end == 4, "INVERSE_BIND child's memory swapped, got [%u, %u)",
		  first, end);
	an_process_nodes(&p, 1, false, &first, &end);
	cr_assert(first == 2 && end == 4, "INVERSE_BIND parent keeps its CPUs, got [%u, %u)",
		  first, end);
	/* upstream tests NODEMASK1 in both branches: the parent keeps its own */
	an_process_nodes(&p, 1, true, &first, &end);
	cr_assert(first == 2 && end == 4, "INVERSE_BIND parent's memory kept, got [%u, %u)",
		  first, end);
	cr_assert_eq(plan(AN_NUMA01, AN_NO_BIND, 4, 8, 64 * MIB), 0);
	an_process_nodes(&p, 1, false, &first, &end);
	cr_assert_eq(end, first, "unbound");
}

Test(autonuma, numa02_thread_nodes)
{
	static const int hard[] = { 0, 0, 1, 1, 2, 2, 3, 3 };
	unsigned int i;

	cr_assert_eq(plan(AN_NUMA02, AN_HARD_BIND, 4, 8, 64 * MIB), 0);
	for (i = 0; i < 8; i++)
		cr_assert_eq(an_thread_node(&p, i), hard[i], "HARD_BIND thread %u", i);
	cr_assert_eq(plan(AN_NUMA02, AN_INVERSE_BIND, 4, 8, 64 * MIB), 0);
	for (i = 0; i < 8; i++)
		cr_assert_eq(an_thread_node(&p, i), hard[7 - i], "INVERSE_BIND thread %u", i);
	/* its slice was faulted on node i/(T/N): inverse puts it elsewhere */
	cr_assert_eq(an_thread_offset(&p, 0) / p.node_size, 0);
	cr_assert_eq(plan(AN_NUMA02_SMT, AN_NO_BIND, 4, 8, 64 * MIB), 0);
	cr_assert_eq(an_thread_node(&p, 3), -1);
}

Test(autonuma, refuses)
{
	cr_assert_eq(plan(AN_NUMA01, AN_HARD_BIND, 1, 4, 64 * MIB), -1);
	cr_assert(strstr(err, "2 nodes"), "%s", err);
	/* 3 threads on 2 nodes: i/(T/N) would name node 2 */
	cr_assert_eq(an_plan_make(&p, AN_NUMA02, AN_HARD_BIND, 2, 3, 64 * MIB, 0, 0, 0,
				  err, sizeof(err)), -1);
	cr_assert(strstr(err, "multiple"), "%s", err);
	cr_assert_eq(plan(AN_NUMA02, AN_NO_BIND, 2, 4, 3), -1);
	cr_assert(strstr(err, "too small"), "%s", err);
	cr_assert_eq(an_plan_make(&p, AN_NUMA02, AN_NO_BIND, 2, 4, 64 * MIB, 300, 0, 0,
				  err, sizeof(err)), -1);
}

Test(autonuma, overrides)
{
	cr_assert_eq(an_plan_make(&p, AN_NUMA01_THREAD_ALLOC, AN_NO_BIND, 2, 2, 8 * MIB, 2, 10, 0,
				  err, sizeof(err)), 0);
	cr_assert_eq(p.threads, 2);
	cr_assert_eq(p.passes, 10);
	cr_assert_eq(p.thread_size, 4 * MIB);
	cr_assert_eq(plan(AN_NUMA01, AN_NO_BIND, 2, 1, 8 * MIB), 0);
	cr_assert_eq(p.threads, 1, "one CPU still runs a thread");
}

/* The flags that give the programs as first written, not as shipped. */
static int plan_flags(enum an_test t, enum an_bind b, unsigned int flags)
{
	err[0] = 0;
	return an_plan_make(&p, t, b, 4, 8, 64 * MIB, 0, 0, flags, err, sizeof(err));
}

/*
 * Upstream builds the plain numa01 and numa01_THREAD_ALLOC with
 * NO_BIND_FORCE_SAME_NODE: every thread's opening pass over the whole
 * buffer is bound to one node, so both processes' buffers start there.
 */
Test(autonuma, plain_numa01_opens_on_one_node)
{
	static const enum an_test numa01s[] = { AN_NUMA01, AN_NUMA01_THREAD_ALLOC };
	unsigned int first, end, proc;

	for (int t = 0; t < 2; t++) {
		cr_assert_eq(plan_flags(numa01s[t], AN_NO_BIND, 0), 0);
		cr_assert_eq(p.opening_node, AN_SAME_NODE, "%s", an_test_names[numa01s[t]]);
		for (proc = 0; proc < 2; proc++) {
			an_buffer_nodes(&p, proc, &first, &end);
			cr_assert(first == 0 && end == 1, "%s process %u's buffer on node 0, "
				  "got [%u, %u)", an_test_names[numa01s[t]], proc, first, end);
		}
		cr_assert_eq(plan_flags(numa01s[t], AN_NO_BIND, AN_FIRST_TOUCH), 0);
		cr_assert_eq(p.opening_node, -1, "--first-touch");
		an_buffer_nodes(&p, 1, &first, &end);
		cr_assert(first == 0 && end == 4, "first touch: anywhere, got [%u, %u)",
			  first, end);
	}
	/* the bound builds never had it, nor has numa02 an opening pass */
	cr_assert_eq(plan_flags(AN_NUMA01, AN_HARD_BIND, 0), 0);
	cr_assert_eq(p.opening_node, -1);
	an_buffer_nodes(&p, 1, &first, &end);
	cr_assert(first == 2 && end == 4, "HARD_BIND: its own half, got [%u, %u)", first, end);
	cr_assert_eq(plan_flags(AN_NUMA01_THREAD_ALLOC, AN_INVERSE_BIND, 0), 0);
	cr_assert_eq(p.opening_node, -1);
	cr_assert_eq(plan_flags(AN_NUMA02, AN_NO_BIND, 0), 0);
	cr_assert_eq(p.opening_node, -1);
}

/* INVERSE_BIND as built: both buffers on the upper half; --inverse-both swaps both. */
Test(autonuma, inverse_bind_flags)
{
	unsigned int first, end;

	cr_assert_eq(plan_flags(AN_NUMA01, AN_INVERSE_BIND, 0), 0);
	for (unsigned int proc = 0; proc < 2; proc++) {
		an_buffer_nodes(&p, proc, &first, &end);
		cr_assert(first == 2 && end == 4, "process %u's buffer on the upper half, "
			  "got [%u, %u)", proc, first, end);
	}
	cr_assert_eq(plan_flags(AN_NUMA01, AN_INVERSE_BIND, AN_INVERSE_BOTH), 0);
	an_process_nodes(&p, 0, true, &first, &end);
	cr_assert(first == 2 && end == 4, "child's memory swapped, got [%u, %u)", first, end);
	an_process_nodes(&p, 1, true, &first, &end);
	cr_assert(first == 0 && end == 2, "parent's memory swapped, got [%u, %u)", first, end);
	an_process_nodes(&p, 1, false, &first, &end);
	cr_assert(first == 2 && end == 4, "parent keeps its CPUs, got [%u, %u)", first, end);
	cr_assert_eq(plan_flags(AN_NUMA02, AN_INVERSE_BIND, AN_INVERSE_BOTH), -1);
	cr_assert(strstr(err, "numa01"), "%s", err);
	cr_assert_eq(plan_flags(AN_NUMA02_SMT, AN_NO_BIND, AN_FIRST_TOUCH), -1);
}

/* autonuma's --test words are an_test_names[], in enum order. */
Test(an_names, test_choices_are_the_names)
{
	char words[] = AN_TEST_CHOICES, *item[8];
	int n = split_list(words, '|', item, 8), i;

	for (i = 0; an_test_names[i]; i++) {
		cr_assert_lt(i, n, "an_test_names has more names than AN_TEST_CHOICES");
		cr_assert_str_eq(item[i], an_test_names[i]);
	}
	cr_assert_eq(i, n);
}
