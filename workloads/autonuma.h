/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The autonuma-benchmark programs (numa01, numa01_THREAD_ALLOC, numa02,
 * numa02_SMT, each plain, HARD_BIND or INVERSE_BIND) as data: how many
 * processes and threads, what each thread zeroes how often, and where
 * the bound variants put them. autonuma.c carries the plan out; keeping
 * the arithmetic here lets the unit tests hold it against the upstream
 * semantics without a NUMA machine.
 *
 * numa01: two processes (fork), each with one buffer of SIZE and THREADS =
 * ncpus/2 threads. Every thread zeroes the whole buffer once, then zeroes
 * THREAD_SIZE bytes PASSES times: the whole shared buffer 50 times, or
 * with THREAD_ALLOC its own SIZE/THREADS slice (offset i * THREAD_SIZE)
 * 1000 times. The child belongs to nodes [0, N/2), the parent to
 * [N/2, N); HARD_BIND binds each process's CPUs and memory to its half;
 * INVERSE_BIND keeps the CPUs and gives the child the upper half's memory,
 * as upstream's generated build does (it tests NODEMASK1 in both branches
 * of its swap, so the parent keeps its own half): both buffers sit on the
 * upper half. The plain numa01 and numa01_THREAD_ALLOC were built with
 * NO_BIND_FORCE_SAME_NODE: every thread binds the opening zeroing of the
 * whole buffer to one node (upstream: 0 or 1 by the parity of time();
 * here node 0) and returns to MPOL_DEFAULT after it, so both processes'
 * buffers start on that node.
 *
 * numa02: one process, SIZE, THREADS = ncpus (_SMT: ncpus/2). The main
 * thread first zeroes SIZE/N on each node n (binding itself to node n
 * in the bound variants only); then thread i zeroes its own SIZE/THREADS
 * slice 800 times, so that 800 x SIZE is written in all. HARD_BIND runs
 * thread i on node i/(THREADS/N), INVERSE_BIND on (THREADS-1-i)/(THREADS/N).
 */
#ifndef WL_AUTONUMA_H
#define WL_AUTONUMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum an_test { AN_NUMA01, AN_NUMA01_THREAD_ALLOC, AN_NUMA02, AN_NUMA02_SMT };
enum an_bind { AN_NO_BIND, AN_HARD_BIND, AN_INVERSE_BIND };

/* an_plan_make()'s flags: the programs as first written, not as shipped */
#define AN_FIRST_TOUCH	0x1	/* plain numa01: the opening pass by first touch */
#define AN_INVERSE_BOTH	0x2	/* INVERSE_BIND: both processes swap memory halves */

/* The node NO_BIND_FORCE_SAME_NODE binds the opening pass to (README). */
#define AN_SAME_NODE 0

extern const char *const an_test_names[];	/* NULL-terminated, by enum an_test */
/* The same words as --test lists them */
#define AN_TEST_CHOICES "numa01|numa01_THREAD_ALLOC|numa02|numa02_SMT"
extern const char *const an_bind_names[];	/* "none", "HARD_BIND", "INVERSE_BIND" */

#define AN_MAX_THREADS 256

struct an_plan {
	enum an_test test;
	enum an_bind bind;
	unsigned int nodes;		/* N */
	unsigned int processes;		/* numa01: 2, numa02: 1 */
	unsigned int threads;		/* per process */
	uint64_t size;			/* each process's buffer */
	uint64_t thread_size;		/* bytes a thread zeroes per pass */
	unsigned int passes;		/* passes per thread */
	uint64_t node_size;		/* numa02: what the main thread faults per node */
	int opening_node;		/* numa01: the opening pass bound there, -1: not */
	bool inverse_both;		/* INVERSE_BIND swaps the parent's memory too */
};

/*
 * Fill @p for @test and @bind on a machine of @nodes nodes and @ncpus CPUs.
 * @threads and @passes of 0 take the upstream values (ncpus/2 or ncpus
 * threads; 50, 1000 or 800 passes). @flags (AN_FIRST_TOUCH,
 * AN_INVERSE_BOTH) depart from upstream's builds; numa02 takes none. On
 * bad input @err holds one line and -1 is returned.
 */
int an_plan_make(struct an_plan *p, enum an_test test, enum an_bind bind,
		 unsigned int nodes, unsigned int ncpus, uint64_t size,
		 unsigned int threads, unsigned int passes, unsigned int flags,
		 char *err, size_t errlen);

static inline bool an_is_numa01(const struct an_plan *p)
{
	return p->test == AN_NUMA01 || p->test == AN_NUMA01_THREAD_ALLOC;
}

/* Offset in its process's buffer of what thread @i zeroes each pass. */
uint64_t an_thread_offset(const struct an_plan *p, unsigned int i);

/*
 * numa01: the nodes [*first, *end) whose CPUs (@mem false) or memory (@mem
 * true) process @proc (0 the child, 1 the parent) is bound to; [0, 0)
 * when it is not bound.  They differ only under INVERSE_BIND.
 */
void an_process_nodes(const struct an_plan *p, unsigned int proc, bool mem,
		      unsigned int *first, unsigned int *end);

/*
 * numa01: the nodes [*first, *end) process @proc's buffer is placed on
 * at the start: the opening node, the half it is bound to, or all.
 */
void an_buffer_nodes(const struct an_plan *p, unsigned int proc,
		     unsigned int *first, unsigned int *end);

/* numa02: the node thread @i is bound to, -1 when not bound. */
int an_thread_node(const struct an_plan *p, unsigned int i);

/* Bytes one thread zeroes in all, and the whole program. */
uint64_t an_thread_bytes(const struct an_plan *p);
uint64_t an_total_bytes(const struct an_plan *p);

#endif
