// SPDX-License-Identifier: GPL-2.0
/*
 * Loading a results folder: which runs exist, how each ended, and the
 * per-run metrics from the workload output, the collector's summary.json
 * and the launcher's result file.
 */
#include <dirent.h>
#include <libgen.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extract/csv.h"
#include "experiment/dilation.h"
#include "extract/extract.h"
#include "extract/jsonnum.h"
#include "lib/err.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "model/timekeeper.h"
#include "results.h"
#include "extract/wlout.h"

/* Sanity bounds: a billion seconds is 31 years; counts and rates far above any machine's. */
#define TIME_MAX 1e9
#define COUNT_MAX 1e15
#define COST_MAX 1e18

const struct metric_def metric_defs[N_METRICS] = {
	[M_WORK_S]         = { "work_s", "workload time", "s", BETTER_LOWER, 0, TIME_MAX },
	[M_RATE]           = { "rate_mean", "workload rate", NULL, BETTER_HIGHER, 0, COUNT_MAX },
	[M_COST_TOTAL]     = { "cost_total", "cost total", "units", BETTER_LOWER, 0, COST_MAX },
	[M_COST_PER_S]     = { "cost_per_s", "cost per second", "units/s", BETTER_LOWER, 0, COST_MAX },
	[M_MMTESTS_COST]   = { "mmtests_cost_total", "MMTests AutoNUMA cost", "units", BETTER_LOWER,
			       0, COST_MAX },
	[M_PTE_UPDATES]    = { "numa_pte_updates", "numa_pte_updates", "", BETTER_NONE, 0, COUNT_MAX },
	[M_HINT_FAULTS]    = { "numa_hint_faults", "numa_hint_faults", "", BETTER_NONE, 0, COUNT_MAX },
	[M_HINT_LOCAL]     = { "numa_hint_faults_local", "numa_hint_faults_local", "", BETTER_NONE,
			       0, COUNT_MAX },
	[M_PAGES_MIGRATED] = { "numa_pages_migrated", "numa_pages_migrated", "pages", BETTER_NONE,
			       0, COUNT_MAX },
	[M_CONV_90]        = { "time_to_conv_90_s", "time to 90% convergence", "s", BETTER_LOWER,
			       0, TIME_MAX },
	[M_CONV_95]        = { "time_to_conv_95_s", "time to 95% convergence", "s", BETTER_LOWER,
			       0, TIME_MAX },
	[M_CONV_FINAL]     = { "convergence_final", "final convergence", "", BETTER_HIGHER, 0, 1 },
	[M_CONV_WEIGHTED]  = { "convergence_time_weighted", "time-weighted convergence", "",
			       BETTER_HIGHER, 0, 1 },
	[M_LOCALITY]       = { "locality_final", "final page locality", "", BETTER_HIGHER, 0, 1 },
	[M_TRUE_LOCALITY]  = { "true_locality", "true access locality (plugin)", "", BETTER_HIGHER,
			       0, 1 },
	[M_BENEFIT]        = { "seed_benefit_u", "the seed's benefit formula (its first second "
			       "as the baseline; the account has the saving)", "u", BETTER_HIGHER,
			       -COST_MAX, COST_MAX },
	[M_WALL_S]         = { "wall_s", "guest wall time", "s", BETTER_LOWER, 0, TIME_MAX },
	[M_DILATION]       = { "dilation",
			       "time dilation D (deterministic: configured; wall: host rate / guest rate)",
			       "x", BETTER_NONE, 0, 1e6 },
	[M_SCAN_SCALE]     = { "scan_scale", "scan periods scaled by (scale_scan)", "x", BETTER_NONE,
			       0, 1e6 },
	[M_CONV_90_PAGES]  = { "time_to_conv_90_pages_s", "time to 90% convergence by pages", "s",
			       BETTER_LOWER, 0, TIME_MAX },
	[M_CONV_PAGES_FINAL] = { "convergence_pages_final", "final convergence by pages", "",
				 BETTER_HIGHER, 0, 1 },
};

bool metric_sane(int m, double v)
{
	return isfinite(v) && v >= metric_defs[m].min && v <= metric_defs[m].max;
}

/* "NAME=V is outside its sane range MIN..MAX", or not a number */
static const char *insane(int m, double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "%s is not a finite number", metric_defs[m].name);
	else
		snprintf(buf, len, "%s=%g is outside its sane range %g..%g", metric_defs[m].name, v,
			 metric_defs[m].min, metric_defs[m].max);
	return buf;
}

const char *summary_refusal(const struct wl_summary *s, bool required, char *buf, size_t len)
{
	static const int fields[] = { M_WORK_S, M_RATE };
	const double values[] = { s->work_s, s->rate_mean };
	size_t i;

	if (s->n_lines > 1) {
		snprintf(buf, len, "%d '# summary' lines (out.log lines %d and %d): one run has one, "
			 "and which is the workload's is not known", s->n_lines, s->line[0], s->line[1]);
		return buf;
	}
	if (s->bad[0]) {
		snprintf(buf, len, "'# summary' line: %s", s->bad);
		return buf;
	}
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		if (isnan(values[i]) && !required)
			continue;
		if (isnan(values[i]))
			snprintf(buf, len, "'# summary' line: no %s=", metric_defs[fields[i]].name);
		else if (!metric_sane(fields[i], values[i]))
			insane(fields[i], values[i], buf, len);
		else
			continue;
		return buf;
	}
	return NULL;
}

/* Note a refused value of RUN: it goes into no statistic, the report says so. */
#define refuse(run, ...) errf_append((run)->refused, sizeof((run)->refused), __VA_ARGS__)

/* Note a file of RUN that cannot be read whole; a run that ended ok lost figures. */
#define damaged(run, ...) errf_append((run)->damaged, sizeof((run)->damaged), __VA_ARGS__)

/*
 * The collector's timeseries.csv is whole when its header has the
 * columns the reports read and, when it has the `end` column (every
 * bnb-collect file; hand-made ones may lack it), its last row is the end
 * row: a file cut inside its header, or at a row boundary, parses.
 */
static void check_timeseries(struct run *run, const struct csv *t)
{
	static const char *const needed[] = { "sample", "t_s", "status", "cost_cum" };
	char last[32], quoted[64];
	int st = csv_col(t, "status");

	for (size_t i = 0; i < ARRAY_SIZE(needed); i++)
		if (csv_col(t, needed[i]) < 0) {
			damaged(run, "timeseries.csv has no column %s (its header cut short?)",
				needed[i]);
			return;
		}
	if (csv_col(t, "end") < 0)
		return;
	csv_last_text(t, st, last, sizeof(last));
	if (strcmp(last, "end"))
		damaged(run, "timeseries.csv ends without the collector's end row (the last "
			"row's status is '%s': cut short?)", printable(last, quoted, sizeof(quoted)));
}

/*
 * A CSV file of RUN (NAME) read as the reports and plots read it: rows
 * with the wrong number of fields (a file cut short mid-row) are skipped
 * there, so they are said here. REQUIRED: a missing file is damage too.
 * MORE checks what a whole file of its kind has.
 */
static void check_csv(struct run *run, const char *name, bool required,
		      void (*more)(struct run *run, const struct csv *t))
{
	char path[PATH_MAX * 2], err[256];
	struct csv t;

	snprintf(path, sizeof(path), "%s/%s", run->dir, name);
	if (access(path, F_OK)) {
		if (required)
			damaged(run, "%s is missing", name);
		return;
	}
	if (csv_load(path, &t, err, sizeof(err))) {
		damaged(run, "%s cannot be read: %.160s", name, err);
		return;
	}
	if (t.bad_rows)
		damaged(run, "%s has %d row(s) whose number of fields is not the header's %d "
			"(cut short?), the first on line %d", name, t.bad_rows, t.ncols,
			t.first_bad_line);
	if (more)
		more(run, &t);
	csv_free(&t);
}

/* Every fixed metric of RUN out of its bounds is refused (NAN) with a note. */
static void check_bounds(struct run *run)
{
	char why[160];
	int m;

	for (m = 0; m < N_METRICS; m++) {
		if (isnan(run->m[m]) || metric_sane(m, run->m[m]))
			continue;
		refuse(run, "%s", insane(m, run->m[m], why, sizeof(why)));
		run->m[m] = NAN;
	}
}

static const char *const status_names[] = {
	[RUN_OK] = "ok", [RUN_FAILED] = "failed", [RUN_INCOMPLETE] = "incomplete",
};

const char *run_status_name(enum run_status s)
{
	return status_names[s];
}

bool latency_free(const char *mode)
{
	return !strncmp(mode, "uniform", 7);
}

int results_kv_get(const char *path, const char *key, char *out, size_t outlen)
{
	size_t klen = strlen(key);
	char line[1024];
	FILE *f = fopen(path, "r");
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) || line[klen] != '=')
			continue;
		line[strcspn(line, "\r\n")] = 0;
		snprintf(out, outlen, "%s", line + klen + 1);
		rc = 0;
	}
	fclose(f);
	return rc;
}

int vm_warnings(const char *result)
{
	char n[32], err[64];
	int count;

	if (results_kv_get(result, "warnings", n, sizeof(n)) ||
	    parse_int(n, 0, INT_MAX, &count, err, sizeof(err)))
		return -1;
	return count;
}

static enum better better_of(const char *s)
{
	if (s && !strcmp(s, "lower"))
		return BETTER_LOWER;
	if (s && !strcmp(s, "higher"))
		return BETTER_HIGHER;
	return BETTER_NONE;
}

/* summary.json "metrics": { NAME: { "value": V, "unit": U, "better": B } } */
static void load_metrics(struct run *run, struct json_object *metrics)
{
	struct json_object *v, *u, *b;
	double value, lo, hi;

	if (!json_object_is_type(metrics, json_type_object))
		return;
	run->xm = calloc(1, sizeof(*run->xm));
	if (!run->xm)
		return;
	json_object_object_foreach(metrics, name, m) {
		if (!json_object_object_get_ex(m, "value", &v) ||
		    (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)))
			continue;
		json_object_object_get_ex(m, "unit", &u);
		json_object_object_get_ex(m, "better", &b);
		value = json_object_get_double(v);
		if (!xm_in_range(u ? json_object_get_string(u) : "", value, &lo, &hi)) {
			refuse(run, "metric %.64s=%g is outside its sane range %g..%g%s%.16s", name,
			       value, lo, hi, u ? " " : "", u ? json_object_get_string(u) : "");
			continue;
		}
		xm_add(run->xm, name, u ? json_object_get_string(u) : "", value,
		       better_of(b ? json_object_get_string(b) : NULL));
	}
}

/* A collector's number KEY of OBJ that is there but is no number (NaN). */
static double checked_number(struct run *run, struct json_object *obj, const char *key)
{
	double v = json_num(obj, key);
	struct json_object *o;

	if (isnan(v) && obj && json_object_object_get_ex(obj, key, &o) &&
	    json_object_is_type(o, json_type_double))
		refuse(run, "%s is not a finite number", key);
	return v;
}

static void load_collector(struct run *run)
{
	static const struct { int metric; const char *key; int obj; } keys[] = {
		{ M_COST_TOTAL, "cost_total", 0 },
		{ M_COST_PER_S, "cost_per_s", 0 },
		{ M_MMTESTS_COST, "mmtests_cost_total", 0 },
		{ M_PTE_UPDATES, "numa_pte_updates", 1 },
		{ M_HINT_FAULTS, "numa_hint_faults", 1 },
		{ M_HINT_LOCAL, "numa_hint_faults_local", 1 },
		{ M_PAGES_MIGRATED, "numa_pages_migrated", 1 },
		{ M_CONV_90, "time_to_conv_90_s", 0 },
		{ M_CONV_95, "time_to_conv_95_s", 0 },
		{ M_CONV_90_PAGES, "time_to_conv_90_pages_s", 0 },
		{ M_CONV_PAGES_FINAL, "convergence_pages_final", 0 },
		{ M_CONV_FINAL, "convergence_final", 0 },
		{ M_CONV_WEIGHTED, "convergence_time_weighted", 0 },
		{ M_TRUE_LOCALITY, "true_locality", 2 },
		{ M_BENEFIT, "benefit_cum", 2 },
	};
	struct json_object *root, *objs[3] = { NULL };	/* top level, counters, plugin */
	struct json_object *tiering;
	char path[PATH_MAX * 2];
	size_t i;

	snprintf(path, sizeof(path), "%s/summary.json", run->dir);
	root = json_object_from_file(path);
	if (!root) {
		if (access(path, F_OK))
			damaged(run, "summary.json is missing");
		else
			damaged(run, "summary.json is not valid JSON (cut short?)");
		return;
	}
	if (!json_object_is_type(root, json_type_object))
		damaged(run, "summary.json holds no JSON object");
	if (json_object_is_type(root, json_type_object)) {
		objs[0] = root;
		json_object_object_get_ex(root, "counters", &objs[1]);
		json_object_object_get_ex(root, "plugin", &objs[2]);
		tiering = NULL;
		json_object_object_get_ex(root, "tiering", &tiering);
		tiering_load(&run->tiering, run->refused, sizeof(run->refused), tiering, objs[2]);
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			run->m[keys[i].metric] = checked_number(run, objs[keys[i].obj], keys[i].key);
		run->window_hints = json_num(root, "window_hints");
		run->window_s = json_num(root, "window_s");
		run->window_n = json_num(root, "window_n_mean");
		if (json_object_object_get_ex(root, "metrics", &objs[1]))
			load_metrics(run, objs[1]);
		/* what the extractor refused as the run ended */
		if (json_object_object_get_ex(root, "refused_metrics", &objs[1]) &&
		    json_object_is_type(objs[1], json_type_string))
			refuse(run, "%.300s", json_object_get_string(objs[1]));
		if (json_object_object_get_ex(root, "provenance", &objs[1]) &&
		    json_object_is_type(objs[1], json_type_object))
			run->prov = json_object_get(objs[1]);
	}
	json_object_put(root);
}

static void load_workload(struct run *run)
{
	char path[PATH_MAX * 2], why[256];
	struct wl_summary s;

	snprintf(path, sizeof(path), "%s/out.log", run->dir);
	if (wl_scan(path, &s))
		return;
	if (summary_refusal(&s, false, why, sizeof(why)) && (s.n_lines > 1 || s.bad[0]))
		refuse(run, "%s", why);
	if (s.n_lines > 1)
		return;		/* not knowing which is the workload's, none is used */
	run->m[M_WORK_S] = s.work_s;
	run->m[M_RATE] = s.rate_mean;
	run->thread_rate = wl_thread_rate(&s);
	if (s.scan_milli > 0)
		run->m[M_SCAN_SCALE] = s.scan_milli / 1000.0;
	snprintf(run->rate_unit, sizeof(run->rate_unit), "%s", s.unit);
	snprintf(path, sizeof(path), "%s/workload.csv", run->dir);
	run->m[M_LOCALITY] = csv_last(path, "locality");	/* last sampled row */
}

/*
 * RUN's status file missing or without a status= line: never finished,
 * or damaged. A run whose launcher wrote its result file had its status
 * file written before (and after) it: that one is gone, not never made.
 */
static void no_status(struct run *run, const char *path)
{
	char result[PATH_MAX * 2];

	snprintf(result, sizeof(result), "%s/result", run->dir);
	run->status_damaged = !access(path, F_OK) || !access(result, F_OK);
	if (!access(path, F_OK))
		snprintf(run->reason, sizeof(run->reason),
			 "the status file is damaged: no status= line");
	else if (run->status_damaged)
		snprintf(run->reason, sizeof(run->reason), "the status file is missing, though "
			 "the launcher's result is there (removed or lost)");
	else
		snprintf(run->reason, sizeof(run->reason),
			 "no status file (the run never finished)");
}

static void load_status(struct run *run)
{
	char path[PATH_MAX * 2], value[512], quoted[64];

	snprintf(path, sizeof(path), "%s/status", run->dir);
	run->status = RUN_INCOMPLETE;
	run->status_damaged = false;
	if (results_kv_get(path, "status", value, sizeof(value))) {
		no_status(run, path);
		return;
	}
	if (!strcmp(value, "ok"))
		run->status = RUN_OK;
	else if (!strcmp(value, "failed"))
		run->status = RUN_FAILED;
	else if (!strcmp(value, "running"))
		snprintf(run->reason, sizeof(run->reason),
			 "status still 'running' (the runner was killed)");
	else if (strcmp(value, "incomplete")) {
		snprintf(run->reason, sizeof(run->reason), "the status file is damaged: "
			 "status='%s'", printable(value, quoted, sizeof(quoted)));
		run->status_damaged = true;
		return;		/* its other lines are as doubtful */
	}
	if (results_kv_get(path, "latency", run->latency, sizeof(run->latency)))
		run->latency[0] = 0;
	if (results_kv_get(path, "latency_why", run->latency_why, sizeof(run->latency_why)))
		run->latency_why[0] = 0;
	if (!results_kv_get(path, "reason", value, sizeof(value)) && value[0])
		snprintf(run->reason, sizeof(run->reason), "%s", value);
	else if (run->status == RUN_OK)
		run->reason[0] = 0;
}

/*
 * Under deterministic timing D is set by the configuration, not measured:
 * a guest instruction takes insn_ps (bnb-vm's result), a hardware one
 * hw_insn_ps (the plugin's, in the numawork file it writes; else its
 * default). A host-native rate says nothing about the modelled machine.
 */
static double configured_dilation(const struct run *run)
{
	char path[PATH_MAX * 2], value[64];
	double insn_ps, hw_ps = BNB_TK_DEF_HW_INSN_PS;

	snprintf(path, sizeof(path), "%s/result", run->dir);
	if (results_kv_get(path, "timing", value, sizeof(value)) ||
	    strcmp(value, "deterministic") ||
	    results_kv_get(path, "insn_ps", value, sizeof(value)))
		return NAN;
	insn_ps = strtod(value, NULL);
	snprintf(path, sizeof(path), "%s/numawork", run->dir);
	if (!results_kv_get(path, "hw_insn_ps", value, sizeof(value)) && strtod(value, NULL) > 0)
		hw_ps = strtod(value, NULL);
	return insn_ps > 0 ? insn_ps / hw_ps : NAN;
}

/* Host rate (status file) over this run's guest rate, per thread, or why not. */
static void load_dilation(struct run *run)
{
	char path[PATH_MAX * 2], value[64];
	double host = NAN;

	run->m[M_DILATION] = configured_dilation(run);
	if (!isnan(run->m[M_DILATION])) {
		run->dilation_why[0] = 0;
		return;
	}

	snprintf(path, sizeof(path), "%s/status", run->dir);
	if (results_kv_get(path, "dilation_why", run->dilation_why, sizeof(run->dilation_why)))
		run->dilation_why[0] = 0;
	if (!results_kv_get(path, "host_rate", value, sizeof(value)))
		host = strtod(value, NULL);
	run->m[M_DILATION] = dilation_ratio(host, run->thread_rate);
	if (!isnan(run->m[M_DILATION]) || run->dilation_why[0])
		return;
	if (isnan(host))
		snprintf(run->dilation_why, sizeof(run->dilation_why), "no host run recorded");
	else
		snprintf(run->dilation_why, sizeof(run->dilation_why),
			 "the guest run reported no rate_mean");
}

/* What run_load allocated. */
static void run_unload(struct run *run)
{
	free(run->xm);
	run->xm = NULL;
	if (run->prov)
		json_object_put(run->prov);
	run->prov = NULL;
}

void run_load(struct run *run)
{
	char path[PATH_MAX * 2], value[64];
	int i;

	for (i = 0; i < N_METRICS; i++)
		run->m[i] = NAN;
	run_unload(run);
	run->refused[0] = run->damaged[0] = 0;
	run->rate_unit[0] = 0;
	run->thread_rate = NAN;
	run->window_hints = run->window_s = run->window_n = NAN;
	load_status(run);
	load_workload(run);
	load_dilation(run);
	tiering_load(&run->tiering, run->refused, sizeof(run->refused), NULL, NULL);
	load_collector(run);
	/* a failed run's files may well be short; an ok run's must be whole */
	if (run->status == RUN_OK) {
		check_csv(run, "timeseries.csv", true, check_timeseries);
		check_csv(run, "workload.csv", false, NULL);
		check_csv(run, "account.csv", false, NULL);
	} else {
		run->damaged[0] = 0;
	}
	snprintf(path, sizeof(path), "%s/result", run->dir);
	run->warnings = vm_warnings(path);
	if (!results_kv_get(path, "wall_ms", value, sizeof(value)))
		run->m[M_WALL_S] = strtod(value, NULL) / 1000;
	check_bounds(run);
}

static int rep_cmp(const void *a, const void *b)
{
	return ((const struct run *)a)->rep - ((const struct run *)b)->rep;
}

/* Add every runs/VARIANT/repN folder of V. */
/* A new run REP of V in R, its folder PATH/NAME, loaded. */
static struct run *add_run(struct results *r, const struct variant *v, const char *path,
			   const char *name, int rep)
{
	struct run *run;

	r->runs = realloc(r->runs, (r->n_runs + 1) * sizeof(*r->runs));
	run = &r->runs[r->n_runs++];
	memset(run, 0, sizeof(*run));
	snprintf(run->variant, sizeof(run->variant), "%s", v->name);
	run->rep = rep;
	snprintf(run->dir, sizeof(run->dir), "%s/%s", path, name);
	run_load(run);
	return run;
}

/*
 * The runs of V that jobs.tsv lists but that have no folder (never
 * started, or removed): incomplete runs, not silently fewer ones.
 */
static void add_missing(struct results *r, const struct variant *v, const char *path,
			int first)
{
	char jobs[PATH_MAX * 2], line[512], name[EXP_NAME_MAX * 2];
	int id, rep, i;
	struct run *run;
	FILE *f;

	snprintf(jobs, sizeof(jobs), "%s/jobs.tsv", r->dir);
	f = fopen(jobs, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d\t%255s\t%d", &id, name, &rep) != 3 || strcmp(name, v->name) ||
		    rep < 1)
			continue;
		for (i = first; i < r->n_runs && r->runs[i].rep != rep; i++)
			;
		if (i < r->n_runs)
			continue;
		snprintf(line, sizeof(line), "rep%d", rep);
		run = add_run(r, v, path, line, rep);
		snprintf(run->reason, sizeof(run->reason), "no run folder (the run never started, "
			 "or its folder was removed)");
	}
	if (f)
		fclose(f);
}

static void load_variant(struct results *r, const struct variant *v)
{
	char path[PATH_MAX + 512];
	struct dirent *de;
	int first = r->n_runs;
	DIR *d;

	snprintf(path, sizeof(path), "%s/runs/%s", r->dir, v->name);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		int rep;
		char tail;

		if (sscanf(de->d_name, "rep%d%c", &rep, &tail) != 1 || rep < 1)
			continue;
		add_run(r, v, path, de->d_name, rep);
	}
	if (d)
		closedir(d);
	add_missing(r, v, path, first);
	qsort(r->runs + first, r->n_runs - first, sizeof(*r->runs), rep_cmp);
}

/* The name of the file that was run (jobs.conf), else the folder's name
 * without its timestamp. */
static void set_experiment_name(struct results *r)
{
	char path[PATH_MAX * 2], name[EXP_NAME_MAX], *copy, *base;
	int skip = 0;

	snprintf(path, sizeof(path), "%s/jobs.conf", r->dir);
	if (!results_kv_get(path, "name", name, sizeof(name)) && name[0]) {
		snprintf(r->exp.name, sizeof(r->exp.name), "%s", name);
		return;
	}
	copy = strdup(r->dir);
	base = basename(copy);
	sscanf(base, "%*8[0-9]-%*6[0-9]-%n", &skip);
	snprintf(r->exp.name, sizeof(r->exp.name), "%s", base + skip);
	free(copy);
}

/*
 * The tiering figures as metrics of every run, once some run tiered at
 * all (tieringrun.h says why not before).
 */
static void tiering_metrics(struct results *r)
{
	bool any = false;
	int i;

	for (i = 0; i < r->n_runs && !any; i++)
		any = r->runs[i].status == RUN_OK && tiering_moved(&r->runs[i].tiering);
	for (i = 0; any && i < r->n_runs; i++) {
		struct run *run = &r->runs[i];

		tiering_add(&run->tiering, &run->xm);
	}
}

int results_experiment(const char *dir, bool kernel_gone_ok, struct experiment *exp,
		       char *basedir, size_t len, char *err, size_t errlen)
{
	char path[PATH_MAX * 2];
	struct exp_origin o = { .basedir = basedir, .kernel_gone_ok = kernel_gone_ok };

	snprintf(path, sizeof(path), "%s/jobs.conf", dir);
	if (results_kv_get(path, "basedir", basedir, len) || !basedir[0])
		snprintf(basedir, len, "%s", dir);
	snprintf(path, sizeof(path), "%s/experiment.ini", dir);
	return experiment_load_copy(path, &o, exp, err, errlen);
}

int results_load(const char *dir, struct results *r, char *err, size_t errlen)
{
	char basedir[PATH_MAX];
	int i;

	char *abs = realpath(dir, NULL);

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "%s", abs ? abs : dir);
	free(abs);
	if (results_experiment(dir, true, &r->exp, basedir, sizeof(basedir), err, errlen))
		return -1;
	set_experiment_name(r);
	for (i = 0; i < r->exp.n_variants; i++)
		load_variant(r, &r->exp.variants[i]);
	tiering_metrics(r);
	return 0;
}

void results_free(struct results *r)
{
	int i;

	for (i = 0; i < r->n_runs; i++)
		run_unload(&r->runs[i]);
	experiment_free(&r->exp);
	free(r->runs);
	memset(r, 0, sizeof(*r));
}

bool run_unscanned(const struct results *r, const struct run *run)
{
	const struct variant *v = experiment_variant(&r->exp, run->variant);

	return v && v->balancing && run->status == RUN_OK && run->m[M_PTE_UPDATES] == 0;
}

bool results_has_runs(const struct results *r, const char *variant)
{
	int i;

	for (i = 0; i < r->n_runs; i++)
		if (!strcmp(r->runs[i].variant, variant))
			return true;
	return false;
}

int results_values(const struct results *r, const char *variant, int metric,
		   double *out, int max)
{
	int i, n = 0;

	for (i = 0; i < r->n_runs && n < max; i++)
		if (r->runs[i].status == RUN_OK && !strcmp(r->runs[i].variant, variant))
			out[n++] = r->runs[i].m[metric];
	return n;
}

double run_metric(const struct run *run, const char *name)
{
	const struct xmetric *x;
	int m;

	for (m = 0; m < N_METRICS; m++)
		if (!strcmp(metric_defs[m].name, name))
			return run->m[m];
	x = run->xm ? xm_find(run->xm, name) : NULL;
	return x ? x->value : NAN;
}

static bool seen_metric(const struct metric_info *m, int n, const char *name)
{
	while (n--)
		if (!strcmp(m[n].name, name))
			return true;
	return false;
}

int results_metrics(const struct results *r, const char *variant, struct metric_info *out,
		    int max)
{
	int i, k, n = 0;

	for (i = 0; i < N_METRICS && n < max; i++, n++) {
		out[n] = (struct metric_info){ .better = metric_defs[i].better, .fixed = i };
		snprintf(out[n].name, sizeof(out[n].name), "%s", metric_defs[i].name);
		snprintf(out[n].label, sizeof(out[n].label), "%s", metric_defs[i].label);
		snprintf(out[n].unit, sizeof(out[n].unit), "%s", metric_defs[i].unit ?
			 metric_defs[i].unit : results_rate_unit(r, variant));
	}
	for (i = 0; i < r->n_runs; i++) {
		const struct xmetrics *x = r->runs[i].xm;

		if (!x || strcmp(r->runs[i].variant, variant))
			continue;
		for (k = 0; k < x->n && n < max; k++) {
			if (seen_metric(out, n, x->v[k].name))
				continue;
			out[n] = (struct metric_info){ .better = x->v[k].better, .fixed = -1 };
			snprintf(out[n].name, sizeof(out[n].name), "%s", x->v[k].name);
			snprintf(out[n].label, sizeof(out[n].label), "%s", x->v[k].name);
			snprintf(out[n].unit, sizeof(out[n].unit), "%s", x->v[k].unit);
			n++;
		}
	}
	return n;
}

int results_values_named(const struct results *r, const char *variant, const char *name,
			 double *out, int max)
{
	int i, n = 0;

	for (i = 0; i < r->n_runs && n < max; i++)
		if (r->runs[i].status == RUN_OK && !strcmp(r->runs[i].variant, variant))
			out[n++] = run_metric(&r->runs[i], name);
	return n;
}

const char *results_rate_unit(const struct results *r, const char *variant)
{
	int i;

	for (i = 0; i < r->n_runs; i++)
		if (!strcmp(r->runs[i].variant, variant) && r->runs[i].rate_unit[0])
			return r->runs[i].rate_unit;
	return "";
}
