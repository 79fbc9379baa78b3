/* SPDX-License-Identifier: GPL-2.0 */
/*
 * machine.h - the modelled machines: named classes of real machines with
 * their published figures (bench/model/README.md, "Classes and their
 * sources"), refined one parameter at a time, and what a class becomes for
 * one guest topology: the model's parameters (model.h).
 *
 * One name per parameter from the experiment file to the model: the key
 * of [machine], bnb-vm's option (the key with '-' for '_') and the
 * plugin's key are the same word, take the same unit and bounds, and come
 * from one list, BNB_MACHINE_KEYS.  bnb_machine_check() is the one check
 * of them, which the runner, the launcher and the plugin call alike, and
 * the only place where a unit is converted (ns to the model's ps).
 */
#ifndef BNB_MODEL_MACHINE_H
#define BNB_MODEL_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bnb_topology.h"
#include "lib/opt.h"

struct bnb_model_params;

#define BNB_STR_(x)	#x
#define BNB_STR(x)	BNB_STR_(x)

#define BNB_MACHINE_NAMES	"auto|off|2socket|4node|8node"
#define BNB_MACHINE_AUTO	0	/* the default class where the model can run, else off */
#define BNB_MACHINE_OFF		1	/* no model: remote memory costs nothing */
#define BNB_MACHINE_DEFAULT	2	/* 2socket: README.md, "The default class" */
#define BNB_MACHINE_TABLE_LEN	1024	/* a latency table's text, with its NUL */
#define BNB_MACHINE_CXL_LEN	64	/* a list of CXL nodes' text, with its NUL */

/*
 * CXL-attached memory (a Type-3 memory expander): a CPU-less node, its
 * figures bench/model/README.md's ("CXL memory and its sources").
 */
#define BNB_CXL_LATENCY_NS	250	/* idle load latency from the attaching socket */
#define BNB_CXL_BANDWIDTH_MBS	22000	/* one expander's read bandwidth (PCIe 5.0 x8) */
/*
 * The least memory the nodes with CPUs (the fast tier) may have in all
 * beside CXL nodes: Debian's 6.12 guest kernel holds 33 MiB of them after
 * booting the base initramfs (13 MiB reserved for its image and page
 * structures, 20 MiB allocated), and twice that leaves the workload and
 * the kernel's free-page watermarks room.  Below it the kernel's own
 * memory spills into the slow tier and a promotion finds no free page.
 */
#define BNB_CXL_FAST_MIN_MIB	64

/* The parameters as given: 0 and "" keep the class's. */
struct bnb_machine_spec {
	int model;				/* index in BNB_MACHINE_NAMES: auto, off, a class */
	int latency_ns;				/* local idle miss latency */
	char latencies[BNB_MACHINE_TABLE_LEN];	/* ns per (initiator, memory) node */
	int node_bandwidth_mbs;
	int link_bandwidth_mbs;
	int cpus_per_node;			/* of the modelled machine */
	int mlp;				/* sequential misses in flight per CPU */
	int window_ns;				/* bandwidth sharing window; 0: the model's */
	int hop_latency_ns;			/* latency a link on a route adds */
	char links[BNB_MACHINE_TABLE_LEN];	/* the interconnect, "0-1:7371,1-2:3686" */
	char routes[BNB_MACHINE_TABLE_LEN];	/* routes, "0-1-2,2-1-0" */
	char cxl_nodes[BNB_MACHINE_CXL_LEN];	/* CPU-less nodes of CXL memory, "2,3" */
	int cxl_latency_ns;			/* their idle latency from the nearest CPUs */
	int cxl_bandwidth_mbs;			/* one CXL node's bandwidth */
	int ipi_latency_ns;			/* an interrupt's delivery to another CPU */
};

/* A class: the figures of one published machine. */
struct bnb_machine {
	const char *name;
	int latency_ns;
	int remote_latency_ns;			/* 2 nodes; 0: latency_ns x SLIT / 10 */
	int node_bandwidth_mbs;
	int link_bandwidth_mbs;
	int cpus_per_node;
	int mlp;
	int hop_latency_ns;			/* 0: latency_ns x SLIT / 10 */
	const char *links;			/* its interconnect; NULL: a link per pair */
	int ipi_latency_ns;			/* from an IPI's send to a halted CPU's handler */
	int insn_ps;				/* the guest's instruction time: D x hw_insn_ps */
};

/* Checks a latency table's text on its own (the node count comes later). */
int bnb_machine_parse_latencies(const struct opt_def *o, const char *value, void *field,
				char *err, size_t errlen);
/* The same for a list of links and one of routes. */
int bnb_machine_parse_links(const struct opt_def *o, const char *value, void *field,
			    char *err, size_t errlen);
int bnb_machine_parse_routes(const struct opt_def *o, const char *value, void *field,
			     char *err, size_t errlen);
/* And a list of CXL nodes, "2,3" (':' also splits). */
int bnb_machine_parse_cxl_nodes(const struct opt_def *o, const char *value, void *field,
				char *err, size_t errlen);

/*
 * The parameters, one row each, for the option tables of the runner
 * ([machine]), bnb-vm and the plugin:
 *
 *	X(KEY, OPTION, HELP, OFFSET, the rest of a struct opt_def)
 *
 * KEY is the experiment key and the plugin's, OPTION bnb-vm's; F(f) is the
 * table's offset of struct bnb_machine_spec's field f.  A new parameter is
 * a row here and a field in the spec; the tables, --help, the documents'
 * tables and the plugin's arguments follow.
 */
#define BNB_MACHINE_KEYS(X, F)								\
	X("model", "model", "the machine model: model-cache misses cost what they cost "	\
	  "on this class of real machine, charged to each vCPU's own time (deterministic "	\
	  "timing with the plugin only; bench/model/README.md); auto: 2socket there, off "	\
	  "elsewhere; off: remote memory costs nothing",						\
	  F(model), .type = OPT_CHOICE, .choices = BNB_MACHINE_NAMES, .def = "auto")		\
	X("latency_ns", "latency-ns", "the model's local idle miss latency; remote = it plus "	\
	  "the route's hop latencies, or x distance / 10 without them (default the class's)",	\
	  F(latency_ns), .type = OPT_INT, .min = 1, .max = 100000, .metavar = "NS")		\
	X("latencies", "latencies", "the model's miss latency in ns per (initiator, memory) "	\
	  "node, rows split by ';' or '/', values by ',' or ':': 108,196;196,108 (default "	\
	  "from the local latency and the hops or the distances)",				\
	  F(latencies), .type = OPT_FUNC, .parse = bnb_machine_parse_latencies,			\
	  .metavar = "MATRIX")									\
	X("node_bandwidth_mbs", "node-bandwidth-mbs", "one node's memory bandwidth on the "	\
	  "modelled machine, MB/s (default the class's)",					\
	  F(node_bandwidth_mbs), .type = OPT_INT, .min = 1, .max = 100000000,			\
	  .metavar = "MB/S")									\
	X("link_bandwidth_mbs", "link-bandwidth-mbs", "one node-to-node link's bandwidth on "	\
	  "the modelled machine, each way, MB/s (default the class's)",				\
	  F(link_bandwidth_mbs), .type = OPT_INT, .min = 1, .max = 100000000,			\
	  .metavar = "MB/S")									\
	X("cpus_per_node", "cpus-per-node", "CPUs per node of the modelled machine (not the "	\
	  "guest's): a guest node of fewer vCPUs gets the machine's bandwidth per CPU "	\
	  "(default the class's)",								\
	  F(cpus_per_node), .type = OPT_INT, .min = 1, .max = 4096, .metavar = "N")		\
	X("mlp", "mlp", "sequential misses one CPU of the modelled machine keeps in flight "	\
	  "(default the class's)",								\
	  F(mlp), .type = OPT_INT, .min = 1, .max = 256, .metavar = "N")			\
	X("window_ns", "window-ns", "hardware time over which the model shares a node's or a "	\
	  "link's bandwidth by demand (default 20000)",					\
	  F(window_ns), .type = OPT_INT, .min = 1, .max = 100000000, .metavar = "NS")		\
	X("links", "links", "the modelled machine's interconnect: links A-B[:MB/S[:NS]] split "	\
	  "by ',', each joining nodes A and B at MB/S each way (default link_bandwidth_mbs) "	\
	  "adding NS of latency a hop (default hop_latency_ns): 0-1:7371,1-2:3686 (default "	\
	  "the class's; else one link per node pair)",						\
	  F(links), .type = OPT_FUNC, .parse = bnb_machine_parse_links, .metavar = "LINKS")	\
	X("routes", "routes", "routes of misses over the links, each the nodes it crosses from "	\
	  "the initiator to the memory node, split by ',': 0-1-2,2-1-0 (default for every "	\
	  "pair not given: the fewest hops, then the lowest-numbered nodes from the "		\
	  "initiator's end)",									\
	  F(routes), .type = OPT_FUNC, .parse = bnb_machine_parse_routes, .metavar = "ROUTES")	\
	X("hop_latency_ns", "hop-latency-ns", "latency each link on a miss's route adds to the "	\
	  "local latency (default the class's; without one, local x distance / 10)",		\
	  F(hop_latency_ns), .type = OPT_INT, .min = 1, .max = 100000, .metavar = "NS")	\
	X("cxl_nodes", "cxl-nodes", "guest nodes that are CXL-attached memory (Type-3 "	\
	  "expanders), split by ',': each must have no CPUs; its misses cost the nearest "	\
	  "CPU node's latency plus cxl_latency_ns less the local one, at cxl_bandwidth_mbs "	\
	  "shared by every vCPU (default none)",						\
	  F(cxl_nodes), .type = OPT_FUNC, .parse = bnb_machine_parse_cxl_nodes,		\
	  .metavar = "NODES")									\
	X("cxl_latency_ns", "cxl-latency-ns", "idle miss latency of a CXL node from the CPU "	\
	  "node nearest it (default " BNB_STR(BNB_CXL_LATENCY_NS) ")",				\
	  F(cxl_latency_ns), .type = OPT_INT, .min = 1, .max = 100000, .metavar = "NS")		\
	X("cxl_bandwidth_mbs", "cxl-bandwidth-mbs", "one CXL node's memory bandwidth, MB/s, "	\
	  "shared by every vCPU (default " BNB_STR(BNB_CXL_BANDWIDTH_MBS) ")",			\
	  F(cxl_bandwidth_mbs), .type = OPT_INT, .min = 1, .max = 100000000,			\
	  .metavar = "MB/S")									\
	X("ipi_latency_ns", "ipi-latency-ns", "from an interrupt's send on one CPU to its "	\
	  "handler on another, halted or spinning: a vCPU another one wakes goes on from the "	\
	  "waker's time at the send plus this (default the class's)",				\
	  F(ipi_latency_ns), .type = OPT_INT, .min = 1, .max = 1000000, .metavar = "NS")

/*
 * Where the model can run (keeper: deterministic timing with the plugin's
 * time keeper), auto is the default class; elsewhere it is off.
 */
void bnb_machine_resolve(struct bnb_machine_spec *s, bool keeper);

/* The class a spec names, or NULL when the model is off (or still auto). */
const struct bnb_machine *bnb_machine_class(const struct bnb_machine_spec *s);

/*
 * The instruction time a guest of spec s runs at under the time keeper,
 * ps: its class's (bench/model/README.md, "The time factor"), the
 * default class's with the model off.
 */
uint64_t bnb_machine_insn_ps(const struct bnb_machine_spec *s);

/* The class called name ("2socket", "4node"), or NULL (also for "off"). */
const struct bnb_machine *bnb_machine_find(const char *name);

/*
 * The one check of a spec for a guest topology t, where it would run
 * (keeper: deterministic timing with the plugin's time keeper, which its
 * stalls go to), auto resolved as bnb_machine_resolve() does; p, when not
 * NULL, gets the model's parameters.  0, or -1 with the reason in err and
 * *key the parameter at fault (a KEY of BNB_MACHINE_KEYS, for the caller
 * to name as its users know it).
 */
int bnb_machine_check(const struct bnb_machine_spec *s, const struct bnb_topology *t,
		      bool keeper, struct bnb_model_params *p, const char **key,
		      char *err, size_t errlen);

/* bnb-vm's option for a parameter's KEY ("latency-ns" for "latency_ns"). */
const char *bnb_machine_option(const char *key);

/* How bnb_machine_args() spells a parameter. */
enum bnb_machine_style {
	BNB_MACHINE_PLUGIN,	/* KEY=VALUE, lists split by ':' (QEMU splits at ',') */
	BNB_MACHINE_VM,		/* --OPTION=VALUE */
};

/* The model and every parameter given, each handed to add as one word. */
void bnb_machine_args(const struct bnb_machine_spec *s, enum bnb_machine_style style,
		      void (*add)(void *ctx, const char *word), void *ctx);

#endif /* BNB_MODEL_MACHINE_H */
