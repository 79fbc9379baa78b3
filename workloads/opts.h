/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workloads' command lines, on the tree's one option engine
 * (bench/lib/opt.h). A program's options fill one struct whose member
 * com is the struct wl_common every program shares; its table holds a
 * struct opt_def row per option with bounds, default and help, the
 * shared ones made by the WL_ROW_* macros below with the program's own
 * default and help. --help prints the table and --help=markdown the
 * table workloads/README.md holds (a unit test compares them).
 *
 * O is the program's OPT_FIELD() of its struct: #define O(f) OPT_FIELD(struct x_opts, f).
 * OPT_INT rows fill the unsigned int fields of struct wl_common: C lets an
 * int lvalue reach an unsigned int object, and a minimum of 0 keeps the
 * value the same.
 */
#ifndef WL_OPTS_H
#define WL_OPTS_H

#include "lib/opt.h"
#include "topo.h"

/* The words of enum wl_placement, in its order (wl_placement_names[]). */
#define WL_PLACEMENTS "local|remote|misplaced|interleave|free"

#define WL_SIZE_MAX	(1ll << 50)
#define WL_THREADS_MAX	4096
#define WL_ROWS_MAX	100000000
#define WL_NODE_MAX	(WL_MAX_NODES - 1)

#define WL_ROW_SIZE(O, def_, help_) \
	{ "size", OPT_SIZE, O(com.size), .min = 0, .max = WL_SIZE_MAX, .def = def_, \
	  .help = help_ }
#define WL_ROW_THREADS(O, help_) \
	{ "threads", OPT_INT, O(com.threads), .min = 0, .max = WL_THREADS_MAX, .def = "0", \
	  .help = help_ }
#define WL_ROW_ITERATIONS(O, def_, max_, help_) \
	{ "iterations", OPT_INT, O(com.iterations), .min = 1, .max = max_, .def = def_, \
	  .help = help_ }
#define WL_ROW_PLACEMENT(O, def_, help_) \
	{ "placement", OPT_CHOICE, O(com.placement), .choices = WL_PLACEMENTS, .def = def_, \
	  .help = help_ }
#define WL_ROW_NODE(O, help_) \
	{ "node", OPT_INT, O(com.node), .min = 0, .max = WL_NODE_MAX, .def = "0", .help = help_ }
/* No default: wl_common_init() leaves -1, derived from --node and the placement. */
#define WL_ROW_MEM_NODE(O) \
	{ "mem-node", OPT_INT, O(com.mem_node), .min = 0, .max = WL_NODE_MAX, \
	  .help = "node the memory is bound to (remote) or first touched on (misplaced); " \
		  "default: the next node after --node" }
#define WL_ROW_LOCALITY(O) \
	{ "locality-every", OPT_INT, O(com.locality_every), .min = 0, .max = WL_ROWS_MAX, \
	  .def = "1", .help = "sample page locality with move_pages(2) every N rows, 0 never" }, \
	{ "samples", OPT_INT, O(com.samples), .min = 0, .max = 1 << 20, .def = "256", \
	  .help = "pages sampled for locality" }
/* FIELD: an unsigned int of milliseconds in the program's struct */
#define WL_ROW_INTERVAL(O, field, def_) \
	{ "interval-ms", OPT_INT, O(field), .min = 1, .max = 3600000, .def = def_, \
	  .help = "milliseconds per output row" }

/*
 * --check NODES:CPUS:MEM: every check the program makes before it
 * allocates anything, against that topology instead of the running
 * system's; exit 0, or 2 with the program's one line. Nothing runs, so
 * the runner asks the program on the host before a guest boots.
 */
#define WL_ROW_CHECK(O) \
	{ "check", OPT_STR, O(com.check), .metavar = "NODES:CPUS:MEM", .parse = wl_check_opt, \
	  .help = "check the options against NODES nodes of CPUS CPUs and MEM memory each " \
		  "(one value, or a list per node: 2:1:512M, 2:2,1:1G,512M), then exit 0, " \
		  "or 2 with the problem; runs nothing" }
int wl_check_opt(const struct opt_def *o, const char *value, void *field, char *err,
		 size_t errlen);

/* What every program's --help says after its options. */
#define WL_EPILOG "Sizes are bytes, or take K, M, G, T suffixes (binary). Output: CSV on " \
	"stdout, diagnostics on\nstderr; bad arguments exit with status 2.\n"

/*
 * Parse argv into @opts with @tool's rows, defaults first: the fields
 * without one (wl_common_init()'s) keep what they hold. Exits 0 after
 * --help or --help=markdown, and 2 after "NAME: reason" on stderr.
 */
void wl_parse_or_exit(const char *name, const struct opt_tool *tool, void *opts,
		      int argc, char **argv);

#endif
