// SPDX-License-Identifier: GPL-2.0
#include <numa.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "host_numa.h"

/* Without NUMA the host is one node: every CPU this process may use. */
static int one_node(struct host_numa *h)
{
	memset(h, 0, sizeof(*h));
	h->n = 1;
	if (sched_getaffinity(0, sizeof(h->node[0].cpus), &h->node[0].cpus))
		return -1;
	h->node[0].n_cpus = CPU_COUNT(&h->node[0].cpus);
	return 0;
}

int host_numa_read(struct host_numa *h)
{
	struct bitmask *mask;
	int node, cpu;

	if (numa_available() < 0)
		return one_node(h);
	memset(h, 0, sizeof(*h));
	mask = numa_allocate_cpumask();
	for (node = 0; node <= numa_max_node() && h->n < BNB_MAX_NODES; node++) {
		struct host_node *hn = &h->node[h->n];

		if (!numa_bitmask_isbitset(numa_nodes_ptr, node) || numa_node_size64(node, NULL) <= 0)
			continue;	/* absent, or CPUs without memory: nothing to bind to */
		hn->id = node;
		if (!numa_node_to_cpus(node, mask))
			for (cpu = 0; cpu < (int)mask->size && cpu < CPU_SETSIZE; cpu++)
				if (numa_bitmask_isbitset(mask, cpu))
					CPU_SET(cpu, &hn->cpus);
		hn->n_cpus = CPU_COUNT(&hn->cpus);
		h->n++;
	}
	numa_free_cpumask(mask);
	return h->n ? 0 : one_node(h);
}

/* The first host node not yet taken, with CPUs when WANT_CPUS. */
static int next_free(const struct host_numa *h, const bool *taken, bool want_cpus)
{
	int i;

	for (i = 0; i < h->n; i++)
		if (!taken[i] && (!want_cpus || h->node[i].n_cpus))
			return i;
	return -1;
}

int host_numa_bind(const struct host_numa *h, const struct bnb_topology *t, int *map,
		   char *why, size_t whylen)
{
	bool taken[BNB_MAX_NODES] = { false };
	int tmp[BNB_MAX_NODES], i, with_cpus = 0, guest_cpus = 0;

	for (i = 0; i < h->n; i++)
		with_cpus += h->node[i].n_cpus > 0;
	for (i = 0; i < t->nodes; i++)
		guest_cpus += t->cpus[i] > 0;
	/* guest nodes with vCPUs first: they need host nodes with CPUs */
	for (i = 0; i < t->nodes; i++) {
		if (!t->cpus[i])
			continue;
		tmp[i] = next_free(h, taken, true);
		if (tmp[i] < 0)
			goto too_few;
		taken[tmp[i]] = true;
	}
	for (i = 0; i < t->nodes; i++) {
		if (t->cpus[i])
			continue;
		tmp[i] = next_free(h, taken, false);
		if (tmp[i] < 0)
			goto too_few;
		taken[tmp[i]] = true;
	}
	memcpy(map, tmp, t->nodes * sizeof(*map));
	return 0;
too_few:
	return errf(why, whylen, "the guest's %d nodes (%d with vCPUs) cannot each have a host "
		    "node: the host has %d with memory, %d of them with CPUs",
		    t->nodes, guest_cpus, h->n, with_cpus);
}
