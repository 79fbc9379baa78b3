// SPDX-License-Identifier: GPL-2.0
/*
 * Sweep plots: for each swept sysctl, time to convergence, total cost and
 * workload time against its value, one line per combination of the other
 * parameters (the section it came from and the other swept values).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_gp.h"
#include "report/stats.h"
#include "report/sweep_report.h"

/* The panels' metrics; the first is the sweep's time to converge. */
static const char *const panels[] = { NULL, "cost_total", "work_s" };
#define N_PANELS (sizeof(panels) / sizeof(panels[0]))

/* The "other parameters" of V for KEY: base name plus other sweep points. */
static void group_label(const struct variant *v, const char *key, char *buf, size_t len)
{
	size_t used = snprintf(buf, len, "%s", v->base);
	int k;

	for (k = 0; k < v->n_sweep && used < len; k++)
		if (strcmp(v->sweep[k].key, key))
			used += snprintf(buf + used, len - used, " %s=%s",
					 v->sweep[k].key + strlen("sysctl."), v->sweep[k].value);
}

/* One line of the data file; false when a panel has no mean at this point. */
static bool write_point(FILE *f, const struct results *r, const struct variant *v,
			const char *x)
{
	double vals[1024];
	bool whole = true;
	size_t i;

	fprintf(f, "%s", x);
	for (i = 0; i < N_PANELS; i++) {
		struct describe d;
		int n = results_values_named(r, v->name, panels[i] ? panels[i] :
					     sweep_conv_metric(r), vals, 1024);

		stats_describe(vals, n, &d);
		fprintf(f, isfinite(d.mean) ? " %.6g" : " ?", d.mean);
		fprintf(f, isfinite(d.stddev) ? " %.6g" : " 0", d.stddev);
		whole = whole && isfinite(d.mean);
	}
	fprintf(f, "\n");
	return whole;
}

/* One data file per group; returns the number of groups. *MISSING: a point lacks a figure. */
static int sweep_data(struct plot_ctx *p, const char *key, struct gp_elems e[N_PANELS],
		      bool *missing)
{
	const struct experiment *exp = &p->r->exp;
	char labels[EXP_MAX_VARIANTS][256], path[PATH_MAX * 3], rel[PATH_MAX];
	char file[GP_STR_MAX], title[GP_STR_MAX];
	int n_groups = 0, g, i;
	size_t k;

	for (i = 0; i < exp->n_variants; i++) {
		const struct variant *v = &exp->variants[i];
		char label[256];
		FILE *f;

		if (!sweep_point(v, key))
			continue;
		group_label(v, key, label, sizeof(label));
		for (g = 0; g < n_groups && strcmp(labels[g], label); g++)
			;
		snprintf(rel, sizeof(rel), "data/sweep-%s-g%d.dat", key + strlen("sysctl."), g);
		snprintf(path, sizeof(path), "%s/%s", p->dir, rel);
		f = fopen(path, g == n_groups ? "w" : "a");
		if (!f)
			continue;
		*missing |= !write_point(f, p->r, v, sweep_point(v, key));
		if (!plot_file_done(p, f, path))
			continue;
		if (g < n_groups)
			continue;
		snprintf(labels[n_groups++], sizeof(labels[0]), "%s", label);
	}
	for (g = 0; g < n_groups; g++) {
		snprintf(rel, sizeof(rel), "data/sweep-%s-g%d.dat", key + strlen("sysctl."), g);
		for (k = 0; k < N_PANELS; k++)
			if (plot_data_has(p, rel, 2 + 2 * k))
				gp_elem(&e[k], "'%s' using 1:%zu:%zu with yerrorlines lw 2 pt 7 title '%s'",
				     gp_str(file, sizeof(file), rel), 2 + 2 * k, 3 + 2 * k,
				     gp_str(title, sizeof(title), labels[g]));
	}
	return n_groups;
}

/* The value of variant I of EXP at KEY; NaN when it is not one of KEY's points. */
static double point_at(const struct experiment *exp, int i, const char *key)
{
	const char *x = sweep_point(&exp->variants[i], key);

	return x ? strtod(x, NULL) : NAN;
}

/* The swept values of KEY, each once, as gnuplot tic positions: "v, v, ...". */
static void x_tics(struct plot_ctx *p, const char *key, FILE *f)
{
	const struct experiment *exp = &p->r->exp;
	int i, j, n = 0;

	for (i = 0; i < exp->n_variants; i++) {
		double v = point_at(exp, i, key);

		for (j = 0; j < i && point_at(exp, j, key) != v; j++)
			;
		if (isfinite(v) && j == i)
			fprintf(f, "%s%g", n++ ? ", " : "", v);
	}
}

/* One x range for every panel, so missing points do not shift the axes. */
static void x_range(struct plot_ctx *p, const char *key, FILE *f)
{
	double lo = INFINITY, hi = -INFINITY, pad;
	int i;

	for (i = 0; i < p->r->exp.n_variants; i++) {
		double v = point_at(&p->r->exp, i, key);

		if (isfinite(v)) {
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	}
	if (!isfinite(lo))
		return;
	/* a sweep over powers (250, 500, ... 16000) reads on a log axis,
	 * with a tic at every swept value (a decade's tics would miss most) */
	if (lo > 0 && hi >= 8 * lo) {
		fprintf(f, "set logscale x\nset xrange [%g:%g]\nset xtics (", lo / 1.2, hi * 1.2);
		x_tics(p, key, f);
		fprintf(f, ")\n");
		return;
	}
	pad = hi > lo ? (hi - lo) * 0.05 : 1;
	fprintf(f, "set xrange [%g:%g]\n", lo - pad, hi + pad);
}

/* Under scale_scan = hardware the swept values are the hardware's. */
static bool scaled(const struct results *r)
{
	for (int i = 0; i < r->n_runs; i++)
		if (isfinite(run_metric(&r->runs[i], "scale_time")))
			return true;
	return false;
}

static void sweep_plot(struct plot_ctx *p, const char *key)
{
	const char *ylabels[N_PANELS] = {
		strcmp(sweep_conv_metric(p->r), SWEEP_PHASE_CONV) ? "time to 90% convergence (s)" :
		"time to re-converge after a phase change (s)", "total cost (model units)",
		"workload time (s)",
	};
	const char *name = key + strlen("sysctl.");
	struct gp_elems e[N_PANELS];
	char *body, file[PATH_MAX], q[4][GP_STR_MAX];
	bool missing = false;
	size_t len, k;
	FILE *f;

	for (k = 0; k < N_PANELS; k++)
		gp_elems_open(&e[k]);
	if (!sweep_data(p, key, e, &missing) || (!e[0].n && !e[1].n && !e[2].n)) {
		for (k = 0; k < N_PANELS; k++)
			free(gp_elems_close(&e[k]));
		return;
	}
	f = open_memstream(&body, &len);
	if (!f) {
		for (k = 0; k < N_PANELS; k++)
			free(gp_elems_close(&e[k]));
		return;
	}
	gp_str(q[0], GP_STR_MAX, p->r->exp.name);
	gp_str(q[1], GP_STR_MAX, name);
	gp_str(q[2], GP_STR_MAX, scaled(p->r) ? " (the hardware's value: scale_scan = hardware)" :
	       "");
	/* a fixed left margin lines the three panels' x axes up */
	fprintf(f, "set multiplot layout 3,1 title '%s: sweep of %s (mean ± stddev over runs)'\n"
		"set xlabel '%s%s'\nset key outside right top\nset offsets 0, 0, graph 0.05, graph 0.05\n"
		"set lmargin 12\n", q[0], q[1], q[1], q[2]);
	if (missing)
		fprintf(f, "set label 1 'a missing point: no finished run reached that figure' "
			"at screen 0.01, screen 0.99\n");
	x_range(p, key, f);
	for (k = 0; k < N_PANELS; k++) {
		bool empty = !e[k].n;

		gp_elems_close(&e[k]);
		gp_str(q[3], GP_STR_MAX, ylabels[k]);
		fprintf(f, "set title '%s%s'\nset ylabel '%s'\n", q[3],
			empty ? " (no finished run has this figure)" : "", q[3]);
		/* an empty panel keeps the layout: a constant outside the range */
		fprintf(f, "%s", empty ? "set yrange [0:1]\nplot 2 notitle\nset yrange [*:*]\n" :
			e[k].buf);
		free(e[k].buf);
	}
	fprintf(f, "unset multiplot\n");
	if (fclose(f)) {
		free(body);
		body = NULL;
	}
	snprintf(file, sizeof(file), "sweep-%s", name);
	gp_emit(p, file, body, 1100);
}

void plot_sweeps(struct plot_ctx *p)
{
	const struct experiment *exp = &p->r->exp;
	const char *done[EXP_MAX_SWEEP];
	int n_done = 0, i, k, d;

	for (i = 0; i < exp->n_variants; i++) {
		for (k = 0; k < exp->variants[i].n_sweep && n_done < EXP_MAX_SWEEP; k++) {
			const char *key = exp->variants[i].sweep[k].key;

			for (d = 0; d < n_done && strcmp(done[d], key); d++)
				;
			if (d < n_done)
				continue;
			done[n_done++] = key;
			sweep_plot(p, key);
		}
	}
}
