/* SPDX-License-Identifier: GPL-2.0 */
/* Descriptive statistics, Welch's t-test and Holm's correction, on top of GSL. */
#ifndef BNB_STATS_H
#define BNB_STATS_H

#include <stdbool.h>

struct describe {
	int n;			/* finite samples used */
	double mean, stddev, cv, min, median, max;	/* NAN when undefined */
	double ci_lo, ci_hi;	/* 95 % confidence interval of the mean (Student t) */
};

/*
 * Welch comparison of B against A (A is the baseline): diff = mean(B) -
 * mean(A), its 95 % confidence interval, the two-sided p-value, and all
 * three also as percent of mean(A). Fields are NAN when undefined.
 */
struct welch {
	double diff, ci_lo, ci_hi;
	double diff_pct, ci_lo_pct, ci_hi_pct;
	double t, df, p;
	bool significant;	/* p < 0.05 */
};

/* NaN samples (metric not available in that run) are skipped. */
void stats_describe(const double *x, int n, struct describe *d);
void stats_welch(const double *a, int na, const double *b, int nb, struct welch *w);

#define STATS_ALPHA 0.05

/*
 * Holm's step-down adjustment of the family P[0..N) into ADJ[0..N): the
 * m finite p-values sorted ascending, p(i) becomes max over j <= i of
 * min(1, (m - j + 1) p(j)); a test is significant for the family at level
 * alpha when its adjusted p is below alpha. NAN (no test) stays NAN and
 * does not count in m. Returns m.
 */
int stats_holm(const double *p, int n, double *adj);

/*
 * The tests of one comparison: the primary ones (named in advance, few)
 * each at STATS_ALPHA as they are; the rest, secondary, as one family
 * under Holm. stats_family() fills p_adj (p itself for a primary test)
 * and significant (p_adj < STATS_ALPHA) and returns how many secondary
 * tests there were.
 */
struct family_test {
	double p;		/* NAN: not tested */
	bool primary;
	double p_adj;
	bool significant;
};
int stats_family(struct family_test *t, int n);

#endif
