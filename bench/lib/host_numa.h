/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's NUMA nodes, for a KVM guest whose nodes should have the
 * host's real latencies: each guest node's memory bound to its own host
 * node (memory-backend host-nodes=, policy=bind) and its vCPU threads
 * pinned to that node's CPUs. bnb-vm does the binding and the runner
 * labels latency "real" from the same decision, host_numa_bind().
 */
#ifndef BNB_LIB_HOST_NUMA_H
#define BNB_LIB_HOST_NUMA_H

#include <sched.h>
#include <stddef.h>

#include "bnb_topology.h"

struct host_node {
	int id;			/* the host's node number */
	int n_cpus;
	cpu_set_t cpus;
};

/* Host nodes that have memory; tests fill one by hand. */
struct host_numa {
	int n;
	struct host_node node[BNB_MAX_NODES];
};

/* This host's nodes through libnuma: one node with every CPU without NUMA. */
int host_numa_read(struct host_numa *h);

/*
 * Give every guest node of T its own host node of H, one with CPUs when
 * the guest node has vCPUs: map[i] is an index into h->node. 0, or -1
 * with why (the host has too few nodes) and map untouched.
 */
int host_numa_bind(const struct host_numa *h, const struct bnb_topology *t, int *map,
		   char *why, size_t whylen);

#endif
