// SPDX-License-Identifier: GPL-2.0
/*
 * The experiment key table. Every key an experiment file may use is a row
 * here: its type, the field of struct variant (or struct experiment) it
 * fills, bounds, default and help. The parser checks each key = value
 * against its row as it reads, so errors point at the line that is wrong,
 * and fills the typed fields once a variant is complete.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract.h"
#include "guest/packages/pkg.h"
#include "keys.h"
#include "sweep.h"
#include "variant.h"
#include "lib/err.h"
#include "lib/topo_opt.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "extract/monitors.h"
#include "plugin/args.h"
#include "model/machine.h"

/* A plugin_opts word: the runner (or bnb-vm) derives some keys itself. */
static int plugin_opt_word(const char *w, char *err, size_t errlen)
{
	int klen = strcspn(w, "=");

	if (!w[klen] || !klen || strchr(w, ','))
		return errf(err, errlen, "'%s' is not KEY=VALUE without commas", w);
	switch (bnb_args_owner(w)) {
	case BNB_ARG_USER:
		return 0;
	case BNB_ARG_MODEL:
		return errf(err, errlen, "'%s': set %.*s in [machine]", w, klen, w);
	default:
		return errf(err, errlen, "'%s': the runner sets %.*s itself", w, klen, w);
	}
}

/*
 * Space separated K=V words, checked by the plugin's own parser (behind a
 * stand-in topology), so a typo fails here and not in every run.
 */
static int parse_plugin_opts(const struct opt_def *o, const char *value, void *field,
			     char *err, size_t errlen)
{
	struct argv words = { 0 };
	struct bnb_plugin_args pa;
	char *copy = strdup(value), *w, *save = NULL;
	int rc = 0;

	argv_add(&words, "nodes=1");
	argv_add(&words, "cpus=1");
	argv_add(&words, "mem_mib=2");
	argv_add(&words, "dist=10");
	for (w = strtok_r(copy, " \t", &save); w && !rc; w = strtok_r(NULL, " \t", &save)) {
		rc = plugin_opt_word(w, err, errlen);
		argv_add(&words, "%s", w);
	}
	free(copy);
	if (!rc)
		rc = bnb_args_parse(&pa, words.n, words.v, err, errlen);
	if (!rc && field) {
		argv_free(field);
		for (int i = 4; i < words.n; i++)
			argv_add(field, "%s", words.v[i]);
	}
	argv_free(&words);
	return rc;
}

static void free_argv(void *field)
{
	argv_free(field);
}

static int parse_scale(const struct opt_def *o, const char *value, void *field,
		       char *err, size_t errlen)
{
	struct scan_scale s;

	if (scan_scale_parse(value, &s))
		return errf(err, errlen, "'%s' is not off, auto, hardware or a factor 0.001..%g",
			    value, SCALE_FACTOR_MAX);
	if (field)
		*(struct scan_scale *)field = s;
	return 0;
}

/* A time or a factor of scale_scan=hardware: above 0 (0 is "not given"). */
static int parse_positive(const struct opt_def *o, const char *value, void *field,
			  char *err, size_t errlen)
{
	double v;
	char why[128];

	if (parse_double(value, 0, SCALE_FACTOR_MAX * 1000, &v, why, sizeof(why)) || !(v > 0))
		return errf(err, errlen, "'%s' is not a number above 0", value);
	if (field)
		*(double *)field = v;
	return 0;
}

/* auto is NAN: the run decides (conv_window_s). */
static int parse_window(const struct opt_def *o, const char *value, void *field,
			char *err, size_t errlen)
{
	double span = NAN;
	char why[128];

	if (strcmp(value, "auto") &&
	    parse_double(value, 0, WINDOW_S_MAX, &span, why, sizeof(why)))
		return errf(err, errlen, "'%s' is not auto or seconds 0..%g", value,
			    WINDOW_S_MAX);
	if (field)
		*(double *)field = span;
	return 0;
}

/* Sysctl values reach a guest shell: plain tokens only. */
static bool plain_token(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.", *s))
			return false;
	return true;
}

/* A value, a list a,b,c or a range start:end:step; the variant's sysctls
 * are gathered from its settings, so this row only checks. */
static int parse_sysctl(const struct opt_def *o, const char *value, void *field,
			char *err, size_t errlen)
{
	char buf[1024], *items[EXP_MAX_SWEEP + 1];
	long long a, b, step;
	int n, i;

	if (strchr(value, ':'))
		return sweep_range(value, &a, &b, &step, err, errlen);
	if (snprintf(buf, sizeof(buf), "%s", value) >= (int)sizeof(buf))
		return errf(err, errlen, "value too long");
	n = split_list(buf, ',', items, EXP_MAX_SWEEP + 1);
	for (i = 0; i < n && plain_token(items[i]); i++)
		;
	if (n < 0 || i < n)
		return errf(err, errlen, "bad value '%s' (want a value, a list a,b,c or a range "
			    "start:end:step; letters, digits, - _ . only)", value);
	return 0;
}

/* Store VALUE as the string FIELD, the old one freed (OPT_STR's way). */
static int store_str(const char *value, void *field, char *err, size_t errlen)
{
	char *copy;

	if (!field)
		return 0;
	copy = strdup(value);
	if (!copy)
		return errf(err, errlen, "out of memory");
	free(*(char **)field);
	*(char **)field = copy;
	return 0;
}

static void free_str(void *field)
{
	free(*(char **)field);
	*(char **)field = NULL;
}

static int parse_metrics(const struct opt_def *o, const char *value, void *field,
			 char *err, size_t errlen)
{
	if (*value && !extractor_lookup(value))
		return errf(err, errlen, "unknown metrics extractor '%s' (want summary, "
			    "perf-bench-numa, stress-ng, redis-benchmark, memaslap, pgbench, "
			    "sysbench or elapsed)", value);
	return store_str(value, field, err, errlen);
}

/* Refused here, not after a boot by bnb-service in the guest. */
static int parse_user(const struct opt_def *o, const char *value, void *field,
		      char *err, size_t errlen)
{
	if (*value && !user_name_ok(value))
		return errf(err, errlen, "'%s' is not a user name (a-z or _ first, then a-z 0-9 _ -, "
			    "at most 32)", value);
	return store_str(value, field, err, errlen);
}

/* Each package installed, or the line is refused with the apt-get line. */
static int parse_packages(const struct opt_def *o, const char *value, void *field,
			  char *err, size_t errlen)
{
	struct pkg_plan p;
	int rc = 0;

	if (!field && *value) {
		rc = pkg_resolve(PKG_DPKG_ADMIN, value, &p, err, errlen);
		pkg_plan_free(&p);
	}
	return rc ? -1 : store_str(value, field, err, errlen);
}

static int parse_monitors(const struct opt_def *o, const char *value, void *field,
			  char *err, size_t errlen)
{
	if (monitors_validate(value, err, errlen))
		return -1;
	return store_str(value, field, err, errlen);
}

/* Perf event names reach the guest shell: letters, digits, - _ : . / = */
static int parse_events(const struct opt_def *o, const char *value, void *field,
			char *err, size_t errlen)
{
	const char *p;

	for (p = value; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_:./=,", *p))
			return errf(err, errlen, "bad value '%s' (want perf event names such as "
				    "page-faults or sched:sched_move_numa, comma separated)", value);
	return store_str(value, field, err, errlen);
}

/*
 * Metric names, space or comma separated: the report's fixed ones
 * (summary.json's keys) or a foreign workload's extracted ones, which are
 * only known once it ran; a name no run has is said so in the report.
 */
static int parse_primary(const struct opt_def *o, const char *value, void *field,
			 char *err, size_t errlen)
{
	char *copy = strdup(value), *w, *save = NULL;
	struct argv words = { 0 };
	int rc = copy ? 0 : errf(err, errlen, "out of memory");

	for (w = copy ? strtok_r(copy, " \t,", &save) : NULL; w && !rc;
	     w = strtok_r(NULL, " \t,", &save)) {
		if (strlen(w) >= XM_NAME_MAX || w[strspn(w, "abcdefghijklmnopqrstuvwxyz"
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.%/+-")])
			rc = errf(err, errlen, "'%s' is not a metric name", w);
		else if (words.n == EXP_MAX_PRIMARY)
			rc = errf(err, errlen, "more than %d primary metrics", EXP_MAX_PRIMARY);
		else
			argv_add(&words, "%s", w);
	}
	if (!rc && !words.n)
		rc = errf(err, errlen, "no metric named");
	if (!rc && field) {
		argv_free(field);
		*(struct argv *)field = words;
		words = (struct argv) { 0 };
	}
	argv_free(&words);
	free(copy);
	return rc;
}

/* A latency matrix, checked against the node count once variants are filled. */
#define V(f) OPT_FIELD(struct variant, f)
#define V_MACHINE(f) V(machine.f)
#define MACHINE_KEY(key, option, text, offset, ...) \
	{ key, .off = offset, .scope = KS_MACHINE, .help = "([machine] only) " text, __VA_ARGS__ },
#define E(f) OPT_FIELD(struct experiment, f)

static const struct opt_def keys[] = {
	{ "description", OPT_STR, V(description), .def = "", .scope = KS_VARIANT,
	  .help = "free text shown under the report's title (summary.md; summary.json "
		  "`description`, per variant too)" },
	/* one field for the four, read in this order: nodes sets the count */
	{ "nodes", OPT_FUNC, V(topo), .parse = topo_opt_nodes, .metavar = "1..64", .def = "2",
	  .scope = KS_VARIANT, .help = "guest NUMA nodes" },
	{ "cpus", OPT_FUNC, V(topo), .parse = topo_opt_cpus, .metavar = "N[,N...]", .def = "1",
	  .scope = KS_VARIANT, .help = "vCPUs per node: one number for every node, or one per node" },
	{ "mem", OPT_FUNC, V(topo), .parse = topo_opt_mem, .metavar = "SIZE[,SIZE...]",
	  .def = "512M", .scope = KS_VARIANT,
	  .help = "memory per node in 2 MiB multiples (512M, 1G; a bare number is bytes): "
		  "one size for every node, or one per node" },
	{ "distance", OPT_FUNC, V(topo), .parse = topo_opt_distance, .metavar = "MATRIX",
	  .scope = KS_VARIANT,
	  .help = "SLIT distances, rows split by ';': 10,20;20,10 (default 10 local, 20 remote)" },
	{ "hmat", OPT_BOOL, V(hmat), .def = "on", .scope = KS_VARIANT,
	  .help = "HMAT latency/bandwidth tables: the machine model's figures when it is on, "
		  "else from the distances" },
	{ "accel", OPT_CHOICE, V(accel), .choices = VM_ACCEL_CHOICES, .def = "tcg",
	  .scope = KS_VARIANT, .help = "QEMU accelerator" },
	{ "timing", OPT_CHOICE, V(timing), .choices = VM_TIMING_CHOICES, .def = "wall",
	  .scope = KS_VARIANT,
	  .help = "guest time: the host's clock (multi-threaded TCG), or deterministic: "
		  "icount's, counting executed instructions (one host thread; the plugin's "
		  "time keeper runs the vCPUs in parallel, its delays are off)" },
	{ "icount_shift", OPT_INT, V(icount_shift), .min = 0, .max = 10, .def = "0",
	  .scope = KS_VARIANT, .help = "timing=deterministic: icount's 2^N ns per instruction of "
	  "any vCPU, the guest's clock without the plugin; with its time keeper each vCPU runs "
	  "at the machine class's instruction time (bench/model/README.md)" },
	{ "start_jitter", OPT_BOOL, V(start_jitter), .def = "off", .scope = KS_VARIANT,
	  .help = "repetition k waits a fixed guest-time delay (under one timer tick, "
		  "different per k) before the workload, so repetitions of a deterministic "
		  "run sample the tick's phase; the same k gives the same run" },
	{ "latency", OPT_CHOICE, V(latency), .choices = "auto|emulated|off", .def = "auto",
	  .scope = KS_VARIANT,
	  .help = "emulated remote latency through the TCG plugin (auto: when it is built and "
		  "accel=tcg)" },
	{ "plugin_opts", OPT_FUNC, V(plugin_opts), .parse = parse_plugin_opts, .free = free_argv,
	  .metavar = "K=V ...", .def = "", .scope = KS_VARIANT,
	  .help = "more plugin options, space separated (bench/plugin/README.md), checked "
		  "against the plugin's own table" },
	{ "kernel", OPT_STR, V(kernel), .flags = OPTF_NONEMPTY, .metavar = "NAME|ksrc:DIR|PATH",
	  .def = "patched", .scope = KS_VARIANT,
	  .help = "the guest kernel: a named build (patched: 6.1 with the series; debian-6.1, "
		  "debian-6.12: Debian's as they ship; default = patched), built before the first "
		  "run when missing; ksrc:DIR, a source tree built as is; or a bzImage (paths "
		  "relative to the experiment file)" },
	{ "append", OPT_STR, V(append), .def = "", .scope = KS_VARIANT,
	  .help = "extra kernel command line" },
	{ "balancing", OPT_BOOL, V(balancing), .def = "on", .scope = KS_VARIANT,
	  .help = "automatic NUMA balancing at boot (numa_balancing=)" },
	{ "workload", OPT_STR, V(workload), .flags = OPTF_NONEMPTY | OPTF_REQUIRED,
	  .metavar = "COMMAND", .scope = KS_VARIANT,
	  .help = "the guest command (required): a project workload (stream --placement "
		  "misplaced) or any command (perf bench numa mem -p 2 -t 2 -P 64 -s 20 -zZ0 -c -m)" },
	{ "metrics", OPT_FUNC, V(metrics), .parse = parse_metrics, .free = free_str,
	  .metavar = "summary|perf-bench-numa|stress-ng|redis-benchmark|memaslap|pgbench|sysbench|elapsed",
	  .def = "", .scope = KS_VARIANT,
	  .help = "where the workload's metrics come from (default: chosen by the command)" },
	{ "packages", OPT_FUNC, V(packages), .parse = parse_packages, .free = free_str,
	  .metavar = "PACKAGE ...", .def = "", .scope = KS_VARIANT,
	  .help = "installed Debian packages the guest boots with: their programs, the "
		  "libraries those load and their data files, packed once into the cache "
		  "(docs/applications.md); one not installed is refused with the apt-get line "
		  "that installs it" },
	{ "server", OPT_STR, V(server), .def = "", .metavar = "COMMAND", .scope = KS_VARIANT,
	  .help = "a server started before the workload and stopped after it, its processes' "
		  "pages followed (bnb-service); placed with numactl in COMMAND; needs "
		  "server_ready" },
	{ "server_ready", OPT_STR, V(server_ready), .def = "", .metavar = "COMMAND",
	  .scope = KS_VARIANT,
	  .help = "run until it exits 0: the server answers (redis-cli ping)" },
	{ "server_timeout", OPT_INT, V(server_timeout), .min = 1, .max = 3600, .def = "60",
	  .scope = KS_VARIANT,
	  .help = "guest seconds the server has to answer server_ready; else the run fails "
		  "with the end of its log" },
	{ "server_setup", OPT_STR, V(server_setup), .def = "", .metavar = "COMMAND",
	  .scope = KS_VARIANT,
	  .help = "before the server, as server_user, in its folder (initdb)" },
	{ "server_user", OPT_FUNC, V(server_user), .parse = parse_user, .free = free_str,
	  .def = "", .metavar = "NAME",
	  .scope = KS_VARIANT,
	  .help = "the user server_setup and the server run as, made in the guest (default "
		  "root)" },
	{ "server_load", OPT_STR, V(server_load), .def = "", .metavar = "COMMAND",
	  .scope = KS_VARIANT,
	  .help = "once the server answers: its data, loaded before the measured phase (the "
		  "workload)" },
	{ "server_move", OPT_INT, V(server_move), .min = -1, .max = 63, .def = "-1",
	  .metavar = "NODE", .scope = KS_VARIANT,
	  .help = "after server_load, every thread of the server moves to node NODE's CPUs, "
		  "its data staying where it was first touched (-1: it stays)" },
	{ "monitors", OPT_FUNC, V(monitors), .parse = parse_monitors, .free = free_str,
	  .metavar = "none|trace,sched,perfstat", .def = "none", .scope = KS_VARIANT,
	  .help = "what to watch while the workload runs: NUMA tracepoints, the tasks' "
		  "/proc/PID/sched, perf stat" },
	{ "perf_events", OPT_FUNC, V(perf_events), .parse = parse_events, .free = free_str,
	  .metavar = "EVENT,...", .def = "", .scope = KS_VARIANT,
	  .help = "events for the perfstat monitor (default: task-clock, context-switches, "
		  "cpu-migrations, page-faults and the NUMA tracepoints)" },
	{ "repetitions", OPT_INT, V(repetitions), .min = 1, .max = 1000, .def = "3",
	  .scope = KS_VARIANT, .help = "runs per variant, each in a fresh guest" },
	{ "interval_ms", OPT_INT, V(interval_ms), .min = 10, .max = 60000, .def = "100",
	  .scope = KS_VARIANT, .help = "collector sample interval" },
	{ "window_hints", OPT_INT, V(window_hints), .min = 1, .max = 100000000, .def = "100",
	  .scope = KS_VARIANT,
	  .help = "convergence over the last N hinting faults: N at least this" },
	{ "window_s", OPT_FUNC, V(window_s), .parse = parse_window, .def = "auto",
	  .metavar = "auto|SECONDS", .scope = KS_VARIANT,
	  .help = "N is also every hint of the last SECONDS of guest time, when more; 0: N "
		  "fixed at window_hints; auto: 5 s, under timing=deterministic 5 of the "
		  "guest's scan_period_min_ms (after scale_scan)" },
	{ "time_limit", OPT_INT, V(time_limit), .min = 5, .max = 86400, .def = "300",
	  .scope = KS_VARIANT, .help = "seconds one run may take, boot included" },
	{ "bound", OPT_CHOICE, V(bound), .choices = "none|local|remote", .def = "none",
	  .scope = KS_VARIANT,
	  .help = "this variant is a hand-bound reference: its mean rate is drawn as a line "
		  "on rate plots" },
	{ "scale_scan", OPT_FUNC, V(scale_scan), .parse = parse_scale,
	  .metavar = "off|auto|X|hardware", .def = "off", .scope = KS_VARIANT,
	  .help = "multiply scan_delay_ms, scan_period_min_ms and scan_period_max_ms by the "
		  "time dilation: off, auto (measured per run; the configured D under "
		  "timing=deterministic) or a factor; hardware: keep the hardware run's scan "
		  "passes and windows per pass (the scale_* keys, docs/time-scale.md)" },
	{ "scale_hw_s", OPT_FUNC, V(scale_hw_s), .parse = parse_positive, .metavar = "SECONDS",
	  .scope = KS_VARIANT,
	  .help = "scale_scan=hardware: seconds the hardware run this one stands for lasted" },
	{ "scale_hw_ws", OPT_SIZE, V(scale_hw_ws), .min = 1 << 20, .max = 1ULL << 50,
	  .scope = KS_VARIANT,
	  .help = "scale_scan=hardware: that run's working set per process (3G)" },
	{ "scale_guest_s", OPT_FUNC, V(scale_guest_s), .parse = parse_positive,
	  .metavar = "SECONDS", .scope = KS_VARIANT,
	  .help = "scale_scan=hardware: guest seconds this run lasts (time factor = "
		  "scale_guest_s / scale_hw_s)" },
	{ "scale_guest_ws", OPT_SIZE, V(scale_guest_ws), .min = 1 << 20, .max = 1ULL << 50,
	  .scope = KS_VARIANT,
	  .help = "scale_scan=hardware: this run's working set per process (size factor = "
		  "scale_guest_ws / scale_hw_ws)" },
	{ "scale_time", OPT_FUNC, V(scale_time), .parse = parse_positive, .metavar = "X",
	  .scope = KS_VARIANT,
	  .help = "scale_scan=hardware: the time factor outright, instead of scale_guest_s" },
	{ "scale_size", OPT_FUNC, V(scale_size), .parse = parse_positive, .metavar = "X",
	  .scope = KS_VARIANT,
	  .help = "scale_scan=hardware: the size factor outright, instead of scale_guest_ws" },
	/* the machine model's parameters: bench/model/machine.h */
	BNB_MACHINE_KEYS(MACHINE_KEY, V_MACHINE)
	{ "objective", OPT_CHOICE, E(objective), .choices = "convergence|cost|work|net",
	  .def = "convergence", .scope = KS_EXPERIMENT,
	  .help = "([global] only) what the sweep report optimises" },
	{ "primary", OPT_FUNC, E(primary), .parse = parse_primary, .free = free_argv,
	  .metavar = "METRIC ...", .def = "work_s cost_total time_to_conv_90_s true_locality",
	  .scope = KS_EXPERIMENT,
	  .help = "([global] only) the metrics the experiment is about: each compared at "
		  "p < 0.05 as it is; every other metric as one family under Holm's "
		  "correction" },
	{ SYSCTL_PREFIX "*", OPT_FUNC, 0, .parse = parse_sysctl, .flags = OPTF_PREFIX,
	  .metavar = "V|a,b,c|start:end:step", .scope = KS_VARIANT,
	  .help = "a sysctl to set before the workload (sysctl.scan_period_min_ms, "
		  "sysctl.vm.zone_reclaim_mode); a list or a range sweeps it" },
};

const struct opt_def *key_table(size_t *n)
{
	*n = ARRAY_SIZE(keys);
	return keys;
}

const struct opt_def *key_lookup(const char *key)
{
	if (!strncmp(key, SYSCTL_PREFIX, strlen(SYSCTL_PREFIX)) &&
	    !sysctl_name_ok(key + strlen(SYSCTL_PREFIX)))
		return NULL;
	return opt_find(keys, ARRAY_SIZE(keys), key);
}

void keys_usage(FILE *f)
{
	opt_usage(f, keys, ARRAY_SIZE(keys), "");
}

void keys_markdown(FILE *f)
{
	opt_markdown(f, keys, ARRAY_SIZE(keys), "", "key");
}
