// SPDX-License-Identifier: GPL-2.0
/*
 * The account plot: each variant's cumulative cost and cumulative saving
 * of balancing over the work, in hardware seconds (the runs' account.csv,
 * account_run.h), each run dotted, the variant's median solid, the
 * median's break-even marked.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account_plot.h"
#include "account_run.h"
#include "extract/csv.h"
#include "plot/plot_data.h"

/* The two columns, in struct series' first two slots (series_median() takes any). */
enum { COST, SAVED };

static int load(const char *rundir, struct series *s)
{
	char path[PATH_MAX * 2], err[256];
	int ct, cc, cb, i;
	struct csv t;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/" ACCOUNT_CSV, rundir);
	if (csv_load(path, &t, err, sizeof(err)))
		return -1;
	ct = csv_col(&t, "t_hw_s");
	cc = csv_col(&t, "cost_hw_s");
	cb = csv_col(&t, "benefit_hw_s");
	s->t = calloc(t.nrows + 1, sizeof(double));
	for (i = 0; i < N_TS; i++)
		s->c[i] = calloc(t.nrows + 1, sizeof(double));
	for (i = 0; ct >= 0 && cc >= 0 && cb >= 0 && i < t.nrows; i++) {
		double tv = csv_at(&t, i, ct);

		/* the guest's numbers: time moves on, or the row says nothing */
		if (!isfinite(tv) || (s->n && tv <= s->t[s->n - 1]))
			continue;
		s->t[s->n] = tv;
		s->c[COST][s->n] = csv_at(&t, i, cc);
		s->c[SAVED][s->n] = csv_at(&t, i, cb);
		for (int c = SAVED + 1; c < N_TS; c++)
			s->c[c][s->n] = NAN;
		s->n++;
	}
	csv_free(&t);
	if (s->n)
		return 0;
	series_free(s);
	return -1;
}

/* 0, or -1 when PATH could not be written whole (said, a failed plot). */
static int write_dat(struct plot_ctx *p, const char *path, const struct series *s)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "# t_hw_s cost_hw_s saved_hw_s\n");
	for (int i = 0; i < s->n; i++)
		fprintf(f, isfinite(s->c[SAVED][i]) ? "%.6g %.6g %.6g\n" : "%.6g %.6g ?\n",
			s->t[i], s->c[COST][i], s->c[SAVED][i]);
	return plot_file_done(p, f, path) ? 0 : -1;
}

/* The median's first point where the saving reached the cost, or -1. */
static int breakeven(const struct series *m)
{
	for (int i = 0; i < m->n; i++)
		if (m->c[COST][i] > 0 && m->c[SAVED][i] >= m->c[COST][i])
			return i;
	return -1;
}

/* VARIANT's runs and median into E; how many runs had a course. */
static int variant_lines(struct plot_ctx *p, const char *variant, struct gp_elems *e)
{
	char rel[PATH_MAX], abs[PATH_MAX * 3], q[2][GP_STR_MAX];
	const char *color = plot_color(p->r, variant);
	struct series in[256], med;
	int n = 0, k;

	for (int i = 0; i < p->r->n_runs && n < 256; i++) {
		const struct run *run = &p->r->runs[i];

		if (run->status != RUN_OK || strcmp(run->variant, variant) || load(run->dir, &in[n]))
			continue;
		snprintf(rel, sizeof(rel), "data/%s-rep%d.account.dat", variant, run->rep);
		snprintf(abs, sizeof(abs), "%s/%s", p->dir, rel);
		if (!write_dat(p, abs, &in[n])) {
			gp_str(q[0], GP_STR_MAX, rel);
			gp_elem(e, "'%s' using 1:3 with lines lw 1 dt 3 lc rgb '%s' notitle", q[0],
				color);
			gp_elem(e, "'%s' using 1:2 with lines lw 1 dt 3 lc rgb '%s' notitle", q[0],
				color);
		}
		n++;
	}
	if (!n)
		return 0;
	series_median(in, n, &med);
	snprintf(rel, sizeof(rel), "data/%s.account.median.dat", variant);
	snprintf(abs, sizeof(abs), "%s/%s", p->dir, rel);
	if (med.n && !write_dat(p, abs, &med)) {
		gp_str(q[0], GP_STR_MAX, rel);
		gp_str(q[1], GP_STR_MAX, variant);
		gp_elem(e, "'%s' using 1:3 with lines lw 3 lc rgb '%s' title '%s: saved (median "
			"of %d)'", q[0], color, q[1], n);
		gp_elem(e, "'%s' using 1:2 with lines lw 2 dt 2 lc rgb '%s' title '%s: cost'",
			q[0], color, q[1]);
		k = breakeven(&med);
		if (k >= 0)
			gp_elem(e, "'+' using (%.6g):(%.6g) every ::0::0 with points pt 7 ps 1.5 "
				"lc rgb '%s' title '%s: break-even, %.3g ms into the work'",
				med.t[k], med.c[COST][k], color, q[1], med.t[k] * 1e3);
	}
	series_free(&med);
	for (int i = 0; i < n; i++)
		series_free(&in[i]);
	return n;
}

void plot_account(struct plot_ctx *p)
{
	char *body, name[GP_STR_MAX];
	struct gp_elems e;
	int runs = 0;

	gp_elems_open(&e);
	for (int v = 0; v < p->r->exp.n_variants; v++)
		runs += variant_lines(p, p->r->exp.variants[v].name, &e);
	gp_elems_close(&e);
	if (!runs || !e.n) {
		free(e.buf);
		return;
	}
	if (asprintf(&body, "set title '%s: the account of balancing, what it cost and what it "
		     "saved (each run dotted)'\n"
		     "set xlabel 'hardware time since the work began (s)'\n"
		     "set ylabel 'cumulative, hardware s'\nset yrange [0:*]\n%s",
		     gp_str(name, sizeof(name), p->r->exp.name), e.buf) < 0)
		body = NULL;
	free(e.buf);
	gp_emit(p, "account", body, 600);
}
