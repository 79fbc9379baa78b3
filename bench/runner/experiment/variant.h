/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An experiment as data: its sections, its variants with every key read
 * into a typed field, and the keys of [global] alone. experiment.c fills
 * it (experiment.h); the key table (keys.c), the scaling plan (scale.c)
 * and the reports read it without needing the loader.
 */
#ifndef BNB_VARIANT_H
#define BNB_VARIANT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bnb_topology.h"
#include "dilation.h"
#include "lib/argv.h"
#include "lib/vm_status.h"
#include "model/machine.h"

#define EXP_MAX_SETTINGS 64
#define EXP_MAX_VARIANTS 256
#define EXP_MAX_SWEEP 64
#define EXP_NAME_MAX 128
#define EXP_MAX_PRIMARY 16
#define WINDOW_S_MAX 86400.0	/* window_s: a day of guest time */

struct setting {
	char *key;
	char *value;
	int line;
};

struct section {
	char name[EXP_NAME_MAX];
	int line;			/* line of the [header], 0 for global */
	struct setting settings[EXP_MAX_SETTINGS];
	int n_settings;
};

/* One swept sysctl of an expanded variant: which key and which value. */
struct sweep_point {
	char *key;			/* e.g. "sysctl.scan_period_min_ms" */
	char *value;
};

/* The choice keys, in the order of their choices in keys.c. */
enum latency_want { LATENCY_AUTO, LATENCY_EMULATED, LATENCY_OFF };
enum bound { BOUND_NONE, BOUND_LOCAL, BOUND_REMOTE };
enum objective_id { OBJ_CONVERGENCE, OBJ_COST, OBJ_WORK, OBJ_NET };

/* A sysctl of a variant: one value, strings owned by its settings. */
struct sysctl_setting {
	const char *key;		/* "sysctl.scan_delay_ms" */
	const char *value;
};

/*
 * A concrete variant after inheritance and sweep expansion: every key has
 * exactly one value. It remembers which section it came from and, for a
 * sweep, which point it is. settings[] is the text as written (with line
 * numbers); the fields below are the same read through the key table, one
 * per key.
 */
struct variant {
	char name[EXP_NAME_MAX * 2];
	char base[EXP_NAME_MAX];
	struct setting settings[EXP_MAX_SETTINGS];
	int n_settings;
	struct sweep_point sweep[EXP_MAX_SWEEP];
	int n_sweep;

	char *description;
	struct bnb_topology topo;	/* nodes, cpus, mem, distance */
	bool hmat;
	enum vm_accel accel;
	enum vm_timing timing;
	int icount_shift;		/* timing=deterministic: 2^N ns per instruction */
	bool start_jitter;		/* rep-dependent guest delay before the workload */
	enum latency_want latency;
	struct argv plugin_opts;	/* K=V words */
	char *kernel;			/* "default" or a path */
	char *append;
	bool balancing;
	char *workload;
	char *metrics;			/* "" or an extractor name (extract.h) */
	char *packages;			/* "" or Debian packages for the guest */
	/* a server around the workload (bnb-service); "" where not given */
	char *server, *server_ready, *server_setup, *server_user, *server_load;
	int server_timeout;		/* guest seconds to answer server_ready */
	int server_move;		/* node the server moves to after its load; -1 */
	char *monitors;			/* "none" or a list of monitor names */
	char *perf_events;		/* "" or perf event names, comma separated */
	int repetitions;
	int interval_ms;
	int window_hints;
	double window_s;		/* NAN: auto (conv_window_s) */
	int time_limit;			/* seconds */
	enum bound bound;
	struct scan_scale scale_scan;
	/* scale_scan=hardware (scale.h): this run and the hardware run it
	 * stands for; 0 where not given */
	double scale_hw_s, scale_guest_s, scale_time, scale_size;
	uint64_t scale_hw_ws, scale_guest_ws;	/* bytes */
	struct sysctl_setting sysctls[EXP_MAX_SETTINGS];
	int n_sysctls;
	/* [machine]: the machine model (bench/model/machine.h) */
	struct bnb_machine_spec machine;
};

struct experiment {
	char *path;
	char name[EXP_NAME_MAX];	/* file name without .ini */
	struct section global;
	struct section machine;
	struct section *sections;
	int n_sections;
	struct variant *variants;
	int n_variants;

	/* keys of [global] alone */
	enum objective_id objective;
	struct argv primary;		/* metric names, at most EXP_MAX_PRIMARY */
};

#endif
