// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-collect - pull NUMA balancing counters from the guest agent and
 * write a time series with the seed's cost model and convergence.
 *
 *   bnb-collect --socket PATH --out DIR [--interval-ms 100]
 *               [--window-hints 10000] [--distance M] [--plugin-shm PATH]
 *               [--pid-maps-every N] ...
 *
 * Output: DIR/timeseries.csv and DIR/summary.json (bench/collector/FORMAT.md).
 */
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bnb_topology.h"
#include "lib/err.h"
#include "sampler.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: bnb-collect --socket PATH --out DIR [options]\n"
		"  --interval-ms N        sampling interval (100)\n"
		"  --window-hints N       convergence over the last N hint faults (10000)\n"
		"  --distance M           guest distance matrix for Wnuma (10,20;20,10)\n"
		"  --plugin-shm PATH      TCG plugin counters file (ground-truth locality)\n"
		"  --pid-maps-every N     walk numa_maps every Nth sample, 0 = never (10)\n"
		"  --reply-timeout-ms N   wait for one reply (1000)\n"
		"  --connect-timeout-ms N wait for the socket to appear (60000)\n"
		"  --start-timeout-ms N   wait for the first reply while the guest boots (120000)\n"
		"  --stall-timeout-ms N   give up after no valid reply for this long (10000)\n"
		"  --samples N            stop after N samples (0 = until the guest goes away)\n");
	exit(status);
}

static unsigned long long number(const char *opt, const char *s,
				 unsigned long long min, unsigned long long max)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		goto bad;
	v = strtoull(s, &end, 10);
	if (*end || v < min || v > max)
		goto bad;
	return v;
bad:
	fprintf(stderr, "bnb-collect: --%s '%s': want an integer from %llu to %llu\n",
		opt, s, min, max);
	exit(2);
}

/* Wnuma from the launcher's --distance syntax, with its parser. */
static double wnuma_of(const char *spec)
{
	struct bnb_topology t;
	char err[ERRLEN];
	int rows = 1;

	for (const char *p = spec; *p; p++)
		rows += *p == ';' || *p == '/';
	if (rows > BNB_MAX_NODES) {
		fprintf(stderr, "bnb-collect: --distance: more than %d rows\n", BNB_MAX_NODES);
		exit(2);
	}
	topo_init(&t, rows);
	if (topo_parse_distance(&t, spec, err, sizeof(err)) || topo_validate(&t, err, sizeof(err))) {
		fprintf(stderr, "bnb-collect: --%s\n", err);	/* err starts "distance: " */
		exit(2);
	}
	return topo_wnuma(&t);
}

static void parse_args(int argc, char **argv, struct sampler_opts *o)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "interval-ms", required_argument, NULL, 'i' },
		{ "window-hints", required_argument, NULL, 'w' },
		{ "distance", required_argument, NULL, 'd' },
		{ "plugin-shm", required_argument, NULL, 'p' },
		{ "pid-maps-every", required_argument, NULL, 'm' },
		{ "reply-timeout-ms", required_argument, NULL, 'r' },
		{ "connect-timeout-ms", required_argument, NULL, 'c' },
		{ "start-timeout-ms", required_argument, NULL, 'b' },
		{ "stall-timeout-ms", required_argument, NULL, 't' },
		{ "samples", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *distance = "10,20;20,10";
	int c, idx;

	while ((c = getopt_long(argc, argv, "", opts, &idx)) != -1) {
		const char *name = idx >= 0 ? opts[idx].name : "";

		switch (c) {
		case 's': o->socket = optarg; break;
		case 'o': o->out_dir = optarg; break;
		case 'i': o->interval_ms = number(name, optarg, 1, 3600000); break;
		case 'w': o->window_hints = number(name, optarg, 1, 1ULL << 40); break;
		case 'd': distance = optarg; break;
		case 'p': o->plugin_shm = optarg; break;
		case 'm': o->maps_every = number(name, optarg, 0, UINT_MAX); break;
		case 'r': o->reply_timeout_ms = number(name, optarg, 1, 3600000); break;
		case 'c': o->connect_timeout_ms = number(name, optarg, 0, 3600000); break;
		case 'b': o->start_timeout_ms = number(name, optarg, 0, 3600000); break;
		case 't': o->stall_timeout_ms = number(name, optarg, 1, 3600000); break;
		case 'n': o->max_samples = number(name, optarg, 0, ULLONG_MAX); break;
		case 'h': usage(0); break;
		default: usage(2);
		}
		idx = -1;
	}
	if (optind != argc) {
		fprintf(stderr, "bnb-collect: unexpected argument '%s'\n", argv[optind]);
		usage(2);
	}
	if (!o->socket || !o->out_dir) {
		fprintf(stderr, "bnb-collect: --socket and --out are required\n");
		usage(2);
	}
	o->wnuma = wnuma_of(distance);
}

int main(int argc, char **argv)
{
	struct sampler_opts o = {
		.interval_ms = 100,
		.window_hints = 10000,
		.maps_every = 10,
		.reply_timeout_ms = 1000,
		.connect_timeout_ms = 60000,
		.start_timeout_ms = 120000,
		.stall_timeout_ms = 10000,
	};
	struct sigaction sa = { .sa_handler = on_signal };

	parse_args(argc, argv, &o);
	/* No SA_RESTART: a signal must cut short poll() and the sleep. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return sampler_run(&o, &stop);
}
