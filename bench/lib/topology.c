// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing and validation of the guest NUMA topology, shared by the
 * launcher, the collector and the runner so that a topology is read one
 * way everywhere. Everything a user can get wrong is caught here, with the
 * field named, before QEMU runs.
 */
#include <stdio.h>
#include <string.h>

#include "bnb_topology.h"
#include "lib/err.h"
#include "lib/parse.h"

#define MIB (1ULL << 20)
#define LIST_MAX 20480	/* longest list text: 64 rows of 64 distances fit */

void topo_init(struct bnb_topology *t, int nodes)
{
	int i, j;

	memset(t, 0, sizeof(*t));
	t->nodes = nodes;
	for (i = 0; i < nodes; i++) {
		t->cpus[i] = 1;
		t->mem[i] = 512 * MIB;
		for (j = 0; j < nodes; j++)
			t->dist[i][j] = i == j ? BNB_LOCAL_DISTANCE : 20;
	}
}

int topo_parse_nodes(struct bnb_topology *t, const char *s, char *err, size_t errlen)
{
	int n;

	if (parse_int(s, 1, BNB_MAX_NODES, &n, err, errlen))
		return -1;
	topo_init(t, n);
	return 0;
}

/* A copy of S split at SEP into buf; -1 when too long or an item is empty. */
static int split_copy(const char *s, char sep, char *buf, char **items, int max,
		      char *err, size_t errlen)
{
	int n;

	if (snprintf(buf, LIST_MAX, "%s", s) >= LIST_MAX)
		return errf(err, errlen, "value too long");
	n = split_list(buf, sep, items, max);
	if (n < 0)
		return errf(err, errlen, "'%s' has an empty item or more than %d", s, max - 1);
	return n;
}

/*
 * A per-node list: one value for every node, or exactly one per node.
 * Fills item[i] for each node; the strings live in buf.
 */
static int per_node_items(const struct bnb_topology *t, const char *s, char *buf,
			  char **item, char *err, size_t errlen)
{
	char *items[BNB_MAX_NODES + 1];
	int n, i;

	n = split_copy(s, ',', buf, items, BNB_MAX_NODES + 1, err, errlen);
	if (n < 0)
		return -1;
	if (n != 1 && n != t->nodes)
		return errf(err, errlen, "'%s' has %d values: give one, or one per node (%d)",
			    s, n, t->nodes);
	for (i = 0; i < t->nodes; i++)
		item[i] = items[n == 1 ? 0 : i];
	return 0;
}

int topo_parse_cpus(struct bnb_topology *t, const char *s, char *err, size_t errlen)
{
	char buf[LIST_MAX], *item[BNB_MAX_NODES];
	int i;

	if (per_node_items(t, s, buf, item, err, errlen))
		return -1;
	for (i = 0; i < t->nodes; i++)
		if (parse_int(item[i], 0, BNB_MAX_CPUS, &t->cpus[i], err, errlen))
			return -1;
	return 0;
}

int topo_parse_mem(struct bnb_topology *t, const char *s, char *err, size_t errlen)
{
	char buf[LIST_MAX], *item[BNB_MAX_NODES];
	int i;

	if (per_node_items(t, s, buf, item, err, errlen))
		return -1;
	for (i = 0; i < t->nodes; i++) {
		if (parse_size(item[i], BNB_MEM_ALIGN, BNB_MAX_NODE_MEM, &t->mem[i], err, errlen))
			return -1;
		if (t->mem[i] % BNB_MEM_ALIGN)
			return errf(err, errlen, "'%s' is not a multiple of 2 MiB", item[i]);
	}
	return 0;
}

static int parse_distance_row(struct bnb_topology *t, int row, char *s,
			      char *err, size_t errlen)
{
	char *items[BNB_MAX_NODES + 1];
	int n, col;

	n = split_list(s, ',', items, BNB_MAX_NODES + 1);
	if (n < 0)
		return errf(err, errlen, "row %d has an empty value or too many", row);
	if (n != t->nodes)
		return errf(err, errlen, "row %d has %d values, a %d-node matrix needs %d (not square)",
			    row, n, t->nodes, t->nodes);
	for (col = 0; col < n; col++)
		if (parse_int(items[col], BNB_MIN_DISTANCE, BNB_MAX_DISTANCE,
			      &t->dist[row][col], NULL, 0))
			return errf(err, errlen, "[%d][%d] = '%s' is outside %d..%d",
				    row, col, items[col], BNB_MIN_DISTANCE, BNB_MAX_DISTANCE);
	return 0;
}

/* Rows split by ';' or '/', values by ','. */
int topo_parse_distance(struct bnb_topology *t, const char *s, char *err, size_t errlen)
{
	char buf[LIST_MAX], *rows[BNB_MAX_NODES + 1], *p;
	int n, row;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return errf(err, errlen, "matrix text too long");
	for (p = buf; *p; p++)
		if (*p == '/')
			*p = ';';
	n = split_list(buf, ';', rows, BNB_MAX_NODES + 1);
	if (n < 0)
		return errf(err, errlen, "'%s' has an empty row or more than %d", s, BNB_MAX_NODES);
	if (n != t->nodes)
		return errf(err, errlen, "%d rows for %d nodes (not square)", n, t->nodes);
	for (row = 0; row < n; row++)
		if (parse_distance_row(t, row, rows[row], err, errlen))
			return -1;
	return 0;
}

static int validate_distances(const struct bnb_topology *t, char *err, size_t errlen)
{
	int i, j, d;

	for (i = 0; i < t->nodes; i++)
		for (j = 0; j < t->nodes; j++) {
			d = t->dist[i][j];
			if (i == j && d != BNB_LOCAL_DISTANCE)
				return errf(err, errlen,
					    "distance: self-distance [%d][%d] is %d, must be %d",
					    i, j, d, BNB_LOCAL_DISTANCE);
			if (i != j && (d <= BNB_LOCAL_DISTANCE || d > BNB_MAX_DISTANCE))
				return errf(err, errlen,
					    "distance: [%d][%d] is %d, remote distances are %d..%d",
					    i, j, d, BNB_LOCAL_DISTANCE + 1, BNB_MAX_DISTANCE);
		}
	return 0;
}

int topo_validate(const struct bnb_topology *t, char *err, size_t errlen)
{
	int i;

	if (t->nodes < 1 || t->nodes > BNB_MAX_NODES)
		return errf(err, errlen, "nodes: %d is not from 1 to %d", t->nodes, BNB_MAX_NODES);
	if (topo_total_cpus(t) == 0)
		return errf(err, errlen, "cpus: zero CPUs in total");
	if (topo_total_cpus(t) > BNB_MAX_CPUS)
		return errf(err, errlen, "cpus: %d in total, at most %d",
			    topo_total_cpus(t), BNB_MAX_CPUS);
	for (i = 0; i < t->nodes; i++)
		if (!t->mem[i] || t->mem[i] % BNB_MEM_ALIGN)
			return errf(err, errlen,
				    "mem: node %d has %llu bytes, not a non-zero multiple of 2 MiB",
				    i, (unsigned long long)t->mem[i]);
	return validate_distances(t, err, errlen);
}

int topo_total_cpus(const struct bnb_topology *t)
{
	int i, n = 0;

	for (i = 0; i < t->nodes; i++)
		n += t->cpus[i];
	return n;
}

uint64_t topo_total_mem(const struct bnb_topology *t)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < t->nodes; i++)
		sum += t->mem[i];
	return sum;
}

int topo_cpu_node(const struct bnb_topology *t, int cpu)
{
	int node;

	if (cpu < 0)
		return -1;
	for (node = 0; node < t->nodes; node++) {
		if (cpu < t->cpus[node])
			return node;
		cpu -= t->cpus[node];
	}
	return -1;
}

double topo_wnuma(const struct bnb_topology *t)
{
	long sum = 0, pairs = 0;
	int i, j;

	for (i = 0; i < t->nodes; i++)
		for (j = 0; j < t->nodes; j++)
			if (i != j) {
				sum += t->dist[i][j];
				pairs++;
			}
	return pairs ? (double)sum / pairs / BNB_LOCAL_DISTANCE : 1.0;
}

int topo_format_distance(const struct bnb_topology *t, char *buf, size_t len)
{
	size_t used = 0;
	int i, j, n;

	buf[0] = '\0';
	for (i = 0; i < t->nodes; i++)
		for (j = 0; j < t->nodes; j++) {
			n = snprintf(buf + used, len - used, "%d%s", t->dist[i][j],
				     j < t->nodes - 1 ? "," : i < t->nodes - 1 ? ";" : "");
			if (n < 0 || (size_t)n >= len - used)
				return -1;
			used += n;
		}
	return 0;
}

/* LIST of the nodes' N values as "a,b,c", through FMT_ONE. */
static int format_per_node(const struct bnb_topology *t, char *buf, size_t len,
			   void (*fmt_one)(const struct bnb_topology *t, int node, char *b, size_t l))
{
	size_t used = 0;
	char one[32];
	int i, n;

	buf[0] = '\0';
	for (i = 0; i < t->nodes; i++) {
		fmt_one(t, i, one, sizeof(one));
		n = snprintf(buf + used, len - used, "%s%s", i ? "," : "", one);
		if (n < 0 || (size_t)n >= len - used)
			return -1;
		used += n;
	}
	return 0;
}

static void format_cpus_one(const struct bnb_topology *t, int node, char *b, size_t l)
{
	snprintf(b, l, "%d", t->cpus[node]);
}

static void format_mem_one(const struct bnb_topology *t, int node, char *b, size_t l)
{
	format_size(t->mem[node], b, l);
}

int topo_format_cpus(const struct bnb_topology *t, char *buf, size_t len)
{
	return format_per_node(t, buf, len, format_cpus_one);
}

int topo_format_mem(const struct bnb_topology *t, char *buf, size_t len)
{
	return format_per_node(t, buf, len, format_mem_one);
}
