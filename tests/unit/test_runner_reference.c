// SPDX-License-Identifier: GPL-2.0
/*
 * The reference suite's published figures and evaluation: the shipped
 * data file read as the reference file gives it, ratios within the factor,
 * orderings with and without the tolerance, and bad data files refused
 * with the section and key named.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/parse.h"
#include "model/machine.h"
#include "model/model.h"
#include "extract/modelrun.h"
#include "reference/reference.h"
#include "scratch.h"

#define SHIPPED BNB_SRC_DIR "/bench/experiments/reference/published.ini"

static struct ref_published pub;

static void load_shipped(void)
{
	char err[1024];

	cr_assert_eq(ref_published_load(SHIPPED, &pub, err, sizeof(err)), 0, "%s", err);
}

static int ratio_index(const char *name)
{
	char b[64];

	for (int i = 0; i < pub.n_ratios; i++)
		if (!strcmp(ref_ratio_text(&pub.ratio[i], b, sizeof(b)), name))
			return i;
	cr_assert_fail("no ratio %s", name);
	return -1;
}

Test(reference, shipped_file_holds_the_reference_figures, .init = load_shipped)
{
	const struct ref_program *n02 = ref_program_find(&pub, "numa02");

	cr_assert_not_null(n02);
	cr_assert_eq(pub.n_progs, 4);
	cr_assert_not_null(ref_program_find(&pub, "numa01_THREAD_ALLOC"));
	cr_assert_not_null(ref_program_find(&pub, "numa02_SMT"));
	/* on/off from the 4-node box: balancenuma-v10r3 49.77 s, off 176.81 s */
	cr_assert_float_eq(ref_published_ratio(n02, &pub.ratio[ratio_index("on/off")]),
			   49.77 / 176.81, 1e-9);
	/* the bounds from the 8-node box: plain 147.04, HARD_BIND 26.94, INVERSE 349.10 */
	cr_assert_float_eq(ref_published_ratio(n02, &pub.ratio[ratio_index("off/HARD_BIND")]),
			   147.04 / 26.94, 1e-9);
	cr_assert_float_eq(ref_published_ratio(n02,
			   &pub.ratio[ratio_index("INVERSE_BIND/HARD_BIND")]), 349.10 / 26.94, 1e-9);
	for (int i = 0; i < pub.n_machines; i++)
		cr_assert(strlen(pub.machine[i].source) > 10, "machine %s has no source",
			  pub.machine[i].name);
	for (int i = 0; i < pub.n_progs; i++)
		cr_assert_gt(pub.prog[i].n_order, 0, "%s lists no ordering", pub.prog[i].name);
}

/* The 8-node guest is held against the 8-node box alone: rows 6 and 6b */
Test(reference, eight_nodes_held_against_the_eight_node_box, .init = load_shipped)
{
	const struct ref_program *n02 = ref_program_find(&pub, "numa02");
	int m = ref_topology_machine(&pub, "8n"), n;
	const struct ref_order *order = ref_orders(n02, m, &n);
	struct ref_measured meas = { .mean = { [RV_OFF] = 170, [RV_ON] = 40, [RV_HARD] = 25,
					       [RV_INVERSE] = 84 } };
	struct ref_eval e;
	char b[64];
	int yes = 0;

	cr_assert_geq(m, 0);
	cr_assert_str_eq(pub.machine[m].name, "8node");
	cr_assert_eq(ref_topology_machine(&pub, "4n"), -1, "4n: each ratio's own machine");
	cr_assert_eq(n, 6, "every pair of the box's four figures");
	cr_assert_str_eq(ref_order_text(&order[3], b, sizeof(b)), "off < on",
			 "balancenuma-v10r3 209.15 s against plain 147.04 s");
	ref_evaluate_on(&pub, n02, m, &meas, &e);
	cr_assert_float_eq(e.ratio[ratio_index("on/off")].published, 209.15 / 147.04, 1e-9);
	cr_assert_eq(e.ratio[ratio_index("on/off")].machine, m);
	cr_assert_eq(e.ratio[ratio_index("on/off")].holds, REF_NO, "0.235 against 1.42");
	cr_assert_eq(e.ratio[ratio_index("off/HARD_BIND")].holds, REF_YES, "6.8 against 5.46");
	for (int i = 0; i < n; i++)
		yes += e.order[i].holds == REF_YES;
	cr_assert_eq(yes, 4, "off < on and off < INVERSE_BIND miss");
	/* held on its ratio's own machine, the same program's on/off is 4node's */
	ref_evaluate_on(&pub, n02, -1, &meas, &e);
	cr_assert_float_eq(e.ratio[ratio_index("on/off")].published, 49.77 / 176.81, 1e-9);
}

Test(reference, published_rates_per_cpu_second, .init = load_shipped)
{
	/* 301,160,396 PTE updates in 3843 s on 48 CPUs */
	cr_assert_float_eq(ref_rate_per_cpu(&pub, pub.rates.pte_updates),
			   301160396.0 / 3843 / 48, 1e-6);
	cr_assert_float_eq(ref_rate_per_cpu(&pub, pub.rates.hint_faults),
			   3189624.0 / 3843 / 48, 1e-9);
}

static struct ref_measured measured(double off, double on, double hard, double inverse)
{
	struct ref_measured m = { .mean = { [RV_OFF] = off, [RV_ON] = on, [RV_HARD] = hard,
					    [RV_INVERSE] = inverse } };
	return m;
}

Test(reference, numa02_in_the_published_order, .init = load_shipped)
{
	const struct ref_program *n02 = ref_program_find(&pub, "numa02");
	struct ref_measured m = measured(50, 11, 10, 51);
	struct ref_eval e;

	ref_evaluate(&pub, n02, &m, &e);
	for (int i = 0; i < n02->n_order; i++)
		cr_assert_eq(e.order[i].holds, REF_YES, "ordering %d", i);
	/* off/HARD_BIND 5.0 against 5.46: within 2x */
	cr_assert_float_eq(e.ratio[ratio_index("off/HARD_BIND")].measured, 5.0, 1e-12);
	cr_assert_eq(e.ratio[ratio_index("off/HARD_BIND")].holds, REF_YES);
	/* INVERSE_BIND/HARD_BIND 5.1 against 12.96: more than 2x off */
	cr_assert_eq(e.ratio[ratio_index("INVERSE_BIND/HARD_BIND")].holds, REF_NO);
	/* on/off 0.22 against 0.28 */
	cr_assert_eq(e.ratio[ratio_index("on/off")].holds, REF_YES);
}

Test(reference, or_equal_holds_within_the_tolerance_only, .init = load_shipped)
{
	const struct ref_program *n02 = ref_program_find(&pub, "numa02");
	struct ref_measured close = measured(50, 10.4, 10, 51);
	struct ref_measured far = measured(50, 10.6, 10, 51);
	struct ref_eval e;
	char b[64];
	int le = -1;

	for (int i = 0; i < n02->n_order; i++)
		if (!strcmp(ref_order_text(&n02->order[i], b, sizeof(b)), "HARD_BIND <= on"))
			le = i;
	cr_assert_geq(le, 0);
	ref_evaluate(&pub, n02, &close, &e);
	cr_assert_eq(e.order[le].holds, REF_YES, "10 <= 10.4 * 1.05");
	ref_evaluate(&pub, n02, &far, &e);
	cr_assert_eq(e.order[le].holds, REF_YES, "HARD_BIND faster is fine");
	far = measured(50, 10, 10.6, 51);
	ref_evaluate(&pub, n02, &far, &e);
	cr_assert_eq(e.order[le].holds, REF_NO, "10.6 > 10 * 1.05");
}

Test(reference, strict_order_fails_on_a_tie_and_missing_is_unknown, .init = load_shipped)
{
	const struct ref_program *n01 = ref_program_find(&pub, "numa01");
	struct ref_measured m = measured(20, 20, 10, NAN);
	struct ref_eval e;
	char b[64];

	ref_evaluate(&pub, n01, &m, &e);
	for (int i = 0; i < n01->n_order; i++) {
		const char *t = ref_order_text(&n01->order[i], b, sizeof(b));

		if (!strcmp(t, "on < off"))
			cr_assert_eq(e.order[i].holds, REF_NO);
		if (!strcmp(t, "off <= INVERSE_BIND"))
			cr_assert_eq(e.order[i].holds, REF_UNKNOWN);
	}
	cr_assert_eq(e.ratio[ratio_index("INVERSE_BIND/HARD_BIND")].holds, REF_UNKNOWN);
}

/* Load TEXT as a data file; the error, or "" when it loaded. */
static const char *load_text(const char *text)
{
	static char err[1024];
	char path[] = "/tmp/bnb-test-reference-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	err[0] = 0;
	ref_published_load(path, &pub, err, sizeof(err));
	unlink(path);
	return err;
}

#define MACHINE "[machine m]\nsource = x\nnodes = 4\ncpus = 8\n[ratio on/off]\nmachine = m\n"

Test(reference, bad_data_is_refused_naming_the_key)
{
	cr_assert_str_empty(load_text(MACHINE "[program p]\nm.on = 1\nm.off = 2\norder = on < off\n"));
	cr_assert_float_eq(pub.prog[0].elapsed[0][RV_OFF], 2, 1e-12);
	cr_assert(strstr(load_text(MACHINE "[program p]\nm.of = 1\n"), "[program p] key 'm.of'"));
	cr_assert(strstr(load_text(MACHINE "[program p]\nx.on = 1\n"), "no [machine]"));
	cr_assert(strstr(load_text(MACHINE "[program p]\nm.on = -1\n"), "positive"));
	cr_assert(strstr(load_text(MACHINE "[program p]\norder = on > off\n"), "key 'order'"));
	cr_assert(strstr(load_text(MACHINE "[program p]\norder = on < on\n"), "different"));
	cr_assert(strstr(load_text(MACHINE "[ratio on/xx]\nmachine = m\n"), "VARIANT/VARIANT"));
	cr_assert(strstr(load_text("[program p]\n"), "no [program] or no [ratio]"));
	cr_assert(strstr(load_text(MACHINE "[evaluation]\nwithin = 0.5\n"), "at least 1"));
	cr_assert(strstr(load_text(MACHINE "[program p]\norder.x = on < off\n"), "no [machine]"));
	cr_assert(strstr(load_text(MACHINE "[program p]\norder.m = on > off\n"), "key 'order.m'"));
	cr_assert(strstr(load_text(MACHINE "[topology 8n]\nmachine = x\n"), "no [machine]"));
	cr_assert(strstr(load_text(MACHINE "[program p]\nm.on = 1\n[topology 8n]\nnodes = 8\n"),
			 "[topology 8n] key 'nodes'"));
}

/* The 2socket class (bench/model/README.md) on guest nodes of CPUS vCPUs. */
static struct modelrun_config two_socket(unsigned int nodes, unsigned int cpus)
{
	struct modelrun_config c = { .n_nodes = nodes, .node_mbs = 69300, .link_mbs = 34400,
				     .hw_cpus = 16, .mlp = 10, .d = 6.667 };

	for (unsigned int i = 0; i < nodes; i++) {
		c.cpus[i] = cpus;
		for (unsigned int j = 0; j < nodes; j++)
			c.lat_ns[i][j] = i == j ? 108 : 196;
	}
	return c;
}

Test(reference, stream_ceiling_by_hand)
{
	struct modelrun_config one = two_socket(1, 4), two = two_socket(2, 1);
	const char *bound;

	/* 64 B x 10 in flight / 108 ns = 5925.9 MB/s, under 69300 x 4 / 16 = 17325 */
	cr_assert_float_eq(ref_stream_ceiling(&one, 1, 0, 0, &bound), 64e4 / 108, 1e-6);
	cr_assert_str_eq(bound, "latency / mlp");
	cr_assert_float_eq(ref_stream_ceiling(&one, 4, 0, 0, &bound), 17325, 1e-6);
	cr_assert_str_eq(bound, "node bandwidth");
	/* 1 vCPU a node: node 4331.25, link 34400 / 16 = 2150, latency 3265.3 */
	cr_assert_float_eq(ref_stream_ceiling(&two, 1, 0, 0, &bound), 4331.25, 1e-6);
	cr_assert_str_eq(bound, "node bandwidth");
	cr_assert_float_eq(ref_stream_ceiling(&two, 1, 0, 1, &bound), 2150, 1e-6);
	cr_assert_str_eq(bound, "link bandwidth");
}

/* 8node on 8 nodes x 1 vCPU: a route's ceiling is its slowest link's, per CPU */
Test(reference, stream_ceiling_over_a_route)
{
	struct bnb_machine_spec s = { .model = parse_choice("8node", BNB_MACHINE_NAMES, NULL, 0) };
	struct modelrun_config c = { .n_nodes = 8, .node_mbs = 13177, .link_mbs = 3686,
				     .hw_cpus = 8, .mlp = 10, .d = 26.7 };
	static struct bnb_model_params p;
	struct bnb_topology t = { .nodes = 8 };
	const char *bound, *key;
	char err[512];

	for (int i = 0; i < 8; i++) {
		t.cpus[i] = 1;
		c.cpus[i] = 1;
		for (int j = 0; j < 8; j++)
			t.dist[i][j] = i == j ? 10 : 20;
	}
	cr_assert_eq(bnb_machine_check(&s, &t, true, &p, &key, err, sizeof(err)), 0, "%s", err);
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			c.lat_ns[i][j] = p.lat_ps[i][j] / 1000.0;
	ref_route_ceilings(&c, &p);
	cr_assert_eq(c.hops[0][3], 2, "0-1-3");
	/* x8 3686 / 8 = 460.75 into node 1, under x16 7371 / 8 into node 0 */
	cr_assert_float_eq(ref_stream_ceiling(&c, 1, 0, 3, &bound), 460.75, 1e-9);
	cr_assert_str_eq(bound, "slowest link of the route");
	cr_assert_float_eq(ref_stream_ceiling(&c, 1, 0, 1, &bound), 7371 / 8.0, 1e-9);
	cr_assert_str_eq(bound, "link bandwidth");
	cr_assert_float_eq(ref_stream_ceiling(&c, 1, 0, 0, &bound), 13177 / 8.0, 1e-9);
	cr_assert_str_eq(bound, "node bandwidth");
}

/* TEXT into a new temporary file, whose name goes to PATH. */
static void write_temp(char *path, const char *text)
{
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/*
 * A line 0 - 1 - 2, D = 2, cache-resident 20 ns: the chase's pairs grouped
 * by the hops of their route, by hand; the second matrix (the cache-sized
 * chase) and a row short of figures are not taken.
 */
Test(reference, chase_grouped_by_the_hops_of_each_route)
{
	struct modelrun_config c = { .n_nodes = 3, .d = 2 };
	static const unsigned int hops[3][3] = { { 0, 1, 2 }, { 1, 0, 1 }, { 2, 1, 0 } };
	char path[] = "/tmp/bnb-test-reference-XXXXXX";
	double measured = -1, configured = -1;

	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			c.hops[i][j] = hops[i][j];
			c.lat_ns[i][j] = 100 + 60 * hops[i][j];
		}
	write_temp(path, "# matrix ws_bytes=16777216 ns per load\n"
			 "# node0  220  340  460\n"
			 "# node1  340  222  344\n"
			 "# node2  468  336  218\n"
			 "# ratios ws_bytes=16777216\n"
			 "# node0  1 1 1\n"
			 "# matrix ws_bytes=16384 ns per load\n"
			 "# node0  20  20  20\n");
	/* (460 - 20) / 2 = 220 and (468 - 20) / 2 = 224 */
	cr_assert_eq(ref_chase_by_hops(path, &c, 2, 20, &measured, &configured), 2);
	cr_assert_float_eq(measured, 222, 1e-9);
	cr_assert_float_eq(configured, 220, 1e-9);
	/* 160, 162, 160, 158 */
	cr_assert_eq(ref_chase_by_hops(path, &c, 1, 20, &measured, &configured), 4);
	cr_assert_float_eq(measured, 160, 1e-9);
	cr_assert_eq(ref_chase_by_hops(path, &c, 0, 20, &measured, &configured), 3);
	cr_assert_float_eq(measured, (100 + 101 + 99) / 3.0, 1e-9);
	cr_assert_eq(ref_chase_by_hops(path, &c, 3, 20, &measured, &configured), 0, "no 3 hops");
	cr_assert_eq(ref_chase_by_hops(path, &c, 1, NAN, &measured, &configured), 0,
		     "no cache-resident figure");
	unlink(path);
	strcpy(path, "/tmp/bnb-test-reference-XXXXXX");
	write_temp(path, "# matrix ws_bytes=16777216 ns per load\n"
			 "# node0  220  340  460\n"
			 "# node1  340  222\n"
			 "# node2  468  336  218\n");
	measured = -1;
	cr_assert_eq(ref_chase_by_hops(path, &c, 1, 20, &measured, &configured), 0,
		     "a short row: the matrix is not whole");
	cr_assert_float_eq(measured, -1, 0, "left alone");
	unlink(path);
}

/* ---- the table of a suite folder --------------------------------------- */

static char suite[64];

static void put(const char *rel, const char *text)
{
	scratch_write(suite, rel, text);
}

static void rm_suite(void)
{
	scratch_remove(suite);
}

/*
 * One numa02 run with balancing on under scale_scan = hardware (time factor
 * 0.05, size factor 1/128): 2 guest seconds stand for 40 s of the hardware
 * run; 30000 PTE updates and 600 hint faults are that run's 3.84 M and
 * 76800, per second of it per CPU of the 48-CPU machine 2000 and 40.
 */
static void scaled_suite(void)
{
	char cmd[PATH_MAX + 128];

	scratch_make(suite, sizeof(suite), "refsuite");
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/2n-numa02' && cp '%s' '%s/2n-numa02/experiment.ini'",
		 suite, BNB_SRC_DIR "/bench/experiments/reference/2n-numa02.ini", suite);
	cr_assert_eq(system(cmd), 0);
	put("2n-numa02/runs/on/rep1/status", "status=ok\n");
	put("2n-numa02/runs/on/rep1/out.log", "# summary status=ok work_s=2 rate_mean=100 threads=1\n");
	put("2n-numa02/runs/on/rep1/summary.json",
	    "{ \"counters\": { \"numa_pte_updates\": 30000, \"numa_hint_faults\": 600 },"
	    " \"time_to_conv_90_s\": 1.0, \"metrics\": {"
	    " \"scan_passes\": { \"value\": 40 }, \"passes_to_conv_90\": { \"value\": 10 },"
	    " \"scale_time\": { \"value\": 0.05 }, \"scale_size\": { \"value\": 0.0078125 },"
	    " \"hw_passes_min\": { \"value\": 0.8 }, \"hw_passes_max\": { \"value\": 41 },"
	    " \"locality_start\": { \"value\": 0.3 }, \"locality_peak\": { \"value\": 0.9 },"
	    " \"passes_to_locality_90\": { \"value\": 4 } } }");
	put("2n-numa02/runs/off/rep1/status", "status=ok\n");
	put("2n-numa02/runs/off/rep1/out.log", "# summary status=ok work_s=3 rate_mean=70 threads=1\n");
	put("2n-numa02/runs/off/rep1/summary.json",
	    "{ \"counters\": { \"numa_pte_updates\": 0, \"numa_hint_faults\": 0 },"
	    " \"time_to_conv_90_s\": null, \"metrics\": { \"scan_passes\": { \"value\": 0 } } }");
	setenv("BNB_ROOT", BNB_SRC_DIR, 1);
}

static char *table_of(const char *dir)
{
	char path[256], *buf = calloc(1, 1 << 16), *argv[] = { "reference", "--table", NULL, NULL };
	FILE *f;

	argv[2] = (char *)dir;
	cr_assert_eq(cmd_reference(3, argv), 0);
	snprintf(path, sizeof(path), "%s/reference.md", dir);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	buf[fread(buf, 1, (1 << 16) - 1, f)] = 0;
	fclose(f);
	return buf;
}

/*
 * The plan's passes beside the hardware run's, and the rates as that run
 * has them (counts / size factor over work_s / time factor), per CPU of
 * the 2012 machine, against 2012's 1632 PTE updates and 17.3 hint faults.
 */
Test(reference_table, passes_and_rates_as_the_hardware_run, .init = scaled_suite, .fini = rm_suite)
{
	char *md = table_of(suite);

	cr_assert(strstr(md, "| numa02 | 0.05 | 0.00781 | 40.0 | 10.0 | 0.30 -> 0.90 | 4.00 | "
			 "0.80..41.0 |"), "%s", md);
	cr_assert(strstr(md, "| numa02 | 2000 yes | 40.0 no |"), "%s", md);
	free(md);
}

/* Without the plan: passes only, and no rates as a hardware run. */
Test(reference_table, no_plan_no_factors, .init = scaled_suite, .fini = rm_suite)
{
	char *md;

	put("2n-numa02/runs/on/rep1/summary.json",
	    "{ \"counters\": { \"numa_pte_updates\": 30000, \"numa_hint_faults\": 600 },"
	    " \"time_to_conv_90_s\": null, \"metrics\": { \"scan_passes\": { \"value\": 3 } } }");
	md = table_of(suite);
	cr_assert(strstr(md, "| numa02 | - | - | 3.00 | never | - | - | - |"), "%s", md);
	cr_assert_null(strstr(md, "as the hardware run the plan scales to"), "%s", md);
	free(md);
}

/*
 * A balancing-on run whose scanner changed no PTE is named under its
 * topology's table: its figures are the workload without balancing.
 * The off run, which scans nothing by design, is not.
 */
Test(reference_table, names_the_on_runs_that_never_scanned, .init = scaled_suite, .fini = rm_suite)
{
	char *md = table_of(suite);

	cr_assert_null(strstr(md, "No balancing happened"), "every on run scanned\n%s", md);
	free(md);
	put("2n-numa02/runs/on/rep1/summary.json",
	    "{ \"counters\": { \"numa_pte_updates\": 0, \"numa_hint_faults\": 0 },"
	    " \"time_to_conv_90_s\": null, \"metrics\": { \"scan_passes\": { \"value\": 0 } } }");
	md = table_of(suite);
	cr_assert(strstr(md, "\nNo balancing happened in numa02 on/rep1: balancing was on but the "
			 "scanner changed no PTE"), "%s", md);
	cr_assert_null(strstr(md, "off/rep1"), "%s", md);
	free(md);
}
