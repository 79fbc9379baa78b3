/* SPDX-License-Identifier: GPL-2.0 */
/* The sampling loop: request, await, account, write, sleep. */
#ifndef BNB_COLLECTOR_SAMPLER_H
#define BNB_COLLECTOR_SAMPLER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/opt.h"

/* Filled from bnb-collect's options table (options.c). */
struct sampler_opts {
	char *socket;
	char *out_dir;
	char *plugin_shm;		/* NULL: none */
	double wnuma;			/* from --distance */
	uint64_t window_hints;		/* N at least */
	double window_s;		/* N = the hints of this much guest time */
	int interval_ms;
	int maps_every;			/* 0: never walk numa_maps */
	int reply_timeout_ms;
	int connect_timeout_ms;
	int start_timeout_ms;		/* first reply, the guest is booting */
	int stall_timeout_ms;		/* then, no valid reply for this long */
	uint64_t max_samples;		/* 0: until the guest goes away */
	bool stream;			/* the agent sends on the guest's clock */
};

/* bnb-collect's options (options.c): --help, and parsing into struct sampler_opts. */
extern const struct opt_def collect_options[];
extern const size_t collect_n_options;
extern const struct opt_tool collect_tool;	/* --help around the table */
/* Defaults, then ARGV; 0, OPT_HELP/OPT_HELP_MARKDOWN, or -1 with err. */
int collect_parse(struct sampler_opts *o, int argc, char **argv, char *err, size_t errlen);

/* Returns the process exit status. */
int sampler_run(const struct sampler_opts *o, volatile sig_atomic_t *stop);

#endif /* BNB_COLLECTOR_SAMPLER_H */
