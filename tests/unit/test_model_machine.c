// SPDX-License-Identifier: GPL-2.0
/*
 * The machine classes, the one check of their parameters and the words
 * the launcher hands on: what the runner, bnb-vm and the plugin all call.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "lib/parse.h"
#include "model/machine.h"
#include "model/model.h"

#define PS 1000ULL

static struct bnb_topology topo;
static struct bnb_model_params p;
static char words[4096];
static char err[512];
static const char *key;

/* nodes x 1 vCPU, distances 10 local and 20 remote */
static void guest(int nodes)
{
	memset(&topo, 0, sizeof(topo));
	topo.nodes = nodes;
	for (int i = 0; i < nodes; i++) {
		topo.cpus[i] = 1;
		for (int j = 0; j < nodes; j++)
			topo.dist[i][j] = i == j ? 10 : 20;
	}
}

static struct bnb_machine_spec spec(const char *class)
{
	struct bnb_machine_spec s = { .model = parse_choice(class, BNB_MACHINE_NAMES, NULL, 0) };

	cr_assert_gt(s.model, 0, "no class %s", class);
	return s;
}

static int check(const struct bnb_machine_spec *s, bool keeper)
{
	err[0] = '\0';
	key = NULL;
	return bnb_machine_check(s, &topo, keeper, &p, &key, err, sizeof(err));
}

static void add(void *ctx, const char *word)
{
	strcat(words, word);
	strcat(words, " ");
}

static const char *args(const struct bnb_machine_spec *s, enum bnb_machine_style style)
{
	words[0] = '\0';
	bnb_machine_args(s, style, add, NULL);
	return words;
}

Test(machine, classes_known)
{
	cr_assert_not_null(bnb_machine_find("2socket"));
	cr_assert_not_null(bnb_machine_find("4node"));
	cr_assert_not_null(bnb_machine_find("8node"));
	cr_assert_null(bnb_machine_find("off"));
	cr_assert_null(bnb_machine_find("16node"));
	cr_assert_str_eq(bnb_machine_class(&(struct bnb_machine_spec){ .model = 3 })->name, "4node",
			 "classes follow BNB_MACHINE_NAMES");
	cr_assert_null(bnb_machine_class(&(struct bnb_machine_spec){ .model = BNB_MACHINE_OFF }));
	cr_assert_null(bnb_machine_class(&(struct bnb_machine_spec){ .model = BNB_MACHINE_AUTO }),
		       "auto is no class until resolved");
}

/*
 * Each class runs at its own instruction time, whatever the guest's
 * vCPUs: D = 6.67 for 2socket, 26.7 for the 2012 boxes (README.md, "The
 * time factor"); the model off takes the default class's.
 */
Test(machine, each_class_has_its_time_factor)
{
	struct bnb_machine_spec off = { .model = BNB_MACHINE_OFF };
	struct bnb_machine_spec any = { .model = BNB_MACHINE_AUTO };

	cr_assert_eq(bnb_machine_insn_ps(&(struct bnb_machine_spec){ .model = 2 }), 2000);
	cr_assert_eq(bnb_machine_insn_ps(&(struct bnb_machine_spec){ .model = 3 }), 8000, "4node");
	cr_assert_eq(bnb_machine_insn_ps(&(struct bnb_machine_spec){ .model = 4 }), 8000, "8node");
	cr_assert_eq(bnb_machine_insn_ps(&off), 2000, "off: 2socket's");
	cr_assert_eq(bnb_machine_insn_ps(&any), 2000, "auto: 2socket's");
}

/* Under deterministic timing with the plugin the model is on unless off. */
Test(machine, auto_is_the_default_class_where_the_model_runs)
{
	struct bnb_machine_spec s = { .model = BNB_MACHINE_AUTO };

	bnb_machine_resolve(&s, true);
	cr_assert_str_eq(bnb_machine_class(&s)->name, "2socket");
	s.model = BNB_MACHINE_AUTO;
	bnb_machine_resolve(&s, false);
	cr_assert_eq(s.model, BNB_MACHINE_OFF, "wall timing, or no plugin: off");
	s.model = BNB_MACHINE_OFF;
	bnb_machine_resolve(&s, true);
	cr_assert_eq(s.model, BNB_MACHINE_OFF, "off stays off");
	s = spec("4node");
	bnb_machine_resolve(&s, true);
	cr_assert_str_eq(bnb_machine_class(&s)->name, "4node");
	/* the check resolves too: auto is checked as the class it becomes */
	guest(2);
	s = (struct bnb_machine_spec){ .model = BNB_MACHINE_AUTO };
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.lat_ps[0][1], 196 * PS, "2socket's");
	cr_assert_eq(check(&s, false), 0, "auto without the keeper is off, not refused: %s", err);
}

Test(machine, two_sockets_use_the_measured_remote_latency)
{
	struct bnb_machine_spec s = spec("2socket");

	guest(2);
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.lat_ps[0][0], 108 * PS);
	cr_assert_eq(p.lat_ps[0][1], 196 * PS, "MLC's remote figure, not 108 x 20 / 10");
	cr_assert_eq(p.node_bandwidth_mbs, 69300);
	cr_assert_eq(p.link_bandwidth_mbs, 34400);
	cr_assert_eq(p.cpus_per_node, 16);
	cr_assert_eq(p.mlp, 10);
	cr_assert_eq(p.window_ps, BNB_MODEL_DEF_WINDOW_NS * PS);
	cr_assert_eq(p.cpus[1], 1);
}

Test(machine, without_a_hop_latency_latency_scales_by_distance)
{
	struct bnb_machine_spec s = spec("2socket");

	guest(4);
	topo.dist[0][3] = 21;
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.lat_ps[0][1], 216 * PS);
	cr_assert_eq(p.lat_ps[0][3], 226800);
	cr_assert_eq(p.lat_ps[3][3], 108 * PS);
}

/* ns go to the model's ps once, exactly: no round trip through ns */
Test(machine, a_local_latency_scales_without_rounding_to_ns)
{
	struct bnb_machine_spec s = spec("2socket");

	guest(2);
	topo.dist[0][1] = 21;
	s.latency_ns = 107;
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.lat_ps[0][1], 224700, "107 ns x 2.1, not 224 ns");
	cr_assert_eq(p.lat_ps[1][0], 214 * PS, "a local latency drops the class's remote one");
}

Test(machine, refinements_replace_the_class_figures)
{
	struct bnb_machine_spec s = spec("4node");

	guest(2);
	s.node_bandwidth_mbs = 20000;
	s.link_bandwidth_mbs = 9000;
	s.cpus_per_node = 4;
	s.mlp = 6;
	s.window_ns = 5000;
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.ipi_ps, 2000 * PS, "the class's IPI delivery, 2 us");
	s.ipi_latency_ns = 700;
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.ipi_ps, 700 * PS);
	cr_assert_eq(p.node_bandwidth_mbs, 20000);
	cr_assert_eq(p.link_bandwidth_mbs, 9000);
	cr_assert_eq(p.cpus_per_node, 4);
	cr_assert_eq(p.mlp, 6);
	cr_assert_eq(p.window_ps, 5000 * PS);
}

Test(machine, a_table_must_fit)
{
	struct bnb_machine_spec s = spec("2socket");

	guest(2);
	strcpy(s.latencies, "90,150;160,95");
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.lat_ps[1][0], 160 * PS);
	strcpy(s.latencies, "90:150/160:95");
	cr_assert_eq(check(&s, true), 0, "the plugin's separators: %s", err);
	cr_assert_eq(p.lat_ps[1][1], 95 * PS);
	strcpy(s.latencies, "90,150");
	cr_assert_eq(check(&s, true), -1);
	cr_assert_str_eq(key, "latencies");
	cr_assert(strstr(err, "1 rows; want 2"), "%s", err);
	strcpy(s.latencies, "90,150,1;160,95");
	cr_assert_eq(check(&s, true), -1);
	cr_assert(strstr(err, "want 2 rows of 2 values"), "%s", err);
	strcpy(s.latencies, "90,80;160,95");
	cr_assert_eq(check(&s, true), -1);
	cr_assert_str_eq(key, "latencies");
	cr_assert(strstr(err, "0->1 is 80 ns, below the local 0->0 (90 ns)"), "%s", err);
}

Test(machine, a_table_is_checked_as_it_is_read)
{
	char field[BNB_MACHINE_TABLE_LEN];

	cr_assert_eq(bnb_machine_parse_latencies(NULL, "108,196;196,108", field, err, sizeof(err)), 0);
	cr_assert_str_eq(field, "108,196;196,108");
	cr_assert_eq(bnb_machine_parse_latencies(NULL, "0,150;160,95", NULL, err, sizeof(err)), -1);
	cr_assert(strstr(err, "'0' is not an integer from 1 to 100000"), "%s", err);
	cr_assert_eq(bnb_machine_parse_latencies(NULL, "90,x", NULL, err, sizeof(err)), -1);
	cr_assert_eq(bnb_machine_parse_latencies(NULL, "90,", NULL, err, sizeof(err)), -1);
	cr_assert(strstr(err, "ends in a separator"), "%s", err);
	cr_assert_eq(bnb_machine_parse_latencies(NULL, "", NULL, err, sizeof(err)), -1);
}

Test(machine, refining_without_a_model_is_refused_naming_the_key)
{
	struct bnb_machine_spec s = { .model = BNB_MACHINE_OFF, .mlp = 4 };

	guest(2);
	cr_assert_eq(check(&s, true), -1);
	cr_assert_str_eq(key, "mlp");
	cr_assert(strstr(err, "refines the machine model, which is off"), "%s", err);
	s.model = BNB_MACHINE_AUTO;
	cr_assert_eq(check(&s, false), -1);
	cr_assert(strstr(err, "off without deterministic timing and the plugin"), "%s", err);
	cr_assert_eq(check(&s, true), 0, "auto is on there: %s", err);
	s.mlp = 0;
	cr_assert_eq(check(&s, false), 0, "no model, nothing to refuse: %s", err);
}

Test(machine, a_model_needs_the_time_keeper)
{
	struct bnb_machine_spec s = spec("4node");

	guest(4);
	cr_assert_eq(check(&s, false), -1);
	cr_assert_str_eq(key, "model");
	cr_assert(strstr(err, "deterministic timing with the plugin"), "%s", err);
}

Test(machine, the_same_words_for_the_plugin_and_bnb_vm)
{
	struct bnb_machine_spec s = spec("2socket");

	cr_assert_str_eq(args(&s, BNB_MACHINE_PLUGIN), "model=2socket ");
	cr_assert_str_eq(args(&s, BNB_MACHINE_VM), "--model=2socket ");
	s.latency_ns = 100;
	s.cpus_per_node = 8;
	strcpy(s.latencies, "90,150;160,95");
	cr_assert_str_eq(args(&s, BNB_MACHINE_PLUGIN),
			 "model=2socket latency_ns=100 latencies=90:150;160:95 cpus_per_node=8 ");
	cr_assert_str_eq(args(&s, BNB_MACHINE_VM),
			 "--model=2socket --latency-ns=100 --latencies=90,150;160,95 --cpus-per-node=8 ");
	cr_assert_str_eq(args(&(struct bnb_machine_spec){ .model = BNB_MACHINE_OFF }, BNB_MACHINE_VM),
			 "--model=off ");
	cr_assert_str_eq(args(&(struct bnb_machine_spec){ 0 }, BNB_MACHINE_PLUGIN), "model=auto ");
	cr_assert_str_eq(bnb_machine_option("node_bandwidth_mbs"), "node-bandwidth-mbs");
}

/* "0-1-2" of the route i->j the check derived or kept */
static const char *route_of(unsigned int i, unsigned int j)
{
	static char buf[64];

	return bnb_model_route_text(p.route[i][j], p.route_len[i][j], buf, sizeof(buf));
}

Test(machine, links_routes_and_hop_latencies)
{
	struct bnb_machine_spec s = spec("2socket");

	guest(4);
	strcpy(s.links, "0-1:7371,1-2:3686:70,2-3,3-0:3686");
	strcpy(s.routes, "0-3-2");
	s.hop_latency_ns = 60;
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.n_links, 4);
	cr_assert_eq(p.link[0].mbs, 7371);
	cr_assert_eq(p.link[1].hop_ps, 70 * PS, "its own hop latency");
	cr_assert_eq(p.link[2].mbs, 34400, "no MB/s: link_bandwidth_mbs, the class's");
	cr_assert_str_eq(route_of(0, 2), "0-3-2", "given");
	cr_assert_str_eq(route_of(2, 0), "2-1-0", "derived: the lower node first");
	cr_assert_eq(p.lat_ps[0][0], 108 * PS);
	cr_assert_eq(p.lat_ps[0][1], 168 * PS, "108 + one hop of 60");
	cr_assert_eq(p.lat_ps[0][2], 228 * PS, "108 + 0-3 and 3-2, 60 each");
	cr_assert_eq(p.lat_ps[2][0], 238 * PS, "108 + 2-1 (70) + 1-0 (60)");
	cr_assert_eq(p.lat_ps[3][3], 108 * PS);
}

Test(machine, a_hop_latency_without_links_is_one_hop_a_pair)
{
	struct bnb_machine_spec s = spec("2socket");

	guest(4);
	s.hop_latency_ns = 60;
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.n_links, 0, "one link per pair");
	cr_assert_eq(p.lat_ps[0][3], 168 * PS, "108 + 60, not 108 x 20 / 10");
	cr_assert_str_eq(route_of(3, 1), "3-1");
}

/* the plugin's words, ',' as ':', read back as the same graph */
Test(machine, the_plugin_reads_the_graph_it_is_handed)
{
	struct bnb_machine_spec s = spec("2socket"), q = spec("2socket");
	struct bnb_model_params first;

	guest(3);
	strcpy(s.links, "0-1:5000:40,1-2:4000:50");
	strcpy(s.routes, "0-1-2,2-1-0");
	cr_assert_str_eq(args(&s, BNB_MACHINE_PLUGIN),
			 "model=2socket links=0-1:5000:40:1-2:4000:50 routes=0-1-2:2-1-0 ");
	cr_assert_eq(check(&s, true), 0, "%s", err);
	first = p;
	strcpy(q.links, "0-1:5000:40:1-2:4000:50");
	strcpy(q.routes, "0-1-2:2-1-0");
	cr_assert_eq(check(&q, true), 0, "%s", err);
	cr_assert_eq(memcmp(&first, &p, sizeof(p)), 0);
}

static void expect_refused(struct bnb_machine_spec *s, const char *want_key, const char *text)
{
	cr_assert_eq(check(s, true), -1, "accepted, wanted: %s", text);
	cr_assert_str_eq(key, want_key, "'%s' blamed on %s", err, key);
	cr_assert_not_null(strstr(err, text), "'%s' does not say '%s'", err, text);
}

Test(machine, bad_graphs_refused_naming_the_key)
{
	struct bnb_machine_spec s = spec("2socket");

	guest(4);
	strcpy(s.links, "0-1,2-3");
	expect_refused(&s, "links", "no route from node 0 to node 2: no links join them");
	strcpy(s.links, "0-1,1-2");
	expect_refused(&s, "links", "nodes 0-2; the guest has 4 nodes");
	strcpy(s.links, "0-1,1-2,2-3,3-4");
	expect_refused(&s, "links", "nodes 0-4; the guest has 4 nodes");
	strcpy(s.links, "0-1,1-2,2-3");
	strcpy(s.routes, "0-2");
	expect_refused(&s, "routes", "route 0-2 crosses 0-2, which is not a link");
	strcpy(s.routes, "0-1-2,0-1-2");
	expect_refused(&s, "routes", "a second route from node 0 to node 2");
	strcpy(s.routes, "0-1-7");
	expect_refused(&s, "routes", "route 0-1-7: the guest has 4 nodes");
	s.routes[0] = '\0';
	strcpy(s.links, "0-1:1,1-2:4000:50,2-3");
	expect_refused(&s, "links", "some links give a hop latency and some none");
}

Test(machine, a_list_is_checked_as_it_is_read)
{
	char field[BNB_MACHINE_TABLE_LEN];

	cr_assert_eq(bnb_machine_parse_links(NULL, "0-1:7371:60,1-2", field, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_str_eq(field, "0-1:7371:60,1-2");
	cr_assert_eq(bnb_machine_parse_links(NULL, "0-1:0", NULL, err, sizeof(err)), -1);
	cr_assert(strstr(err, "link 0-1: '0' is not an integer from 1"), "%s", err);
	cr_assert_eq(bnb_machine_parse_links(NULL, "0-1:-5", NULL, err, sizeof(err)), -1);
	cr_assert_eq(bnb_machine_parse_links(NULL, "0-1:5:6:7", NULL, err, sizeof(err)), -1);
	cr_assert(strstr(err, "'7' after its MB/s and hop ns"), "%s", err);
	cr_assert_eq(bnb_machine_parse_links(NULL, "0-1-2", NULL, err, sizeof(err)), -1);
	cr_assert(strstr(err, "want a link A-B"), "%s", err);
	cr_assert_eq(bnb_machine_parse_links(NULL, "0-x", NULL, err, sizeof(err)), -1);
	cr_assert_eq(bnb_machine_parse_links(NULL, "0-1,", NULL, err, sizeof(err)), -1);
	cr_assert(strstr(err, "ends in a separator"), "%s", err);
	cr_assert_eq(bnb_machine_parse_links(NULL, "0-99", NULL, err, sizeof(err)), -1);
	cr_assert_eq(bnb_machine_parse_links(NULL, "", NULL, err, sizeof(err)), -1);
	cr_assert_eq(bnb_machine_parse_routes(NULL, "0-1-2,3-2", field, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(bnb_machine_parse_routes(NULL, "0", NULL, err, sizeof(err)), -1);
	cr_assert(strstr(err, "want the nodes of a route"), "%s", err);
	cr_assert_eq(bnb_machine_parse_routes(NULL, "0-1-2-3-4-5-6-7-8", NULL, err, sizeof(err)), -1);
	cr_assert(strstr(err, "at most 8 nodes"), "%s", err);
}

/* The 2-socket G34 Opteron: every die one hop from every other */
Test(machine, four_nodes_are_two_opteron_packages)
{
	struct bnb_machine_spec s = spec("4node");

	guest(4);
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.n_links, 6);
	for (unsigned int j = 1; j < 4; j++) {
		cr_assert_eq(p.lat_ps[0][j], 160 * PS, "0->%u: 100 + one hop of 60 (SLIT 16)", j);
		cr_assert_eq(p.route_len[0][j], 2, "0->%u direct", j);
	}
	cr_assert_eq(p.link[bnb_model_link_between(&p, 0, 1)].mbs, 7371, "x16 in the package");
	cr_assert_eq(p.link[bnb_model_link_between(&p, 0, 3)].mbs, 3686, "x8 across");
	cr_assert_eq(p.node_bandwidth_mbs, 13177);
}

/* The 4-socket G34 Opteron: 8 dies, a partial mesh of 18 links, 2 hops at most */
Test(machine, eight_nodes_are_four_opteron_packages)
{
	struct bnb_machine_spec s = spec("8node");
	unsigned int one = 0, two = 0;

	guest(8);
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.n_links, 18);
	for (unsigned int i = 0; i < 8; i++)
		for (unsigned int j = 0; j < 8; j++) {
			unsigned int hops = i == j ? 0 : p.route_len[i][j] - 1;

			cr_assert_leq(hops, 2);
			one += hops == 1;
			two += hops == 2;
			cr_assert_eq(p.lat_ps[i][j], (100 + 60 * hops) * PS,
				     "%u->%u: SLIT 10 / 16 / 22 by hops", i, j);
		}
	cr_assert_eq(one, 36, "18 links, each way");
	cr_assert_eq(two, 20);
	cr_assert_str_eq(route_of(0, 3), "0-1-3", "through the package's other die first");
	cr_assert_str_eq(route_of(3, 0), "3-1-0");
	cr_assert_str_eq(route_of(0, 7), "0-1-7");
	cr_assert_eq(p.link[bnb_model_link_between(&p, 6, 7)].mbs, 7371);
	cr_assert_eq(p.link[bnb_model_link_between(&p, 0, 6)].mbs, 3686);
	cr_assert_eq(p.cpus_per_node, 8);
}

/* A guest of fewer nodes runs on the machine's first; of more, refused */
Test(machine, a_class_graph_serves_guests_of_fewer_nodes)
{
	struct bnb_machine_spec s = spec("8node");

	guest(4);
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.n_links, 4, "0-1, 2-3, 0-2, 1-3 among dies 0-3");
	cr_assert_str_eq(route_of(0, 3), "0-1-3");
	guest(1);
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.n_links, 0);
	guest(16);
	cr_assert_eq(check(&s, true), -1);
	cr_assert_str_eq(key, "model");
	cr_assert(strstr(err, "8node's links: the links join nodes 0-7; the guest "
			 "has 16 nodes"), "%s", err);
	guest(4);
	strcpy(s.links, "0-1,1-2,2-3");
	cr_assert_eq(check(&s, true), 0, "links given replace the class's: %s", err);
	cr_assert_str_eq(route_of(0, 3), "0-1-2-3");
	cr_assert_eq(p.lat_ps[0][3], 280 * PS, "three hops of the class's 60");
}

/* 2 CPU nodes and node 2 of CXL memory behind node 0 (SLIT 17 and 28), 512 MiB each. */
static void cxl_guest(void)
{
	guest(3);
	for (int i = 0; i < 3; i++)
		topo.mem[i] = 512ull << 20;
	topo.cpus[2] = 0;
	topo.dist[0][2] = topo.dist[2][0] = 17;
	topo.dist[1][2] = topo.dist[2][1] = 28;
}

Test(machine, a_cxl_node_is_slower_and_narrower_behind_its_socket)
{
	struct bnb_machine_spec s = spec("2socket");

	cxl_guest();
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.mem_mbs[2], 0, "a CPU-less node is not CXL memory unless named");
	strcpy(s.cxl_nodes, "2");
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.lat_ps[0][2], BNB_CXL_LATENCY_NS * PS);
	/* node 1 reaches it through node 0: 108 x 20 / 10, plus 250 - 108 */
	cr_assert_eq(p.lat_ps[1][2], (216 + BNB_CXL_LATENCY_NS - 108) * PS);
	cr_assert_eq(p.mem_mbs[2], BNB_CXL_BANDWIDTH_MBS);
	cr_assert_eq(p.mem_mbs[0], 0);
	s.cxl_latency_ns = 300;
	s.cxl_bandwidth_mbs = 8000;
	cr_assert_eq(check(&s, true), 0, "%s", err);
	cr_assert_eq(p.lat_ps[0][2], 300 * PS);
	cr_assert_eq(p.mem_mbs[2], 8000);
	cr_assert_not_null(strstr(args(&s, BNB_MACHINE_VM), "--cxl-nodes=2"), "%s", words);
}

Test(machine, bad_cxl_nodes_refused_naming_the_key)
{
	struct bnb_machine_spec s = spec("2socket");
	char field[BNB_MACHINE_CXL_LEN];

	cxl_guest();
	strcpy(s.cxl_nodes, "1");
	expect_refused(&s, "cxl_nodes", "node 1 has 1 CPUs: CXL memory has none");
	strcpy(s.cxl_nodes, "3");
	expect_refused(&s, "cxl_nodes", "node 3: the guest has 3 nodes");
	strcpy(s.cxl_nodes, "2");
	topo.mem[0] = topo.mem[1] = 30ull << 20;
	expect_refused(&s, "cxl_nodes", "the nodes with CPUs (the fast tier) have 60 MiB in all; "
		       "beside CXL memory the guest kernel needs at least 64 MiB there (mem)");
	topo.mem[1] = 34ull << 20;
	cr_assert_eq(check(&s, true), 0, "64 MiB in all is enough: %s", err);
	s.cxl_latency_ns = 50;
	expect_refused(&s, "cxl_latency_ns", "below the local latency of node 0");
	cr_assert_eq(bnb_machine_parse_cxl_nodes(NULL, "2,", field, err, sizeof(err)), -1);
	cr_assert_eq(bnb_machine_parse_cxl_nodes(NULL, "2-3", field, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "cxl_nodes"), "%s", err);
	cr_assert_eq(bnb_machine_parse_cxl_nodes(NULL, "2:3", field, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(field, "2:3");
}
