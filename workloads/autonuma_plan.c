// SPDX-License-Identifier: GPL-2.0
/* The autonuma-benchmark programs as data; see autonuma.h. */
#include <stdio.h>

#include "autonuma.h"

const char *const an_test_names[] = {
	[AN_NUMA01] = "numa01",
	[AN_NUMA01_THREAD_ALLOC] = "numa01_THREAD_ALLOC",
	[AN_NUMA02] = "numa02",
	[AN_NUMA02_SMT] = "numa02_SMT",
	NULL,
};

const char *const an_bind_names[] = {
	[AN_NO_BIND] = "none",
	[AN_HARD_BIND] = "HARD_BIND",
	[AN_INVERSE_BIND] = "INVERSE_BIND",
	NULL,
};

/* Upstream's pass counts: numa01 50, THREAD_ALLOC 1000, numa02 800. */
static const unsigned int upstream_passes[] = {
	[AN_NUMA01] = 50, [AN_NUMA01_THREAD_ALLOC] = 1000,
	[AN_NUMA02] = 800, [AN_NUMA02_SMT] = 800,
};

static unsigned int upstream_threads(enum an_test test, unsigned int ncpus)
{
	unsigned int t = test == AN_NUMA02 ? ncpus : ncpus / 2;

	return t ? t : 1;	/* one CPU: upstream would start none */
}

static int check_binding(const struct an_plan *p, char *err, size_t errlen)
{
	if (p->bind == AN_NO_BIND)
		return 0;
	if (p->nodes < 2) {
		snprintf(err, errlen, "%s needs at least 2 nodes (the system has %u)",
			 an_bind_names[p->bind], p->nodes);
		return -1;
	}
	if (an_is_numa01(p))
		return 0;
	/* thread i goes to node i / (THREADS / N): THREADS a multiple of N */
	if (p->threads < p->nodes || p->threads % p->nodes) {
		snprintf(err, errlen, "%s %s needs a multiple of the %u nodes as threads "
			 "(got %u)", an_test_names[p->test], an_bind_names[p->bind],
			 p->nodes, p->threads);
		return -1;
	}
	return 0;
}

/*
 * Upstream's Makefile builds the plain numa01 and numa01_THREAD_ALLOC with
 * NO_BIND_FORCE_SAME_NODE (since July 2012: "the worst layout is with the
 * memory of both processes in the same NUMA node"), the bound ones without.
 */
static int set_flags(struct an_plan *p, unsigned int flags, char *err, size_t errlen)
{
	if (flags && !an_is_numa01(p)) {
		snprintf(err, errlen, "%s: --first-touch and --inverse-both are numa01's",
			 an_test_names[p->test]);
		return -1;
	}
	p->opening_node = -1;
	if (an_is_numa01(p) && p->bind == AN_NO_BIND && !(flags & AN_FIRST_TOUCH))
		p->opening_node = AN_SAME_NODE;
	p->inverse_both = flags & AN_INVERSE_BOTH;
	return 0;
}

int an_plan_make(struct an_plan *p, enum an_test test, enum an_bind bind,
		 unsigned int nodes, unsigned int ncpus, uint64_t size,
		 unsigned int threads, unsigned int passes, unsigned int flags,
		 char *err, size_t errlen)
{
	*p = (struct an_plan){ .test = test, .bind = bind, .nodes = nodes, .size = size };
	if (set_flags(p, flags, err, errlen))
		return -1;
	p->processes = an_is_numa01(p) ? 2 : 1;
	p->threads = threads ? threads : upstream_threads(test, ncpus);
	p->passes = passes ? passes : upstream_passes[test];
	if (!nodes || !ncpus) {
		snprintf(err, errlen, "no nodes or CPUs found");
		return -1;
	}
	if (p->threads > AN_MAX_THREADS) {
		snprintf(err, errlen, "--threads %u: at most %d", p->threads, AN_MAX_THREADS);
		return -1;
	}
	p->thread_size = test == AN_NUMA01 ? size : size / p->threads;
	p->node_size = an_is_numa01(p) ? 0 : size / nodes;
	if (!p->thread_size || (!an_is_numa01(p) && !p->node_size)) {
		snprintf(err, errlen, "--size %llu is too small for %u threads on %u nodes",
			 (unsigned long long)size, p->threads, nodes);
		return -1;
	}
	return check_binding(p, err, errlen);
}

uint64_t an_thread_offset(const struct an_plan *p, unsigned int i)
{
	return p->test == AN_NUMA01 ? 0 : i * p->thread_size;
}

void an_process_nodes(const struct an_plan *p, unsigned int proc, bool mem,
		      unsigned int *first, unsigned int *end)
{
	unsigned int half = p->nodes / 2;
	bool low;

	*first = *end = 0;
	if (p->bind == AN_NO_BIND || !an_is_numa01(p))
		return;
	/*
	 * The child owns the lower half, the parent the upper. INVERSE_BIND
	 * keeps each process on its own half's CPUs and swaps the child's
	 * memory half: upstream's generated swap tests NODEMASK1 (the
	 * child's) in both branches, so the parent keeps NODEMASK2 and only
	 * the child's accesses are remote. inverse_both swaps both, as the
	 * first version (0x0f/0xf0) did.
	 */
	low = proc == 0;
	if (mem && p->bind == AN_INVERSE_BIND && (low || p->inverse_both))
		low = !low;
	*first = low ? 0 : half;
	*end = low ? half : p->nodes;
}

void an_buffer_nodes(const struct an_plan *p, unsigned int proc,
		     unsigned int *first, unsigned int *end)
{
	if (p->opening_node >= 0) {
		*first = (unsigned int)p->opening_node;
		*end = *first + 1;
		return;
	}
	an_process_nodes(p, proc, true, first, end);
	if (*end == *first) {
		*first = 0;
		*end = p->nodes;
	}
}

int an_thread_node(const struct an_plan *p, unsigned int i)
{
	unsigned int per = p->threads / p->nodes;

	if (p->bind == AN_NO_BIND || an_is_numa01(p) || !per)
		return -1;
	if (p->bind == AN_INVERSE_BIND)
		i = p->threads - 1 - i;
	return (int)(i / per);
}

uint64_t an_thread_bytes(const struct an_plan *p)
{
	uint64_t first = an_is_numa01(p) ? p->size : 0;

	return first + (uint64_t)p->passes * p->thread_size;
}

uint64_t an_total_bytes(const struct an_plan *p)
{
	uint64_t main_fault = an_is_numa01(p) ? 0 : p->node_size * p->nodes;

	return main_fault + (uint64_t)p->processes * p->threads * an_thread_bytes(p);
}
