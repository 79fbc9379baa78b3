// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics against values worked out by hand (and, for the t
 * distribution, by numerical integration of its density, independently of
 * GSL): a = {10, 12, 14}, b = {8, 9, 10}.
 *   mean a 12, sd 2, CV 1/6; mean b 9, sd 1
 *   Welch: se^2 = 4/3 + 1/3 = 5/3, t = -3 / sqrt(5/3) = -2.323790
 *          df = (5/3)^2 / ((4/3)^2/2 + (1/3)^2/2) = 2.941176
 *          p = 0.104479, t(0.975, df) = 3.218759
 *          CI = -3 -+ 3.218759 * 1.290994 = [-7.155400, 1.155400]
 */
#include <criterion/criterion.h>
#include <math.h>

#include "report/stats.h"

#define EPS 1e-5

static const double a[] = { 14, 10, 12 };
static const double b[] = { 9, 10, 8 };

Test(stats, describe_three)
{
	struct describe d;

	stats_describe(a, 3, &d);
	cr_assert_eq(d.n, 3);
	cr_assert_float_eq(d.mean, 12, EPS);
	cr_assert_float_eq(d.stddev, 2, EPS);
	cr_assert_float_eq(d.cv, 1.0 / 6, EPS);
	cr_assert_float_eq(d.min, 10, EPS);
	cr_assert_float_eq(d.median, 12, EPS);
	cr_assert_float_eq(d.max, 14, EPS);
}

Test(stats, describe_even_median_and_nan_skipped)
{
	const double x[] = { 10, NAN, 1, 3, 2 };
	struct describe d;

	stats_describe(x, 5, &d);
	cr_assert_eq(d.n, 4);
	cr_assert_float_eq(d.median, 2.5, EPS);
	cr_assert_float_eq(d.mean, 4, EPS);
	/* deviations -3 -2 -1 6: squares 9 4 1 36 = 50, / 3 */
	cr_assert_float_eq(d.stddev, sqrt(50.0 / 3), EPS);
}

Test(stats, describe_small_samples)
{
	const double one[] = { 5 };
	struct describe d;

	stats_describe(one, 1, &d);
	cr_assert_eq(d.n, 1);
	cr_assert_float_eq(d.mean, 5, EPS);
	cr_assert(isnan(d.stddev));
	cr_assert(isnan(d.cv));
	stats_describe(one, 0, &d);
	cr_assert_eq(d.n, 0);
	cr_assert(isnan(d.mean) && isnan(d.median));
}

Test(stats, cv_undefined_for_zero_mean)
{
	const double z[] = { -1, 1 };
	struct describe d;

	stats_describe(z, 2, &d);
	cr_assert_float_eq(d.mean, 0, EPS);
	cr_assert(isnan(d.cv));
}

Test(stats, welch_by_hand)
{
	struct welch w;

	stats_welch(a, 3, b, 3, &w);
	cr_assert_float_eq(w.diff, -3, EPS);
	cr_assert_float_eq(w.t, -2.323790, EPS);
	cr_assert_float_eq(w.df, 2.941176, EPS);
	cr_assert_float_eq(w.p, 0.104479, EPS);
	cr_assert_float_eq(w.ci_lo, -7.155400, 1e-4);
	cr_assert_float_eq(w.ci_hi, 1.155400, 1e-4);
	cr_assert_float_eq(w.diff_pct, -25, EPS);
	cr_assert_float_eq(w.ci_lo_pct, -59.628333, 1e-3);
	cr_assert_float_eq(w.ci_hi_pct, 9.628333, 1e-3);
	cr_assert(!w.significant);
}

Test(stats, welch_symmetric_in_p)
{
	struct welch ab, ba;

	stats_welch(a, 3, b, 3, &ab);
	stats_welch(b, 3, a, 3, &ba);
	cr_assert_float_eq(ab.p, ba.p, 1e-12);
	cr_assert_float_eq(ab.diff, -ba.diff, 1e-12);
}

Test(stats, welch_significant)
{
	/* means 100 and 110, sd 1 each, n 3: t = -10/sqrt(2/3) = -12.247,
	 * df = 4, p = 2 * P(T4 > 12.247) = 0.000255 */
	const double x[] = { 99, 100, 101 }, y[] = { 109, 110, 111 };
	struct welch w;

	stats_welch(x, 3, y, 3, &w);
	cr_assert_float_eq(w.df, 4, EPS);
	cr_assert_float_eq(w.t, 12.247449, EPS);
	cr_assert_float_eq(w.p, 0.000255, 1e-5);
	cr_assert(w.significant);
	cr_assert_float_eq(w.diff_pct, 10, EPS);
}

Test(stats, welch_constant_samples)
{
	const double z[] = { 0, 0, 0 }, c[] = { 5, 5 };
	struct welch w;

	stats_welch(z, 3, z, 3, &w);
	cr_assert_float_eq(w.p, 1, EPS);
	cr_assert(!w.significant);
	cr_assert(isnan(w.diff_pct), "percent of a zero baseline is undefined");
	stats_welch(z, 3, c, 2, &w);
	cr_assert_float_eq(w.p, 0, EPS);
	cr_assert_float_eq(w.ci_lo, 5, EPS);
	cr_assert(w.significant);
}

Test(stats, welch_needs_two_each)
{
	struct welch w;

	stats_welch(a, 1, b, 3, &w);
	cr_assert(isnan(w.p) && isnan(w.diff) && !w.significant);
}

/*
 * Holm by hand: p = {0.01, 0.04, NAN, 0.03, 0.005}, m = 4 finite.
 * Sorted: 0.005 * 4 = 0.02; 0.01 * 3 = 0.03; 0.03 * 2 = 0.06;
 * 0.04 * 1 = 0.04, raised to 0.06 (an adjusted p never falls with rank).
 * At 0.05 the family keeps 0.005 and 0.01, not 0.03 and 0.04, which a
 * plain p < 0.05 would have called significant too.
 */
Test(stats, holm_by_hand)
{
	const double p[] = { 0.01, 0.04, NAN, 0.03, 0.005 };
	const double want[] = { 0.03, 0.06, NAN, 0.06, 0.02 };
	double adj[5];

	cr_assert_eq(stats_holm(p, 5, adj), 4);
	for (int i = 0; i < 5; i++) {
		if (isnan(want[i]))
			cr_expect(isnan(adj[i]), "adj[%d] = %g, want none", i, adj[i]);
		else
			cr_expect_float_eq(adj[i], want[i], 1e-12, "adj[%d] = %g, want %g", i,
					   adj[i], want[i]);
	}
}

/* Capped at 1; tied p-values get one adjusted value; a family of one is as is. */
Test(stats, holm_cap_ties_and_one)
{
	const double capped[] = { 0.6, 0.7 };	/* 0.6 * 2 = 1.2; 0.7 * 1, raised */
	const double tied[] = { 0.02, 0.5, 0.02 };	/* 0.06; 0.5; 0.02 * 2, raised */
	const double one[] = { 0.04 };
	double adj[3];

	cr_assert_eq(stats_holm(capped, 2, adj), 2);
	cr_expect_float_eq(adj[0], 1, 1e-12);
	cr_expect_float_eq(adj[1], 1, 1e-12);
	cr_assert_eq(stats_holm(tied, 3, adj), 3);
	cr_expect_float_eq(adj[0], 0.06, 1e-12);
	cr_expect_float_eq(adj[1], 0.5, 1e-12);
	cr_expect_float_eq(adj[2], 0.06, 1e-12);
	cr_assert_eq(stats_holm(one, 1, adj), 1);
	cr_expect_float_eq(adj[0], 0.04, 1e-12);
	cr_assert_eq(stats_holm(one, 0, adj), 0);
}

/* a = {10, 12, 14}: 12 -+ t(0.975, 2) * 2 / sqrt(3) = 12 -+ 4.302653 * 1.154701 */
Test(stats, mean_ci_by_hand)
{
	struct describe d;

	stats_describe(a, 3, &d);
	cr_assert_float_eq(d.ci_lo, 12 - 4.968275, EPS);
	cr_assert_float_eq(d.ci_hi, 12 + 4.968275, EPS);
	stats_describe(a, 1, &d);
	cr_assert(isnan(d.ci_lo) && isnan(d.ci_hi), "a CI from one value");
}

/*
 * Primary tests keep their p; the secondary ones are one Holm family:
 * {0.03 primary, 0.01, 0.04, NAN, 0.02} -> secondary m = 3, sorted 0.01 * 3
 * = 0.03, 0.02 * 2 = 0.04, 0.04 * 1 raised to 0.04. The primary 0.03 is
 * significant at 0.05, and so are the adjusted 0.03 and 0.04.
 */
Test(stats, family_corrects_only_the_secondary_tests)
{
	struct family_test t[] = {
		{ .p = 0.03, .primary = true }, { .p = 0.01 }, { .p = 0.04 }, { .p = NAN },
		{ .p = 0.02 },
	};
	const double want[] = { 0.03, 0.03, 0.04, NAN, 0.04 };

	cr_assert_eq(stats_family(t, 5), 3);
	for (int i = 0; i < 5; i++) {
		if (isnan(want[i])) {
			cr_expect(isnan(t[i].p_adj) && !t[i].significant, "test %d", i);
			continue;
		}
		cr_expect_float_eq(t[i].p_adj, want[i], 1e-12, "test %d: %g, want %g", i,
				   t[i].p_adj, want[i]);
		cr_expect(t[i].significant, "test %d", i);
	}
	t[2].p = 0.2;		/* now 0.01 * 3, 0.02 * 2, 0.2: the last one is not */
	stats_family(t, 5);
	cr_expect_float_eq(t[2].p_adj, 0.2, 1e-12);
	cr_expect_not(t[2].significant);
}
