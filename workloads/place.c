// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "place.h"

void wl_where(const struct wl_common *c, const struct wl_topo *topo,
	      unsigned int group, struct wl_where *w)
{
	wl_group_nodes(c, topo, group, &w->run, &w->mem);
	/* misplaced: the first touch happens where the memory is meant to start */
	w->touch = c->placement == WL_MISPLACED ? w->mem : w->run;
}

void *wl_map(size_t bytes, bool shared)
{
	int flags = MAP_ANONYMOUS | (shared ? MAP_SHARED : MAP_PRIVATE);
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void wl_unmap(void *p, size_t bytes)
{
	if (p)
		munmap(p, bytes);
}

int wl_bind_memory(void *p, size_t bytes, int placement, int mem_node,
		   const struct wl_topo *topo)
{
	unsigned long mask[WL_MAX_NODES / (8 * sizeof(unsigned long)) + 1] = { 0 };
	const unsigned int bits = 8 * sizeof(unsigned long);
	int mode, node;

	switch (placement) {
	case WL_LOCAL:
	case WL_REMOTE:
		if (mem_node < 0)
			return 0;
		mode = MPOL_BIND;
		mask[mem_node / bits] |= 1ul << (mem_node % bits);
		break;
	case WL_INTERLEAVE:
		mode = MPOL_INTERLEAVE;
		for (node = 0; node < topo->nodes; node++)
			if (topo->present[node])
				mask[node / bits] |= 1ul << (node % bits);
		break;
	default:
		return 0;
	}
	if (mbind(p, bytes, mode, mask, WL_MAX_NODES + 1, 0)) {
		fprintf(stderr, "mbind(%s) failed: %s\n", wl_placement_names[placement],
			strerror(errno));
		return -1;
	}
	return 0;
}

int wl_run_on(int node)
{
	if (numa_available() < 0)
		return 0;
	if (numa_run_on_node(node)) {
		fprintf(stderr, "cannot run on node %d: %s\n", node, strerror(errno));
		return -1;
	}
	return 0;
}

int wl_current_node(void)
{
	int cpu = sched_getcpu();

	if (cpu < 0 || numa_available() < 0)
		return 0;
	return numa_node_of_cpu(cpu);
}
