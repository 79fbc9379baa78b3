/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest NUMA topology: nodes, CPUs and memory per node, and the full
 * (possibly asymmetric) SLIT distance matrix. One description feeds the
 * -numa lines, the HMAT entries, the latency plugin and the cost model.
 */
#ifndef BNB_TOPOLOGY_H
#define BNB_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#define BNB_MAX_NODES		64
#define BNB_MAX_CPUS		256
#define BNB_LOCAL_DISTANCE	10
#define BNB_MIN_DISTANCE	10
#define BNB_MAX_DISTANCE	255
#define BNB_MEM_ALIGN		(2ULL << 20)	/* THP size: a node holds whole huge pages */
#define BNB_MAX_NODE_MEM	(1ULL << 40)

struct bnb_topology {
	int nodes;
	int cpus[BNB_MAX_NODES];		/* vCPUs of each node */
	uint64_t mem[BNB_MAX_NODES];		/* bytes of each node */
	int dist[BNB_MAX_NODES][BNB_MAX_NODES];	/* SLIT, row = initiator */
};

/* Defaults: N nodes, 1 CPU and 512 MiB each, 10 local and 20 remote. */
void topo_init(struct bnb_topology *t, int nodes);

/*
 * The parsers fill one field from a user string and return 0, or -1 with
 * a message in err (bench/lib/err.h) that the caller prefixes with the
 * field's name as the user knows it (--cpus, key 'cpus'). They expect
 * t->nodes to be set; topo_parse_nodes() resets the rest to the defaults.
 * Memory sizes follow bench/lib/parse.h: a bare number is bytes.
 * The code is in bench/lib/topology.c.
 */
int topo_parse_nodes(struct bnb_topology *t, const char *s, char *err, size_t errlen);
int topo_parse_cpus(struct bnb_topology *t, const char *s, char *err, size_t errlen);
int topo_parse_mem(struct bnb_topology *t, const char *s, char *err, size_t errlen);
int topo_parse_distance(struct bnb_topology *t, const char *s, char *err, size_t errlen);

/* Whole-description checks that no single field can make. */
int topo_validate(const struct bnb_topology *t, char *err, size_t errlen);

int topo_total_cpus(const struct bnb_topology *t);
uint64_t topo_total_mem(const struct bnb_topology *t);
/* Node of a vCPU: vCPUs are numbered node by node. -1 if out of range. */
int topo_cpu_node(const struct bnb_topology *t, int cpu);
/* Mean remote distance / 10, the seed's Wnuma; 1.0 with one node. */
double topo_wnuma(const struct bnb_topology *t);

/* The fields as the parsers accept them: "10,20;20,10", "1,1", "512M,512M". */
int topo_format_distance(const struct bnb_topology *t, char *buf, size_t len);
int topo_format_cpus(const struct bnb_topology *t, char *buf, size_t len);
int topo_format_mem(const struct bnb_topology *t, char *buf, size_t len);

#endif
