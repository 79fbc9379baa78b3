// SPDX-License-Identifier: GPL-2.0
/* bench/lib: the one grammar for numbers and sizes, argv, paths, errors. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bnb_topology.h"
#include "lib/argv.h"
#include "lib/err.h"
#include "lib/host_numa.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/path.h"
#include "lib/util.h"
#include "lib/vm_status.h"
#include "scratch.h"

static char err[ERRLEN];

#define MIB (1ULL << 20)

Test(parse, integers_are_plain_decimal)
{
	static const char *const bad[] = {
		"", " 1", "1 ", "+1", "0x10", "1e3", "1.0", "12a", "--1", "-",
	};
	long long v;
	size_t i;

	cr_assert_eq(parse_ll("42", 0, 100, &v, err, sizeof(err)), 0);
	cr_assert_eq(v, 42);
	cr_assert_eq(parse_ll("-5", -10, 10, &v, err, sizeof(err)), 0);
	cr_assert_eq(v, -5);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		cr_assert_eq(parse_ll(bad[i], -10, 100, &v, err, sizeof(err)), -1, "'%s'", bad[i]);
	cr_assert_eq(parse_ll("-1", 0, 10, &v, err, sizeof(err)), -1, "no sign when min >= 0");
	cr_assert_str_eq(err, "'-1' is not an integer from 0 to 10");
	cr_assert_eq(parse_ll("99999999999999999999", 0, 10, &v, err, sizeof(err)), -1);
}

Test(parse, int_range_is_inclusive)
{
	int v;

	cr_assert_eq(parse_int("5", 5, 86400, &v, err, sizeof(err)), 0);
	cr_assert_eq(parse_int("86400", 5, 86400, &v, err, sizeof(err)), 0);
	cr_assert_eq(parse_int("4", 5, 86400, &v, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "'4' is not an integer from 5 to 86400");
	cr_assert_eq(parse_int("86401", 5, 86400, &v, err, sizeof(err)), -1);
}

Test(parse, u64_full_range)
{
	uint64_t v;

	cr_assert_eq(parse_u64("18446744073709551615", 0, UINT64_MAX, &v, err, sizeof(err)), 0);
	cr_assert_eq(v, UINT64_MAX);
	cr_assert_eq(parse_u64("18446744073709551616", 0, UINT64_MAX, &v, err, sizeof(err)), -1);
	cr_assert_eq(parse_u64("-1", 0, UINT64_MAX, &v, err, sizeof(err)), -1);
}

Test(parse, reals)
{
	double v;

	cr_assert_eq(parse_double("2.5", 0.001, 1e6, &v, err, sizeof(err)), 0);
	cr_assert_float_eq(v, 2.5, 1e-12);
	cr_assert_eq(parse_double("1e3", 0, 1e6, &v, err, sizeof(err)), 0);
	cr_assert_float_eq(v, 1000, 1e-9);
	cr_assert_eq(parse_double("nan", 0, 1e6, &v, err, sizeof(err)), -1);
	cr_assert_eq(parse_double("inf", 0, INFINITY, &v, err, sizeof(err)), -1);
	cr_assert_eq(parse_double("0x10", 0, 1e6, &v, err, sizeof(err)), -1);
	cr_assert_eq(parse_double(" 1", 0, 1e6, &v, err, sizeof(err)), -1);
	cr_assert_eq(parse_double("2x", 0, 1e6, &v, err, sizeof(err)), -1);
	cr_assert_eq(parse_double("0", 0.001, 1e6, &v, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "'0' is not a number from 0.001 to 1e+06");
}

Test(parse, sizes_have_binary_units_and_bare_bytes)
{
	static const struct { const char *text; uint64_t bytes; } good[] = {
		{ "0", 0 }, { "4096", 4096 }, { "512B", 512 }, { "1K", 1024 },
		{ "64M", 64 * MIB }, { "64m", 64 * MIB }, { "64MiB", 64 * MIB },
		{ "64MB", 64 * MIB }, { "64mb", 64 * MIB }, { "2G", 2048 * MIB },
		{ "1T", 1ULL << 40 }, { "16777215T", 16777215ULL << 40 },
	};
	static const char *const bad[] = {
		"", "M", "-1M", "+1M", "1.5G", "1Mx", "1 M", "1MiBx", "1P", "0x10",
		"16777216T", "99999999999999999999",
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		cr_assert_eq(parse_size(good[i].text, 0, UINT64_MAX, &v, err, sizeof(err)), 0,
			     "'%s': %s", good[i].text, err);
		cr_assert_eq(v, good[i].bytes, "'%s'", good[i].text);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		cr_assert_eq(parse_size(bad[i], 0, UINT64_MAX, &v, err, sizeof(err)), -1,
			     "'%s' parsed", bad[i]);
}

Test(parse, bare_small_size_asks_for_a_unit)
{
	uint64_t v;

	cr_assert_eq(parse_size("512", 2 * MIB, 64ULL << 30, &v, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "'512': a size needs a unit, did you mean 512M?");
	/* with a unit it is simply out of range */
	cr_assert_eq(parse_size("1K", 2 * MIB, 64ULL << 30, &v, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "'1K' is not a size from 2M to 64G (bytes, or K, M, G, T)");
	/* no hint when MiB would not fit either */
	cr_assert_eq(parse_size("1", 2 * MIB, 64ULL << 30, &v, err, sizeof(err)), -1);
	cr_assert(!strstr(err, "did you mean"), "%s", err);
	cr_assert_eq(parse_size("999999", 2 * MIB, 64ULL << 30, &v, err, sizeof(err)), -1);
	cr_assert(!strstr(err, "did you mean"), "%s", err);
}

Test(parse, format_size_round_trips)
{
	static const uint64_t sizes[] = { 0, 7, 1536 << 10, 64 * MIB, 3ULL << 30, 5ULL << 40 };
	char buf[32];
	uint64_t back;
	size_t i;

	format_size(64 * MIB, buf, sizeof(buf));
	cr_assert_str_eq(buf, "64M");
	format_size(1536 << 10, buf, sizeof(buf));
	cr_assert_str_eq(buf, "1536K");
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		format_size(sizes[i], buf, sizeof(buf));
		cr_assert_eq(parse_size(buf, 0, UINT64_MAX, &back, err, sizeof(err)), 0, "%s", buf);
		cr_assert_eq(back, sizes[i], "%s", buf);
	}
}

Test(parse, bools_and_choices)
{
	bool b = false;

	cr_assert_eq(parse_bool("on", &b, err, sizeof(err)), 0);
	cr_assert(b);
	cr_assert_eq(parse_bool("no", &b, err, sizeof(err)), 0);
	cr_assert(!b);
	cr_assert_eq(parse_bool("maybe", &b, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "'maybe' is not on or off");
	cr_assert_eq(parse_choice("kvm", "tcg|kvm", err, sizeof(err)), 1);
	cr_assert_eq(parse_choice("tcg", "tcg|kvm", err, sizeof(err)), 0);
	cr_assert_eq(parse_choice("tc", "tcg|kvm", err, sizeof(err)), -1, "no prefixes");
	cr_assert_eq(parse_choice("", "tcg|kvm", err, sizeof(err)), -1);
	cr_assert_eq(parse_choice("kvmx", "tcg|kvm", err, sizeof(err)), -1);
	cr_assert_str_eq(err, "'kvmx' is not one of tcg|kvm");
}

Test(parse, split_list_refuses_empty_items)
{
	char buf[64], *items[4];

	strcpy(buf, "1,2,3");
	cr_assert_eq(split_list(buf, ',', items, 4), 3);
	cr_assert_str_eq(items[2], "3");
	strcpy(buf, "1");
	cr_assert_eq(split_list(buf, ',', items, 4), 1);
	strcpy(buf, "1,,2");
	cr_assert_eq(split_list(buf, ',', items, 4), -1);
	strcpy(buf, "1,");
	cr_assert_eq(split_list(buf, ',', items, 4), -1);
	strcpy(buf, ",1");
	cr_assert_eq(split_list(buf, ',', items, 4), -1);
	strcpy(buf, "");
	cr_assert_eq(split_list(buf, ',', items, 4), -1);
	strcpy(buf, "1,2,3,4,5");
	cr_assert_eq(split_list(buf, ',', items, 4), -1, "more than max");
}

Test(argv, grows_past_any_fixed_size_and_stays_terminated)
{
	struct argv a = { 0 };
	int i;

	for (i = 0; i < 1000; i++)
		argv_add(&a, "arg%d", i);
	cr_assert_eq(a.n, 1000);
	cr_assert_str_eq(a.v[0], "arg0");
	cr_assert_str_eq(a.v[999], "arg999");
	cr_assert_null(a.v[1000]);
	argv_take(&a, strdup("last"));
	cr_assert_str_eq(a.v[1000], "last");
	cr_assert_null(a.v[1001]);
	argv_free(&a);
	cr_assert_eq(a.n, 0);
	cr_assert_null(a.v);
}

Test(argv, shell_quote_leaves_plain_words_and_quotes_the_rest)
{
	char buf[64];

	cr_assert_str_eq(shell_quote("--nodes=2", buf, sizeof(buf)), "--nodes=2");
	cr_assert_str_eq(shell_quote("sleep 1000", buf, sizeof(buf)), "'sleep 1000'");
	cr_assert_str_eq(shell_quote("it's", buf, sizeof(buf)), "'it'\\''s'");
	cr_assert_str_eq(shell_quote("", buf, sizeof(buf)), "''");
	cr_assert_str_eq(shell_quote("$HOME;x", buf, sizeof(buf)), "'$HOME;x'");
}

Test(errors, prefix_adds_context)
{
	uint64_t v;

	cr_assert_eq(parse_size("512", 2 * MIB, 1ULL << 40, &v, err, sizeof(err)), -1);
	cr_assert_eq(errf_prefix(err, sizeof(err), "%s:%d: key '%s'", "x.ini", 4, "mem"), -1);
	cr_assert_str_eq(err, "x.ini:4: key 'mem': '512': a size needs a unit, did you mean 512M?");
	cr_assert_eq(errf(NULL, 0, "ignored %d", 1), -1, "a NULL buffer only gives the verdict");
	cr_assert_eq(parse_int("x", 0, 1, &(int){ 0 }, NULL, 0), -1);
}

Test(path, join)
{
	char buf[16];

	cr_assert_eq(path_join(buf, sizeof(buf), "a/b", "c"), 0);
	cr_assert_str_eq(buf, "a/b/c");
	cr_assert_eq(path_join(buf, sizeof(buf), "a/", "c"), 0);
	cr_assert_str_eq(buf, "a/c");
	cr_assert_eq(path_join(buf, sizeof(buf), "a", "/abs"), 0);
	cr_assert_str_eq(buf, "/abs");
	cr_assert_eq(path_join(buf, sizeof(buf), "", "rel"), 0);
	cr_assert_str_eq(buf, "rel");
	cr_assert_eq(path_join(buf, sizeof(buf), "0123456789", "abcdef"), -1);
	cr_assert_eq(errno, ENAMETOOLONG);
}

Test(path, mkdir_p_makes_parents_and_accepts_existing)
{
	char dir[64], path[256], file[256];
	struct stat st;

	scratch_make(dir, sizeof(dir), "lib");
	snprintf(path, sizeof(path), "%s/a/b//c/", dir);
	cr_assert_eq(mkdir_p(path, 0755), 0, "%s", strerror(errno));
	cr_assert_eq(stat(path, &st), 0);
	cr_assert(S_ISDIR(st.st_mode));
	cr_assert_eq(mkdir_p(path, 0755), 0, "exists already");
	snprintf(file, sizeof(file), "%s/f", dir);
	fclose(fopen(file, "w"));
	snprintf(path, sizeof(path), "%s/f/g", dir);
	cr_assert_eq(mkdir_p(path, 0755), -1, "a file in the way");
	cr_assert_eq(errno, ENOTDIR);
	cr_assert_eq(mkdir_p(file, 0755), -1);
	cr_assert_eq(errno, ENOTDIR);
	scratch_remove(dir);
}

/* Option tables: one row per option, filled through offsets. */

struct cfg {
	bool verbose, hmat;
	int nodes, accel;
	uint64_t mem, samples;
	double factor;
	char *name;
	int calls;
};

static int count_calls(const struct opt_def *o, const char *value, void *field,
		       char *e, size_t elen)
{
	if (strcmp(value, "x"))
		return errf(e, elen, "'%s' is not x", value);
	if (field)
		++*(int *)field;
	return 0;
}

#define C(f) OPT_FIELD(struct cfg, f)
static const struct opt_def table[] = {
	{ "verbose", OPT_FLAG, C(verbose), .help = "say more" },
	{ "hmat", OPT_FLAG, C(hmat), .def = NULL, .help = "HMAT" },
	{ "no-hmat", OPT_FLAG, C(hmat), .flags = OPTF_CLEAR, .help = "no HMAT" },
	{ "nodes", OPT_INT, C(nodes), .min = 1, .max = 64, .def = "2", .help = "nodes" },
	{ "accel", OPT_CHOICE, C(accel), .choices = "tcg|kvm", .def = "tcg", .help = "accelerator" },
	{ "mem", OPT_SIZE, C(mem), .min = 2 << 20, .max = 1LL << 40, .def = "512M",
	  .help = "memory per node" },
	{ "samples", OPT_U64, C(samples), .min = 0, .max = 1000, .def = "0", .help = "samples" },
	{ "factor", OPT_DOUBLE, C(factor), .dmin = 0.5, .dmax = 4, .def = "1", .help = "factor" },
	{ "name", OPT_STR, C(name), .flags = OPTF_NONEMPTY, .def = "vm", .help = "a name" },
	{ "x", OPT_FUNC, C(calls), .parse = count_calls, .metavar = "x", .help = "counted" },
	{ "sysctl.*", OPT_FUNC, 0, .parse = count_calls, .flags = OPTF_PREFIX,
	  .metavar = "x", .help = "a pattern" },
};

Test(opt, defaults_then_command_line)
{
	char *argv[] = { "prog", "--nodes=4", "--mem", "1G", "--no-hmat", "--accel=kvm",
			 "--name", "a", "--name", "b", "--x=x", "--x", "x", "--factor=2.5",
			 "--verbose", "--", "cmd", NULL };
	struct cfg c = { .hmat = true };

	cr_assert_eq(opt_defaults(table, ARRAY_SIZE(table), &c, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(c.nodes, 2);
	cr_assert_eq(c.mem, 512ULL << 20);
	cr_assert_str_eq(c.name, "vm");
	cr_assert_eq(opt_getopt(table, ARRAY_SIZE(table), ARRAY_SIZE(argv) - 1, argv, &c,
				true, err, sizeof(err)), 16, "%s", err);
	cr_assert_eq(c.nodes, 4);
	cr_assert_eq(c.mem, 1ULL << 30);
	cr_assert(!c.hmat);
	cr_assert(c.verbose);
	cr_assert_eq(c.accel, 1);
	cr_assert_str_eq(c.name, "b", "the last one wins, the first is freed");
	cr_assert_eq(c.calls, 2);
	cr_assert_float_eq(c.factor, 2.5, 1e-12);
	opt_free(table, ARRAY_SIZE(table), &c);
	cr_assert_null(c.name);
}

static int getopt_err(const char *a1, const char *a2)
{
	char *argv[] = { "prog", (char *)a1, (char *)a2, NULL };
	struct cfg c = { 0 };
	int rc = opt_getopt(table, ARRAY_SIZE(table), a2 ? 3 : 2, argv, &c, true, err,
			    sizeof(err));

	opt_free(table, ARRAY_SIZE(table), &c);
	return rc;
}

Test(opt, errors_name_the_option)
{
	cr_assert_eq(getopt_err("--nodes=0", NULL), -1);
	cr_assert_str_eq(err, "--nodes: '0' is not an integer from 1 to 64");
	cr_assert_eq(getopt_err("--mem", "512"), -1);
	cr_assert_str_eq(err, "--mem: '512': a size needs a unit, did you mean 512M?");
	cr_assert_eq(getopt_err("--accel", "xen"), -1);
	cr_assert_str_eq(err, "--accel: 'xen' is not one of tcg|kvm");
	cr_assert_eq(getopt_err("--name=", NULL), -1);
	cr_assert_str_eq(err, "--name: empty value");
	cr_assert_eq(getopt_err("--bogus", NULL), -1);
	cr_assert_str_eq(err, "unknown option '--bogus' (see --help)");
	cr_assert_eq(getopt_err("--nodes", NULL), -1);
	cr_assert_str_eq(err, "option '--nodes' needs a value");
	cr_assert_eq(getopt_err("--x=y", NULL), -1);
	cr_assert_str_eq(err, "--x: 'y' is not x");
	cr_assert_eq(getopt_err("--help", NULL), OPT_HELP);
	cr_assert_eq(getopt_err("-h", NULL), OPT_HELP);
	cr_assert_eq(getopt_err("--help=markdown", NULL), OPT_HELP_MARKDOWN);
	cr_assert_eq(getopt_err("--help=pdf", NULL), -1);
	cr_assert_eq(getopt_err("cmd", "--nodes=0"), 1, "stops at the first argument");
}

Test(opt, check_only_writes_nothing)
{
	cr_assert_eq(opt_set(&table[3], "7", NULL, err, sizeof(err)), 0);
	cr_assert_eq(opt_set(&table[3], "70", NULL, err, sizeof(err)), -1);
	cr_assert_eq(opt_set(&table[8], "x", NULL, err, sizeof(err)), 0);
	cr_assert_eq(opt_set(&table[9], "x", NULL, err, sizeof(err)), 0);
}

Test(opt, a_checked_string_keeps_only_what_passes)
{
	static const struct opt_def checked = { "tag", OPT_STR, C(name), .parse = count_calls };
	struct cfg c = { 0 };

	cr_assert_eq(opt_set(&checked, "y", &c, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "'y' is not x");
	cr_assert_null(c.name, "a refused value is not stored");
	cr_assert_eq(opt_set(&checked, "x", &c, err, sizeof(err)), 0);
	cr_assert_str_eq(c.name, "x");
	opt_free_one(&checked, &c);
}

Test(opt, find_exact_and_prefix)
{
	cr_assert_eq(opt_find(table, ARRAY_SIZE(table), "nodes"), &table[3]);
	cr_assert_eq(opt_find(table, ARRAY_SIZE(table), "sysctl.vm.x"), &table[10]);
	cr_assert_null(opt_find(table, ARRAY_SIZE(table), "sysctl."));
	cr_assert_null(opt_find(table, ARRAY_SIZE(table), "node"));
}

static char *render(void (*fn)(FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	fn(f);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

static void usage(FILE *f)
{
	opt_usage(f, table, ARRAY_SIZE(table), "--");
}

static void markdown(FILE *f)
{
	opt_markdown(f, table, ARRAY_SIZE(table), "--", "option");
}

Test(opt, help_and_markdown_come_from_the_rows)
{
	char *text = render(usage), *md = render(markdown);

	cr_assert(strstr(text, "\n  --nodes 1..64             nodes (default 2)\n"), "%s", text);
	cr_assert(strstr(text, "\n  --accel tcg|kvm           accelerator (default tcg)\n"), "%s", text);
	cr_assert(strstr(text, "\n  --help                    print this text and exit\n"), "%s", text);
	cr_assert(strstr(md, "| option | value | default | meaning |\n|---|---|---|---|\n"), "%s", md);
	cr_assert(strstr(md, "| `--accel` | tcg\\|kvm | tcg | accelerator |\n"), "%s", md);
	cr_assert(strstr(md, "| `--mem` | SIZE | 512M | memory per node |\n"), "%s", md);
	free(text);
	free(md);
}

Test(opt, long_help_wraps_under_its_column)
{
	static const struct opt_def one[] = {
		{ "a-rather-long-option-name", OPT_STR, 0, .help =
		  "one two three four five six seven eight nine ten eleven twelve thirteen "
		  "fourteen fifteen sixteen seventeen eighteen" },
	};
	char *buf = NULL, *line;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	opt_usage(f, one, 1, "");
	fclose(f);
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		cr_assert_leq(strlen(line), 80, "'%s'", line);
	free(buf);
}

Test(vm_status, words_and_meanings)
{
	cr_assert_str_eq(vm_status_word(VM_OK), "ok");
	cr_assert_str_eq(vm_status_word(VM_LAUNCH_ERROR), "launch-error");
	cr_assert_str_eq(vm_status_meaning(VM_TIMEOUT), "guest timeout or hang");
	cr_assert_str_eq(vm_status_word(VM_PLUGIN_FAILED), "plugin-failed");
	cr_assert_str_eq(vm_status_word(VM_N_STATUS), "?");
	cr_assert_str_eq(vm_status_meaning(-1), "?");
	cr_assert_eq(parse_choice("kvm", VM_ACCEL_CHOICES, NULL, 0), ACCEL_KVM);
}

/* Host NUMA nodes for KVM binding: tests inject the host. */

static void host_nodes(struct host_numa *h, int n, const int *cpus_per_node)
{
	int i, c, cpu = 0;

	memset(h, 0, sizeof(*h));
	h->n = n;
	for (i = 0; i < n; i++) {
		h->node[i].id = 10 + i;
		for (c = 0; c < cpus_per_node[i]; c++)
			CPU_SET(cpu++, &h->node[i].cpus);
		h->node[i].n_cpus = cpus_per_node[i];
	}
}

Test(host_numa, each_guest_node_gets_its_own_host_node)
{
	static const int four[] = { 2, 2, 2, 2 };
	struct bnb_topology t;
	struct host_numa h;
	int map[BNB_MAX_NODES];

	host_nodes(&h, 4, four);
	topo_init(&t, 2);
	cr_assert_eq(host_numa_bind(&h, &t, map, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(map[0], 0);
	cr_assert_eq(map[1], 1);
	topo_init(&t, 4);
	cr_assert_eq(host_numa_bind(&h, &t, map, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(map[3], 3);
}

Test(host_numa, too_few_host_nodes_binds_nothing)
{
	static const int one[] = { 2 };
	struct bnb_topology t;
	struct host_numa h;
	int map[BNB_MAX_NODES] = { -7, -7 };

	host_nodes(&h, 1, one);
	topo_init(&t, 2);
	cr_assert_eq(host_numa_bind(&h, &t, map, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "the guest's 2 nodes (2 with vCPUs) cannot each have a host node: "
			 "the host has 1 with memory, 1 of them with CPUs");
	cr_assert_eq(map[0], -7, "the map is untouched");
}

Test(host_numa, vcpus_need_a_host_node_with_cpus)
{
	static const int one_with_cpus[] = { 0, 4 };
	struct bnb_topology t;
	struct host_numa h;
	int map[BNB_MAX_NODES];

	host_nodes(&h, 2, one_with_cpus);
	topo_init(&t, 2);
	cr_assert_eq(host_numa_bind(&h, &t, map, err, sizeof(err)), -1,
		     "two guest nodes with vCPUs, one host node with CPUs");
	cr_assert_eq(topo_parse_cpus(&t, "2,0", err, sizeof(err)), 0);
	cr_assert_eq(host_numa_bind(&h, &t, map, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(map[0], 1, "the guest node with vCPUs on the host node with CPUs");
	cr_assert_eq(map[1], 0, "the memory-only guest node on the memory-only host node");
}

/* This machine has no NUMA: one node with every CPU it may use. */
Test(host_numa, reads_this_host)
{
	struct host_numa h;
	cpu_set_t mine;

	cr_assert_eq(host_numa_read(&h), 0);
	cr_assert_geq(h.n, 1);
	cr_assert_eq(sched_getaffinity(0, sizeof(mine), &mine), 0);
	if (h.n == 1)
		cr_assert_geq(h.node[0].n_cpus, 1);
}

Test(parse, user_names_as_useradd_takes_them)
{
	static const char *const good[] = { "postgres", "memcache", "_apt", "a-b_1" };
	static const char *const bad[] = { "", "Root", "1abc", "a b", "root;id", "../x", "-x",
					   "abcdefghijklmnopqrstuvwxyz0123456" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		cr_expect(user_name_ok(good[i]), "%s", good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect(!user_name_ok(bad[i]), "%s", bad[i]);
}
