// SPDX-License-Identifier: GPL-2.0
/*
 * The monitors' files, read back on the host. Everything here comes from
 * the guest: file names are checked against the list bnb-monitor writes,
 * numbers go through the strict CSV reader, and rows that do not fit are
 * skipped, never trusted.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bnb_monitor.h"
#include "csv.h"
#include "lib/util.h"
#include "run/fsio.h"
#include "monitors.h"

#define MON_DIR "monitor"

static const struct monitor_def monitors[] = {
	{ BNB_MON_TRACE, "tracepoints sched_move_numa, sched_swap_numa, sched_stick_numa and "
	  "mm_migrate_pages via tracefs: task moves and swaps, pages migrated by reason", false },
	{ BNB_MON_SCHED, "numa_scan_period and numa_preferred_nid of the workload's tasks "
	  "from /proc/PID/sched over time", false },
	{ BNB_MON_PERFSTAT, "perf stat -I over the whole guest with the perf_events list", true },
};

static const char *const files[] = {
	BNB_MON_TRACE_FILE, BNB_MON_EVENTS_FILE, BNB_MON_SCHED_FILE, BNB_MON_PERFSTAT_FILE,
};
#define N_FILES (ARRAY_SIZE(files))

const struct monitor_def *monitor_table(size_t *n)
{
	*n = ARRAY_SIZE(monitors);
	return monitors;
}

const struct monitor_def *monitor_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(monitors); i++)
		if (!strcmp(monitors[i].name, name))
			return &monitors[i];
	return NULL;
}

#define SEPS ", \t"

int monitors_validate(const char *value, char *why, size_t whylen)
{
	char buf[256], *tok, *save = NULL;

	if (strlen(value) >= sizeof(buf)) {
		snprintf(why, whylen, "list too long");
		return -1;
	}
	strcpy(buf, value);
	for (tok = strtok_r(buf, SEPS, &save); tok; tok = strtok_r(NULL, SEPS, &save)) {
		if (monitor_lookup(tok) || !strcmp(tok, "none"))
			continue;
		snprintf(why, whylen, "unknown monitor '%s' (want none or a list of %s, %s, %s)",
			 tok, monitors[0].name, monitors[1].name, monitors[2].name);
		return -1;
	}
	return 0;
}

bool monitors_has(const char *value, const char *name)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", value ? value : "");
	for (tok = strtok_r(buf, SEPS, &save); tok; tok = strtok_r(NULL, SEPS, &save))
		if (!strcmp(tok, name))
			return true;
	return false;
}

bool monitors_need_perf(const char *value)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(monitors); i++)
		if (monitors[i].needs_perf && monitors_has(value, monitors[i].name))
			return true;
	return false;
}

static int file_index(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < N_FILES; i++)
		if (strlen(files[i]) == len && !strncmp(files[i], name, len))
			return (int)i;
	return -1;
}

int monitors_split(const char *outlog, const char *rundir)
{
	const size_t plen = strlen(BNB_MON_FILE);
	char path[4200], line[4096];
	FILE *out[N_FILES] = { NULL }, *in;
	int k, rc = 0, failed = 0;
	size_t i;

	in = fopen(outlog, "r");
	if (!in)
		return -1;
	snprintf(path, sizeof(path), "%s/" MON_DIR, rundir);
	while (fgets(line, sizeof(line), in)) {
		char *name = line + plen, *colon;

		if (strncmp(line, BNB_MON_FILE, plen) || !(colon = strstr(name, ": ")))
			continue;
		k = file_index(name, (size_t)(colon - name));
		if (k < 0)
			continue;
		if (!out[k]) {
			mkdir(path, 0755);
			snprintf(path, sizeof(path), "%s/" MON_DIR "/%s", rundir, files[k]);
			out[k] = fopen(path, "w");
			snprintf(path, sizeof(path), "%s/" MON_DIR, rundir);
			if (!out[k]) {
				failed = failed ? failed : errno;
				continue;
			}
		}
		fputs(colon + 2, out[k]);
	}
	fclose(in);
	for (i = 0; i < N_FILES; i++)
		if (out[i] && fclose_checked(out[i]))
			failed = failed ? failed : errno;
	if (failed) {
		errno = failed;
		rc = -1;
	}
	return rc;
}

static FILE *open_out(const char *rundir, const char *name)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/" MON_DIR "/%s", rundir, name);
	return fopen(path, "w");
}

static void add_total(struct json_object *obj, struct xmetrics *x, const char *monitor,
		      const char *name, const char *unit, double v)
{
	char key[XM_NAME_MAX + 16];

	if (!isfinite(v))
		return;
	snprintf(key, sizeof(key), "%s.%s", monitor, name);
	/* a monitor's totals are counts and times: never negative */
	if (v < 0) {
		xm_refuse(x, key, v);
		return;
	}
	json_object_object_add(obj, name, json_object_new_double(v));
	xm_add(x, key, unit, v, BETTER_NONE);
}

/* "# lost_events=N unlogged_events=N unparsed_lines=N" of trace.csv */
static void trace_losses(const char *path, struct json_object *obj, struct xmetrics *x)
{
	static const char *const keys[] = { "lost_events", "unlogged_events", "unparsed_lines" };
	char line[512], pat[64], *p;
	size_t i;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "# lost_events=", 14))
			continue;
		for (i = 0; i < ARRAY_SIZE(keys); i++) {
			snprintf(pat, sizeof(pat), "%s=", keys[i]);
			p = strstr(line, pat);
			if (p)
				add_total(obj, x, BNB_MON_TRACE, keys[i], "events",
					  strtod(p + strlen(pat), NULL));
		}
	}
	if (f)
		fclose(f);
}

/* trace.csv: counts per interval -> trace-rates.csv and totals */
static struct json_object *load_trace(const char *rundir, struct xmetrics *x)
{
	char path[4200], err[256];
	struct json_object *obj;
	struct csv t;
	double prev = 0, *sum;
	int r, c;
	FILE *f;

	snprintf(path, sizeof(path), "%s/" MON_DIR "/%s", rundir, BNB_MON_TRACE_FILE);
	if (csv_load(path, &t, err, sizeof(err)))
		return NULL;
	if (t.ncols < 2 || strcmp(t.names[0], "t_s")) {
		csv_free(&t);
		return NULL;
	}
	sum = calloc((size_t)t.ncols, sizeof(*sum));
	f = open_out(rundir, "trace-rates.csv");
	if (f) {
		fputs("t_s", f);
		for (c = 1; c < t.ncols; c++)
			fprintf(f, ",%s_per_s", t.names[c]);
		fputc('\n', f);
	}
	for (r = 0; r < t.nrows; r++) {
		double ts = csv_at(&t, r, 0), dt = ts - prev;

		if (!isfinite(ts) || dt <= 0)
			continue;
		if (f)
			fprintf(f, "%.6f", ts);
		for (c = 1; c < t.ncols; c++) {
			double v = csv_at(&t, r, c);

			sum[c] += isfinite(v) ? v : 0;
			if (f && isfinite(v))
				fprintf(f, ",%.6g", v / dt);
			else if (f)
				fputc(',', f);
		}
		if (f)
			fputc('\n', f);
		prev = ts;
	}
	if (f)
		fclose(f);
	obj = json_object_new_object();
	for (c = 1; c < t.ncols; c++)
		add_total(obj, x, BNB_MON_TRACE, t.names[c],
			  strncmp(t.names[c], "pages_", 6) ? "events" : "pages", sum[c]);
	trace_losses(path, obj, x);
	free(sum);
	csv_free(&t);
	return obj;
}

/* The sched monitor's columns, found by name. */
struct sched_cols {
	int t, tid, period, nid;
};

static int sched_cols(const struct csv *t, struct sched_cols *c)
{
	c->t = csv_col(t, "t_s");
	c->tid = csv_col(t, "tid");
	c->period = csv_col(t, "numa_scan_period");
	c->nid = csv_col(t, "numa_preferred_nid");
	return c->t < 0 || c->tid < 0 || c->period < 0 || c->nid < 0 ? -1 : 0;
}

/* Each task's last preferred node, to count changes. */
struct nid_seen {
	double tid[1024];
	double nid[1024];
	int n;
};

static bool nid_changed(struct nid_seen *s, double tid, double nid)
{
	int i;

	for (i = 0; i < s->n; i++) {
		if (s->tid[i] != tid)
			continue;
		if (s->nid[i] == nid)
			return false;
		s->nid[i] = nid;
		return nid >= 0;	/* -1: not chosen yet */
	}
	if (s->n < 1024) {
		s->tid[s->n] = tid;
		s->nid[s->n++] = nid;
	}
	return false;
}

struct period_stats {
	double min, max, sum;
	int n;
};

static void period_add(struct period_stats *p, double v)
{
	if (!p->n || v < p->min)
		p->min = v;
	if (!p->n || v > p->max)
		p->max = v;
	p->sum += v;
	p->n++;
}

/*
 * One output row per sampling time: tasks, the scan period (min, mean,
 * max) over the workload's tasks, and preferred-node changes per second.
 */
static void sched_row(FILE *f, double t, double dt, int tasks, const struct period_stats *p,
		      int changes)
{
	if (!f)
		return;
	fprintf(f, "%.6f,%d", t, tasks);
	if (p->n)
		fprintf(f, ",%.6g,%.6g,%.6g", p->min, p->sum / p->n, p->max);
	else
		fputs(",,,", f);
	fprintf(f, ",%.6g\n", dt > 0 ? changes / dt : 0);
}

static struct json_object *load_sched(const char *rundir, struct xmetrics *x)
{
	struct period_stats all = { 0 }, now = { 0 }, last = { 0 };
	double t_prev = 0, t_cur = NAN;
	int r, tasks = 0, changes = 0, changes_now = 0;
	static struct nid_seen seen;
	char path[4200], err[256];
	struct sched_cols c;
	struct json_object *obj;
	struct csv t;
	FILE *f;

	snprintf(path, sizeof(path), "%s/" MON_DIR "/%s", rundir, BNB_MON_SCHED_FILE);
	if (csv_load(path, &t, err, sizeof(err)))
		return NULL;
	if (sched_cols(&t, &c)) {
		csv_free(&t);
		return NULL;
	}
	memset(&seen, 0, sizeof(seen));
	f = open_out(rundir, "sched-series.csv");
	if (f)
		fputs("t_s,tasks,scan_period_min_ms,scan_period_mean_ms,scan_period_max_ms,"
		      "preferred_nid_changes_per_s\n", f);
	for (r = 0; r < t.nrows; r++) {
		double ts = csv_at(&t, r, c.t), period = csv_at(&t, r, c.period);

		if (!isfinite(ts) || !isfinite(csv_at(&t, r, c.tid)))
			continue;
		if (ts != t_cur) {	/* a new sampling time */
			if (isfinite(t_cur)) {
				sched_row(f, t_cur, t_cur - t_prev, tasks, &now, changes_now);
				t_prev = t_cur;
			}
			t_cur = ts;
			tasks = changes_now = 0;
			memset(&now, 0, sizeof(now));
		}
		tasks++;
		if (nid_changed(&seen, csv_at(&t, r, c.tid), csv_at(&t, r, c.nid)))
			changes_now++, changes++;
		if (isfinite(period) && period > 0) {
			period_add(&now, period);
			period_add(&all, period);
		}
	}
	if (isfinite(t_cur)) {
		sched_row(f, t_cur, t_cur - t_prev, tasks, &now, changes_now);
		last = now;
	}
	if (f)
		fclose(f);
	obj = json_object_new_object();
	add_total(obj, x, BNB_MON_SCHED, "tasks_seen", "", seen.n);
	add_total(obj, x, BNB_MON_SCHED, "preferred_nid_changes", "", changes);
	if (all.n) {
		add_total(obj, x, BNB_MON_SCHED, "scan_period_mean_ms", "ms", all.sum / all.n);
		add_total(obj, x, BNB_MON_SCHED, "scan_period_min_ms", "ms", all.min);
		add_total(obj, x, BNB_MON_SCHED, "scan_period_max_ms", "ms", all.max);
	}
	if (last.n)
		add_total(obj, x, BNB_MON_SCHED, "scan_period_final_ms", "ms", last.sum / last.n);
	csv_free(&t);
	return obj;
}

#define PERF_EVENTS_MAX 32

/* perf stat -I -x, rows: "TIME,VALUE,UNIT,EVENT,RUNTIME,PCT[,METRIC,METRIC-UNIT]" */
struct perf_table {
	char event[PERF_EVENTS_MAX][XM_NAME_MAX - 16];
	char unit[PERF_EVENTS_MAX][XM_UNIT_MAX];
	double total[PERF_EVENTS_MAX], now[PERF_EVENTS_MAX];
	int n;
	double t_prev, t_cur;
	FILE *rates;
	bool header;
};

static int perf_event_index(struct perf_table *p, const char *event, const char *unit)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->event[i], event))
			return i;
	if (p->n >= PERF_EVENTS_MAX || p->header)
		return -1;	/* events appear in the first interval only */
	snprintf(p->event[p->n], sizeof(p->event[0]), "%s", event);
	snprintf(p->unit[p->n], sizeof(p->unit[0]), "%s", unit);
	return p->n++;
}

static void perf_flush(struct perf_table *p)
{
	double dt = p->t_cur - p->t_prev;
	int i;

	if (!isfinite(p->t_cur) || !p->rates || dt <= 0)
		return;
	if (!p->header) {
		fputs("t_s", p->rates);
		for (i = 0; i < p->n; i++)
			fprintf(p->rates, ",%s_per_s", p->event[i]);
		fputc('\n', p->rates);
		p->header = true;
	}
	fprintf(p->rates, "%.6f", p->t_cur);
	for (i = 0; i < p->n; i++) {
		if (isfinite(p->now[i]))
			fprintf(p->rates, ",%.6g", p->now[i] / dt);
		else
			fputc(',', p->rates);
		p->now[i] = NAN;
	}
	fputc('\n', p->rates);
	p->t_prev = p->t_cur;
}

static void perf_line(struct perf_table *p, char *line)
{
	char *field[4], *end;
	double t, v;
	int i, k;

	if (line[0] == '#' || !strchr(line, ','))
		return;
	/* strtok_r would merge empty fields: split by hand */
	field[0] = line;
	for (i = 1; i < 4; i++) {
		field[i] = strchr(field[i - 1], ',');
		if (!field[i])
			return;
		*field[i]++ = 0;
	}
	*strchrnul(field[3], ',') = 0;
	errno = 0;
	t = strtod(field[0], &end);
	if (errno || end == field[0] || !isfinite(t))
		return;
	v = strtod(field[1], &end);
	if (end == field[1] || *end || !isfinite(v))
		v = NAN;	/* <not counted>, <not supported> */
	if (t != p->t_cur) {
		perf_flush(p);
		p->t_cur = t;
	}
	k = perf_event_index(p, field[3], field[2]);
	if (k < 0)
		return;
	p->now[k] = v;
	if (isfinite(v))
		p->total[k] += v;
}

static struct json_object *load_perfstat(const char *rundir, struct xmetrics *x)
{
	static struct perf_table p;
	char path[4200], line[1024];
	struct json_object *obj;
	int i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/" MON_DIR "/%s", rundir, BNB_MON_PERFSTAT_FILE);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	memset(&p, 0, sizeof(p));
	p.t_cur = NAN;
	for (i = 0; i < PERF_EVENTS_MAX; i++)
		p.now[i] = NAN;
	p.rates = open_out(rundir, "perfstat-rates.csv");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		perf_line(&p, line);
	}
	perf_flush(&p);
	fclose(f);
	if (p.rates)
		fclose(p.rates);
	if (!p.n)
		return NULL;
	obj = json_object_new_object();
	for (i = 0; i < p.n; i++)
		add_total(obj, x, BNB_MON_PERFSTAT, p.event[i], p.unit[i], p.total[i]);
	return obj;
}

struct json_object *monitors_load(const char *rundir, struct xmetrics *x)
{
	static const struct {
		const char *name;
		struct json_object *(*load)(const char *rundir, struct xmetrics *x);
	} loaders[] = {
		{ BNB_MON_TRACE, load_trace },
		{ BNB_MON_SCHED, load_sched },
		{ BNB_MON_PERFSTAT, load_perfstat },
	};
	struct json_object *all = NULL, *one;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(loaders); i++) {
		one = loaders[i].load(rundir, x);
		if (!one)
			continue;
		if (!all)
			all = json_object_new_object();
		json_object_object_add(all, loaders[i].name, one);
	}
	return all;
}
