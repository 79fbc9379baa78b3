// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing and validation of the guest NUMA topology. Everything a user
 * can get wrong is caught here, with the field named, before QEMU runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bnb_topology.h"

#define MIB (1ULL << 20)

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

/* A whole decimal number, nothing else, within [min, max]. */
static int parse_int(const char *s, long min, long max, long *val)
{
	char *end;

	errno = 0;
	*val = strtol(s, &end, 10);
	if (errno || end == s || *end || *val < min || *val > max)
		return -1;
	return 0;
}

int parse_size(const char *s, uint64_t *bytes)
{
	unsigned long long n;
	uint64_t unit = MIB;
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K': unit = 1ULL << 10; break;
	case 'm': case 'M': unit = MIB; break;
	case 'g': case 'G': unit = 1ULL << 30; break;
	case '\0': break;
	default: return -1;
	}
	if (*end) {
		end++;
		/* 512M, 512MB and 512MiB all mean MiB */
		if (!strcmp(end, "B") || !strcmp(end, "iB"))
			end += strlen(end);
	}
	if (*end || n > UINT64_MAX / unit)
		return -1;
	*bytes = n * unit;
	return 0;
}

int topo_parse_nodes(struct bnb_topology *t, const char *s, char *err)
{
	long n;

	if (parse_int(s, 1, BNB_MAX_NODES, &n)) {
		snprintf(err, BNB_ERRLEN, "nodes: '%s' is not a number from 1 to %d",
			 s, BNB_MAX_NODES);
		return -1;
	}
	topo_init(t, n);
	return 0;
}

/*
 * Split a comma list into at most max items; a single item stands for
 * every node. Returns the number of items or -1.
 */
static int split_list(char *s, char sep, char **items, int max)
{
	int n = 0;
	char *tok, *save;

	for (tok = strtok_r(s, (char []){ sep, 0 }, &save); tok;
	     tok = strtok_r(NULL, (char []){ sep, 0 }, &save)) {
		if (n == max)
			return -1;
		items[n++] = tok;
	}
	return n;
}

/*
 * A per-node list: one value for every node, or exactly one per node.
 * Fills item[i] for each node; the strings live in buf.
 */
static int per_node_items(const struct bnb_topology *t, const char *field,
			  const char *s, char *buf, size_t len, char **item, char *err)
{
	char *items[BNB_MAX_NODES];
	int n, i;

	snprintf(buf, len, "%s", s);
	n = split_list(buf, ',', items, BNB_MAX_NODES);
	if (n != 1 && n != t->nodes) {
		snprintf(err, BNB_ERRLEN, "%s: '%s' needs one value or %d (one per node)",
			 field, s, t->nodes);
		return -1;
	}
	for (i = 0; i < t->nodes; i++)
		item[i] = items[n == 1 ? 0 : i];
	return 0;
}

int topo_parse_cpus(struct bnb_topology *t, const char *s, char *err)
{
	char buf[1024], *item[BNB_MAX_NODES];
	long v;
	int i;

	if (per_node_items(t, "cpus", s, buf, sizeof(buf), item, err))
		return -1;
	for (i = 0; i < t->nodes; i++) {
		if (parse_int(item[i], 0, BNB_MAX_CPUS, &v)) {
			snprintf(err, BNB_ERRLEN, "cpus: '%s' for node %d is not a number from 0 to %d",
				 item[i], i, BNB_MAX_CPUS);
			return -1;
		}
		t->cpus[i] = v;
	}
	return 0;
}

int topo_parse_mem(struct bnb_topology *t, const char *s, char *err)
{
	char buf[1024], *item[BNB_MAX_NODES];
	uint64_t bytes;
	int i;

	if (per_node_items(t, "mem", s, buf, sizeof(buf), item, err))
		return -1;
	for (i = 0; i < t->nodes; i++) {
		if (parse_size(item[i], &bytes) || !bytes) {
			snprintf(err, BNB_ERRLEN, "mem: '%s' for node %d is not a size like 512M or 1G",
				 item[i], i);
			return -1;
		}
		if (bytes % BNB_MEM_ALIGN) {
			snprintf(err, BNB_ERRLEN, "mem: '%s' for node %d is not a multiple of 2 MiB",
				 item[i], i);
			return -1;
		}
		t->mem[i] = bytes;
	}
	return 0;
}

static int parse_distance_row(struct bnb_topology *t, int row, char *s, char *err)
{
	char *items[BNB_MAX_NODES + 1];
	int n, col;
	long v;

	n = split_list(s, ',', items, BNB_MAX_NODES + 1);
	if (n != t->nodes) {
		snprintf(err, BNB_ERRLEN,
			 "distance: row %d has %d values, a %d-node matrix needs %d (not square)",
			 row, n < 0 ? BNB_MAX_NODES + 1 : n, t->nodes, t->nodes);
		return -1;
	}
	for (col = 0; col < n; col++) {
		if (parse_int(items[col], 0, 100000, &v) ||
		    v < BNB_MIN_DISTANCE || v > BNB_MAX_DISTANCE) {
			snprintf(err, BNB_ERRLEN,
				 "distance: [%d][%d] = '%s' is outside %d..%d",
				 row, col, items[col], BNB_MIN_DISTANCE, BNB_MAX_DISTANCE);
			return -1;
		}
		t->dist[row][col] = v;
	}
	return 0;
}

/* Rows split by ';' or '/', values by ','. */
int topo_parse_distance(struct bnb_topology *t, const char *s, char *err)
{
	char buf[8192], *rows[BNB_MAX_NODES + 1], *p;
	int n, row;

	if (strlen(s) >= sizeof(buf)) {
		snprintf(err, BNB_ERRLEN, "distance: matrix string too long");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	for (p = buf; *p; p++)
		if (*p == '/')
			*p = ';';
	n = split_list(buf, ';', rows, BNB_MAX_NODES + 1);
	if (n != t->nodes) {
		snprintf(err, BNB_ERRLEN,
			 "distance: %d rows for %d nodes (not square)",
			 n < 0 ? BNB_MAX_NODES + 1 : n, t->nodes);
		return -1;
	}
	for (row = 0; row < n; row++)
		if (parse_distance_row(t, row, rows[row], err))
			return -1;
	return 0;
}

int topo_validate(const struct bnb_topology *t, char *err)
{
	int i, j;

	if (t->nodes < 1 || t->nodes > BNB_MAX_NODES) {
		snprintf(err, BNB_ERRLEN, "nodes: %d is not from 1 to %d",
			 t->nodes, BNB_MAX_NODES);
		return -1;
	}
	if (topo_total_cpus(t) == 0) {
		snprintf(err, BNB_ERRLEN, "cpus: zero CPUs in total");
		return -1;
	}
	if (topo_total_cpus(t) > BNB_MAX_CPUS) {
		snprintf(err, BNB_ERRLEN, "cpus: %d in total, at most %d",
			 topo_total_cpus(t), BNB_MAX_CPUS);
		return -1;
	}
	for (i = 0; i < t->nodes; i++) {
		if (!t->mem[i] || t->mem[i] % BNB_MEM_ALIGN) {
			snprintf(err, BNB_ERRLEN,
				 "mem: node %d has %llu bytes, not a non-zero multiple of 2 MiB",
				 i, (unsigned long long)t->mem[i]);
			return -1;
		}
		for (j = 0; j < t->nodes; j++) {
			int d = t->dist[i][j];

			if (i == j && d != BNB_LOCAL_DISTANCE) {
				snprintf(err, BNB_ERRLEN,
					 "distance: self-distance [%d][%d] is %d, must be %d",
					 i, j, d, BNB_LOCAL_DISTANCE);
				return -1;
			}
			if (i != j && (d <= BNB_LOCAL_DISTANCE || d > BNB_MAX_DISTANCE)) {
				snprintf(err, BNB_ERRLEN,
					 "distance: [%d][%d] is %d, remote distances are %d..%d",
					 i, j, d, BNB_LOCAL_DISTANCE + 1, BNB_MAX_DISTANCE);
				return -1;
			}
		}
	}
	return 0;
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
