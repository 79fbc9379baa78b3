// SPDX-License-Identifier: GPL-2.0
/*
 * Plot data: the collector's cumulative counters turned into per-second
 * rates, and the median of the repetitions on a common time grid (runs
 * sample at slightly different instants, so samples cannot be paired).
 */
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract/csv.h"
#include "plot_data.h"
#include "run/fsio.h"

#define GRID_POINTS 300

static double col_or_nan(const struct csv *t, int row, int col)
{
	return col < 0 ? NAN : csv_at(t, row, col);
}

static void alloc_series(struct series *s, int n)
{
	int c;

	s->n = 0;
	s->t = calloc(n ? n : 1, sizeof(double));
	for (c = 0; c < N_TS; c++)
		s->c[c] = calloc(n ? n : 1, sizeof(double));
}

/*
 * Per-second rate of a counter over the trailing RATE_WINDOW_S: the
 * collector samples every 100 ms and hinting faults come in bursts, so
 * per-sample rates are mostly zero with spikes, and their median over runs
 * says nothing. Without the cumulative column, the collector's COUNTER_ps.
 */
#define RATE_WINDOW_S 1.0

struct rate_src {
	int cum, ps;
};

static struct rate_src rate_cols(const struct csv *t, const char *counter)
{
	char name[128];

	snprintf(name, sizeof(name), "%s_ps", counter);
	return (struct rate_src){ csv_col(t, counter), csv_col(t, name) };
}

static double rate(const struct csv *t, int row, struct rate_src src, int tcol)
{
	double t1 = csv_at(t, row, tcol), dt, dv;
	int j = row;

	if (src.cum < 0)
		return src.ps < 0 ? NAN : csv_at(t, row, src.ps);
	while (j > 0 && (t1 - csv_at(t, j, tcol) < RATE_WINDOW_S || isnan(csv_at(t, j, src.cum))))
		j--;
	dt = t1 - csv_at(t, j, tcol);
	dv = csv_at(t, row, src.cum) - csv_at(t, j, src.cum);
	return dt > 0 && dv >= 0 ? dv / dt : NAN;
}

int series_load(const char *run_dir, struct series *s)
{
	char path[PATH_MAX + 32], err[256];
	struct csv t;
	struct rate_src hf, hl, mig, cost;
	int tc, conv, cum, tl, cp, i;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/timeseries.csv", run_dir);
	if (csv_load(path, &t, err, sizeof(err)))
		return -1;
	tc = csv_col(&t, "t_s");
	conv = csv_col(&t, "convergence");
	cum = csv_col(&t, "cost_cum");
	cost = (struct rate_src){ cum, csv_col(&t, "cost_rate") };
	tl = csv_col(&t, "true_locality");	/* plugin ground truth, if loaded */
	cp = csv_col(&t, "convergence_pages");	/* kernels with the huge counters */
	hf = rate_cols(&t, "numa_hint_faults");
	hl = rate_cols(&t, "numa_hint_faults_local");
	mig = rate_cols(&t, "numa_pages_migrated");
	alloc_series(s, t.nrows);
	for (i = 0; tc >= 0 && i < t.nrows; i++) {
		double local = rate(&t, i, hl, tc), all = rate(&t, i, hf, tc);

		if (!isfinite(csv_at(&t, i, tc)) || (s->n && csv_at(&t, i, tc) <= s->t[s->n - 1]))
			continue;	/* time must advance */
		s->t[s->n] = csv_at(&t, i, tc);
		s->c[TS_CONV][s->n] = col_or_nan(&t, i, conv);
		s->c[TS_CONV_PAGES][s->n] = col_or_nan(&t, i, cp);
		s->c[TS_COST_CUM][s->n] = col_or_nan(&t, i, cum);
		s->c[TS_COST_RATE][s->n] = rate(&t, i, cost, tc);
		s->c[TS_LOCAL_PS][s->n] = local;
		s->c[TS_REMOTE_PS][s->n] = all >= local ? all - local : NAN;
		s->c[TS_MIGRATED_PS][s->n] = rate(&t, i, mig, tc);
		s->c[TS_TRUE_LOC][s->n] = col_or_nan(&t, i, tl);
		s->n++;
	}
	csv_free(&t);
	return 0;
}

void series_free(struct series *s)
{
	int c;

	free(s->t);
	for (c = 0; c < N_TS; c++)
		free(s->c[c]);
	memset(s, 0, sizeof(*s));
}

/* Value of column C of S at time T: the last sample at or before T. */
static double value_at(const struct series *s, int c, double t)
{
	int lo = 0, hi = s->n - 1, mid;

	if (!s->n || t < s->t[0] || t > s->t[s->n - 1])
		return NAN;
	while (lo < hi) {
		mid = (lo + hi + 1) / 2;
		if (s->t[mid] <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	return s->c[c][lo];
}

void series_median(const struct series *in, int n, struct series *out)
{
	double t_max = INFINITY, step, vals[1024];
	int i, k, c;

	/* up to the end of the shortest run: all runs count at every point */
	for (i = 0; i < n; i++)
		if (in[i].n && in[i].t[in[i].n - 1] < t_max)
			t_max = in[i].t[in[i].n - 1];
	if (!isfinite(t_max))
		t_max = 0;
	alloc_series(out, GRID_POINTS + 1);
	if (t_max <= 0)
		return;
	step = t_max / GRID_POINTS;
	for (k = 0; k <= GRID_POINTS; k++) {
		double t = k * step;

		out->t[k] = t;
		for (c = 0; c < N_TS; c++) {
			int m = 0;

			for (i = 0; i < n && m < 1024; i++) {
				double v = value_at(&in[i], c, t);

				if (isfinite(v))
					vals[m++] = v;
			}
			gsl_sort(vals, 1, m);
			out->c[c][k] = m ? gsl_stats_median_from_sorted_data(vals, 1, m) : NAN;
		}
	}
	out->n = GRID_POINTS + 1;
}

static void put_value(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.6g", v);
	else
		fprintf(f, " ?");
}

int series_write(const char *path, const struct series *s)
{
	FILE *f = fopen(path, "w");
	int i, c;

	if (!f)
		return -1;
	fprintf(f, "# t_s convergence cost_cum cost_rate hint_local_per_s "
		"hint_remote_per_s migrated_per_s true_locality convergence_pages\n");
	for (i = 0; i < s->n; i++) {
		fprintf(f, "%.6g", s->t[i]);
		for (c = 0; c < N_TS; c++)
			put_value(f, s->c[c][i]);
		fprintf(f, "\n");
	}
	return fclose_checked(f);
}
