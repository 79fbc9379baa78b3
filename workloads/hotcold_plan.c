// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <stdio.h>

#include "common.h"
#include "hotcold_plan.h"
#include "lib/err.h"

#define PAGE 4096

#define O(f) OPT_FIELD(struct hotcold_cfg, f)
static const struct opt_def rows[] = {
	{ "size", OPT_SIZE, O(com.size), .min = 2 * PAGE, .max = WL_SIZE_MAX, .def = "64M",
	  .help = "bytes of the working set, a multiple of 4K" },
	{ "hot-size", OPT_SIZE, O(hot_size), .min = PAGE, .max = WL_SIZE_MAX, .def = "8M",
	  .help = "bytes of the hot set, a window of the working set, a multiple of 4K" },
	{ "hot-pct", OPT_INT, O(hot_pct), .min = 0, .max = 100, .def = "90",
	  .help = "percent of the accesses that go to the hot set; the rest go to the "
		  "cold lines, uniformly" },
	{ "slow-size", OPT_SIZE, O(slow_size), .min = 0, .max = WL_SIZE_MAX,
	  .help = "bytes of the working set, from its start (the first hot window), a multiple "
		  "of 4K, first touched on the slow node, the rest on --node; default the hot set's size: "
		  "the hot set starts slow, every cold page fast" },
	{ "slow-node", OPT_INT, O(slow_node), .min = 0, .max = WL_NODE_MAX,
	  .help = "the slow memory node, where the hot set starts; default the first node "
		  "with memory and no CPUs (a CXL node), else the next node after --node" },
	WL_ROW_THREADS(O, "threads, 0: every CPU of --node"),
	WL_ROW_NODE(O, "node whose CPUs run the threads and which holds the fast part"),
	{ "move-s", OPT_DOUBLE, O(move_s), .dmin = 0.001, .dmax = 86400, .metavar = "SECONDS",
	  .help = "move the hot set to the next window of the working set (wrapping) every "
		  "SECONDS of CLOCK_MONOTONIC; default never" },
	WL_ROW_ITERATIONS(O, "30", WL_ROWS_MAX, "rows to run for, one per --interval-ms"),
	WL_ROW_INTERVAL(O, interval_ms, "1000"),
	{ "seed", OPT_INT, O(seed), .min = 0, .max = INT_MAX, .def = "1",
	  .help = "seed of the threads' random accesses" },
	{ "thp", OPT_BOOL, O(thp), .def = "off",
	  .help = "leave the working set to transparent huge pages (off: MADV_NOHUGEPAGE, "
		  "so pages move one 4K page at a time)" },
	WL_ROW_LOCALITY(O),
	WL_ROW_CHECK(O),
};
const struct opt_tool hotcold_tool = {
	"hotcold [options]",
	"Random reads of a working set, most of them to a hot set that starts in slow\n"
	"(CPU-less) memory while the cold pages fill fast memory: what memory tiering\n"
	"(numa_balancing = 2) has to promote. The hot set can move every --move-s.\n",
	rows, ARRAY_SIZE(rows),
	WL_EPILOG,
};

void hotcold_init(struct hotcold_cfg *c)
{
	wl_common_init(&c->com);
	c->slow_size = HOTCOLD_SLOW_DERIVED;
	c->slow_node = -1;
}

static double mib(uint64_t bytes)
{
	return (double)bytes / (1 << 20);
}

int hotcold_check(const struct hotcold_cfg *c, char *err, size_t errlen)
{
	const struct { const char *name; uint64_t v; } sizes[] = {
		{ "size", c->com.size }, { "hot-size", c->hot_size },
		{ "slow-size", c->slow_size == HOTCOLD_SLOW_DERIVED ? 0 : c->slow_size },
	};

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		if (sizes[i].v % PAGE)
			return errf(err, errlen, "--%s %llu is not a multiple of 4K",
				    sizes[i].name, (unsigned long long)sizes[i].v);
	if (c->hot_size > c->com.size)
		return errf(err, errlen, "--hot-size %.1f MiB is larger than the working set "
			    "(--size %.1f MiB)", mib(c->hot_size), mib(c->com.size));
	if (c->slow_size != HOTCOLD_SLOW_DERIVED && c->slow_size > c->com.size)
		return errf(err, errlen, "--slow-size %.1f MiB is larger than the working set "
			    "(--size %.1f MiB)", mib(c->slow_size), mib(c->com.size));
	if (c->move_s > 0 && hotcold_windows(c) < 2)
		return errf(err, errlen, "--move-s: the hot set (%.1f MiB) has nowhere to move "
			    "in a working set of %.1f MiB; make --size at least twice --hot-size",
			    mib(c->hot_size), mib(c->com.size));
	return 0;
}

/* The first node with memory and no CPUs; else the next one with memory after @node. */
static int default_slow_node(const struct wl_topo *topo, int node)
{
	for (int n = 0; n < topo->nodes; n++)
		if (topo->present[n] && !topo->cpus[n])
			return n;
	for (int i = 1; i < topo->nodes; i++)
		if (topo->present[(node + i) % topo->nodes])
			return (node + i) % topo->nodes;
	return -1;
}

static int resolve_slow(struct hotcold_cfg *c, const struct wl_topo *topo, char *err,
			size_t errlen)
{
	int s = c->slow_node;

	if (s < 0)
		s = c->slow_node = default_slow_node(topo, c->com.node);
	if (s < 0)
		return errf(err, errlen, "the hot set needs a second node with memory to start "
			    "on; this system has one");
	if (s >= topo->nodes || !topo->present[s])
		return errf(err, errlen, "--slow-node %d: no such NUMA node with memory "
			    "(nodes are 0-%d)", s, topo->nodes - 1);
	if (s == c->com.node)
		return errf(err, errlen, "--slow-node %d is --node: the hot set would start "
			    "where the threads run", s);
	return 0;
}

static int resolve_node(struct hotcold_cfg *c, const struct wl_topo *topo, char *err,
			size_t errlen)
{
	int n = c->com.node;

	if (n >= topo->nodes || !topo->present[n])
		return errf(err, errlen, "--node %d: no such NUMA node with memory "
			    "(nodes are 0-%d)", n, topo->nodes - 1);
	if (!topo->cpus[n])
		return errf(err, errlen, "--node %d has no CPUs to run the threads", n);
	if (!c->com.threads)
		c->com.threads = topo->cpus[n];
	if (c->com.threads > topo->cpus[n])
		return errf(err, errlen, "--threads %u: node %d has %u CPUs", c->com.threads, n,
			    topo->cpus[n]);
	return 0;
}

int hotcold_resolve(struct hotcold_cfg *c, const struct wl_topo *topo, char *err,
		    size_t errlen)
{
	uint64_t fast;

	if (hotcold_check(c, err, errlen) || resolve_node(c, topo, err, errlen) ||
	    resolve_slow(c, topo, err, errlen))
		return -1;
	if (c->slow_size == HOTCOLD_SLOW_DERIVED)
		c->slow_size = c->hot_size;
	if (c->slow_size > topo->mem[c->slow_node])
		return errf(err, errlen, "--slow-size %.1f MiB is more than slow node %d's "
			    "%.1f MiB", mib(c->slow_size), c->slow_node,
			    mib(topo->mem[c->slow_node]));
	fast = c->com.size - c->slow_size;
	if (fast > topo->mem[c->com.node])
		return errf(err, errlen, "--size: %.1f MiB of the working set go to node %d, "
			    "which has %.1f MiB; raise --slow-size or lower --size", mib(fast),
			    c->com.node, mib(topo->mem[c->com.node]));
	return 0;
}

uint64_t hotcold_windows(const struct hotcold_cfg *c)
{
	return c->hot_size ? c->com.size / c->hot_size : 0;
}

uint64_t hotcold_seed(int seed, unsigned int t)
{
	uint64_t s = ((uint64_t)(unsigned int)seed << 32 | t) * 0x9e3779b97f4a7c15ull;

	return s ? s : 1;
}

uint64_t hotcold_threshold(int pct)
{
	return ((uint64_t)pct << 32) / 100;
}
