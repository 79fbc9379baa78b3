// SPDX-License-Identifier: GPL-2.0
/*
 * The workloads' shared option rows on bench/lib/opt (workloads/opts.h)
 * and the checks of the common options against a topology (topo.c).
 */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "lib/err.h"
#include "lib/util.h"

#define MIB (1ull << 20)

/* A program's options as the workloads have them: com first, then its own. */
static struct test_opts {
	struct wl_common com;
	unsigned int interval_ms;
	bool flag;
} o;
#define O(f) OPT_FIELD(struct test_opts, f)
static const struct opt_def rows[] = {
	WL_ROW_SIZE(O, "64M", "size"),
	WL_ROW_THREADS(O, "threads"),
	WL_ROW_ITERATIONS(O, "30", 10000, "iterations"),
	WL_ROW_INTERVAL(O, interval_ms, "1000"),
	WL_ROW_PLACEMENT(O, "local", "placement"),
	WL_ROW_NODE(O, "node"),
	WL_ROW_MEM_NODE(O),
	WL_ROW_LOCALITY(O),
	{ "flag", OPT_FLAG, O(flag), .help = "a flag" },
};
static char err[ERRLEN];

/* What wl_parse_or_exit() does, without the exit: 0, or -1 with err. */
static int parse(int argc, char **argv)
{
	int rc;

	wl_common_init(&o.com);
	o.interval_ms = 0;
	o.flag = false;
	err[0] = '\0';
	cr_assert_eq(opt_defaults(rows, ARRAY_SIZE(rows), &o, err, sizeof(err)), 0, "%s", err);
	rc = opt_getopt(rows, ARRAY_SIZE(rows), argc, argv, &o, false, err, sizeof(err));
	cr_assert(rc < 0 || rc == argc, "argument %d left over", rc);
	return rc < 0 ? rc : 0;
}

#define PARSE(...) ({ char *argv_[] = { "t", __VA_ARGS__, NULL }; \
	parse((int)(sizeof(argv_) / sizeof(argv_[0])) - 1, argv_); })

Test(wl_rows, defaults_and_values_land)
{
	cr_assert_eq(PARSE("--flag"), 0, "%s", err);
	cr_assert_eq(o.com.size, 64 * MIB);
	cr_assert_eq(o.com.threads, 0);
	cr_assert_eq(o.com.iterations, 30);
	cr_assert_eq(o.interval_ms, 1000);
	cr_assert_eq(o.com.placement, WL_LOCAL);
	cr_assert_eq(o.com.node, 0);
	cr_assert_eq(o.com.mem_node, -1, "no default: derived later");
	cr_assert_eq(o.com.locality_every, 1);
	cr_assert_eq(o.com.samples, 256);
	cr_assert(o.flag);
	cr_assert_eq(PARSE("--size", "8M", "--placement=misplaced", "--node", "1",
			   "--mem-node", "0", "--threads", "3", "--iterations", "10000",
			   "--interval-ms", "250", "--samples", "0"), 0, "%s", err);
	cr_assert_eq(o.com.size, 8 * MIB);
	cr_assert_eq(o.com.placement, WL_MISPLACED);
	cr_assert_eq(o.com.node, 1);
	cr_assert_eq(o.com.mem_node, 0);
	cr_assert_eq(o.com.threads, 3);
	cr_assert_eq(o.com.iterations, 10000);
	cr_assert_eq(o.interval_ms, 250);
	cr_assert_eq(o.com.samples, 0);
}

/* The choice word's index is the enum's: the row and wl_placement_names agree. */
Test(wl_rows, every_placement_name)
{
	int p;

	for (p = 0; wl_placement_names[p]; p++) {
		char *argv[] = { "t", "--placement", (char *)wl_placement_names[p], NULL };

		cr_assert_eq(parse(3, argv), 0, "%s", err);
		cr_assert_eq(o.com.placement, p, "'%s'", wl_placement_names[p]);
	}
	cr_assert_eq(PARSE("--placement", "nowhere"), -1);
	cr_assert(strstr(err, "local|remote|misplaced|interleave|free"), "%s", err);
}

Test(wl_rows, errors_name_the_option)
{
	static const struct { const char *opt, *val, *why; } bad[] = {
		{ "--threads", "-2", "--threads: " },
		{ "--threads", "3x", "--threads: " },
		{ "--node", "64", "--node: " },
		{ "--mem-node", "-1", "--mem-node: " },
		{ "--size", "lots", "--size: 'lots' is not a size like 512M or 1G" },
		{ "--iterations", "0", "--iterations: " },
		{ "--iterations", "10001", "--iterations: " },
		{ "--interval-ms", "0", "--interval-ms: " },
		{ "--placement", "nowhere", "--placement: " },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		cr_assert_eq(PARSE((char *)bad[i].opt, (char *)bad[i].val), -1, "%s %s accepted",
			     bad[i].opt, bad[i].val);
		cr_assert(!strncmp(err, bad[i].why, strlen(bad[i].why)), "%s %s: '%s'",
			  bad[i].opt, bad[i].val, err);
	}
	cr_assert_eq(PARSE("--size", "1M", "--bogus"), -1);
	cr_assert_str_eq(err, "unknown option '--bogus' (see --help)");
	cr_assert_eq(PARSE("--size"), -1);
	cr_assert_str_eq(err, "option '--size' needs a value");
}

/* --check's topology, written as bnb-vm's --nodes, --cpus and --mem. */
Test(wl_topo_parse, nodes_cpus_mem)
{
	struct wl_topo t;

	cr_assert_eq(wl_topo_parse("2:1:512M", &t, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(t.nodes, 2);
	cr_assert(t.present[0] && t.present[1]);
	cr_assert_eq(t.cpus[1], 1);
	cr_assert_eq(t.mem[1], 512 * MIB);
	cr_assert_eq(t.total_cpus, 2);
	cr_assert_eq(wl_topo_parse("3:2,1,0:1G,1G,512M", &t, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(t.nodes, 3);
	cr_assert(t.cpus[0] == 2 && t.cpus[1] == 1 && t.cpus[2] == 0);
	cr_assert_eq(t.mem[2], 512 * MIB);
	cr_assert_eq(t.total_cpus, 3);
}

Test(wl_topo_parse, bad_topologies_say_which_part)
{
	static const struct { const char *text, *why; } bad[] = {
		{ "2", "want NODES:CPUS:MEM" }, { "2:1", "want NODES:CPUS:MEM" },
		{ "2:1:1G:x", "want NODES:CPUS:MEM" }, { "2::1G", "want NODES:CPUS:MEM" },
		{ "0:1:1G", "nodes: " }, { "x:1:1G", "nodes: " }, { "2:x:1G", "cpus: " },
		{ "2:1,2,3:1G", "cpus: " }, { "2:1:3M", "mem: " }, { "2:1:lots", "mem: " },
	};
	struct wl_topo t;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		cr_assert_eq(wl_topo_parse(bad[i].text, &t, err, sizeof(err)), -1, "'%s' accepted",
			     bad[i].text);
		cr_assert(strstr(err, bad[i].why), "'%s': '%s' lacks '%s'", bad[i].text, err,
			  bad[i].why);
	}
}

/* The default test guest: 2 nodes x 1 CPU x 512 MiB. */
static const struct wl_topo two_nodes = {
	.nodes = 2, .present = { true, true }, .mem = { 512 * MIB, 512 * MIB },
	.cpus = { 1, 1 }, .total_cpus = 2,
};
static const struct wl_topo one_node = {
	.nodes = 1, .present = { true }, .mem = { 8192 * MIB }, .cpus = { 2 },
	.total_cpus = 2,
};

static int resolve(const struct wl_topo *t, uint64_t footprint, enum wl_spread spread)
{
	err[0] = '\0';
	return wl_resolve(&o.com, t, footprint, spread, err, sizeof(err));
}

/* The rows' defaults (64M, local, node 0...) with @placement. */
static void base(int placement)
{
	cr_assert_eq(PARSE("--placement", (char *)wl_placement_names[placement]), 0, "%s", err);
}

Test(wl_resolve, remote_derives_the_other_node)
{
	base(WL_REMOTE);
	cr_assert_eq(resolve(&two_nodes, 64 * MIB, WL_ONE_NODE), 0, "%s", err);
	cr_assert_eq(o.com.mem_node, 1);
	cr_assert_eq(o.com.threads, 1);
	base(WL_MISPLACED);
	o.com.node = 1;
	cr_assert_eq(resolve(&two_nodes, 64 * MIB, WL_ONE_NODE), 0, "%s", err);
	cr_assert_eq(o.com.mem_node, 0);
}

Test(wl_resolve, local_and_interleave)
{
	base(WL_LOCAL);
	o.com.node = 1;
	cr_assert_eq(resolve(&two_nodes, 64 * MIB, WL_ONE_NODE), 0);
	cr_assert_eq(o.com.mem_node, 1);
	base(WL_INTERLEAVE);
	cr_assert_eq(resolve(&two_nodes, 64 * MIB, WL_ONE_NODE), 0);
	cr_assert_eq(o.com.mem_node, -1);
	base(WL_LOCAL);
	o.com.mem_node = 1;
	cr_assert_eq(resolve(&two_nodes, 64 * MIB, WL_ONE_NODE), -1);
	cr_assert(strstr(err, "--mem-node"), "%s", err);
}

Test(wl_resolve, size_zero)
{
	base(WL_LOCAL);
	o.com.size = 0;
	cr_assert_eq(resolve(&two_nodes, 0, WL_ONE_NODE), -1);
	cr_assert_str_eq(err, "--size must be greater than 0");
}

Test(wl_resolve, larger_than_the_node)
{
	base(WL_REMOTE);
	cr_assert_eq(resolve(&two_nodes, 513 * MIB, WL_ONE_NODE), -1);
	cr_assert_str_eq(err, "--size needs 513.0 MiB of memory, more than the 512.0 MiB "
			 "of node 1");
	/* interleave may use both nodes */
	base(WL_INTERLEAVE);
	cr_assert_eq(resolve(&two_nodes, 1000 * MIB, WL_ONE_NODE), 0, "%s", err);
	base(WL_INTERLEAVE);
	cr_assert_eq(resolve(&two_nodes, 1025 * MIB, WL_ONE_NODE), -1);
}

Test(wl_resolve, more_threads_than_cpus)
{
	base(WL_LOCAL);
	o.com.threads = 2;
	cr_assert_eq(resolve(&two_nodes, MIB, WL_ONE_NODE), -1);
	cr_assert_str_eq(err, "--threads 2 is more than the 1 CPUs of node 0");
	base(WL_LOCAL);
	o.com.threads = 2;
	cr_assert_eq(resolve(&two_nodes, MIB, WL_ALL_NODES), 0, "%s", err);
	base(WL_FREE);
	o.com.threads = 3;
	cr_assert_eq(resolve(&two_nodes, MIB, WL_ONE_NODE), -1);
	cr_assert_str_eq(err, "--threads 3 is more than the 2 CPUs of the system");
	base(WL_LOCAL);
	o.com.threads = 2;
	cr_assert_eq(resolve(&two_nodes, MIB, WL_PER_NODE), -1);
	cr_assert(strstr(err, "smallest node"), "%s", err);
}

Test(wl_resolve, threads_default_to_the_cpus_in_use)
{
	base(WL_LOCAL);
	cr_assert_eq(resolve(&one_node, MIB, WL_ONE_NODE), 0);
	cr_assert_eq(o.com.threads, 2);
	base(WL_REMOTE);
	cr_assert_eq(resolve(&two_nodes, MIB, WL_ONE_NODE), 0);
	cr_assert_eq(o.com.threads, 1);
	base(WL_FREE);
	cr_assert_eq(resolve(&two_nodes, MIB, WL_ALL_NODES), 0);
	cr_assert_eq(o.com.threads, 2);
	/* a group per node stays a node's worth of threads when unbound */
	base(WL_FREE);
	cr_assert_eq(resolve(&two_nodes, MIB, WL_PER_NODE), 0);
	cr_assert_eq(o.com.threads, 1);
}

Test(wl_resolve, nonexistent_node)
{
	base(WL_LOCAL);
	o.com.node = 2;
	cr_assert_eq(resolve(&two_nodes, MIB, WL_ONE_NODE), -1);
	cr_assert_str_eq(err, "--node 2: no such NUMA node with memory (nodes are 0-1)");
	base(WL_REMOTE);
	o.com.mem_node = 7;
	cr_assert_eq(resolve(&two_nodes, MIB, WL_ONE_NODE), -1);
	cr_assert(strstr(err, "--mem-node 7"), "%s", err);
}

Test(wl_resolve, memoryless_node_is_no_node)
{
	struct wl_topo t = two_nodes;

	t.present[1] = false;
	t.mem[1] = 0;
	base(WL_REMOTE);
	cr_assert_eq(resolve(&t, MIB, WL_ONE_NODE), -1);
	cr_assert(strstr(err, "needs a memory node other than node 0"), "%s", err);
}

Test(wl_resolve, remote_needs_two_nodes)
{
	base(WL_MISPLACED);
	cr_assert_eq(resolve(&one_node, MIB, WL_ONE_NODE), -1);
	cr_assert(strstr(err, "--placement misplaced"), "%s", err);
}

Test(wl_resolve, mem_node_meaningless_for_free)
{
	base(WL_FREE);
	o.com.mem_node = 1;
	cr_assert_eq(resolve(&two_nodes, MIB, WL_ONE_NODE), -1);
	cr_assert(strstr(err, "--mem-node has no meaning"), "%s", err);
}

Test(wl_groups, rotate_and_keep_the_distance)
{
	static const struct wl_topo four = {
		.nodes = 4, .present = { true, true, true, true },
		.mem = { MIB, MIB, MIB, MIB }, .cpus = { 1, 1, 1, 1 }, .total_cpus = 4,
	};
	struct wl_where w;

	base(WL_REMOTE);
	cr_assert_eq(resolve(&four, MIB, WL_PER_NODE), 0);
	wl_where(&o.com, &four, 0, &w);
	cr_assert(w.run == 0 && w.mem == 1 && w.touch == 0);
	wl_where(&o.com, &four, 3, &w);
	cr_assert(w.run == 3 && w.mem == 0, "run %d mem %d", w.run, w.mem);

	base(WL_MISPLACED);
	o.com.mem_node = 2;
	cr_assert_eq(resolve(&four, MIB, WL_PER_NODE), 0);
	wl_where(&o.com, &four, 1, &w);
	cr_assert(w.run == 1 && w.mem == 3 && w.touch == 3, "%d %d %d", w.run, w.mem, w.touch);

	base(WL_LOCAL);
	cr_assert_eq(resolve(&four, MIB, WL_PER_NODE), 0);
	wl_where(&o.com, &four, 2, &w);
	cr_assert(w.run == 2 && w.mem == 2 && w.touch == 2);

	base(WL_FREE);
	cr_assert_eq(resolve(&four, MIB, WL_PER_NODE), 0);
	wl_where(&o.com, &four, 2, &w);
	cr_assert(w.run == -1 && w.mem == -1 && w.touch == -1);
}

/* The highest node number online, from the kernel's own list ("0-1,3"). */
static int sys_max_node(void)
{
	FILE *f = fopen("/sys/devices/system/node/online", "r");
	char list[256], *last;

	if (!f)
		return 0;	/* a kernel without NUMA: one node */
	cr_assert_not_null(fgets(list, sizeof(list), f));
	fclose(f);
	last = strrchr(list, '-') > strrchr(list, ',') ? strrchr(list, '-') : strrchr(list, ',');
	return atoi(last ? last + 1 : list);
}

static unsigned long long meminfo_total_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long kb = 0;

	cr_assert_not_null(f);
	cr_assert_eq(fscanf(f, "MemTotal: %llu kB", &kb), 1);
	fclose(f);
	return kb;
}

/* Nodes, CPUs and memory add up to what the kernel reports elsewhere. */
Test(wl_topo, reads_the_running_system)
{
	struct wl_topo t;
	unsigned long long mem = 0;
	unsigned int cpus = 0;
	int n, with_mem = 0;

	cr_assert_eq(wl_topo_read(&t), 0);
	cr_assert_eq(t.nodes, sys_max_node() + 1);
	cr_assert_eq(t.total_cpus, sysconf(_SC_NPROCESSORS_ONLN));
	for (n = 0; n < t.nodes; n++) {
		cpus += t.cpus[n];
		mem += t.mem[n];
		with_mem += t.present[n] && t.mem[n] > 0;
	}
	cr_assert_eq(cpus, t.total_cpus);
	cr_assert_eq(mem, meminfo_total_kb() * 1024, "node memory %llu, MemTotal %llu kB",
		     (unsigned long long)mem, meminfo_total_kb());
	cr_assert_geq(with_mem, 1);
}
