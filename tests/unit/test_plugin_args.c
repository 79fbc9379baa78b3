// SPDX-License-Identifier: GPL-2.0
/* Argument parsing of bnb-plugin: the launcher's topology and the knobs. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/plugin/args.h"
#include "docblock.h"
#include "model/model.h"

static struct bnb_plugin_args a;
static char err[512];

static int parse(int argc, char **argv)
{
	err[0] = '\0';
	return bnb_args_parse(&a, argc, argv, err, sizeof(err));
}

#define PARSE(...) ({ char *v_[] = { __VA_ARGS__ }; parse(sizeof(v_) / sizeof(v_[0]), v_); })

#define TOPO2 "nodes=2", "cpus=1:1", "mem_mib=512:512", "dist=10:20:20:10"

Test(plugin_args, launcher_topology)
{
	cr_assert_eq(PARSE("nodes=4", "cpus=1:2:1:1", "mem_mib=256:512:256:128",
			   "dist=10:16:22:28:16:10:16:22:22:16:10:16:28:22:30:10",
			   "shm=/tmp/x.shm"), 0, "%s", err);
	cr_assert_eq(a.n_nodes, 4);
	cr_assert_eq(a.cpus[1], 2);
	cr_assert_eq(bnb_args_n_vcpus(&a), 5);
	cr_assert_eq(a.mem_bytes[1], 512ULL << 20);
	cr_assert_eq(a.mem_bytes[3], 128ULL << 20);
	cr_assert_eq(a.dist[0][3], 28);
	cr_assert_eq(a.dist[3][2], 30, "asymmetric entry kept");
	cr_assert_eq(a.dist[2][3], 16);
	cr_assert_str_eq(a.shm_path, "/tmp/x.shm");
}

Test(plugin_args, defaults)
{
	cr_assert_eq(PARSE(TOPO2), 0, "%s", err);
	cr_assert(a.count);
	cr_assert_eq(a.delay, BNB_DELAY_VERIFIED, "delay waits for the map check");
	cr_assert_eq(a.base_ns, BNB_DEF_BASE_NS);
	cr_assert_eq(a.cache_kib, BNB_DEF_CACHE_KIB);
	cr_assert_eq(a.cache_ways, BNB_DEF_CACHE_WAYS);
	cr_assert_eq(a.map, BNB_MAP_LINEAR, "QEMU 10 passes guest-physical addresses");
	cr_assert_eq(a.map_min_pct, 99);
	cr_assert(a.map_fail_exit);
	cr_assert(a.mem_from_calib, "boot runs without memory callbacks");
	cr_assert_str_eq(a.shm_path, "");
}

Test(plugin_args, knobs)
{
	cr_assert_eq(PARSE(TOPO2, "count=off", "delay=0", "base_ns=150", "cache_kib=0",
			   "cache_ways=4", "map=qemu72", "map_min_pct=95", "map_fail=flag",
			   "verbose=yes", "mem_from=boot"), 0, "%s", err);
	cr_assert_not(a.mem_from_calib);
	cr_assert_not(a.count);
	cr_assert_eq(a.delay, BNB_DELAY_OFF);
	cr_assert_eq(a.base_ns, 150);
	cr_assert_eq(a.cache_kib, 0);
	cr_assert_eq(a.cache_ways, 4);
	cr_assert_eq(a.map, BNB_MAP_QEMU72);
	cr_assert_eq(a.map_min_pct, 95);
	cr_assert_not(a.map_fail_exit);
	cr_assert(a.verbose);
}

Test(plugin_args, last_value_wins)
{
	/* a --plugin-opt comes after the launcher's keys and overrides them */
	cr_assert_eq(PARSE(TOPO2, "mem_mib=256:768", "base_ns=80", "base_ns=90",
			   "delay=always"), 0, "%s", err);
	cr_assert_eq(a.delay, BNB_DELAY_ALWAYS);
	cr_assert_eq(a.mem_bytes[0], 256ULL << 20);
	cr_assert_eq(a.mem_bytes[1], 768ULL << 20);
	cr_assert_eq(a.base_ns, 90);
}

static void expect_error(int rc, const char *needle)
{
	cr_assert_eq(rc, -1, "accepted bad input");
	cr_assert(strstr(err, needle), "message '%s' lacks '%s'", err, needle);
	cr_assert_null(strchr(err, '\n'), "message is one line");
}

Test(plugin_args, rejects_bad_input)
{
	expect_error(PARSE(TOPO2, "bogus=1"), "unknown option 'bogus'");
	expect_error(PARSE(TOPO2, "delay"), "not key=value");
	expect_error(PARSE(TOPO2, "delay=maybe"), "delay=maybe");
	expect_error(PARSE(TOPO2, "base_ns=-5"), "base_ns=-5");
	expect_error(PARSE(TOPO2, "base_ns=12x"), "base_ns=12x");
	expect_error(PARSE(TOPO2, "cache_ways=0"), "cache_ways=0");
	expect_error(PARSE(TOPO2, "map=guess"), "map=guess");
	expect_error(PARSE(TOPO2, "mem_from=later"), "mem_from=later: 'later' is not one of boot|calib");
	expect_error(PARSE(TOPO2, "map_min_pct=101"), "map_min_pct=101");
	expect_error(PARSE("cpus=1", "mem_mib=1", "dist=10"), "missing nodes=");
	expect_error(PARSE("nodes=0", "cpus=1", "mem_mib=1", "dist=10"), "nodes=0");
	expect_error(PARSE("nodes=65", "cpus=1", "mem_mib=1", "dist=10"), "nodes=65");
}

Test(plugin_args, trace_log_and_clock_address)
{
	cr_assert_eq(PARSE(TOPO2, "trace=/tmp/t.log", "trace_clock=73c5c0"), 0, "%s", err);
	cr_assert_str_eq(a.trace_path, "/tmp/t.log");
	cr_assert_eq(a.trace_clock, 0x73c5c0);
	expect_error(PARSE(TOPO2, "trace_clock=73g"), "trace_clock=73g");
	expect_error(PARSE(TOPO2, "trace_clock=-1"), "trace_clock=-1");
	expect_error(PARSE(TOPO2, "trace_clock="), "trace_clock=");
}

static const struct {
	const char *cpus, *mem, *dist, *needle;
} bad_topologies[] = {
	{ "cpus=1", "mem_mib=512:512", "dist=10:20:20:10", "cpus= must list one" },
	{ "cpus=1:1", "mem_mib=512", "dist=10:20:20:10", "mem_mib= must list one" },
	{ "cpus=1:1", "mem_mib=512:512", "dist=10:20:20", "dist= must hold" },
	{ "cpus=1:1", "mem_mib=512:512", "dist=10:20:20:12", "row 1 column 1 is 12" },
	{ "cpus=1:1", "mem_mib=512:512", "dist=10:10:20:10", "row 0 column 1 is 10" },
	{ "cpus=1:1", "mem_mib=512:512", "dist=10:256:20:10", "row 0 column 1 is 256" },
	{ "cpus=1:1", "mem_mib=0:512", "dist=10:20:20:10", "node 0: 0 MiB" },
	{ "cpus=1:1", "mem_mib=512::512", "dist=10:20:20:10", "mem_mib=512::512" },
	{ "cpus=1:1:", "mem_mib=512:512", "dist=10:20:20:10", "cpus=1:1:" },
	{ "cpus=0:0", "mem_mib=512:512", "dist=10:20:20:10", "0 vCPUs in all" },
};

Test(plugin_args, rejects_inconsistent_topology)
{
	for (size_t i = 0; i < sizeof(bad_topologies) / sizeof(bad_topologies[0]); i++) {
		char *argv[] = { "nodes=2", (char *)bad_topologies[i].cpus,
				 (char *)bad_topologies[i].mem, (char *)bad_topologies[i].dist };

		expect_error(parse(4, argv), bad_topologies[i].needle);
	}
}

Test(plugin_args, time_keeper_follows_icount)
{
	cr_assert_eq(PARSE(TOPO2), 0, "%s", err);
	cr_assert_not(a.timekeeper, "wall-clock runs have no keeper");
	cr_assert_eq(a.hw_insn_ps, 300, "0.3 ns hardware instruction time");
	cr_assert_eq(PARSE(TOPO2, "icount_shift=1", "insn_ps=5000"), 0, "%s", err);
	cr_assert(a.timekeeper, "icount_shift= means the launcher runs icount");
	cr_assert_eq(a.icount_shift, 1);
	cr_assert_eq(a.insn_ps, 5000);
	cr_assert_eq(PARSE(TOPO2, "timekeeper=off", "icount_shift=0"), 0, "%s", err);
	cr_assert_not(a.timekeeper, "off holds whatever the order");
	cr_assert_eq(PARSE(TOPO2, "icount_shift=0", "timekeeper=off"), 0, "%s", err);
	cr_assert_not(a.timekeeper);
	expect_error(PARSE(TOPO2, "timekeeper=on"), "needs icount_shift=");
	expect_error(PARSE(TOPO2, "icount_shift=11"), "icount_shift=11");
	expect_error(PARSE(TOPO2, "tk_batch=8"), "tk_batch=8");
}

/* The model's words are the experiment's and bnb-vm's, checked by bench/model. */
/* The launcher's topology reaches the model whole: a CXL node's fast tier holds its memory. */
Test(plugin_args, cxl_nodes_with_the_launchers_memory)
{
	struct bnb_model_params p;
	const char *key;

	cr_assert_eq(PARSE("nodes=3", "cpus=1:1:0", "mem_mib=256:256:256",
			   "dist=10:20:17:20:10:28:17:28:10", "icount_shift=0", "model=2socket",
			   "cxl_nodes=2"), 0, "%s", err);
	cr_assert_eq(bnb_args_model(&a, &p, &key, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(p.mem_mbs[2], 22000);
	expect_error(PARSE("nodes=3", "cpus=1:1:0", "mem_mib=30:30:256",
			   "dist=10:20:17:20:10:28:17:28:10", "icount_shift=0", "model=2socket",
			   "cxl_nodes=2"), "the fast tier) have 60 MiB in all");
}

Test(plugin_args, model_from_a_class_refined)
{
	struct bnb_model_params p;
	const char *key;

	cr_assert_eq(PARSE(TOPO2, "icount_shift=0", "model=4node", "latency_ns=100",
			   "node_bandwidth_mbs=20000", "link_bandwidth_mbs=10000", "cpus_per_node=8",
			   "mlp=6", "window_ns=10000"), 0, "%s", err);
	cr_assert_eq(bnb_args_model(&a, &p, &key, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(p.lat_ps[0][0], 100000);
	cr_assert_eq(p.lat_ps[0][1], 160000, "100 ns + the class's hop of 60");
	cr_assert_eq(p.n_links, 1, "4node's link 0-1 serves a 2-node guest");
	cr_assert_eq(p.link[0].mbs, 10000, "at link_bandwidth_mbs");
	cr_assert_eq(p.node_bandwidth_mbs, 20000);
	cr_assert_eq(p.link_bandwidth_mbs, 10000);
	cr_assert_eq(p.cpus_per_node, 8);
	cr_assert_eq(p.mlp, 6);
	cr_assert_eq(p.window_ps, 10000000);
	cr_assert_eq(PARSE(TOPO2, "icount_shift=0", "model=2socket", "latencies=90:150;160:95"), 0,
		     "%s", err);
	cr_assert_eq(bnb_args_model(&a, &p, &key, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(p.lat_ps[1][0], 160000, "the table wins over distances");
	cr_assert_eq(p.node_bandwidth_mbs, 69300, "the class's");
	cr_assert_eq(PARSE(TOPO2, "icount_shift=0", "model=2socket", "links=0-1:5000:40",
			   "routes=1-0"), 0, "%s", err);
	cr_assert_eq(bnb_args_model(&a, &p, &key, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(p.link[0].mbs, 5000);
	cr_assert_eq(p.lat_ps[1][0], 148000, "108 + the link's 40");
	expect_error(PARSE(TOPO2, "icount_shift=0", "model=2socket", "links=0-1:5000:1-2"),
		     "links: the links join nodes 0-2; the guest has 2 nodes");
}

Test(plugin_args, model_bad_input_refused)
{
	expect_error(PARSE(TOPO2, "model=2socket"), "model: the machine model needs deterministic timing");
	expect_error(PARSE(TOPO2, "icount_shift=0", "model=2socket", "delay=off"), "not with delay=off");
	expect_error(PARSE(TOPO2, "icount_shift=0", "delay=off"),
		     "model=2socket charges misses once the map check passed");
	cr_assert_eq(PARSE(TOPO2, "icount_shift=0", "model=off", "delay=off"), 0, "%s", err);
	expect_error(PARSE(TOPO2, "icount_shift=0", "model=2socket", "latencies=90:150:160"),
		     "latencies: want 2 rows of 2 values");
	expect_error(PARSE(TOPO2, "icount_shift=0", "model=2socket", "latencies=90:80/160:95"),
		     "below the local");
	expect_error(PARSE(TOPO2, "latencies=0:150:160:95"), "latencies=0:150:160:95: '0'");
	expect_error(PARSE(TOPO2, "node_bandwidth_mbs=0"), "node_bandwidth_mbs=0");
	expect_error(PARSE(TOPO2, "latency_ns=0"), "latency_ns=0");
	expect_error(PARSE(TOPO2, "model=on"), "model=on: 'on' is not one of auto|off|2socket|4node");
	expect_error(PARSE(TOPO2, "icount_shift=0", "model=off", "mlp=4"),
		     "mlp: refines the machine model, which is off");
}

Test(plugin_args, model_syncs_in_smaller_batches)
{
	cr_assert_eq(PARSE(TOPO2, "icount_shift=0", "model=off"), 0, "%s", err);
	cr_assert_eq(a.tk_batch, BNB_DEF_TK_BATCH);
	cr_assert_eq(PARSE(TOPO2, "icount_shift=0"), 0, "%s", err);
	cr_assert_eq(a.tk_batch, BNB_DEF_TK_BATCH_MODEL, "the keeper's default is the model on");
	cr_assert_eq(PARSE(TOPO2), 0, "%s", err);
	cr_assert_eq(a.tk_batch, BNB_DEF_TK_BATCH, "no keeper, no model");
	cr_assert_eq(PARSE(TOPO2, "icount_shift=0", "model=2socket"), 0, "%s", err);
	cr_assert_eq(a.tk_batch, BNB_DEF_TK_BATCH_MODEL);
	cr_assert_lt(BNB_DEF_TK_BATCH_MODEL, BNB_DEF_TK_BATCH);
	cr_assert_eq(PARSE(TOPO2, "icount_shift=0", "model=2socket", "tk_batch=4096"), 0, "%s", err);
	cr_assert_eq(a.tk_batch, 4096, "an explicit batch is kept");
}

static void keys_markdown(FILE *f)
{
	opt_markdown(f, bnb_args_keys, bnb_args_n_keys, "", "key");
}

/* The README's table is the key table: one source for both. */
Test(plugin_args, readme_table_is_the_key_table)
{
	char *doc = doc_block("bench/plugin/README.md", "plugin keys"), *now = printed(keys_markdown);

	cr_assert_not_null(doc, "no <!-- plugin keys --> block in bench/plugin/README.md");
	cr_assert_str_eq(doc, now, "bench/plugin/README.md is stale: put build/bin/bnb-plugin-check "
			 "--keys between its markers");
	free(doc);
	free(now);
}

/* The one list of the keys the launcher derives, and who derives them. */
Test(plugin_args, owners_of_the_keys)
{
	cr_assert_eq(bnb_args_owner("nodes=2"), BNB_ARG_TOPOLOGY);
	cr_assert_eq(bnb_args_owner("dist=10:20:20:10"), BNB_ARG_TOPOLOGY);
	cr_assert_eq(bnb_args_owner("icount_shift=0"), BNB_ARG_TIMING);
	cr_assert_eq(bnb_args_owner("insn_ps=4000"), BNB_ARG_TIMING);
	cr_assert_eq(bnb_args_owner("timekeeper=off"), BNB_ARG_KEEPER);
	cr_assert_eq(bnb_args_owner("shm=/tmp/x"), BNB_ARG_RUN);
	cr_assert_eq(bnb_args_owner("model=4node"), BNB_ARG_MODEL);
	cr_assert_eq(bnb_args_owner("latency_ns=90"), BNB_ARG_MODEL);
	cr_assert_eq(bnb_args_owner("window_ns"), BNB_ARG_MODEL);
	cr_assert_eq(bnb_args_owner("cap_ns=500"), BNB_ARG_USER);
	cr_assert_eq(bnb_args_owner("tk_batch=4096"), BNB_ARG_USER);
	cr_assert_eq(bnb_args_owner("no_such_key=1"), BNB_ARG_USER, "the parser refuses it");
	cr_assert_eq(bnb_args_owner("nodesx=1"), BNB_ARG_USER, "whole keys only");
}
