// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-collect's options: one table (lib/opt.h) for parsing, --help and the
 * Collector contract in docs/HACKING.md (test_collector_output checks it).
 */
#include <string.h>

#include "bnb_topology.h"
#include "lib/err.h"
#include "lib/util.h"
#include "sampler.h"

/* Wnuma from the launcher's --distance syntax, with the same parser. */
static int parse_wnuma(const struct opt_def *o, const char *value, void *field,
		       char *err, size_t errlen)
{
	struct bnb_topology t;
	int rows = 1;

	for (const char *p = value; *p; p++)
		rows += *p == ';' || *p == '/';
	if (rows > BNB_MAX_NODES)
		return errf(err, errlen, "more than %d rows", BNB_MAX_NODES);
	topo_init(&t, rows);
	if (topo_parse_distance(&t, value, err, errlen) || topo_validate(&t, err, errlen))
		return -1;
	if (field)
		*(double *)field = topo_wnuma(&t);
	return 0;
}

#define S(f) OPT_FIELD(struct sampler_opts, f)
#define HOUR_MS 3600000

const struct opt_def collect_options[] = {
	{ "socket", OPT_STR, S(socket), .flags = OPTF_REQUIRED | OPTF_NONEMPTY, .metavar = "PATH",
	  .help = "the agent's unix socket (bnb-vm --agent-socket); retried until it appears" },
	{ "out", OPT_STR, S(out_dir), .flags = OPTF_REQUIRED | OPTF_NONEMPTY, .metavar = "DIR",
	  .help = "where timeseries.csv and summary.json go" },
	{ "interval-ms", OPT_INT, S(interval_ms), .min = 1, .max = HOUR_MS, .def = "100",
	  .help = "sampling interval" },
	{ "window-hints", OPT_U64, S(window_hints), .min = 1, .max = 1LL << 40, .def = "100",
	  .metavar = "N", .help = "convergence: the local share of the last N hinting faults, N at least this" },
	{ "window-s", OPT_DOUBLE, S(window_s), .dmin = 0, .dmax = 86400, .def = "5",
	  .metavar = "SECONDS", .help = "N: every hint of the last SECONDS of guest time, when "
	  "more; 0: N fixed at --window-hints" },
	{ "distance", OPT_FUNC, S(wnuma), .parse = parse_wnuma, .metavar = "MATRIX",
	  .def = "10,20;20,10", .help = "the guest's distances, for the cost model's Wnuma" },
	{ "plugin-shm", OPT_STR, S(plugin_shm), .metavar = "PATH",
	  .help = "the TCG plugin's counters file: true locality and the benefit" },
	{ "pid-maps-every", OPT_INT, S(maps_every), .min = 0, .max = 1 << 30, .def = "10",
	  .metavar = "N", .help = "walk numa_maps every Nth sample, 0 = never" },
	{ "reply-timeout-ms", OPT_INT, S(reply_timeout_ms), .min = 1, .max = HOUR_MS,
	  .def = "1000", .help = "wait for one reply" },
	{ "connect-timeout-ms", OPT_INT, S(connect_timeout_ms), .min = 0, .max = HOUR_MS,
	  .def = "60000", .help = "wait for the socket to appear" },
	{ "start-timeout-ms", OPT_INT, S(start_timeout_ms), .min = 0, .max = HOUR_MS,
	  .def = "120000", .help = "wait for the first reply while the guest boots" },
	{ "stall-timeout-ms", OPT_INT, S(stall_timeout_ms), .min = 1, .max = HOUR_MS,
	  .def = "10000", .help = "give up after no valid reply for this long" },
	{ "samples", OPT_U64, S(max_samples), .min = 0, .max = 1LL << 62, .def = "0",
	  .metavar = "N", .help = "stop after N samples (0: until the guest goes away)" },
	{ "stream", OPT_FLAG, S(stream),
	  .help = "the agent samples on the guest's clock and sends unasked (bnb-vm "
		  "--agent-stream-ms, deterministic timing): only read, and t_s is guest "
		  "time; --interval-ms and --pid-maps-every are then the agent's" },
};
const size_t collect_n_options = ARRAY_SIZE(collect_options);

const struct opt_tool collect_tool = {
	.synopsis = "bnb-collect --socket PATH --out DIR [options]",
	.about = "Samples the guest's NUMA balancing counters through its agent and writes\n"
		 "DIR/timeseries.csv and DIR/summary.json (bench/collector/FORMAT.md).\n",
	.opts = collect_options,
	.n = ARRAY_SIZE(collect_options),
};

int collect_parse(struct sampler_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	int first;
	size_t i;

	memset(o, 0, sizeof(*o));
	if (opt_defaults(collect_options, collect_n_options, o, err, errlen))
		return -1;
	first = opt_getopt(collect_options, collect_n_options, argc, argv, o, false, err, errlen);
	if (first < 0)
		return first;
	if (first != argc)
		return errf(err, errlen, "unexpected argument '%s'", argv[first]);
	for (i = 0; i < collect_n_options; i++) {
		const char *const *field = (void *)((char *)o + collect_options[i].off);

		if (collect_options[i].type == OPT_STR && (collect_options[i].flags & OPTF_REQUIRED) &&
		    !*field)
			return errf(err, errlen, "--%s is required", collect_options[i].name);
	}
	return 0;
}
