// SPDX-License-Identifier: GPL-2.0
/* The verdict first; see verdict.h. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "account/account_report.h"
#include "variant_info.h"
#include "verdict.h"
#include "versus.h"

/* More comparisons than this get one line each (a sweep). */
#define VERDICT_FULL_MAX 3

static const char *const conv_metrics[] = { "time_to_conv_90_s", "time_to_conv_95_s" };

static const char *num(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, len, "%.3g", v);
	return buf;
}

static const char *signed_num(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, len, "%+.3g", v);
	return buf;
}

/* KEY's value in V as run: its sweep point, else its setting; NULL if unset. */
static const char *value_of(const struct variant *v, const char *key)
{
	int i;

	for (i = 0; i < v->n_sweep; i++)
		if (!strcmp(v->sweep[i].key, key))
			return v->sweep[i].value;
	for (i = 0; i < v->n_settings; i++)
		if (!strcmp(v->settings[i].key, key))
			return v->settings[i].value;
	return NULL;
}

static bool differs(const struct variant *a, const struct variant *b, const char *key)
{
	const char *x = value_of(a, key), *y = value_of(b, key);

	if (!strcmp(key, "description") || !strcmp(key, "repetitions"))
		return false;
	return !x || !y || strcmp(x, y);
}

/* "balancing = on (off)": B's keys whose value is not A's, A's in brackets. */
static void what_differs(FILE *f, const struct variant *a, const struct variant *b)
{
	const struct variant *side[2] = { b, a };
	int n = 0, s, i, j;

	for (s = 0; s < 2; s++) {
		for (i = 0; i < side[s]->n_settings; i++) {
			const char *key = side[s]->settings[i].key;

			if (!differs(a, b, key))
				continue;
			/* a key both set is listed once, from B */
			for (j = 0; s && j < b->n_settings && strcmp(b->settings[j].key, key); j++)
				;
			if (s && j < b->n_settings)
				continue;
			fprintf(f, "%s%s = %s (%s)", n++ ? ", " : "", key,
				value_of(b, key) ? value_of(b, key) : "default",
				value_of(a, key) ? value_of(a, key) : "default");
		}
	}
	if (!n)
		fprintf(f, "the same settings");
}

static const char *outcome(const struct vs_row *row)
{
	if (!row->t.significant)
		return "no significant change";
	if (row->m.better == BETTER_NONE || row->w.diff == 0)
		return "changed";
	return (row->w.diff < 0) == (row->m.better == BETTER_LOWER) ? "changed: better" :
	       "changed: worse";
}

static bool is_conv(const char *name)
{
	return !strcmp(name, conv_metrics[0]) || !strcmp(name, conv_metrics[1]);
}

static struct json_object *jnum(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static struct json_object *row_json(const struct vs_row *row)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "mean_a", jnum(row->a.mean));
	json_object_object_add(o, "mean_b", jnum(row->b.mean));
	json_object_object_add(o, "diff", jnum(row->w.diff));
	json_object_object_add(o, "ci95_lo", jnum(row->w.ci_lo));
	json_object_object_add(o, "ci95_hi", jnum(row->w.ci_hi));
	json_object_object_add(o, "diff_pct", jnum(row->w.diff_pct));
	json_object_object_add(o, "p_value", jnum(row->w.p));
	json_object_object_add(o, "outcome", json_object_new_string(
		isfinite(row->w.p) ? outcome(row) : "not tested"));
	return o;
}

/* "23.6 s [21.0, 26.2] (5 runs)" */
static void group(FILE *f, const struct describe *d, const char *unit)
{
	char b[3][32];

	if (!d->n) {
		fprintf(f, "none");
		return;
	}
	fprintf(f, "%s%s%s", num(d->mean, b[0], 32), *unit ? " " : "", unit);
	if (d->n > 1)
		fprintf(f, " [%s, %s]", num(d->ci_lo, b[1], 32), num(d->ci_hi, b[2], 32));
	fprintf(f, " (%d run%s)", d->n, d->n == 1 ? "" : "s");
}

/* ", difference -13.2 [-20.1, -6.3] (-36 % [-55, -17]), p = 0.004: changed: better" */
static void difference(FILE *f, const struct vs_row *row)
{
	char b[6][32];

	if (!isfinite(row->w.p)) {
		fprintf(f, "; not tested (%s)", row->a.n < 2 || row->b.n < 2 ?
			"fewer than 2 values on a side" : "no difference defined");
		return;
	}
	fprintf(f, "; difference %s [%s, %s]", signed_num(row->w.diff, b[0], 32),
		signed_num(row->w.ci_lo, b[1], 32), signed_num(row->w.ci_hi, b[2], 32));
	/* a share (unit "") moves in points; its percent says little */
	if (isfinite(row->w.diff_pct) && row->m.unit[0])
		fprintf(f, " (%s %% [%s, %s])", signed_num(row->w.diff_pct, b[3], 32),
			signed_num(row->w.ci_lo_pct, b[4], 32), signed_num(row->w.ci_hi_pct, b[5], 32));
	fprintf(f, ", p %s%s: **%s**", row->w.p < 0.001 ? "< " : "= ",
		row->w.p < 0.001 ? "0.001" : num(row->w.p, b[0], 32), outcome(row));
}

static void metric_line(FILE *f, const struct vs_row *row, const char *la, const char *lb)
{
	fprintf(f, "- %s: %s ", row->m.label, lb);
	group(f, &row->b, row->m.unit);
	fprintf(f, ", %s ", la);
	group(f, &row->a, row->m.unit);
	difference(f, row);
	fprintf(f, "\n");
}

/* Runs of VARIANT that finished, whatever the metric. */
static int finished(const struct results *r, const char *variant)
{
	int i, n = 0;

	for (i = 0; i < r->n_runs; i++)
		n += r->runs[i].status == RUN_OK && !strcmp(r->runs[i].variant, variant);
	return n;
}

/* start_jitter as VARIANT's experiment set it; off when it is unknown. */
static bool variant_jitter(const struct results *r, const char *variant)
{
	const struct variant *v = experiment_variant(&r->exp, variant);

	return v && v->start_jitter;
}

/*
 * Under deterministic timing a run is a function of its settings: without
 * start_jitter, n repetitions are one instruction stream n times, the same
 * value n times, and sample one initial condition (README, start_jitter).
 */
static bool repeats_one_run(const struct results *r, const char *variant)
{
	return !strcmp(variant_timing(r, variant), "deterministic") &&
	       !variant_jitter(r, variant) && finished(r, variant) > 1;
}

static bool identical_reps(const struct results *ra, const char *va,
			   const struct results *rb, const char *vb)
{
	return repeats_one_run(ra, va) || repeats_one_run(rb, vb);
}

/* ", start_jitter on" in the verdict's opening sentence, when it was. */
static void jitter_text(FILE *f, const struct results *ra, const char *va,
			const struct results *rb, const char *vb, const char *la, const char *lb)
{
	bool a = variant_jitter(ra, va), b = variant_jitter(rb, vb);

	if (a && b)
		fprintf(f, ", start_jitter on");
	else if (a || b)
		fprintf(f, ", start_jitter on for %s only", a ? la : lb);
}

/* Identical repetitions give a CI of zero width: say why, and what helps. */
static void identical_line(FILE *f, const struct results *ra, const char *va,
			   const struct results *rb, const char *vb, const char *la,
			   const char *lb)
{
	bool a = repeats_one_run(ra, va), b = repeats_one_run(rb, vb);

	if (!a && !b)
		return;
	if (a && b)
		fprintf(f, "- repetitions identical (deterministic, start_jitter off): the CI has "
			"zero width, so a significant change says only that these two runs "
			"differ, not that it holds over initial conditions; start_jitter = on "
			"samples them\n");
	else
		fprintf(f, "- %s's repetitions identical (deterministic, start_jitter off): its "
			"side of the CI has zero width; start_jitter = on samples initial "
			"conditions\n", a ? la : lb);
}

/* The window the runs' convergence was computed over, from their summaries. */
static void window_text(FILE *f, const struct results *r, const char *variant)
{
	for (int i = 0; i < r->n_runs; i++) {
		const struct run *run = &r->runs[i];

		if (strcmp(run->variant, variant) || !isfinite(run->window_hints))
			continue;
		if (run->window_s > 0)
			fprintf(f, "the last %g s of hint faults, at least %.0f", run->window_s,
				run->window_hints);
		else
			fprintf(f, "the last %.0f hint faults", run->window_hints);
		return;
	}
	fprintf(f, "the collector's window");
}

/* Metric NAME over VARIANT's finished runs of R that have it. */
static void describe_metric(const struct results *r, const char *variant, const char *name,
			    struct describe *d)
{
	double x[256];

	stats_describe(x, results_values_named(r, variant, name, x, 256), d);
}

/*
 * The scanner's passes to 90 % and, with scale_scan = hardware, the time in
 * hardware seconds: from the side's own runs, since the other side (off)
 * has none to compare them with.
 */
static void conv_scale(FILE *f, const struct results *r, const char *variant)
{
	struct describe passes, hw;
	char b[32];

	describe_metric(r, variant, "passes_to_conv_90", &passes);
	describe_metric(r, variant, "time_to_conv_90_hw_s", &hw);
	if (passes.n)
		fprintf(f, ", %s passes", num(passes.mean, b, 32));
	if (hw.n)
		fprintf(f, ", %s s of the hardware run", num(hw.mean, b, 32));
}

static void conv_side(FILE *f, const struct vs_row *r90, const struct vs_row *r95,
		      const struct results *r, const char *variant, const char *label)
{
	int runs = finished(r, variant);
	char b[2][32];

	fprintf(f, "%s ", label);
	if (!r90 || !r90->b.n) {
		fprintf(f, "never (0 of %d runs)", runs);
		return;
	}
	fprintf(f, "90 %% after %s s", num(r90->b.mean, b[0], 32));
	if (r90->b.n > 1)
		fprintf(f, " [%s, %s]", num(r90->b.ci_lo, b[0], 32), num(r90->b.ci_hi, b[1], 32));
	conv_scale(f, r, variant);
	fprintf(f, " in %d of %d runs", r90->b.n, runs);
	if (r95 && r95->b.n)
		fprintf(f, ", 95 %% after %s s in %d", num(r95->b.mean, b[0], 32), r95->b.n);
	else
		fprintf(f, ", 95 %% in none");
}

/*
 * The same by pages (a huge PMD's hinting fault counts its 512 base
 * pages: the patch series' counters), where a side's kernel counts them:
 * with huge pages the faults' window spans most of a run and says never
 * where the pages moved.
 */
static void conv_pages_side(FILE *f, const struct results *r, const char *variant,
			    const char *label)
{
	struct describe t90, end;
	char b[32];

	describe_metric(r, variant, "time_to_conv_90_pages_s", &t90);
	describe_metric(r, variant, "convergence_pages_final", &end);
	fprintf(f, "%s ", label);
	if (t90.n)
		fprintf(f, "90 %% after %s s in %d of %d runs", num(t90.mean, b, 32), t90.n,
			finished(r, variant));
	else
		fprintf(f, "never (0 of %d runs)", finished(r, variant));
	if (end.n)
		fprintf(f, ", %s at the end", num(end.mean, b, 32));
}

static void conv_pages_text(FILE *f, const struct results *ra, const char *va,
			    const struct results *rb, const char *vb, const char *la,
			    const char *lb)
{
	struct describe a, b;

	describe_metric(ra, va, "convergence_pages_final", &a);
	describe_metric(rb, vb, "convergence_pages_final", &b);
	if (!a.n && !b.n)
		return;
	fprintf(f, "; by pages (a huge page's fault counts 512): ");
	conv_pages_side(f, rb, vb, lb);
	fprintf(f, "; ");
	conv_pages_side(f, ra, va, la);
}

static void conv_line(FILE *f, const struct versus *v, const struct results *ra, const char *va,
		      const struct results *rb, const char *vb, const char *la, const char *lb)
{
	const struct vs_row *r90 = versus_row(v, conv_metrics[0]);
	const struct vs_row *r95 = versus_row(v, conv_metrics[1]);
	/* the baseline's side, as its own "b" */
	struct vs_row a90 = { 0 }, a95 = { 0 };

	if (r90)
		a90.b = r90->a;
	if (r95)
		a95.b = r95->a;
	fprintf(f, "- converged (the local share of ");
	window_text(f, rb, vb);
	fprintf(f, "): ");
	conv_side(f, r90, r95, rb, vb, lb);
	fprintf(f, "; ");
	conv_side(f, r90 ? &a90 : NULL, r95 ? &a95 : NULL, ra, va, la);
	if (r90 && r90->primary && isfinite(r90->w.p))
		difference(f, r90);
	conv_pages_text(f, ra, va, rb, vb, la, lb);
	fprintf(f, "\n");
}

/*
 * Where the accesses went (extract/locrise.h), from the side's own runs:
 * the true locality in the work's first window and its best, and the time
 * and passes to 90 % of the rise, or flat where it did not rise.
 */
static void rise_side(FILE *f, const struct results *r, const char *variant, const char *label)
{
	struct describe from, best, t90, p90;
	char b[32];

	describe_metric(r, variant, "locality_start", &from);
	describe_metric(r, variant, "locality_peak", &best);
	describe_metric(r, variant, "locality_to90_s", &t90);
	describe_metric(r, variant, "passes_to_locality_90", &p90);
	if (!from.n || !best.n) {
		fprintf(f, "%s not measured", label);
		return;
	}
	fprintf(f, "%s %.2f -> %.2f", label, from.mean, best.mean);
	if (!t90.n) {
		fprintf(f, ", flat in %d runs", from.n);
		return;
	}
	fprintf(f, ", 90 %% of the rise after %s s", num(t90.mean, b, 32));
	if (p90.n)
		fprintf(f, ", %s passes", num(p90.mean, b, 32));
	fprintf(f, " in %d of %d runs", t90.n, from.n);
}

static void rise_line(FILE *f, const struct results *ra, const char *va,
		      const struct results *rb, const char *vb, const char *la, const char *lb)
{
	struct describe a, b;

	describe_metric(ra, va, "locality_start", &a);
	describe_metric(rb, vb, "locality_start", &b);
	if (!a.n && !b.n)
		return;
	fprintf(f, "- true locality over the work (the plugin's accesses, first window -> best): ");
	rise_side(f, rb, vb, lb);
	fprintf(f, "; ");
	rise_side(f, ra, va, la);
	fprintf(f, "\n");
}

/* The seed's cost in its own unit; the account (below it) has it in time. */
static void cost_line(FILE *f, const struct versus *v, const char *la, const char *lb)
{
	const struct vs_row *cost = versus_row(v, "cost_total");

	if (!cost)
		return;
	fprintf(f, "- cost in the seed's units (u, one word access): %s ", lb);
	group(f, &cost->b, "u");
	fprintf(f, ", %s ", la);
	group(f, &cost->a, "u");
	if (cost->primary)
		difference(f, cost);
	fprintf(f, "\n");
}

/*
 * The guest ran at another speed against the host on one side: the host's
 * load changed between the two sets of runs, and every timing (and what
 * depends on the scanner's pace) compares the host as much as the variants.
 * Under deterministic timing the guest's clock counts its own work, so the
 * host's pace reaches no timing and there is nothing to caution about.
 */
static void host_line(FILE *f, const struct versus *v, const char *la, const char *lb)
{
	const struct vs_row *d = versus_row(v, "dilation");
	char b[3][32];

	if (!d || !isfinite(d->w.p) || d->w.p >= STATS_ALPHA)
		return;
	fprintf(f, "- caution: the time dilation differed, %s %sx and %s %sx (p %s): the host "
		"ran the two sets of runs at different loads, so their timings compare the host "
		"as well\n", lb, num(d->b.mean, b[0], 32), la, num(d->a.mean, b[1], 32),
		d->w.p < 0.001 ? "< 0.001" : (snprintf(b[2], 32, "= %.3g", d->w.p), b[2]));
}

static int primaries_changed(const struct versus *v, int *tested)
{
	int i, n = 0;

	*tested = 0;
	for (i = 0; i < v->n; i++) {
		if (!v->rows[i].primary || !isfinite(v->rows[i].t.p))
			continue;
		(*tested)++;
		n += v->rows[i].t.significant;
	}
	return n;
}

static void missing_primaries(FILE *f, const struct versus *v, const struct argv *primary)
{
	for (int i = 0; i < primary->n; i++)
		if (!versus_row(v, primary->v[i]))
			fprintf(f, "- %s: named primary, but no run measured it\n", primary->v[i]);
}

/* Which kernel each side booted: one when both are the same build. */
static void kernel_text(FILE *f, const struct results *ra, const char *va,
			const struct results *rb, const char *vb)
{
	char ka[PATH_MAX + 128], kb[PATH_MAX + 128];

	variant_kernel(ra, va, ka, sizeof(ka));
	variant_kernel(rb, vb, kb, sizeof(kb));
	if (!strcmp(ka, kb) && !strcmp(ka, "unknown"))
		return;		/* runs without provenance: nothing to say */
	if (!strcmp(ka, kb))
		fprintf(f, ", kernel %s", ka);
	else
		fprintf(f, ", kernel %s against %s", kb, ka);
}

static void full(FILE *f, const struct versus *v, const struct acct_pair *acct,
		 const struct results *ra, const char *va, const struct results *rb, const char *vb,
		 const char *la, const char *lb)
{
	const struct argv *primary = &ra->exp.primary;
	int i, tested, changed = primaries_changed(v, &tested);

	fprintf(f, "**%s** against **%s**: ", lb, la);
	if (experiment_variant(&ra->exp, va) && experiment_variant(&rb->exp, vb))
		what_differs(f, experiment_variant(&ra->exp, va), experiment_variant(&rb->exp, vb));
	fprintf(f, ". Latency %s%s, timing %s", variant_latency(rb, vb),
		latency_free(variant_latency(ra, va)) || latency_free(variant_latency(rb, vb)) ?
		" (remote memory costs nothing there: only the balancer's cost shows)" : "",
		variant_timing(rb, vb));
	kernel_text(f, ra, va, rb, vb);
	jitter_text(f, ra, va, rb, vb, la, lb);
	fprintf(f, ". %d of %d primary metrics changed significantly (p < 0.05):\n\n",
		changed, tested);
	for (i = 0; i < v->n; i++)
		if (v->rows[i].primary && !is_conv(v->rows[i].m.name) &&
		    strcmp(v->rows[i].m.name, "cost_total"))
			metric_line(f, &v->rows[i], la, lb);
	missing_primaries(f, v, primary);
	identical_line(f, ra, va, rb, vb, la, lb);
	cost_line(f, v, la, lb);
	if (acct)
		account_verdict(f, acct, la, lb);
	else
		account_none(f, rb, vb);
	conv_line(f, v, ra, va, rb, vb, la, lb);
	rise_line(f, ra, va, rb, vb, la, lb);
	if (!strcmp(variant_timing(ra, va), "wall") && !strcmp(variant_timing(rb, vb), "wall"))
		host_line(f, v, la, lb);
	fprintf(f, "- the %d other metrics: %d changed after Holm's correction (%d had p < 0.05 "
		"before it)\n\n", v->secondary, v->secondary_adj, v->secondary_raw);
}

/* A sweep point: one line, the primary metrics' relative change. */
static void compact(FILE *f, const struct versus *v, const struct results *ra, const char *va,
		    const struct results *rb, const char *vb, const char *lb)
{
	char b[4][32];
	int i, n = 0;

	fprintf(f, "- **%s** (", lb);
	what_differs(f, experiment_variant(&ra->exp, va), experiment_variant(&rb->exp, vb));
	fprintf(f, "):");
	for (i = 0; i < v->n; i++) {
		const struct vs_row *row = &v->rows[i];

		if (!row->primary)
			continue;
		fprintf(f, "%s %s ", n++ ? ";" : "", row->m.label);
		if (!isfinite(row->w.p))
			fprintf(f, "%s (not tested)", num(row->b.mean, b[0], 32));
		else if (isfinite(row->w.diff_pct) && row->m.unit[0])
			fprintf(f, "%s %% [%s, %s]%s", signed_num(row->w.diff_pct, b[0], 32),
				signed_num(row->w.ci_lo_pct, b[1], 32),
				signed_num(row->w.ci_hi_pct, b[2], 32), row->t.significant ? " *" : "");
		else
			fprintf(f, "%s [%s, %s]%s", signed_num(row->w.diff, b[0], 32),
				signed_num(row->w.ci_lo, b[1], 32), signed_num(row->w.ci_hi, b[2], 32),
				row->t.significant ? " *" : "");
	}
	if (identical_reps(ra, va, rb, vb))
		fprintf(f, " (repetitions identical: deterministic, start_jitter off)");
	fprintf(f, "\n");
}

static struct json_object *pair_json(const struct versus *v, const struct acct_pair *acct,
				     const struct results *ra, const char *va,
				     const struct results *rb, const char *vb)
{
	struct json_object *o = json_object_new_object(), *p = json_object_new_object();

	json_object_object_add(o, "baseline", json_object_new_string(va));
	json_object_object_add(o, "variant", json_object_new_string(vb));
	json_object_object_add(o, "latency", json_object_new_string(variant_latency(rb, vb)));
	json_object_object_add(o, "timing", json_object_new_string(variant_timing(rb, vb)));
	json_object_object_add(o, "kernel", variant_kernel_json(rb, vb));
	json_object_object_add(o, "baseline_kernel", variant_kernel_json(ra, va));
	json_object_object_add(o, "remote_memory_free",
			       json_object_new_boolean(latency_free(variant_latency(ra, va)) ||
						       latency_free(variant_latency(rb, vb))));
	json_object_object_add(o, "start_jitter", json_object_new_boolean(variant_jitter(rb, vb)));
	json_object_object_add(o, "baseline_start_jitter",
			       json_object_new_boolean(variant_jitter(ra, va)));
	json_object_object_add(o, "identical_repetitions",
			       json_object_new_boolean(identical_reps(ra, va, rb, vb)));
	for (int i = 0; i < v->n; i++)
		if (v->rows[i].primary)
			json_object_object_add(p, v->rows[i].m.name, row_json(&v->rows[i]));
	json_object_object_add(o, "primary", p);
	json_object_object_add(o, "account", acct ? account_pair_json(acct) : NULL);
	json_object_object_add(o, "secondary_tests", json_object_new_int(v->secondary));
	json_object_object_add(o, "secondary_significant_holm",
			       json_object_new_int(v->secondary_adj));
	json_object_object_add(o, "secondary_significant_uncorrected",
			       json_object_new_int(v->secondary_raw));
	return o;
}

static struct json_object *verdict_one(const struct results *ra, const char *va,
				       const struct results *rb, const char *vb,
				       const char *la, const char *lb, FILE *f, bool brief)
{
	struct acct_pair acct, *ap = &acct;
	struct json_object *o;
	struct versus v;

	if (versus_build(&v, ra, va, rb, vb, &ra->exp.primary))
		return NULL;
	if (account_pair(ra, va, rb, vb, &acct))
		ap = NULL;
	if (brief)
		compact(f, &v, ra, va, rb, vb, lb);
	else
		full(f, &v, ap, ra, va, rb, vb, la, lb);
	o = pair_json(&v, ap, ra, va, rb, vb);
	versus_free(&v);
	return o;
}

struct json_object *verdict_pair(const struct results *ra, const char *va,
				 const struct results *rb, const char *vb,
				 const char *label_a, const char *label_b, FILE *f)
{
	return verdict_one(ra, va, rb, vb, label_a, label_b, f, false);
}

/*
 * Runs in which remote memory cost nothing (under deterministic timing:
 * model = off) show only what balancing costs, never what placement gains:
 * the verdict says so before anything else.
 */
/*
 * The first of VARIANT's runs that ended ok, or NULL: a run that never
 * finished (QEMU could not start, a full disk) says nothing of what
 * remote memory cost, whatever latency its status file records.
 */
static const struct run *first_ok(const struct results *r, const char *variant)
{
	for (int i = 0; i < r->n_runs; i++)
		if (!strcmp(r->runs[i].variant, variant) && r->runs[i].status == RUN_OK)
			return &r->runs[i];
	return NULL;
}

static void free_memory_line(FILE *f, const struct results *r)
{
	const char *why = NULL;
	int i, j, n = 0;

	for (i = 0; i < r->exp.n_variants; i++) {
		const char *name = r->exp.variants[i].name;
		const struct run *ok = first_ok(r, name);

		if (!ok || !latency_free(ok->latency))
			continue;
		fprintf(f, "%s**%s**", n++ ? ", " : "Remote memory cost nothing in the runs of ",
			name);
		for (j = 0; !why && j < r->n_runs; j++)
			if (!strcmp(r->runs[j].variant, name) && r->runs[j].status == RUN_OK &&
			    r->runs[j].latency_why[0])
				why = r->runs[j].latency_why;
	}
	if (n)
		fprintf(f, " (latency uniform%s%s), so on against off there shows only the "
			"balancer's cost, not what placement gains.\n\n", why ? ": " : "",
			why ? why : "");
}

struct json_object *verdict_results(const struct results *r, FILE *f)
{
	struct json_object *arr = json_object_new_array();
	const char *base = variant_baseline(r);
	int i, n = 0;
	bool brief;

	for (i = 0; base && i < r->exp.n_variants; i++)
		n += strcmp(r->exp.variants[i].name, base) &&
		     results_has_runs(r, r->exp.variants[i].name);
	fprintf(f, "## Verdict\n\n");
	free_memory_line(f, r);
	if (!n) {
		fprintf(f, "One variant%s: nothing to compare it with; its figures are below.\n\n",
			base ? "" : " or none finished");
		return arr;
	}
	brief = n > VERDICT_FULL_MAX;
	if (brief)
		fprintf(f, "Each variant against **%s**, the primary metrics' difference in percent "
			"with its 95 %% CI (`*`: p < 0.05); details in the comparison tables.\n\n",
			base);
	for (i = 0; i < r->exp.n_variants; i++) {
		const char *name = r->exp.variants[i].name;
		struct json_object *o;

		if (!strcmp(name, base) || !results_has_runs(r, name))
			continue;
		o = verdict_one(r, base, r, name, base, name, f, brief);
		if (o)
			json_object_array_add(arr, o);
	}
	if (brief)
		fprintf(f, "\n");
	return arr;
}
