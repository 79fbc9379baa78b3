// SPDX-License-Identifier: GPL-2.0
/*
 * Reports: summary.json for machines, summary.md for people. Both carry
 * the latency mode and the time-dilation note, because a number from a TCG
 * guest without emulated latency means something different from one with.
 */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "account/account_report.h"
#include "fmt.h"
#include "variant_info.h"
#include "lib/util.h"
#include "extract/extract.h"
#include "run/fsio.h"
#include "report.h"
#include "extract/locrise.h"
#include "extract/scalerun.h"
#include "stats.h"
#include "sweep_report.h"
#include "verdict.h"
#include "versus.h"

#define MAX_REPS 1024

/* Did every finished run of R have deterministic timing? */
static bool all_deterministic(const struct results *r)
{
	int i, n = 0;

	for (i = 0; i < r->n_runs; i++) {
		if (r->runs[i].status != RUN_OK)
			continue;
		if (strcmp(variant_timing(r, r->runs[i].variant), "deterministic"))
			return false;
		n++;
	}
	return n > 0;
}

/*
 * Under icount D is configured, not measured: the report states it and
 * nothing beside it (a host-native rate says nothing about the modelled
 * machine, and a second dilation next to D only confuses).
 */
static const char *deterministic_note(const struct describe *d, int n, const double *scaled,
				      int n_scaled, char *buf, size_t len)
{
	struct describe s;
	int i = snprintf(buf, len, "Time dilation: deterministic timing, D = %.3g", d->mean);

	if (d->max - d->min > 1e-9 * d->mean)
		i += snprintf(buf + i, len - i, " (%.3g..%.3g)", d->min, d->max);
	i += snprintf(buf + i, len - i, " in %d runs: a guest instruction takes D times a "
		      "hardware one, so a guest second of the workload is 1/D s of the same "
		      "work on the modelled machine, and the scanner's periods count the "
		      "guest's work whatever the host does. ", n);
	if (!n_scaled) {
		snprintf(buf + i, len - i, "Scan periods are not scaled by D (scale_scan=auto "
			 "would; scale_scan=hardware scales them to the hardware run instead).");
		return buf;
	}
	stats_describe(scaled, n_scaled, &s);
	snprintf(buf + i, len - i, "%d runs scaled the scan periods by %.3gx (scale_scan) to scan "
		 "as often per unit of work as hardware would.", n_scaled, s.mean);
	return buf;
}

/*
 * The dilation D measured in R's finished runs (host rate / guest rate of
 * the same workload) and what it means for the scanner, into BUF.
 */
const char *time_dilation_note(const struct results *r, char *buf, size_t len)
{
	double v[MAX_REPS], scaled[MAX_REPS];
	int i, n = 0, n_scaled = 0;
	const char *why = "no finished run";
	struct describe d;

	for (i = 0; i < r->n_runs && n < MAX_REPS; i++) {
		const struct run *run = &r->runs[i];

		if (run->status != RUN_OK)
			continue;
		if (isnan(run->m[M_DILATION]))
			why = run->dilation_why[0] ? run->dilation_why : "unknown reason";
		else
			v[n++] = run->m[M_DILATION];
		if (!isnan(run->m[M_SCAN_SCALE]))
			scaled[n_scaled++] = run->m[M_SCAN_SCALE];
	}
	if (!n) {
		snprintf(buf, len, "Time dilation: not measured (%s). Under QEMU TCG guest "
			 "work runs many times slower than on the host while guest timers run "
			 "at host speed, so the NUMA scanner fires that many times more often "
			 "per unit of work than on real hardware.", why);
		return buf;
	}
	stats_describe(v, n, &d);
	if (all_deterministic(r))
		return deterministic_note(&d, n, scaled, n_scaled, buf, len);
	i = snprintf(buf, len, "Time dilation: the workload ran %.0fx slower in the guest "
		     "than natively on the host (host rate / guest rate, %d runs, %.0f..%.0fx). "
		     "Guest timers run at host speed, so ", d.mean, n, d.min, d.max);
	if (n_scaled) {
		stats_describe(scaled, n_scaled, &d);
		snprintf(buf + i, len - i, "%d runs scaled the scan periods by %.0fx on "
			 "average (scale_scan) to scan as often per unit of work as real "
			 "hardware would.", n_scaled, d.mean);
	} else {
		snprintf(buf + i, len - i, "the NUMA scanner fired about %.0fx more often per "
			 "unit of work than on real hardware (scale_scan=auto corrects that); "
			 "scan-period settings and cost per second do not transfer 1:1.", d.mean);
	}
	return buf;
}

static const struct { const char *mode, *note; } latency_notes[] = {
	{ "emulated", "Latency: emulated. The TCG plugin charges remote accesses "
		      "in proportion to the distance matrix, so balancing can show "
		      "its benefit beside its cost." },
	{ "uniform", "Latency: uniform. QEMU TCG without the latency plugin: all "
		     "guest nodes have the same real latency, so these runs show "
		     "the cost of balancing but not its benefit." },
	{ "real", "Latency: real. KVM with every guest node bound to its own host "
		  "NUMA node (memory and vCPU threads), so remote accesses cost what "
		  "the host's hardware makes them cost." },
	{ "uniform (KVM)", "Latency: uniform (KVM). The host has fewer NUMA nodes than "
			   "the guest, so guest nodes share host memory: all have the same "
			   "real latency, and these runs show the cost of balancing but not "
			   "its benefit." },
};

const char *latency_note(const char *mode)
{
	size_t i;

	for (i = 0; i < sizeof(latency_notes) / sizeof(latency_notes[0]); i++)
		if (mode && !strcmp(mode, latency_notes[i].mode))
			return latency_notes[i].note;
	return "Latency: unknown (no finished run recorded it).";
}

static struct json_object *jnum(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static void jset(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

/* JSON keys of the double fields of a struct, for jset_doubles(). */
struct double_field {
	const char *key;
	size_t offset;
};

static const struct double_field describe_fields[] = {
	{ "mean", offsetof(struct describe, mean) },
	{ "stddev", offsetof(struct describe, stddev) },
	{ "cv", offsetof(struct describe, cv) },
	{ "min", offsetof(struct describe, min) },
	{ "median", offsetof(struct describe, median) },
	{ "max", offsetof(struct describe, max) },
};

static const struct double_field welch_fields[] = {
	{ "diff_pct", offsetof(struct welch, diff_pct) },
	{ "ci95_lo_pct", offsetof(struct welch, ci_lo_pct) },
	{ "ci95_hi_pct", offsetof(struct welch, ci_hi_pct) },
	{ "diff", offsetof(struct welch, diff) },
	{ "ci95_lo", offsetof(struct welch, ci_lo) },
	{ "ci95_hi", offsetof(struct welch, ci_hi) },
	{ "p_value", offsetof(struct welch, p) },
};

static void jset_doubles(struct json_object *o, const void *base,
			 const struct double_field *fields, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		jset(o, fields[i].key, jnum(*(const double *)((const char *)base + fields[i].offset)));
}

static void describe(const struct results *r, const char *variant, const char *metric,
		     struct describe *d)
{
	double v[MAX_REPS];
	int n = results_values_named(r, variant, metric, v, MAX_REPS);

	stats_describe(v, n, d);
}

/*
 * The metrics of VARIANT (the fixed ones, then those its runs' extractor
 * and monitors found), in a buffer that lasts until the next call.
 */
static int metrics_of(const struct results *r, const char *variant,
		      const struct metric_info **out)
{
	static struct metric_info m[METRICS_MAX];

	*out = m;
	return results_metrics(r, variant, m, METRICS_MAX);
}

/* A variant's `description`, or null when it has none. */
static struct json_object *description_json(const struct variant *v)
{
	return v && v->description && *v->description ?
	       json_object_new_string(v->description) : NULL;
}

/*
 * The experiment's `description` under its title, as the key's help
 * promises: the one every variant shares, else each variant's own.
 */
static void description_md(FILE *md, const struct results *r, struct json_object *root)
{
	const struct variant *first = r->exp.n_variants ? &r->exp.variants[0] : NULL;
	bool shared = true;
	int i;

	for (i = 1; first && i < r->exp.n_variants; i++)
		shared &= !strcmp(r->exp.variants[i].description ? r->exp.variants[i].description : "",
				  first->description ? first->description : "");
	if (shared) {
		jset(root, "description", description_json(first));
		if (first && first->description && *first->description)
			fprintf(md, "%s\n\n", first->description);
		return;
	}
	jset(root, "description", NULL);
	for (i = 0; i < r->exp.n_variants; i++)
		if (r->exp.variants[i].description && *r->exp.variants[i].description)
			fprintf(md, "- %s: %s\n", r->exp.variants[i].name,
				r->exp.variants[i].description);
	fprintf(md, "\n");
}

struct json_object *report_variant_json(const struct results *r, const char *variant)
{
	struct json_object *o = json_object_new_object(), *ms = json_object_new_object();
	const struct metric_info *mi;
	int counts[3] = { 0 }, i, n;

	for (i = 0; i < r->n_runs; i++)
		if (!strcmp(r->runs[i].variant, variant))
			counts[r->runs[i].status]++;
	jset(o, "name", json_object_new_string(variant));
	jset(o, "description", description_json(experiment_variant(&r->exp, variant)));
	jset(o, "latency", json_object_new_string(variant_latency(r, variant)));
	jset(o, "kernel", variant_kernel_json(r, variant));
	jset(o, "rate_unit", json_object_new_string(results_rate_unit(r, variant)));
	jset(o, "ok", json_object_new_int(counts[RUN_OK]));
	jset(o, "failed", json_object_new_int(counts[RUN_FAILED]));
	jset(o, "incomplete", json_object_new_int(counts[RUN_INCOMPLETE]));
	n = metrics_of(r, variant, &mi);
	for (i = 0; i < n; i++) {
		struct json_object *s = json_object_new_object();
		struct describe d;

		describe(r, variant, mi[i].name, &d);
		jset(s, "unit", json_object_new_string(mi[i].unit));
		jset(s, "n", json_object_new_int(d.n));
		jset_doubles(s, &d, describe_fields, ARRAY_SIZE(describe_fields));
		jset(ms, mi[i].name, s);
	}
	jset(o, "metrics", ms);
	return o;
}

static struct json_object *runs_json(const struct results *r)
{
	struct json_object *a = json_object_new_array();
	int i, m;

	for (i = 0; i < r->n_runs; i++) {
		const struct run *run = &r->runs[i];
		struct json_object *o = json_object_new_object(), *ms = json_object_new_object();

		jset(o, "variant", json_object_new_string(run->variant));
		jset(o, "rep", json_object_new_int(run->rep));
		jset(o, "status", json_object_new_string(run_status_name(run->status)));
		jset(o, "reason", json_object_new_string(run->reason));
		jset(o, "warnings", run->warnings < 0 ? NULL : json_object_new_int(run->warnings));
		jset(o, "latency", json_object_new_string(run->latency));
		jset(o, "dilation_why", json_object_new_string(run->dilation_why));
		jset(o, "refused", run->refused[0] ? json_object_new_string(run->refused) : NULL);
		jset(o, "damaged", run->damaged[0] ? json_object_new_string(run->damaged) : NULL);
		for (m = 0; m < N_METRICS; m++)
			jset(ms, metric_defs[m].name, jnum(run->m[m]));
		for (m = 0; run->xm && m < run->xm->n; m++)
			jset(ms, run->xm->v[m].name, jnum(run->xm->v[m].value));
		jset(o, "metrics", ms);
		json_object_array_add(a, o);
	}
	return a;
}

static const char *dilation_cell(const struct run *run, char *buf, size_t len)
{
	if (run->status != RUN_OK)
		return "-";
	if (isnan(run->m[M_DILATION]))
		snprintf(buf, len, "not measured: %s", run->dilation_why);
	else
		snprintf(buf, len, "%.1fx", run->m[M_DILATION]);
	return buf;
}

/* A project workload's own time, else the command's elapsed guest time. */
static double workload_time(const struct run *run)
{
	return isfinite(run->m[M_WORK_S]) ? run->m[M_WORK_S] : run_metric(run, XM_ELAPSED);
}

static bool any_elapsed(const struct results *r)
{
	int i;

	for (i = 0; i < r->n_runs; i++)
		if (!isfinite(r->runs[i].m[M_WORK_S]) && isfinite(run_metric(&r->runs[i], XM_ELAPSED)))
			return true;
	return false;
}

/* Runs whose guest kernel warned, and their warnings in all. */
static int warned_runs(const struct results *r, int *total)
{
	int i, n = 0;

	*total = 0;
	for (i = 0; i < r->n_runs; i++) {
		if (r->runs[i].warnings <= 0)
			continue;
		n++;
		*total += r->runs[i].warnings;
	}
	return n;
}

/* summary.json: how many runs warned, and how many warnings in all */
static struct json_object *warnings_json(const struct results *r)
{
	struct json_object *o = json_object_new_object();
	int total, n = warned_runs(r, &total);

	jset(o, "runs", json_object_new_int(n));
	jset(o, "warnings", json_object_new_int(total));
	return o;
}

static void md_warned(FILE *md, const struct results *r)
{
	int total, n = warned_runs(r, &total);

	if (n)
		fprintf(md, "\n**The guest kernel reported %d warning(s) in %d of %d run(s)** "
			"(column warnings; each run's console.log has them): check that "
			"they do not touch what was measured.\n", total, n, r->n_runs);
}

/* Whether any run of R has metric NAME. */
static bool any_metric(const struct results *r, const char *name)
{
	for (int i = 0; i < r->n_runs; i++)
		if (isfinite(run_metric(&r->runs[i], name)))
			return true;
	return false;
}

/*
 * A time or passes to converge of RUN: "never" when the run ended ok and its
 * convergence never held (balancing off, or on and never converged), "-"
 * when it did not end ok or the figure is unknown.
 */
static const char *conv_cell(const struct run *run, double v, char *buf, size_t len)
{
	if (run->status == RUN_OK && isnan(run->m[M_CONV_90]) && !run->damaged[0]) {
		snprintf(buf, len, "never");
		return buf;
	}
	return fmt_num(run->status == RUN_OK ? v : NAN, buf, len);
}

/*
 * When the true locality reached 90 % of its rise (locrise.h): "flat"
 * where it did not rise (balancing off, bound), "-" without the plugin's
 * counts or a run that did not end ok.
 */
static const char *locality_cell(const struct run *run, char *buf, size_t len)
{
	double from = run_metric(run, "locality_start"), to = run_metric(run, "locality_peak");

	if (run->status != RUN_OK || isnan(from) || isnan(to))
		return fmt_num(NAN, buf, len);
	if (to - from < LOCRISE_MIN_GAIN) {
		snprintf(buf, len, "flat");
		return buf;
	}
	return fmt_num(run_metric(run, "locality_to90_s"), buf, len);
}

/* The scanner's passes, and under scale_scan=hardware the times in hw s. */
static void md_run_scale(FILE *md, const struct run *run, bool passes, bool hw)
{
	char b1[32], b2[32];
	bool ok = run->status == RUN_OK;

	if (passes)
		fprintf(md, " %s | %s |", fmt_num(ok ? run_metric(run, "scan_passes") : NAN, b1, 32),
			conv_cell(run, run_metric(run, "passes_to_conv_90"), b2, 32));
	if (hw)
		fprintf(md, " %s | %s |", fmt_num(ok ? run_metric(run, "work_hw_s") : NAN, b1, 32),
			conv_cell(run, run_metric(run, "time_to_conv_90_hw_s"), b2, 32));
}

static void md_runs(FILE *md, const struct results *r)
{
	char b1[32], b2[32], b3[32], b4[300], warn[16];
	bool passes = any_metric(r, "scan_passes"), hw = any_metric(r, "scale_time");
	bool rise = any_metric(r, "locality_start");
	int i;

	fprintf(md, "## Runs\n\n| variant | rep | status | workload time (s)%s | "
		"time to 90%% conv. (s) |%s%s%s guest wall (s) | dilation | warnings | reason |\n"
		"|---|---|---|---|---|%s%s%s---|---|---|---|\n", any_elapsed(r) ? "¹" : "",
		rise ? " locality rise to 90% (s)² |" : "",
		passes ? " scan passes | passes to 90% |" : "",
		hw ? " workload (hw s) | to 90% (hw s) |" : "", rise ? "---|" : "",
		passes ? "---|---|" : "", hw ? "---|---|" : "");
	for (i = 0; i < r->n_runs; i++) {
		const struct run *run = &r->runs[i];

		bool ok = run->status == RUN_OK;	/* others' figures mean nothing */

		if (run->warnings < 0)
			snprintf(warn, sizeof(warn), "-");
		else
			snprintf(warn, sizeof(warn), "%d", run->warnings);
		fprintf(md, "| %s | %d | %s | %s | %s |", run->variant, run->rep,
			run_status_name(run->status),
			fmt_num(ok ? workload_time(run) : NAN, b1, sizeof(b1)),
			conv_cell(run, run->m[M_CONV_90], b2, sizeof(b2)));
		if (rise)
			fprintf(md, " %s |", locality_cell(run, b2, sizeof(b2)));
		md_run_scale(md, run, passes, hw);
		fprintf(md, " %s | %s | %s | %s |\n",
			fmt_num(ok ? run->m[M_WALL_S] : NAN, b3, sizeof(b3)),
			dilation_cell(run, b4, sizeof(b4)), warn, run->reason);
	}
	if (any_elapsed(r))
		fprintf(md, "\n¹ For commands other than the project's workloads: the elapsed "
			"guest time of the command (bnb-monitor).\n");
	if (rise)
		fprintf(md, "\n² Where the accesses went (the plugin's true locality), from the "
			"work's start: when the locality, taken over windows of a twentieth of "
			"the work, first reached 90 %% of the way from its first window to its "
			"best; flat: it rose by less than %.2f. The hint-fault convergence can "
			"say never while every page moved (huge pages take few faults; pages "
			"every thread uses stay remote for all but one node).\n",
			LOCRISE_MIN_GAIN);
	md_warned(md, r);
	fprintf(md, "\n");
}

static void md_variant(FILE *md, const struct results *r, const char *variant)
{
	const struct metric_info *mi;
	char b[7][32], kernel[PATH_MAX + 128];
	int m, n = metrics_of(r, variant, &mi);

	fprintf(md, "### %s\n\nKernel: %s\n\n"
		"| metric | unit | n | mean | stddev | CV %% | min | median | max |\n"
		"|---|---|---|---|---|---|---|---|---|\n", variant,
		variant_kernel(r, variant, kernel, sizeof(kernel)));
	for (m = 0; m < n; m++) {
		struct describe d;

		describe(r, variant, mi[m].name, &d);
		fprintf(md, "| %s | %s | %d | %s | %s | %s | %s | %s | %s |\n",
			mi[m].label, mi[m].unit, d.n,
			fmt_num(d.mean, b[0], 32), fmt_num(d.stddev, b[1], 32),
			fmt_num(100 * d.cv, b[2], 32), fmt_num(d.min, b[3], 32),
			fmt_num(d.median, b[4], 32), fmt_num(d.max, b[5], 32));
	}
	fprintf(md, "\n");
}

static const char *direction(const struct vs_row *row)
{
	const struct welch *w = &row->w;

	if (!row->t.significant || !isfinite(w->diff) || w->diff == 0 ||
	    row->m.better == BETTER_NONE)
		return "";
	if ((w->diff < 0) == (row->m.better == BETTER_LOWER))
		return " (better)";
	return " (worse)";
}

/* "d [lo, hi]" with fmt_num's numbers, "-" when there is no difference */
static const char *with_ci(double d, double lo, double hi, char *buf, size_t len)
{
	char a[32], b[32], c[32];

	if (!isfinite(d))
		return "-";
	snprintf(buf, len, "%s [%s, %s]", fmt_num(d, a, sizeof(a)), fmt_num(lo, b, sizeof(b)),
		 fmt_num(hi, c, sizeof(c)));
	return buf;
}

static void md_versus_row(FILE *md, const struct vs_row *row)
{
	char s[6][32], d[2][100];
	const char *bold = row->primary ? "**" : "";

	fprintf(md, "| %s%s%s | %s | %s ± %s | %s ± %s | %s | %s | %s | %s | %s%s |\n",
		bold, row->m.label, bold, row->m.unit,
		fmt_num(row->a.mean, s[0], 32), fmt_num(row->a.stddev, s[1], 32),
		fmt_num(row->b.mean, s[2], 32), fmt_num(row->b.stddev, s[3], 32),
		with_ci(row->w.diff, row->w.ci_lo, row->w.ci_hi, d[0], sizeof(d[0])),
		with_ci(row->w.diff_pct, row->w.ci_lo_pct, row->w.ci_hi_pct, d[1], sizeof(d[1])),
		fmt_p(row->w.p, s[4], 32), row->primary ? "primary" : fmt_p(row->t.p_adj, s[5], 32),
		row->t.significant ? "*" : "", direction(row));
}

static void md_primary_names(FILE *md, const struct argv *primary)
{
	for (int i = 0; i < primary->n; i++)
		fprintf(md, "%s`%s`", i ? ", " : "", primary->v[i]);
}

static struct json_object *versus_json(const struct versus *v)
{
	struct json_object *o = json_object_new_object();

	for (int m = 0; m < v->n; m++) {
		const struct vs_row *row = &v->rows[m];
		struct json_object *c = json_object_new_object();

		jset(c, "unit", json_object_new_string(row->m.unit));
		jset(c, "primary", json_object_new_boolean(row->primary));
		jset(c, "mean_a", jnum(row->a.mean));
		jset(c, "mean_b", jnum(row->b.mean));
		jset_doubles(c, &row->w, welch_fields, ARRAY_SIZE(welch_fields));
		jset(c, "p_holm", row->primary ? NULL : jnum(row->t.p_adj));
		jset(c, "significant", json_object_new_boolean(row->t.significant));
		jset(o, row->m.name, c);
	}
	return o;
}

/* The correction as it was applied, for summary.json. */
static struct json_object *correction_json(const struct versus *v, const struct argv *primary)
{
	struct json_object *o = json_object_new_object(), *names = json_object_new_array();

	for (int i = 0; i < primary->n; i++)
		json_object_array_add(names, json_object_new_string(primary->v[i]));
	jset(o, "primary", names);
	jset(o, "method", json_object_new_string("holm"));
	jset(o, "secondary_tests", json_object_new_int(v->secondary));
	jset(o, "secondary_significant_uncorrected", json_object_new_int(v->secondary_raw));
	jset(o, "secondary_significant_holm", json_object_new_int(v->secondary_adj));
	return o;
}

struct json_object *report_versus(const struct versus *v, const struct argv *primary, FILE *md,
				  const char *label_a, const char *label_b)
{
	struct json_object *o = json_object_new_object();

	jset(o, "metrics", versus_json(v));
	jset(o, "correction", correction_json(v, primary));
	if (!md)
		return o;
	fprintf(md, "| metric | unit | %s mean ± sd | %s mean ± sd | diff [95%% CI] | "
		"diff %% [95%% CI] | p (Welch) | p (Holm) | |\n"
		"|---|---|---|---|---|---|---|---|---|\n", label_a, label_b);
	for (int m = 0; m < v->n; m++)
		md_versus_row(md, &v->rows[m]);
	fprintf(md, "\nThe difference is mean(%s) - mean(%s) with its 95 %% confidence interval "
		"(Welch), also as percent of mean(%s). Primary metrics (bold: ", label_b, label_a,
		label_a);
	md_primary_names(md, primary);
	fprintf(md, ") are tested as they are, `*` at p < 0.05. The other %d tested metrics are "
		"one family under Holm's correction, which keeps the chance of any false alarm "
		"among them at 5 %%: `*` at an adjusted p < 0.05. Of those %d, %d had p < 0.05 "
		"before the correction and %d after it.\n\n", v->secondary, v->secondary,
		v->secondary_raw, v->secondary_adj);
	return o;
}

int report_problems(const struct results *r, FILE *md, FILE *err)
{
	int i, n = 0;

	for (i = 0; i < r->n_runs; i++) {
		const struct run *run = &r->runs[i];

		if (run->refused[0] && md)
			fprintf(md, "- **Refused values** of run %s/rep%d (absurd, used in no "
				"statistic): %s.\n", run->variant, run->rep, run->refused);
		if (run->refused[0] && err)
			fprintf(err, "bnb-run: %s: run %s/rep%d: refused %s\n", r->dir, run->variant,
				run->rep, run->refused);
		if (run->damaged[0] && md)
			fprintf(md, "- **Damaged files** of run %s/rep%d, which ended ok: %s; its "
				"figures from them are missing.\n", run->variant, run->rep,
				run->damaged);
		if (run->damaged[0] && err)
			fprintf(err, "bnb-run: %s: run %s/rep%d ended ok but %s\n", r->dir,
				run->variant, run->rep, run->damaged);
		n += run->damaged[0] != 0;
	}
	return n;
}

int report_unfinished(const struct results *r, FILE *err, int *damaged)
{
	int i, n = 0;

	if (damaged)
		*damaged = 0;
	for (i = 0; i < r->n_runs; i++) {
		const struct run *run = &r->runs[i];

		if (run->status == RUN_OK)
			continue;
		if (damaged)
			*damaged += run->status_damaged;
		fprintf(err, "bnb-run: %s: run %s/rep%d %s: %s\n", r->dir, run->variant, run->rep,
			run_status_name(run->status), run->reason[0] ? run->reason : "no reason given");
		n++;
	}
	return n;
}

/*
 * Runs with balancing on whose scanner changed no PTE measured no
 * balancing at all: the 2012 scan delay (scan_first_node) waits for a
 * task of the address space on a second node, a workload shorter than
 * the scan delay ends first.  Their difference from off is not the
 * policy's, so the report names them (and summary.json lists them).
 */
static void unscanned_note(FILE *md, const struct results *r, struct json_object *root)
{
	struct json_object *list = json_object_new_array();
	char name[EXP_NAME_MAX * 2 + 16];
	int i, n = 0;

	for (i = 0; i < r->n_runs; i++) {
		const struct run *run = &r->runs[i];

		if (!run_unscanned(r, run))
			continue;
		snprintf(name, sizeof(name), "%s/rep%d", run->variant, run->rep);
		json_object_array_add(list, json_object_new_string(name));
		fprintf(md, "%s%s", n++ ? ", " : "- **No balancing happened** in run ", name);
	}
	if (n)
		fprintf(md, ": balancing was on but the scanner changed no PTE "
			"(numa_pte_updates 0), so %s measured the workload without "
			"balancing. Causes: a run shorter than the scan delay, or the "
			"2012 delay (sysctl.scan_first_node) waiting for a task on a "
			"second node.\n", n > 1 ? "these runs" : "it");
	jset(root, "unscanned_runs", list);
}

static void notes(FILE *md, const struct results *r, struct json_object *root)
{
	struct json_object *lat = json_object_new_object();
	const char *seen[EXP_MAX_VARIANTS];
	char note[2048];
	int i, j, n_seen = 0;

	for (i = 0; i < r->exp.n_variants; i++) {
		const char *name = r->exp.variants[i].name, *mode;

		if (!results_has_runs(r, name))
			continue;
		mode = variant_latency(r, name);
		jset(lat, name, json_object_new_string(mode));
		for (j = 0; j < n_seen && strcmp(seen[j], mode); j++)
			;
		if (j == n_seen) {
			seen[n_seen++] = mode;
			fprintf(md, "- %s\n", latency_note(mode));
		}
	}
	for (i = 0; i < r->n_runs; i++)
		if (r->runs[i].latency_why[0]) {
			fprintf(md, "- Latency emulation was requested but was not active in run "
				"%s/rep%d: %s.\n", r->runs[i].variant, r->runs[i].rep,
				r->runs[i].latency_why);
			break;
		}
	report_problems(r, md, NULL);
	unscanned_note(md, r, root);
	time_dilation_note(r, note, sizeof(note));
	fprintf(md, "- %s\n", note);
	jset(root, "time_dilation", json_object_new_string(note));
	if (scalerun_note(r, note, sizeof(note))) {
		fprintf(md, "- %s\n", note);
		jset(root, "time_scale", json_object_new_string(note));
	}
	fprintf(md, "\n");
	jset(root, "latency", lat);
}

static void comparisons(FILE *md, const struct results *r, struct json_object *root)
{
	struct json_object *arr = json_object_new_array();
	const char *base = variant_baseline(r);
	struct versus v;
	int i;

	for (i = 0; base && i < r->exp.n_variants; i++) {
		const char *name = r->exp.variants[i].name;
		struct json_object *c;

		if (!strcmp(name, base) || !results_has_runs(r, name))
			continue;
		fprintf(md, "### %s vs %s\n\n", name, base);
		if (versus_build(&v, r, base, r, name, &r->exp.primary))
			continue;
		c = report_versus(&v, &r->exp.primary, md, base, name);
		versus_free(&v);
		jset(c, "baseline", json_object_new_string(base));
		jset(c, "variant", json_object_new_string(name));
		json_object_array_add(arr, c);
	}
	jset(root, "comparisons", arr);
}

/* NAME in DIR through NAME.tmp, so a full disk never leaves half a file. */
static int write_json(const char *dir, const char *name, struct json_object *o)
{
	char path[PATH_MAX + 64], tmp[PATH_MAX + 64], why[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s/%s.tmp", dir, name);
	if (json_object_to_file_ext(tmp, o, JSON_C_TO_STRING_PRETTY |
				    JSON_C_TO_STRING_NOSLASHESCAPE) || rename(tmp, path)) {
		fprintf(stderr, "bnb-run: cannot write %s: %s\n", path,
			write_errstr(tmp, errno, why, sizeof(why)));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int report_write(const struct results *r)
{
	struct json_object *root = json_object_new_object(), *vars = json_object_new_array();
	char path[PATH_MAX + 32], why[256];
	time_t now = time(NULL);
	const char *base;
	char stamp[32];
	FILE *md;
	int i, rc;

	snprintf(path, sizeof(path), "%s/summary.md.tmp", r->dir);
	md = fopen(path, "w");
	if (!md) {
		fprintf(stderr, "bnb-run: cannot write %s: %s\n", path,
			write_errstr(path, errno, why, sizeof(why)));
		json_object_put(root);
		json_object_put(vars);
		return -1;
	}
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	jset(root, "experiment", json_object_new_string(r->exp.name));
	jset(root, "generated", json_object_new_string(stamp));
	fprintf(md, "# Experiment %s\n\nResults in `%s`, generated %s.\n\n", r->exp.name,
		r->dir, stamp);
	description_md(md, r, root);
	jset(root, "verdict", verdict_results(r, md));
	account_section(md, r, root);
	fprintf(md, "## Notes\n\n");
	notes(md, r, root);
	md_runs(md, r);
	fprintf(md, "## Statistics per variant (finished runs only)\n\n");
	for (i = 0; i < r->exp.n_variants; i++) {
		if (!results_has_runs(r, r->exp.variants[i].name))
			continue;
		md_variant(md, r, r->exp.variants[i].name);
		json_object_array_add(vars, report_variant_json(r, r->exp.variants[i].name));
	}
	jset(root, "variants", vars);
	base = variant_baseline(r);
	jset(root, "baseline", base ? json_object_new_string(base) : NULL);
	fprintf(md, "## Comparison against the baseline (%s)\n\n", base ? base : "-");
	comparisons(md, r, root);
	sweep_report(r, md, root);
	jset(root, "kernel_warnings", warnings_json(r));
	jset(root, "runs", runs_json(r));
	rc = fclose_checked(md);
	if (!rc) {
		char final[PATH_MAX + 32];

		snprintf(final, sizeof(final), "%s/summary.md", r->dir);
		rc = rename(path, final);
	}
	if (rc) {
		fprintf(stderr, "bnb-run: cannot write %s: %s\n", path,
			write_errstr(path, errno, why, sizeof(why)));
		unlink(path);
	}
	rc |= write_json(r->dir, "summary.json", root);
	json_object_put(root);
	return rc ? -1 : 0;
}
