/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NUMA topology a workload runs on, and the checks of the common
 * options against it. The checks take the topology as plain data so they
 * give the same answer whether it was read from the running kernel or
 * written down by a test.
 */
#ifndef WL_TOPO_H
#define WL_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WL_MAX_NODES 64

struct wl_topo {
	int nodes;				/* highest node number + 1 */
	bool present[WL_MAX_NODES];		/* node has memory */
	uint64_t mem[WL_MAX_NODES];		/* bytes of memory on the node */
	unsigned int cpus[WL_MAX_NODES];	/* CPUs on the node */
	unsigned int total_cpus;
};

enum wl_placement {
	WL_LOCAL,	/* threads and memory on the same node: the best case */
	WL_REMOTE,	/* memory bound to another node: the worst case */
	WL_MISPLACED,	/* first touch on another node, then no binding */
	WL_INTERLEAVE,	/* memory interleaved over all nodes */
	WL_FREE,	/* no binding at all */
};

extern const char *const wl_placement_names[];

/* The options every workload shares; see WL_OPT_* in common.h. */
struct wl_common {
	uint64_t size;
	unsigned int threads;		/* 0: every CPU of the nodes in use */
	unsigned int iterations;
	int placement;			/* enum wl_placement */
	int node;			/* node the workers run on */
	int mem_node;			/* node the memory goes to; -1: derived */
	unsigned int locality_every;	/* sample locality every N rows, 0: never */
	unsigned int samples;		/* pages sampled for locality */
	char *check;			/* --check: the topology to check against */
};

/* How a workload spreads its workers, for the thread-count check. */
enum wl_spread {
	WL_ONE_NODE,	/* all workers on --node */
	WL_PER_NODE,	/* --threads workers on each of several nodes */
	WL_ALL_NODES,	/* --threads workers spread over every node */
};

int wl_topo_read(struct wl_topo *topo);

/*
 * A topology written as "NODES:CPUS:MEM", the CPUs and the memory of each
 * node given once for all or as a list (bnb-vm's --nodes, --cpus, --mem):
 * "2:1:512M", "3:2,1,0:1G,1G,512M". Every node has memory.
 */
int wl_topo_parse(const char *text, struct wl_topo *topo, char *err, size_t errlen);

/*
 * Fill the derived fields of @c (threads, mem_node) and check it against
 * @topo; @footprint is the memory the run needs on its memory node (or in
 * all, for interleave and free). On failure @err holds one line and -1 is
 * returned.
 */
int wl_resolve(struct wl_common *c, const struct wl_topo *topo, uint64_t footprint,
	       enum wl_spread spread, char *err, size_t errlen);

/*
 * Where worker group @group (a process or thread of a multi-node workload)
 * runs and where its memory goes: groups rotate over the nodes from
 * --node, keeping the distance between run and memory node. -1 means
 * no binding.
 */
void wl_group_nodes(const struct wl_common *c, const struct wl_topo *topo,
		    unsigned int group, int *run_node, int *mem_node);

#endif
