// SPDX-License-Identifier: GPL-2.0
/*
 * Sweep reports. The runner expanded every listed sysctl value into a
 * variant; here the variants of a sweep are lined up against the swept
 * value, the best one for the experiment's objective is picked, and the
 * three figures users trade against each other (convergence time, cost,
 * workload time) are shown side by side.
 */
#include <math.h>
#include <string.h>

#include "lib/util.h"
#include "report.h"
#include "stats.h"
#include "sweep_report.h"

static const struct objective objectives[] = {
	{ "convergence", M_CONV_90 },
	{ "cost", M_COST_TOTAL },
	{ "work", M_WORK_S },
};

/* Indexed by enum objective_id, the order of the objective key's choices. */
const struct objective *objective_of(enum objective_id id)
{
	return id < ARRAY_SIZE(objectives) ? &objectives[id] : &objectives[0];
}

double variant_mean(const struct results *r, const char *variant, int metric)
{
	double v[1024];
	struct describe d;
	int n = results_values(r, variant, metric, v, 1024);

	stats_describe(v, n, &d);
	return d.mean;
}

static void sweep_row(const struct results *r, const struct variant *v, FILE *md,
		      struct json_object *rows)
{
	static const int shown[] = { M_CONV_90, M_COST_TOTAL, M_WORK_S, M_CONV_FINAL };
	struct json_object *o = json_object_new_object(), *pt = json_object_new_object();
	char b[32];
	size_t i;
	int k;

	json_object_object_add(o, "variant", json_object_new_string(v->name));
	for (k = 0; k < v->n_sweep; k++)
		json_object_object_add(pt, v->sweep[k].key + strlen("sysctl."),
				       json_object_new_string(v->sweep[k].value));
	json_object_object_add(o, "point", pt);
	fprintf(md, "| %s |", v->name);
	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		double mean = variant_mean(r, v->name, shown[i]);

		json_object_object_add(o, metric_defs[shown[i]].name,
				       isfinite(mean) ? json_object_new_double(mean) : NULL);
		fprintf(md, " %s |", fmt_num(mean, b, sizeof(b)));
	}
	fprintf(md, "\n");
	json_object_array_add(rows, o);
}

/* The variant with the lowest mean of METRIC, or NULL. */
static const char *best_for(const struct results *r, int metric)
{
	const char *best = NULL;
	double best_v = INFINITY;
	int i;

	for (i = 0; i < r->exp.n_variants; i++) {
		const struct variant *v = &r->exp.variants[i];
		double mean;

		if (!v->n_sweep)
			continue;
		mean = variant_mean(r, v->name, metric);
		if (isfinite(mean) && mean < best_v) {
			best_v = mean;
			best = v->name;
		}
	}
	return best;
}

void sweep_report(const struct results *r, FILE *md, struct json_object *root)
{
	const struct objective *goal = objective_of(r->exp.objective);
	struct json_object *sw, *rows, *bests;
	size_t i;
	int n = 0, k;

	for (k = 0; k < r->exp.n_variants; k++)
		n += r->exp.variants[k].n_sweep > 0;
	if (!n)
		return;
	sw = json_object_new_object();
	rows = json_object_new_array();
	bests = json_object_new_object();
	fprintf(md, "## Sweep\n\nMeans over finished runs; lower is better except final "
		"convergence.\n\n| variant | time to 90%% conv. (s) | cost total | "
		"workload time (s) | final convergence |\n|---|---|---|---|---|\n");
	for (k = 0; k < r->exp.n_variants; k++)
		if (r->exp.variants[k].n_sweep)
			sweep_row(r, &r->exp.variants[k], md, rows);
	fprintf(md, "\nBest setting per objective (the experiment's objective is **%s**):\n\n",
		goal->name);
	for (i = 0; i < ARRAY_SIZE(objectives); i++) {
		const char *best = best_for(r, objectives[i].metric);

		fprintf(md, "- %s (lowest %s): %s%s\n", objectives[i].name,
			metric_defs[objectives[i].metric].label, best ? best : "none finished",
			&objectives[i] == goal ? " **<- objective**" : "");
		json_object_object_add(bests, objectives[i].name,
				       best ? json_object_new_string(best) : NULL);
	}
	fprintf(md, "\n");
	json_object_object_add(sw, "objective", json_object_new_string(goal->name));
	json_object_object_add(sw, "best", json_object_get(json_object_object_get(bests, goal->name)));
	json_object_object_add(sw, "best_per_objective", bests);
	json_object_object_add(sw, "variants", rows);
	json_object_object_add(root, "sweep", sw);
}
