// SPDX-License-Identifier: GPL-2.0
/*
 * Memory tiering over time: the promotion and demotion traffic of every
 * run (the collector's promote_mbps and demote_mbps), and beside it the
 * share of accesses the fast tier served (fast_tier_share, from the
 * plugin's per-tier counts) when the runs have it. Drawn only when some
 * run moved pages between tiers or has that share: on a kernel or machine
 * without tiers it would be a plot of zeros.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract/csv.h"
#include "lib/util.h"
#include "plot_gp.h"

/* Columns of timeseries.csv, in the order of the data file after t_s. */
static const struct {
	const char *col, *title, *style;
	int panel;
} lines[] = {
	{ "promote_mbps", "promoted", "lw 1 dt 1", 0 },
	{ "demote_mbps", "demoted", "lw 1 dt 2", 0 },
	{ "fast_tier_share", "fast tier", "lw 1 dt 1", 1 },
};

#define N_PANELS 2

static const char *const ylabels[N_PANELS] = {
	"MB/s moved between tiers (MB = 2^20 bytes)",
	"share of accesses served by the fast tier",
};

/* What a run's data file holds: which panels have values, and any traffic. */
struct tier_data {
	bool panel[N_PANELS];
	bool moved;
};

static void write_row(FILE *f, const struct csv *t, int row, int t_col, const int *cols,
		      struct tier_data *d)
{
	fprintf(f, "%.6g", csv_at(t, row, t_col));
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		double v = cols[i] >= 0 ? csv_at(t, row, cols[i]) : NAN;

		fprintf(f, isfinite(v) ? " %.6g" : " ?", v);
		if (!isfinite(v))
			continue;
		d->panel[lines[i].panel] = true;
		d->moved |= lines[i].panel == 0 && v > 0;
	}
	fputc('\n', f);
}

/* data/VARIANT-repN.tiering.dat from RUN's timeseries.csv: t_s, then each line. */
static bool write_data(struct plot_ctx *p, const struct run *run, const char *out,
		       struct tier_data *d)
{
	char in[PATH_MAX * 2], err[256];
	int cols[ARRAY_SIZE(lines)], t_col;
	struct csv t;
	FILE *f;

	snprintf(in, sizeof(in), "%s/timeseries.csv", run->dir);
	if (csv_load(in, &t, err, sizeof(err)))
		return false;
	t_col = csv_col(&t, "t_s");
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		cols[i] = csv_col(&t, lines[i].col);
	f = t_col >= 0 ? fopen(out, "w") : NULL;
	for (int r = 0; f && r < t.nrows; r++)
		if (isfinite(csv_at(&t, r, t_col)))
			write_row(f, &t, r, t_col, cols, d);
	csv_free(&t);
	return plot_file_done(p, f, out);
}

/* RUN's lines in each panel it has values for; titled once per variant. */
static void run_lines(struct plot_ctx *p, const struct run *run, const char *rel,
		      bool titled, struct gp_elems *e)
{
	char q[2][GP_STR_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		struct gp_elems *pe = &e[lines[i].panel];

		if (!plot_data_has(p, rel, i + 2))
			continue;
		gp_elem(pe, "'%s' using 1:%zu with lines %s lc rgb '%s' ",
		     gp_str(q[0], GP_STR_MAX, rel), i + 2, lines[i].style,
		     plot_color(p->r, run->variant));
		if (titled)
			fputs("notitle", pe->f);
		else
			fprintf(pe->f, "title '%s: %s'", gp_str(q[1], GP_STR_MAX, run->variant),
				lines[i].title);
	}
}

static char *compose(struct plot_ctx *p, struct gp_elems *e, const bool *panel, int panels)
{
	char q[GP_STR_MAX], *body;
	size_t len;
	FILE *f = open_memstream(&body, &len);

	if (!f)
		return NULL;
	fprintf(f, "set multiplot layout %d,1 title '%s: memory tiering, promotion and demotion "
		"(each run)'\nset xlabel 'time since the first collector sample (s)'\n", panels,
		gp_str(q, GP_STR_MAX, p->r->exp.name));
	for (int pi = 0; pi < N_PANELS; pi++)
		if (panel[pi])
			fprintf(f, "set ylabel '%s'\nset yrange %s\n%s", ylabels[pi],
				pi ? "[0:1.05]" : "[0:*]", e[pi].buf);
	fputs("unset multiplot\n", f);
	if (fclose(f))
		return NULL;
	return body;
}

void plot_tiering(struct plot_ctx *p)
{
	struct gp_elems e[N_PANELS];
	bool panel[N_PANELS] = { false }, moved = false;
	const char *titled = "";
	char rel[PATH_MAX], abs[PATH_MAX * 3];
	int i, pi, panels = 0;

	for (pi = 0; pi < N_PANELS; pi++)
		gp_elems_open(&e[pi]);
	for (i = 0; i < p->r->n_runs; i++) {
		const struct run *run = &p->r->runs[i];
		struct tier_data d = { { false }, false };

		if (run->status != RUN_OK)
			continue;
		snprintf(rel, sizeof(rel), "data/%s-rep%d.tiering.dat", run->variant, run->rep);
		snprintf(abs, sizeof(abs), "%s/%s", p->dir, rel);
		if (!write_data(p, run, abs, &d))
			continue;
		run_lines(p, run, rel, !strcmp(titled, run->variant), e);
		titled = run->variant;
		moved |= d.moved || d.panel[1];
		for (pi = 0; pi < N_PANELS; pi++)
			panel[pi] |= d.panel[pi];
	}
	for (pi = 0; pi < N_PANELS; pi++) {
		gp_elems_close(&e[pi]);
		panels += panel[pi] && e[pi].n;
		panel[pi] = panel[pi] && e[pi].n;
	}
	if (moved && panels)
		gp_emit(p, "tiering", compose(p, e, panel, panels), 150 + 300 * panels);
	for (pi = 0; pi < N_PANELS; pi++)
		free(e[pi].buf);
}
