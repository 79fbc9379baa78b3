// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <numa.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bnb_topology.h"
#include "lib/err.h"
#include "lib/parse.h"
#include "topo.h"

const char *const wl_placement_names[] = {
	[WL_LOCAL] = "local", [WL_REMOTE] = "remote", [WL_MISPLACED] = "misplaced",
	[WL_INTERLEAVE] = "interleave", [WL_FREE] = "free", NULL,
};

int wl_topo_read(struct wl_topo *topo)
{
	struct bitmask *cpus;
	int node, cpu;

	memset(topo, 0, sizeof(*topo));
	if (numa_available() < 0) {
		/* A kernel without NUMA: one node holding everything. */
		topo->nodes = 1;
		topo->present[0] = true;
		topo->mem[0] = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
		topo->cpus[0] = topo->total_cpus = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
		return 0;
	}
	topo->nodes = numa_max_node() + 1;
	if (topo->nodes > WL_MAX_NODES)
		topo->nodes = WL_MAX_NODES;
	cpus = numa_allocate_cpumask();
	if (!cpus)
		return -1;
	for (node = 0; node < topo->nodes; node++) {
		long long bytes = numa_node_size64(node, NULL);

		topo->present[node] = numa_bitmask_isbitset(numa_nodes_ptr, node) && bytes > 0;
		topo->mem[node] = bytes > 0 ? (uint64_t)bytes : 0;
		if (numa_node_to_cpus(node, cpus))
			continue;
		for (cpu = 0; cpu < (int)cpus->size; cpu++)
			topo->cpus[node] += numa_bitmask_isbitset(cpus, cpu);
		topo->total_cpus += topo->cpus[node];
	}
	numa_free_cpumask(cpus);
	return 0;
}

_Static_assert(BNB_MAX_NODES <= WL_MAX_NODES, "a parsed topology fits struct wl_topo");

int wl_topo_parse(const char *text, struct wl_topo *topo, char *err, size_t errlen)
{
	static const char *const names[] = { "nodes", "cpus", "mem" };
	int (*const parsers[])(struct bnb_topology *, const char *, char *, size_t) = {
		topo_parse_nodes, topo_parse_cpus, topo_parse_mem,
	};
	struct bnb_topology t = { 0 };
	char buf[512], *field[4];
	int i, n;

	if (snprintf(buf, sizeof(buf), "%s", text) >= (int)sizeof(buf))
		return errf(err, errlen, "topology too long");
	n = split_list(buf, ':', field, 4);
	if (n != 3)
		return errf(err, errlen, "'%s': want NODES:CPUS:MEM, e.g. 2:1:512M", text);
	for (i = 0; i < 3; i++)
		if (parsers[i](&t, field[i], err, errlen))
			return errf_prefix(err, errlen, "%s", names[i]);
	memset(topo, 0, sizeof(*topo));
	topo->nodes = t.nodes;
	for (i = 0; i < t.nodes; i++) {
		topo->present[i] = true;
		topo->mem[i] = t.mem[i];
		topo->cpus[i] = (unsigned int)t.cpus[i];
		topo->total_cpus += topo->cpus[i];
	}
	return 0;
}

static int check_node(const char *what, int node, const struct wl_topo *topo,
		      char *err, size_t errlen)
{
	if (node >= 0 && node < topo->nodes && topo->present[node])
		return 0;
	snprintf(err, errlen, "%s %d: no such NUMA node with memory (nodes are 0-%d)",
		 what, node, topo->nodes - 1);
	return -1;
}

/* The first node with memory after @node, wrapping; @node if it is alone. */
static int next_node(const struct wl_topo *topo, int node)
{
	int i, n;

	for (i = 1; i < topo->nodes; i++) {
		n = (node + i) % topo->nodes;
		if (topo->present[n])
			return n;
	}
	return node;
}

static int derive_mem_node(struct wl_common *c, const struct wl_topo *topo,
			   char *err, size_t errlen)
{
	const char *name = wl_placement_names[c->placement];

	switch (c->placement) {
	case WL_LOCAL:
		if (c->mem_node >= 0 && c->mem_node != c->node) {
			snprintf(err, errlen, "--placement local puts memory on --node %d; "
				 "drop --mem-node %d", c->node, c->mem_node);
			return -1;
		}
		c->mem_node = c->node;
		return 0;
	case WL_REMOTE:
	case WL_MISPLACED:
		if (c->mem_node < 0)
			c->mem_node = next_node(topo, c->node);
		if (c->mem_node == c->node) {
			snprintf(err, errlen, "--placement %s needs a memory node other than "
				 "node %d, and there is none", name, c->node);
			return -1;
		}
		return check_node("--mem-node", c->mem_node, topo, err, errlen);
	default:
		if (c->mem_node >= 0) {
			snprintf(err, errlen, "--mem-node has no meaning with --placement %s",
				 name);
			return -1;
		}
		return 0;
	}
}

static unsigned int cpus_available(const struct wl_common *c, const struct wl_topo *topo,
				   enum wl_spread spread)
{
	unsigned int fewest = ~0u;
	int n;

	if (spread == WL_ALL_NODES || (spread == WL_ONE_NODE && c->placement == WL_FREE))
		return topo->total_cpus;
	if (spread == WL_ONE_NODE)
		return topo->cpus[c->node];
	for (n = 0; n < topo->nodes; n++)
		if (topo->present[n] && topo->cpus[n] < fewest)
			fewest = topo->cpus[n];
	return fewest;
}

static int check_threads(struct wl_common *c, const struct wl_topo *topo,
			 enum wl_spread spread, char *err, size_t errlen)
{
	unsigned int avail = cpus_available(c, topo, spread);

	if (!avail) {
		snprintf(err, errlen, "node %d has no CPUs to run on", c->node);
		return -1;
	}
	if (!c->threads)
		c->threads = avail;
	if (c->threads <= avail)
		return 0;
	if (spread == WL_ALL_NODES || (spread == WL_ONE_NODE && c->placement == WL_FREE))
		snprintf(err, errlen, "--threads %u is more than the %u CPUs of the system",
			 c->threads, avail);
	else if (spread == WL_PER_NODE)
		snprintf(err, errlen, "--threads %u is more than the %u CPUs of the "
			 "smallest node", c->threads, avail);
	else
		snprintf(err, errlen, "--threads %u is more than the %u CPUs of node %d",
			 c->threads, avail, c->node);
	return -1;
}

static double mib(uint64_t bytes)
{
	return (double)bytes / (1 << 20);
}

static int check_memory(const struct wl_common *c, const struct wl_topo *topo,
			uint64_t footprint, char *err, size_t errlen)
{
	uint64_t avail = 0;
	int n;

	if (c->mem_node >= 0) {
		avail = topo->mem[c->mem_node];
	} else {
		for (n = 0; n < topo->nodes; n++)
			avail += topo->mem[n];
	}
	if (footprint <= avail)
		return 0;
	if (c->mem_node >= 0)
		snprintf(err, errlen, "--size needs %.1f MiB of memory, more than the "
			 "%.1f MiB of node %d", mib(footprint), mib(avail), c->mem_node);
	else
		snprintf(err, errlen, "--size needs %.1f MiB of memory, more than the "
			 "%.1f MiB of the system", mib(footprint), mib(avail));
	return -1;
}

int wl_resolve(struct wl_common *c, const struct wl_topo *topo, uint64_t footprint,
	       enum wl_spread spread, char *err, size_t errlen)
{
	if (!c->size) {
		snprintf(err, errlen, "--size must be greater than 0");
		return -1;
	}
	if (c->locality_every && !c->samples) {
		snprintf(err, errlen, "--samples must be greater than 0 to sample locality");
		return -1;
	}
	if (check_node("--node", c->node, topo, err, errlen))
		return -1;
	if (derive_mem_node(c, topo, err, errlen))
		return -1;
	if (check_threads(c, topo, spread, err, errlen))
		return -1;
	return check_memory(c, topo, footprint, err, errlen);
}

/* The @k-th node with memory counted from @from, wrapping. */
static int nth_node(const struct wl_topo *topo, int from, unsigned int k)
{
	int node = from;

	while (k--)
		node = next_node(topo, node);
	return node;
}

void wl_group_nodes(const struct wl_common *c, const struct wl_topo *topo,
		    unsigned int group, int *run_node, int *mem_node)
{
	unsigned int offset = 0;
	int node;

	if (c->placement == WL_FREE) {
		*run_node = *mem_node = -1;
		return;
	}
	*run_node = nth_node(topo, c->node, group);
	if (c->mem_node < 0) {
		*mem_node = -1;
		return;
	}
	/* keep the distance from --node to --mem-node for every group */
	for (node = c->node; node != c->mem_node && offset < (unsigned int)topo->nodes; offset++)
		node = next_node(topo, node);
	*mem_node = nth_node(topo, *run_node, offset);
}
