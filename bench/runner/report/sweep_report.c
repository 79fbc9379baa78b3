// SPDX-License-Identifier: GPL-2.0
/*
 * Sweep reports. The runner expanded every listed sysctl value into a
 * variant; here the variants of each swept sysctl are lined up against its
 * value, the best one for each objective is named with its confidence
 * interval and held against the worst (Welch), and the figures users trade
 * against each other (time to converge, cost, workload time, the
 * scanner's passes) are shown side by side.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "lib/util.h"
#include "stats.h"
#include "sweep_report.h"

#define MAX_VALUES 1024

/*
 * net: the least memory time of the modelled machine, stall outside the
 * balancer plus the balancer's work (the account of balancing): the point
 * whose balancing gained most for what it cost.
 */
static const struct objective objectives[] = {
	{ "convergence", M_CONV_90, NULL },
	{ "cost", M_COST_TOTAL, NULL },
	{ "work", M_WORK_S, NULL },
	{ "net", -1, "account_spent_s" },
};

/* Indexed by enum objective_id, the order of the objective key's choices. */
const struct objective *objective_of(enum objective_id id)
{
	return id < ARRAY_SIZE(objectives) ? &objectives[id] : &objectives[0];
}

double variant_mean(const struct results *r, const char *variant, int metric)
{
	double v[MAX_VALUES];
	struct describe d;
	int n = results_values(r, variant, metric, v, MAX_VALUES);

	stats_describe(v, n, &d);
	return d.mean;
}

const char *sweep_conv_metric(const struct results *r)
{
	for (int i = 0; i < r->n_runs; i++)
		if (r->runs[i].status == RUN_OK && isfinite(run_metric(&r->runs[i], SWEEP_PHASE_CONV)))
			return SWEEP_PHASE_CONV;
	return metric_defs[M_CONV_90].name;
}

/* The metric name an objective optimises in R. */
static const char *objective_metric(const struct results *r, const struct objective *o)
{
	if (o->metric == M_CONV_90)
		return sweep_conv_metric(r);
	return o->metric < 0 ? o->named : metric_defs[o->metric].name;
}

static void describe_named(const struct results *r, const char *variant, const char *metric,
			   struct describe *d)
{
	double v[MAX_VALUES];

	stats_describe(v, results_values_named(r, variant, metric, v, MAX_VALUES), d);
}

const char *sweep_point(const struct variant *v, const char *key)
{
	for (int k = 0; k < v->n_sweep; k++)
		if (!strcmp(v->sweep[k].key, key))
			return v->sweep[k].value;
	return NULL;
}

/* The variants of KEY's sweep, by its value (numbers ascending). */
static int points_of(const struct results *r, const char *key, const struct variant **out)
{
	int n = 0;

	for (int i = 0; i < r->exp.n_variants; i++) {
		const struct variant *v = &r->exp.variants[i], *t;
		int j;

		if (!sweep_point(v, key))
			continue;
		for (j = n; j > 0 && strtod(sweep_point(out[j - 1], key), NULL) >
				    strtod(sweep_point(v, key), NULL); j--)
			out[j] = out[j - 1];
		t = v;
		out[j] = t;
		n++;
	}
	return n;
}

static const char *const shown[] = { NULL /* convergence */, "cost_total", "work_s",
				     "account_spent_s", "scan_passes" };

static void sweep_row(const struct results *r, const struct variant *v, const char *key,
		      const char *conv, FILE *md, struct json_object *rows)
{
	struct json_object *o = json_object_new_object(), *pt = json_object_new_object();
	char b[3][32];

	json_object_object_add(o, "variant", json_object_new_string(v->name));
	for (int k = 0; k < v->n_sweep; k++)
		json_object_object_add(pt, v->sweep[k].key + strlen("sysctl."),
				       json_object_new_string(v->sweep[k].value));
	json_object_object_add(o, "point", pt);
	fprintf(md, "| %s |", sweep_point(v, key));
	for (size_t i = 0; i < ARRAY_SIZE(shown); i++) {
		const char *m = shown[i] ? shown[i] : conv;
		struct describe d;

		describe_named(r, v->name, m, &d);
		json_object_object_add(o, m, isfinite(d.mean) ? json_object_new_double(d.mean) : NULL);
		if (d.n > 1 && isfinite(d.ci_lo))
			fprintf(md, " %s [%s, %s] |", fmt_num(d.mean, b[0], 32),
				fmt_num(d.ci_lo, b[1], 32), fmt_num(d.ci_hi, b[2], 32));
		else
			fprintf(md, " %s |", fmt_num(d.mean, b[0], 32));
	}
	fprintf(md, " %s |\n", v->name);
	json_object_array_add(rows, o);
}

/* The points of KEY with the lowest and the highest mean of METRIC. */
static void extremes(const struct results *r, const struct variant *const *pts, int n,
		     const char *metric, int *best, int *worst)
{
	double lo = INFINITY, hi = -INFINITY;

	*best = *worst = -1;
	for (int i = 0; i < n; i++) {
		struct describe d;

		describe_named(r, pts[i]->name, metric, &d);
		if (!isfinite(d.mean))
			continue;
		if (d.mean < lo) {
			lo = d.mean;
			*best = i;
		}
		if (d.mean > hi) {
			hi = d.mean;
			*worst = i;
		}
	}
}

/* "best VALUE: mean [CI] against the worst VALUE: mean [CI], Welch p" */
static void best_line(const struct results *r, const char *key,
		      const struct variant *const *pts, int n, const struct objective *o,
		      bool goal, FILE *md, struct json_object *bests)
{
	const char *metric = objective_metric(r, o);
	double a[MAX_VALUES], b[MAX_VALUES];
	struct describe db, dw;
	struct json_object *j;
	struct welch w;
	char s[8][32];
	int best, worst, na, nb;

	extremes(r, pts, n, metric, &best, &worst);
	fprintf(md, "- %s (lowest %s)%s: ", o->name, metric, goal ? " **<- objective**" : "");
	if (best < 0) {
		fprintf(md, "no finished run has it\n");
		json_object_object_add(bests, o->name, NULL);
		return;
	}
	describe_named(r, pts[best]->name, metric, &db);
	describe_named(r, pts[worst]->name, metric, &dw);
	na = results_values_named(r, pts[best]->name, metric, a, MAX_VALUES);
	nb = results_values_named(r, pts[worst]->name, metric, b, MAX_VALUES);
	stats_welch(b, nb, a, na, &w);
	fprintf(md, "**%s = %s**, %s [%s, %s] (%d runs); the worst, %s, %s [%s, %s] (%d runs); "
		"difference %s, p (Welch) %s%s\n", key + strlen("sysctl."),
		sweep_point(pts[best], key), fmt_num(db.mean, s[0], 32), fmt_num(db.ci_lo, s[1], 32),
		fmt_num(db.ci_hi, s[2], 32), db.n, sweep_point(pts[worst], key),
		fmt_num(dw.mean, s[3], 32), fmt_num(dw.ci_lo, s[4], 32), fmt_num(dw.ci_hi, s[5], 32),
		dw.n, fmt_num(w.diff, s[6], 32), fmt_p(w.p, s[7], 32),
		w.significant ? ": **significant**" : ": not significant");
	j = json_object_new_object();
	json_object_object_add(j, "metric", json_object_new_string(metric));
	json_object_object_add(j, "variant", json_object_new_string(pts[best]->name));
	json_object_object_add(j, "value", json_object_new_string(sweep_point(pts[best], key)));
	json_object_object_add(j, "mean", json_object_new_double(db.mean));
	json_object_object_add(j, "ci_lo", isfinite(db.ci_lo) ? json_object_new_double(db.ci_lo) : NULL);
	json_object_object_add(j, "ci_hi", isfinite(db.ci_hi) ? json_object_new_double(db.ci_hi) : NULL);
	json_object_object_add(j, "worst_variant", json_object_new_string(pts[worst]->name));
	json_object_object_add(j, "worst_mean", json_object_new_double(dw.mean));
	json_object_object_add(j, "p_welch", isfinite(w.p) ? json_object_new_double(w.p) : NULL);
	json_object_object_add(bests, o->name, j);
}

static struct json_object *sweep_key(const struct results *r, const char *key, FILE *md)
{
	const struct objective *goal = objective_of(r->exp.objective);
	const struct variant *pts[EXP_MAX_VARIANTS];
	const char *conv = sweep_conv_metric(r);
	struct json_object *o = json_object_new_object(), *rows = json_object_new_array();
	struct json_object *bests = json_object_new_object();
	int n = points_of(r, key, pts);

	fprintf(md, "### %s\n\nMeans over finished runs, with their 95 %% CI where there are "
		"several; lower is better.\n\n| %s | time to converge: %s (s) | cost total (u) | "
		"workload time (s) | memory time: stall + balancing (hardware s) | scan passes | "
		"variant |\n|---|---|---|---|---|---|---|\n",
		key + strlen("sysctl."), key + strlen("sysctl."), conv);
	for (int i = 0; i < n; i++)
		sweep_row(r, pts[i], key, conv, md, rows);
	fprintf(md, "\nBest value per objective, against the worst (the experiment's objective "
		"is **%s**):\n\n", goal->name);
	for (size_t i = 0; i < ARRAY_SIZE(objectives); i++)
		best_line(r, key, pts, n, &objectives[i], &objectives[i] == goal, md, bests);
	fprintf(md, "\n");
	json_object_object_add(o, "best", json_object_get(json_object_object_get(bests, goal->name)));
	json_object_object_add(o, "best_per_objective", bests);
	json_object_object_add(o, "variants", rows);
	return o;
}

void sweep_report(const struct results *r, FILE *md, struct json_object *root)
{
	const struct objective *goal = objective_of(r->exp.objective);
	const char *done[EXP_MAX_SWEEP];
	struct json_object *sw, *keys;
	int n_done = 0;

	for (int i = 0; i < r->exp.n_variants; i++)
		for (int k = 0; k < r->exp.variants[i].n_sweep; k++) {
			const char *key = r->exp.variants[i].sweep[k].key;
			int d;

			for (d = 0; d < n_done && strcmp(done[d], key); d++)
				;
			if (d == n_done && n_done < EXP_MAX_SWEEP)
				done[n_done++] = key;
		}
	if (!n_done)
		return;
	sw = json_object_new_object();
	keys = json_object_new_object();
	fprintf(md, "## Sweep\n\n");
	for (int d = 0; d < n_done; d++)
		json_object_object_add(keys, done[d] + strlen("sysctl."), sweep_key(r, done[d], md));
	json_object_object_add(sw, "objective", json_object_new_string(goal->name));
	json_object_object_add(sw, "convergence_metric",
			       json_object_new_string(sweep_conv_metric(r)));
	json_object_object_add(sw, "keys", keys);
	json_object_object_add(root, "sweep", sw);
}
