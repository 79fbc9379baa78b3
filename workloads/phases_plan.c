// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/parse.h"
#include "phases_plan.h"

/* x = K - x: an involution, so the parity of the updates says the value */
#define PHASES_K 0x5a5a5a5a5a5a5a5aull
#define MAX_PHASES 100000

static int parse_nodes_opt(const struct opt_def *o, const char *value, void *field,
			   char *err, size_t errlen)
{
	struct wl_nodelist scratch;

	return phases_parse_nodes(value, field ? field : &scratch, err, errlen);
}

#define O(f) OPT_FIELD(struct phases_cfg, f)
static const struct opt_def rows[] = {
	{ "size", OPT_SIZE, O(com.size), .min = 4096, .max = WL_SIZE_MAX, .def = "16M",
	  .help = "bytes of each thread's private buffer" },
	WL_ROW_THREADS(O, "threads, 0: one per node of --nodes; thread t starts on the t-th "
		       "node of the list (wrapping)"),
	{ "nodes", OPT_FUNC, O(nodes), .metavar = "LIST", .parse = parse_nodes_opt,
	  .help = "the nodes to rotate over, in order (\"0,1\", \"0-3\"); default every "
		  "node with CPUs and memory" },
	{ "phases", OPT_INT, O(phases), .min = 1, .max = MAX_PHASES, .def = "4",
	  .help = "phases to run; in phase p thread t runs on node (t + p) mod the "
		  "list, its memory stays where it is" },
	{ "phase-s", OPT_DOUBLE, O(phase_s), .dmin = 0.001, .dmax = 86400,
	  .metavar = "SECONDS",
	  .help = "length of a phase in seconds of CLOCK_MONOTONIC (give this or "
		  "--phase-passes)" },
	{ "phase-passes", OPT_INT, O(phase_passes), .min = 1, .max = 1000000000,
	  .help = "length of a phase in passes of every thread over its buffer "
		  "(give this or --phase-s)" },
	WL_ROW_INTERVAL(O, interval_ms, "100"),
	WL_ROW_LOCALITY(O),
	WL_ROW_CHECK(O),
};
const struct opt_tool phases_tool = {
	"phases [options]",
	"Threads with private buffers move to the next node every phase while their\n"
	"memory stays: every phase after the first starts all remote until NUMA\n"
	"balancing brings the pages. Give --phase-s or --phase-passes.\n",
	rows, ARRAY_SIZE(rows),
	WL_EPILOG,
};

static int parse_range(char *item, int *lo, int *hi, char *err, size_t errlen)
{
	char *dash = strchr(item + 1, '-');	/* "-1" is a number, refused below */

	if (!dash) {
		if (parse_int(item, 0, WL_MAX_NODES - 1, lo, err, errlen))
			return -1;
		*hi = *lo;
		return 0;
	}
	*dash = '\0';
	if (parse_int(item, 0, WL_MAX_NODES - 1, lo, err, errlen) ||
	    parse_int(dash + 1, 0, WL_MAX_NODES - 1, hi, err, errlen))
		return -1;
	if (*lo > *hi)
		return errf(err, errlen, "range %d-%d runs backwards", *lo, *hi);
	return 0;
}

static bool listed(const struct wl_nodelist *list, int node)
{
	int i;

	for (i = 0; i < list->n; i++)
		if (list->node[i] == node)
			return true;
	return false;
}

int phases_parse_nodes(const char *text, struct wl_nodelist *list, char *err, size_t errlen)
{
	char buf[512], *items[WL_MAX_NODES];
	int n, i, lo, hi;

	if (strlen(text) >= sizeof(buf))
		return errf(err, errlen, "node list too long");
	strcpy(buf, text);
	n = split_list(buf, ',', items, WL_MAX_NODES);
	if (n < 0)
		return errf(err, errlen, "'%s': want node numbers or ranges separated by "
			    "commas, e.g. 0,1 or 0-3", text);
	list->n = 0;
	for (i = 0; i < n; i++) {
		if (parse_range(items[i], &lo, &hi, err, errlen))
			return -1;
		for (; lo <= hi; lo++) {
			if (listed(list, lo))
				return errf(err, errlen, "node %d listed twice in '%s'", lo, text);
			list->node[list->n++] = lo;
		}
	}
	return 0;
}

void phases_format_nodes(const struct wl_nodelist *list, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < list->n && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%d", i ? "," : "", list->node[i]);
}

int phases_check(const struct phases_cfg *c, char *err, size_t errlen)
{
	if ((c->phase_s > 0) == (c->phase_passes > 0))
		return errf(err, errlen, "give exactly one of --phase-s and --phase-passes");
	if (!c->com.samples)
		return errf(err, errlen, "--samples must be greater than 0: the phase lines "
			    "always sample locality");
	if (c->nodes.n == 1)
		return errf(err, errlen, "--nodes %d: the threads need at least two nodes to "
			    "move between", c->nodes.node[0]);
	return 0;
}

static void every_node(struct wl_nodelist *list, const struct wl_topo *topo)
{
	int node;

	list->n = 0;
	for (node = 0; node < topo->nodes; node++)
		if (topo->present[node] && topo->cpus[node])
			list->node[list->n++] = node;
}

static double mib(uint64_t bytes)
{
	return (double)bytes / (1 << 20);
}

/* Threads that share one node in every phase: the list's share, rounded up. */
static unsigned int threads_per_node(const struct phases_cfg *c)
{
	return (c->com.threads + (unsigned int)c->nodes.n - 1) / (unsigned int)c->nodes.n;
}

static int check_node(const struct phases_cfg *c, const struct wl_topo *topo, int node,
		      char *err, size_t errlen)
{
	unsigned int per = threads_per_node(c);

	if (node >= topo->nodes || !topo->present[node])
		return errf(err, errlen, "--nodes: node %d: no such NUMA node with memory "
			    "(nodes are 0-%d)", node, topo->nodes - 1);
	if (topo->cpus[node] < per)
		return errf(err, errlen, "--threads %u puts %u threads on node %d, which has "
			    "%u CPUs", c->com.threads, per, node, topo->cpus[node]);
	if (per * c->com.size > topo->mem[node])
		return errf(err, errlen, "--size: %u buffers of %.1f MiB on node %d are more "
			    "than its %.1f MiB", per, mib(c->com.size), node, mib(topo->mem[node]));
	return 0;
}

int phases_resolve(struct phases_cfg *c, const struct wl_topo *topo, char *err, size_t errlen)
{
	int i;

	if (phases_check(c, err, errlen))
		return -1;
	if (!c->nodes.n)
		every_node(&c->nodes, topo);
	if (c->nodes.n < 2)
		return errf(err, errlen, "the threads need two nodes with CPUs and memory to "
			    "move between; this system has %d", c->nodes.n);
	if (!c->com.threads)
		c->com.threads = (unsigned int)c->nodes.n;
	for (i = 0; i < c->nodes.n; i++)
		if (check_node(c, topo, c->nodes.node[i], err, errlen))
			return -1;
	return 0;
}

int phases_node(const struct phases_cfg *c, unsigned int t, unsigned int p)
{
	return c->nodes.node[(t + p) % (unsigned int)c->nodes.n];
}

static uint64_t first_value(size_t j, unsigned int t)
{
	return (uint64_t)j ^ ((uint64_t)t << 40);
}

void phases_fill(uint64_t *x, size_t n, unsigned int t)
{
	size_t j;

	for (j = 0; j < n; j++)
		x[j] = first_value(j, t);
}

void phases_update(uint64_t *x, size_t from, size_t to)
{
	size_t j;

	for (j = from; j < to; j++)
		x[j] = PHASES_K - x[j];
}

size_t phases_wrong(const uint64_t *x, size_t n, unsigned int t, uint64_t updates)
{
	uint64_t passes = updates / n, v;
	size_t rest = (size_t)(updates % n), j, wrong = 0;

	for (j = 0; j < n; j++) {
		v = first_value(j, t);
		/* words before the last pass's end had one update more */
		if ((passes + (j < rest)) & 1)
			v = PHASES_K - v;
		wrong += x[j] != v;
	}
	return wrong;
}
