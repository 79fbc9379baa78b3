// SPDX-License-Identifier: GPL-2.0
/* Option parsing and checking of the workloads (workloads/opts.c, topo.c). */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

#define MIB (1ull << 20)

static struct wl_common com;
static bool flag;
static int colour;
static uint64_t extra_size;
static const char *const colours[] = { "red", "green", NULL };
static const struct wl_opt table[] = {
	WL_COMMON_SIZE(com, "size"),
	WL_COMMON_THREADS(com, "threads"),
	WL_COMMON_PLACEMENT(com, "placement"),
	WL_COMMON_NODE(com, "node"),
	WL_COMMON_MEM_NODE(com),
	{ "flag", WL_OPT_FLAG, &flag, NULL, "a flag" },
	{ "colour", WL_OPT_CHOICE, &colour, colours, "a colour" },
	{ "extra", WL_OPT_SIZE, &extra_size, NULL, "another size" },
	{ 0 },
};
static const struct wl_prog prog = { "t", "test program", table };
static char err[256];

static enum wl_parse_result parse(int argc, char **argv)
{
	wl_common_defaults(&com);
	flag = false;
	colour = 0;
	err[0] = '\0';
	return wl_parse(&prog, argc, argv, err, sizeof(err));
}

#define PARSE(...) ({ char *argv_[] = { "t", __VA_ARGS__, NULL }; \
	parse((int)(sizeof(argv_) / sizeof(argv_[0])) - 1, argv_); })

Test(wl_parse, defaults_survive_and_values_land)
{
	cr_assert_eq(PARSE("--size", "8M", "--placement=misplaced", "--flag",
			   "--colour", "green", "--node", "1"), WL_PARSE_OK, "%s", err);
	cr_assert_eq(com.size, 8 * MIB);
	cr_assert_eq(com.placement, WL_MISPLACED);
	cr_assert_eq(com.node, 1);
	cr_assert_eq(com.mem_node, -1);
	cr_assert(flag);
	cr_assert_eq(colour, 1);
	cr_assert_eq(com.threads, 0);
	cr_assert_eq(com.samples, 256);
}

Test(wl_parse, every_placement_name)
{
	for (int p = 0; wl_placement_names[p]; p++) {
		char *argv[] = { "t", "--placement", (char *)wl_placement_names[p], NULL };

		cr_assert_eq(parse(3, argv), WL_PARSE_OK);
		cr_assert_eq(com.placement, p);
	}
}

Test(wl_parse, unknown_option_names_it)
{
	cr_assert_eq(PARSE("--size", "1M", "--bogus"), WL_PARSE_ERROR);
	cr_assert(strstr(err, "'--bogus'"), "%s", err);
	cr_assert_eq(PARSE("-x"), WL_PARSE_ERROR);
	cr_assert(strstr(err, "unknown option"), "%s", err);
}

Test(wl_parse, missing_value)
{
	cr_assert_eq(PARSE("--size"), WL_PARSE_ERROR);
	cr_assert_str_eq(err, "option '--size' needs a value");
}

Test(wl_parse, bad_values)
{
	cr_assert_eq(PARSE("--threads", "-2"), WL_PARSE_ERROR);
	cr_assert_str_eq(err, "--threads: '-2' is not an integer from 0 to 4294967295");
	cr_assert_eq(PARSE("--threads", "3x"), WL_PARSE_ERROR);
	cr_assert_eq(PARSE("--node", "99999999999"), WL_PARSE_ERROR);
	cr_assert_eq(PARSE("--size", "lots"), WL_PARSE_ERROR);
	cr_assert_str_eq(err, "--size: 'lots' is not a size like 512M or 1G (bytes, or K, M, G, T: binary)");
	cr_assert_eq(PARSE("--placement", "nowhere"), WL_PARSE_ERROR);
	cr_assert_str_eq(err, "--placement 'nowhere': expected one of "
			 "local|remote|misplaced|interleave|free");
}

Test(wl_parse, positional_argument)
{
	cr_assert_eq(PARSE("--size", "1M", "extra"), WL_PARSE_ERROR);
	cr_assert_str_eq(err, "unexpected argument 'extra' (see --help)");
}

/* --help prints the full usage, every option of the table, on stdout. */
Test(wl_parse, help_lists_options_with_defaults, .init = cr_redirect_stdout)
{
	char *want = NULL;
	size_t len = 0;
	FILE *f;

	cr_assert_eq(PARSE("--help"), WL_PARSE_HELP);
	fflush(stdout);
	f = open_memstream(&want, &len);
	wl_usage(&prog, f);
	fclose(f);
	for (const struct wl_opt *o = table; o->name; o++) {
		char opt[64];

		snprintf(opt, sizeof(opt), "\n  --%s", o->name);
		cr_assert(strstr(want, opt), "usage lacks %s", opt + 1);
	}
	cr_assert(strstr(want, "--size SIZE\n      size ["), "no default shown: %s", want);
	cr_assert_stdout_eq_str(want);
	free(want);
}

Test(wl_parse, help_text, .init = cr_redirect_stdout)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	wl_common_defaults(&com);
	com.size = 64 * MIB;
	wl_usage(&prog, f);
	fclose(f);
	cr_assert(strstr(buf, "usage: t [options]"));
	cr_assert(strstr(buf, "--size SIZE\n      size [64M]"), "%s", buf);
	cr_assert(strstr(buf, "--placement local|remote|misplaced|interleave|free"));
	cr_assert(strstr(buf, "--colour red|green\n      a colour [red]"), "%s", buf);
	free(buf);
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
	return wl_resolve(&com, t, footprint, spread, err, sizeof(err));
}

static void base(int placement)
{
	wl_common_defaults(&com);
	com.size = 64 * MIB;
	com.placement = placement;
}

Test(wl_resolve, remote_derives_the_other_node)
{
	base(WL_REMOTE);
	cr_assert_eq(resolve(&two_nodes, 64 * MIB, WL_ONE_NODE), 0, "%s", err);
	cr_assert_eq(com.mem_node, 1);
	cr_assert_eq(com.threads, 1);
	base(WL_MISPLACED);
	com.node = 1;
	cr_assert_eq(resolve(&two_nodes, 64 * MIB, WL_ONE_NODE), 0, "%s", err);
	cr_assert_eq(com.mem_node, 0);
}

Test(wl_resolve, local_and_interleave)
{
	base(WL_LOCAL);
	com.node = 1;
	cr_assert_eq(resolve(&two_nodes, 64 * MIB, WL_ONE_NODE), 0);
	cr_assert_eq(com.mem_node, 1);
	base(WL_INTERLEAVE);
	cr_assert_eq(resolve(&two_nodes, 64 * MIB, WL_ONE_NODE), 0);
	cr_assert_eq(com.mem_node, -1);
	base(WL_LOCAL);
	com.mem_node = 1;
	cr_assert_eq(resolve(&two_nodes, 64 * MIB, WL_ONE_NODE), -1);
	cr_assert(strstr(err, "--mem-node"), "%s", err);
}

Test(wl_resolve, size_zero)
{
	base(WL_LOCAL);
	com.size = 0;
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
	com.threads = 2;
	cr_assert_eq(resolve(&two_nodes, MIB, WL_ONE_NODE), -1);
	cr_assert_str_eq(err, "--threads 2 is more than the 1 CPUs of node 0");
	base(WL_LOCAL);
	com.threads = 2;
	cr_assert_eq(resolve(&two_nodes, MIB, WL_ALL_NODES), 0, "%s", err);
	base(WL_FREE);
	com.threads = 3;
	cr_assert_eq(resolve(&two_nodes, MIB, WL_ONE_NODE), -1);
	cr_assert_str_eq(err, "--threads 3 is more than the 2 CPUs of the system");
	base(WL_LOCAL);
	com.threads = 2;
	cr_assert_eq(resolve(&two_nodes, MIB, WL_PER_NODE), -1);
	cr_assert(strstr(err, "smallest node"), "%s", err);
}

Test(wl_resolve, threads_default_to_the_cpus_in_use)
{
	base(WL_LOCAL);
	cr_assert_eq(resolve(&one_node, MIB, WL_ONE_NODE), 0);
	cr_assert_eq(com.threads, 2);
	base(WL_REMOTE);
	cr_assert_eq(resolve(&two_nodes, MIB, WL_ONE_NODE), 0);
	cr_assert_eq(com.threads, 1);
	base(WL_FREE);
	cr_assert_eq(resolve(&two_nodes, MIB, WL_ALL_NODES), 0);
	cr_assert_eq(com.threads, 2);
	/* a group per node stays a node's worth of threads when unbound */
	base(WL_FREE);
	cr_assert_eq(resolve(&two_nodes, MIB, WL_PER_NODE), 0);
	cr_assert_eq(com.threads, 1);
}

Test(wl_resolve, nonexistent_node)
{
	base(WL_LOCAL);
	com.node = 2;
	cr_assert_eq(resolve(&two_nodes, MIB, WL_ONE_NODE), -1);
	cr_assert_str_eq(err, "--node 2: no such NUMA node with memory (nodes are 0-1)");
	base(WL_REMOTE);
	com.mem_node = 7;
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
	com.mem_node = 1;
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
	wl_where(&com, &four, 0, &w);
	cr_assert(w.run == 0 && w.mem == 1 && w.touch == 0);
	wl_where(&com, &four, 3, &w);
	cr_assert(w.run == 3 && w.mem == 0, "run %d mem %d", w.run, w.mem);

	base(WL_MISPLACED);
	com.mem_node = 2;
	cr_assert_eq(resolve(&four, MIB, WL_PER_NODE), 0);
	wl_where(&com, &four, 1, &w);
	cr_assert(w.run == 1 && w.mem == 3 && w.touch == 3, "%d %d %d", w.run, w.mem, w.touch);

	base(WL_LOCAL);
	cr_assert_eq(resolve(&four, MIB, WL_PER_NODE), 0);
	wl_where(&com, &four, 2, &w);
	cr_assert(w.run == 2 && w.mem == 2 && w.touch == 2);

	base(WL_FREE);
	cr_assert_eq(resolve(&four, MIB, WL_PER_NODE), 0);
	wl_where(&com, &four, 2, &w);
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
