// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics over repetitions. GSL provides the moments, the median and the
 * Student t distribution; Welch's test is used because variants rarely have
 * equal variances (balancing off has almost none).
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* Copy the finite values of X into a new array; returns how many. */
static int finite_copy(const double *x, int n, double **out)
{
	int i, m = 0;

	*out = malloc((n ? n : 1) * sizeof(double));
	for (i = 0; i < n; i++)
		if (isfinite(x[i]))
			(*out)[m++] = x[i];
	return m;
}

void stats_describe(const double *x, int n, struct describe *d)
{
	double *v;
	int m = finite_copy(x, n, &v);

	d->n = m;
	d->mean = d->stddev = d->cv = d->min = d->median = d->max = NAN;
	d->ci_lo = d->ci_hi = NAN;
	if (m) {
		gsl_sort(v, 1, m);
		d->mean = gsl_stats_mean(v, 1, m);
		d->min = v[0];
		d->max = v[m - 1];
		d->median = gsl_stats_median_from_sorted_data(v, 1, m);
	}
	if (m > 1) {
		double half;

		d->stddev = gsl_stats_sd_m(v, 1, m, d->mean);
		if (d->mean != 0)
			d->cv = d->stddev / fabs(d->mean);
		half = gsl_cdf_tdist_Pinv(1 - STATS_ALPHA / 2, m - 1) * d->stddev / sqrt(m);
		d->ci_lo = d->mean - half;
		d->ci_hi = d->mean + half;
	}
	free(v);
}

static void set_pct(struct welch *w, double base)
{
	if (!isfinite(base) || base == 0)
		return;
	w->diff_pct = 100 * w->diff / fabs(base);
	w->ci_lo_pct = 100 * w->ci_lo / fabs(base);
	w->ci_hi_pct = 100 * w->ci_hi / fabs(base);
}

void stats_welch(const double *a, int na, const double *b, int nb, struct welch *w)
{
	struct describe da, db;
	double va, vb, se2, tq;

	memset(w, 0, sizeof(*w));
	w->diff = w->ci_lo = w->ci_hi = w->diff_pct = w->ci_lo_pct = w->ci_hi_pct = NAN;
	w->t = w->df = w->p = NAN;
	stats_describe(a, na, &da);
	stats_describe(b, nb, &db);
	if (da.n < 2 || db.n < 2)
		return;		/* no variance estimate, no test */
	w->diff = db.mean - da.mean;
	va = da.stddev * da.stddev / da.n;
	vb = db.stddev * db.stddev / db.n;
	se2 = va + vb;
	if (se2 == 0) {
		/* both constant: the difference is exact, not a sample */
		w->ci_lo = w->ci_hi = w->diff;
		w->p = w->diff == 0 ? 1 : 0;
		w->significant = w->diff != 0;
		set_pct(w, da.mean);
		return;
	}
	w->t = w->diff / sqrt(se2);
	w->df = se2 * se2 / (va * va / (da.n - 1) + vb * vb / (db.n - 1));
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
	tq = gsl_cdf_tdist_Pinv(1 - STATS_ALPHA / 2, w->df);
	w->ci_lo = w->diff - tq * sqrt(se2);
	w->ci_hi = w->diff + tq * sqrt(se2);
	w->significant = w->p < STATS_ALPHA;
	set_pct(w, da.mean);
}

struct ranked {
	double p;
	int i;
};

static int by_p(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->p < y->p ? -1 : x->p > y->p ? 1 : x->i - y->i;
}

int stats_holm(const double *p, int n, double *adj)
{
	struct ranked *r = malloc((n ? n : 1) * sizeof(*r));
	double run = 0;
	int i, m = 0;

	for (i = 0; i < n; i++) {
		adj[i] = NAN;
		if (isfinite(p[i]) && r)
			r[m++] = (struct ranked) { p[i], i };
	}
	if (!r)
		return 0;
	qsort(r, m, sizeof(*r), by_p);
	for (i = 0; i < m; i++) {
		double v = (m - i) * r[i].p;

		run = fmax(run, fmin(1, v));	/* adjusted p never falls with rank */
		adj[r[i].i] = run;
	}
	free(r);
	return m;
}

int stats_family(struct family_test *t, int n)
{
	size_t size = (n ? n : 1) * sizeof(double);
	double *p = malloc(size), *adj = malloc(size);
	int i, m = 0;

	if (p && adj) {
		for (i = 0; i < n; i++)
			p[i] = t[i].primary ? NAN : t[i].p;
		m = stats_holm(p, n, adj);
	}
	for (i = 0; i < n; i++) {
		/* out of memory: no corrected p rather than an uncorrected one */
		t[i].p_adj = t[i].primary ? t[i].p : p && adj ? adj[i] : NAN;
		t[i].significant = t[i].p_adj < STATS_ALPHA;
	}
	free(p);
	free(adj);
	return m;
}
