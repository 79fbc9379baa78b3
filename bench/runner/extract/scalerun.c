// SPDX-License-Identifier: GPL-2.0
/*
 * scalerun.c - what a run did on the balancer's own scale. The collector's
 * numa_scan_seq column counts the scanner's passes over the workload's
 * processes (the agent reads mm->numa_scan_seq); its summary says when
 * convergence began to hold; the guest's output has the plan of
 * scale_scan = hardware. From them: passes per run, passes to converge
 * (by the hint faults, and by the true locality's rise: locrise.c), and
 * the times in hardware-equivalent seconds.
 */
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bnb_wire.h"
#include "csv.h"
#include "extract.h"
#include "jsonnum.h"
#include "locrise.h"
#include "report/results.h"
#include "scalerun.h"
#include "lib/util.h"
#include "wlout.h"

/* The passes at the first sample at or after T (s since the first), or NAN. */
static double passes_at(const struct csv *t, double when)
{
	int ct = csv_col(t, "t_s"), cp = csv_col(t, BNB_WIRE_PASSES);

	if (ct < 0 || cp < 0 || isnan(when))
		return NAN;
	for (int r = 0; r < t->nrows; r++)
		if (csv_at(t, r, ct) >= when - 1e-9 && isfinite(csv_at(t, r, cp)))
			return csv_at(t, r, cp);
	return NAN;
}

struct conv {
	double passes, to_90, to_95, from;	/* NAN where unknown */
	double until;				/* the work's end, NAN unknown */
	double hints, ptes;			/* the run's totals, NAN unknown */
};

/* The collector's summary: passes in all, when convergence held, from when. */
static void read_summary(const char *rundir, struct conv *c)
{
	char path[PATH_MAX + 32];
	struct json_object *o, *sub = NULL;

	c->passes = c->to_90 = c->to_95 = c->from = c->until = c->hints = c->ptes = NAN;
	snprintf(path, sizeof(path), "%s/summary.json", rundir);
	o = json_object_from_file(path);
	if (!o)
		return;
	if (json_object_object_get_ex(o, "counters", &sub)) {
		c->passes = json_num(sub, BNB_WIRE_PASSES);
		c->hints = json_num(sub, "numa_hint_faults");
		c->ptes = json_num(sub, "numa_pte_updates");
	}
	c->to_90 = json_num(o, "time_to_conv_90_s");
	c->to_95 = json_num(o, "time_to_conv_95_s");
	c->from = 0;
	if (json_object_object_get_ex(o, "plugin", &sub) && sub &&
	    isfinite(json_num(sub, "work_start_s"))) {
		c->from = json_num(sub, "work_start_s");
		c->until = json_num(sub, "work_end_s");
	}
	json_object_put(o);
}

/*
 * A time or passes to converge: a run that never converged (balancing off,
 * or on and never holding the share) has none, which the reports show as
 * "never"; NAN is no value to refuse.
 */
static void add_when(struct xmetrics *x, const char *name, const char *unit, double value)
{
	if (!isnan(value))
		xm_add(x, name, unit, value, BETTER_LOWER);
}

/*
 * The balancer's work in its own unit, the scan pass: what a kernel
 * change that acts per pass moves (hint faults, PTE updates and the
 * guest time the balancer's functions took, numawork.c), comparable
 * between kernels and runs of different lengths.
 */
static void add_per_pass(const struct conv *c, struct xmetrics *x)
{
	const struct xmetric *work = xm_find(x, "numa_work_s");

	if (!(c->passes >= 1))
		return;
	if (isfinite(c->hints))
		xm_add(x, "hint_faults_per_pass", "", c->hints / c->passes, BETTER_NONE);
	if (isfinite(c->ptes))
		xm_add(x, "pte_updates_per_pass", "", c->ptes / c->passes, BETTER_NONE);
	if (work && isfinite(work->value))
		xm_add(x, "numa_work_per_pass_s", "s", work->value / c->passes, BETTER_LOWER);
}

/* T: the run's timeseries, NULL when it has none. */
static void add_passes(const struct csv *t, const struct conv *c, struct xmetrics *x)
{
	if (isnan(c->passes))
		return;		/* an agent that does not count them */
	xm_add(x, "scan_passes", "", c->passes, BETTER_NONE);
	add_per_pass(c, x);
	if (!t)
		return;
	add_when(x, "passes_to_conv_90", "", passes_at(t, c->from + c->to_90));
	add_when(x, "passes_to_conv_95", "", passes_at(t, c->from + c->to_95));
}

/*
 * Where the accesses went (locrise.h): the true locality at the work's
 * start and at its best, and when 90 % of the rise was reached, in guest
 * seconds, scan passes and (under the plan, TIME its factor) hardware
 * seconds. Only with the plugin's columns and a WORK marker to count from.
 */
static void add_locality(const struct csv *t, const struct conv *c, double time,
			 struct xmetrics *x)
{
	struct loc_rise lr;

	if (!t || !(c->from > 0) || loc_rise_table(t, c->from, c->until, &lr))
		return;
	xm_add(x, "locality_start", "", lr.start, BETTER_NONE);
	xm_add(x, "locality_peak", "", lr.peak, BETTER_HIGHER);
	add_when(x, "locality_to90_s", "s", lr.to90_s);
	if (isnan(c->passes))
		return;
	add_when(x, "passes_to_locality_90", "", passes_at(t, c->from + lr.to90_s));
	if (time > 0)
		add_when(x, "locality_to90_hw_s", "s", lr.to90_s / time);
}

/* KEY=VALUE of LINE (space separated words), or NAN. */
static double word_value(const char *line, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = line; (p = strstr(p, key)); p += klen)
		if ((p == line || p[-1] == ' ') && p[klen] == '=')
			return strtod(p + klen + 1, NULL);
	return NAN;
}

struct phases {
	int moved, caught;		/* phases after the first; that got to 0.9 */
	double to90_sum, passes_sum;	/* over the moved ones */
	int passes_n;
};

/*
 * The phases workload's "# phase index=P start_s= duration_s= [to90_s=]"
 * lines (workloads/README.md): per phase after the first, the time to a
 * local share of 0.9, a phase that never got there counting its whole
 * duration (it stayed remote that long at least), and the scanner's
 * passes in that time, from the collector's column: the phase's start is
 * the WORK marker's time plus its start_s.
 */
static void read_phases(const char *rundir, const struct csv *t, const struct conv *c,
			struct phases *ph)
{
	char path[PATH_MAX + 32], line[1024];
	FILE *f;

	memset(ph, 0, sizeof(*ph));
	snprintf(path, sizeof(path), "%s/out.log", rundir);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		double idx, start, dur, to90, p0, p1;

		if (strncmp(line, "# phase index=", 14))
			continue;
		idx = word_value(line, "index");
		start = word_value(line, "start_s");
		dur = word_value(line, "duration_s");
		to90 = word_value(line, "to90_s");
		if (!(idx >= 1) || !isfinite(start) || !isfinite(dur))
			continue;
		ph->moved++;
		ph->caught += isfinite(to90);
		if (!isfinite(to90))
			to90 = dur;
		ph->to90_sum += to90;
		if (!t)
			continue;
		p0 = passes_at(t, c->from + start);
		p1 = passes_at(t, c->from + start + to90);
		if (isfinite(p0) && isfinite(p1)) {
			ph->passes_sum += p1 - p0;
			ph->passes_n++;
		}
	}
	if (f)
		fclose(f);
}

static void add_phases(const struct phases *ph, double time, struct xmetrics *x)
{
	if (!ph->moved)
		return;
	xm_add(x, "phases_moved", "", ph->moved, BETTER_NONE);
	xm_add(x, "phases_caught_up", "", ph->caught, BETTER_HIGHER);
	xm_add(x, "phase_to90_s", "s", ph->to90_sum / ph->moved, BETTER_LOWER);
	if (ph->passes_n)
		xm_add(x, "phase_passes_to90", "", ph->passes_sum / ph->passes_n, BETTER_LOWER);
	if (time > 0)
		xm_add(x, "phase_to90_hw_s", "s", ph->to90_sum / ph->moved / time, BETTER_LOWER);
}

/* scale_scan = hardware: the plan's line, its factors and the times in hw s. */
static void add_scale(const char *rundir, const struct conv *c, struct xmetrics *x)
{
	char path[PATH_MAX + 32];
	double time, hw_s;
	struct wl_summary wl;

	snprintf(path, sizeof(path), "%s/out.log", rundir);
	time = wl_line_value(path, WL_SCALE_PLAN_MARK, "time");
	hw_s = wl_line_value(path, WL_SCALE_PLAN_MARK, "hw_s");
	if (!(time > 0))
		return;
	xm_add(x, "scale_time", "x", time, BETTER_NONE);
	xm_add(x, "scale_size", "x", wl_line_value(path, WL_SCALE_PLAN_MARK, "size"),
	       BETTER_NONE);
	xm_add(x, "hw_passes_max", "", wl_line_value(path, WL_SCALE_PLAN_MARK, "hw_passes_max"),
	       BETTER_NONE);
	xm_add(x, "hw_passes_min", "", wl_line_value(path, WL_SCALE_PLAN_MARK, "hw_passes_min"),
	       BETTER_NONE);
	add_when(x, "time_to_conv_90_hw_s", "s", c->to_90 / time);
	add_when(x, "time_to_conv_95_hw_s", "s", c->to_95 / time);
	if (wl_scan(path, &wl) || isnan(wl.work_s))
		return;
	xm_add(x, "work_hw_s", "s", wl.work_s / time, BETTER_LOWER);
	if (hw_s > 0)
		xm_add(x, "scale_time_achieved", "x", wl.work_s / hw_s, BETTER_NONE);
}

void scalerun_add(const char *rundir, struct xmetrics *x)
{
	char path[PATH_MAX + 32], err[256];
	struct csv table, *t = &table;
	struct phases ph;
	struct conv c;
	double time;

	read_summary(rundir, &c);
	snprintf(path, sizeof(path), "%s/timeseries.csv", rundir);
	if (csv_load(path, &table, err, sizeof(err)))
		t = NULL;
	snprintf(path, sizeof(path), "%s/out.log", rundir);
	time = wl_line_value(path, WL_SCALE_PLAN_MARK, "time");
	add_passes(t, &c, x);
	add_scale(rundir, &c, x);
	add_locality(t, &c, time, x);
	read_phases(rundir, t, &c, &ph);
	add_phases(&ph, time, x);
	if (t)
		csv_free(t);
}

/* The mean of metric NAME over VARIANT's finished runs; N gets the count. */
/* The mean of NAME over VARIANT's finished runs that have it, N of them. */
static double mean_of(const struct results *r, const char *variant, const char *name,
		      double *lo, double *hi, int *n)
{
	double v[256], sum = 0;
	int all = results_values_named(r, variant, name, v, 256);

	*n = 0;
	*lo = INFINITY;
	*hi = -INFINITY;
	for (int i = 0; i < all; i++) {
		if (isnan(v[i]))
			continue;	/* a run without it */
		sum += v[i];
		*lo = fmin(*lo, v[i]);
		*hi = fmax(*hi, v[i]);
		++*n;
	}
	return *n ? sum / *n : NAN;
}

/* The plan's factors and what it gave up, from the first run that has them. */
static const struct run *planned_run(const struct results *r)
{
	for (int i = 0; i < r->n_runs; i++)
		if (r->runs[i].status == RUN_OK && isfinite(run_metric(&r->runs[i], "scale_time")))
			return &r->runs[i];
	return NULL;
}

/* The note as it grows: text past the end of BUF is cut, never written. */
struct note {
	char *buf;
	size_t len, used;
};

static void add(struct note *t, const char *fmt, ...) __printf(2, 3);
static void add(struct note *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->used + 1 >= t->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->used = t->used + n < t->len ? t->used + n : t->len - 1;
}

static void plan_text(const struct run *run, struct note *t)
{
	char path[PATH_MAX + 1100], line[1024] = "";
	double time = run_metric(run, "scale_time");
	FILE *f;

	add(t, "Time scale (scale_scan = hardware, docs/time-scale.md): time factor %.3g (a "
	    "guest second stands for %.3g s of the hardware run it scales down), size factor "
	    "%.3g; %s's hardware run holds %.3g..%.3g scan passes (at the maximum and at the "
	    "minimum period)", time, 1 / time, run_metric(run, "scale_size"), run->variant,
	    run_metric(run, "hw_passes_min"), run_metric(run, "hw_passes_max"));
	snprintf(path, sizeof(path), "%s/out.log", run->dir);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, WL_SCALE_GIVEN_UP_MARK, strlen(WL_SCALE_GIVEN_UP_MARK))) {
			line[strcspn(line, "\n")] = 0;
			add(t, "; given up there: %s", line + strlen(WL_SCALE_GIVEN_UP_MARK));
			break;
		}
	if (f)
		fclose(f);
}

/*
 * "; VARIANT re-converged ... after C of M phase changes, after P passes
 * and T s a change (H s of the hardware run)"; nothing for a workload
 * without phases.
 */
static void phases_text(const struct results *r, const char *name, struct note *t)
{
	double lo, hi, moved, caught, passes, to90, hw;
	int n, n_passes;

	moved = mean_of(r, name, "phases_moved", &lo, &hi, &n);
	if (!n)
		return;
	caught = mean_of(r, name, "phases_caught_up", &lo, &hi, &n);
	add(t, "; %s re-converged (0.9 of its pages local) after %.3g of %.3g phase changes",
	    name, caught, moved);
	passes = mean_of(r, name, "phase_passes_to90", &lo, &hi, &n_passes);
	if (n_passes)
		add(t, ", after %.3g passes", passes);
	to90 = mean_of(r, name, "phase_to90_s", &lo, &hi, &n);
	if (n)
		add(t, "%s %.3g s a change", n_passes ? " and" : ", after", to90);
	hw = mean_of(r, name, "phase_to90_hw_s", &lo, &hi, &n);
	if (n)
		add(t, " (%.3g s of the hardware run)", hw);
}

/*
 * ", 90 % convergence [in C of N runs] after P passes, T s (H s of the
 * hardware run)", or never: a run that did not converge has no passes to it.
 */
static void conv_text(const struct results *r, const char *name, int runs, struct note *t)
{
	double a, b, p90, t90, h90;
	int n;

	p90 = mean_of(r, name, "passes_to_conv_90", &a, &b, &n);
	if (!n) {
		add(t, ", 90 %% convergence never");
		return;
	}
	if (n < runs)
		add(t, ", 90 %% convergence in %d of %d runs", n, runs);
	else
		add(t, ", 90 %% convergence");
	t90 = mean_of(r, name, "time_to_conv_90_s", &a, &b, &n);
	add(t, " after %.3g passes, %.3g s", p90, t90);
	h90 = mean_of(r, name, "time_to_conv_90_hw_s", &a, &b, &n);
	if (n)
		add(t, " (%.3g s of the hardware run)", h90);
}

/*
 * ", true locality 0.12 -> 0.97 at best, 90 % of the rise after P passes,
 * T s (H s of the hardware run)", or "(no rise)"; nothing without the
 * plugin's counts.
 */
static void locality_text(const struct results *r, const char *name, struct note *t)
{
	double a, b, from, to, p90, t90, h90;
	int n, n90;

	from = mean_of(r, name, "locality_start", &a, &b, &n);
	to = mean_of(r, name, "locality_peak", &a, &b, &n);
	if (!n)
		return;
	add(t, ", true locality %.2f -> %.2f at best", from, to);
	t90 = mean_of(r, name, "locality_to90_s", &a, &b, &n90);
	if (!n90) {
		add(t, " (no rise)");
		return;
	}
	if (n90 < n)
		add(t, ", 90 %% of the rise (in the %d of %d runs that rose)", n90, n);
	else
		add(t, ", 90 %% of the rise");
	p90 = mean_of(r, name, "passes_to_locality_90", &a, &b, &n);
	if (n)
		add(t, " after %.3g passes,", p90);
	else
		add(t, " after");
	add(t, " %.3g s", t90);
	h90 = mean_of(r, name, "locality_to90_hw_s", &a, &b, &n);
	if (n)
		add(t, " (%.3g s of the hardware run)", h90);
}

bool scalerun_note(const struct results *r, char *buf, size_t len)
{
	const struct run *planned = planned_run(r);
	struct note t = { .buf = buf, .len = len };
	int n, any = 0;

	buf[0] = 0;
	if (planned)
		plan_text(planned, &t);
	else
		add(&t, "Scan passes (the scanner's sweeps over the workload, mm->numa_scan_seq)");
	/* a sweep's points have their own table (sweep_report.c) */
	for (int v = 0; v < r->exp.n_variants; v++) {
		const char *name = r->exp.variants[v].name;
		double lo, hi, passes = mean_of(r, name, "scan_passes", &lo, &hi, &n);

		if (r->exp.variants[v].n_sweep)
			break;
		if (!n || !(hi > 0))
			continue;
		add(&t, "%s %s: %.3g scan passes a run (%.3g..%.3g)", any++ ? ";" : ".", name,
		    passes, lo, hi);
		conv_text(r, name, n, &t);
		locality_text(r, name, &t);
	}
	for (int v = 0; v < r->exp.n_variants; v++)
		if (!r->exp.variants[v].n_sweep)
			phases_text(r, r->exp.variants[v].name, &t);
	if (!planned && !any)
		return false;
	add(&t, ".");
	return true;
}
