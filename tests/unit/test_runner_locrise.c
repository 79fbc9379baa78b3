// SPDX-License-Identifier: GPL-2.0
/*
 * The rise of a run's true locality (bench/runner/extract/locrise.c):
 * hand-made interval series with the start, the peak and the time to 90 %
 * of the rise worked out by hand, the windows' smoothing, what says
 * nothing, and a timeseries table cut to the work as the collector wrote
 * it.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "extract/csv.h"
#include "extract/locrise.h"

#define N 20

static double t[N], local[N], remote[N];

/* Interval I ends at second I + 1 with a local share SHARE of 100 accesses. */
static void at(int i, double share)
{
	t[i] = i + 1;
	local[i] = 100 * share;
	remote[i] = 100 - local[i];
}

/*
 * 20 one-second intervals from t0 = 0: the windows (a twentieth, 1 s) are
 * single intervals. 0.2 for five seconds, then 0.5, 0.9 and 1.0 to the
 * end: the rise is 0.2 -> 1.0 and 90 % of it, 0.92, is first reached by
 * the interval that ends at second 8 (0.9 at second 7 is short of it).
 */
Test(locrise, a_step_rise_by_hand)
{
	struct loc_rise lr;

	for (int i = 0; i < N; i++)
		at(i, i < 5 ? 0.2 : i == 5 ? 0.5 : i == 6 ? 0.9 : 1.0);
	cr_assert_eq(loc_rise(t, local, remote, N, 0, &lr), 0);
	cr_expect_float_eq(lr.start, 0.2, 1e-12);
	cr_expect_float_eq(lr.peak, 1.0, 1e-12);
	cr_expect_not(lr.flat);
	cr_expect_float_eq(lr.to90_s, 8, 1e-12, "to90_s %g", lr.to90_s);
}

/* The peak, not the end: the last stretch is the slowest threads'. */
Test(locrise, a_tail_that_falls_back_keeps_the_peak)
{
	struct loc_rise lr;

	for (int i = 0; i < N; i++)
		at(i, i < 3 ? 0.3 : i < 15 ? 0.9 : 0.5);
	cr_assert_eq(loc_rise(t, local, remote, N, 0, &lr), 0);
	cr_expect_float_eq(lr.peak, 0.9, 1e-12);
	cr_expect_float_eq(lr.to90_s, 4, 1e-12, "0.9 first at second 4: %g", lr.to90_s);
}

/* Under LOCRISE_MIN_GAIN (0.10) of rise is flat: no time to it. */
Test(locrise, noise_is_flat)
{
	struct loc_rise lr;

	for (int i = 0; i < N; i++)
		at(i, i % 2 ? 0.54 : 0.46);
	cr_assert_eq(loc_rise(t, local, remote, N, 0, &lr), 0);
	cr_expect(lr.flat);
	cr_expect(isnan(lr.to90_s));
	cr_expect_float_eq(lr.peak, 0.54, 1e-12);
}

/*
 * 40 quarter-second intervals over 10 s: windows of 0.5 s hold two. One
 * interval at 1.0 among 0.2s counts half: the peak is 0.6, not 1.0.
 */
Test(locrise, one_interval_does_not_make_the_peak)
{
	double tt[40], l[40], r[40];
	struct loc_rise lr;

	for (int i = 0; i < 40; i++) {
		tt[i] = 0.25 * (i + 1);
		l[i] = i == 20 ? 100 : 20;
		r[i] = 100 - l[i];
	}
	cr_assert_eq(loc_rise(tt, l, r, 40, 0, &lr), 0);
	cr_expect_float_eq(lr.start, 0.2, 1e-12);
	cr_expect_float_eq(lr.peak, 0.6, 1e-12, "peak %g", lr.peak);
	cr_expect_float_eq(lr.to90_s, 5.25, 1e-12, "the spike's interval ends at 5.25: %g",
			   lr.to90_s);
}

/* Too few intervals, or a first window without accesses, say nothing. */
Test(locrise, nothing_to_say)
{
	struct loc_rise lr;

	for (int i = 0; i < N; i++)
		at(i, 0.5);
	cr_expect_eq(loc_rise(t, local, remote, 2, 0, &lr), -1);
	local[0] = remote[0] = 0;
	cr_expect_eq(loc_rise(t, local, remote, N, 0, &lr), -1);
	cr_expect(isnan(lr.start) && isnan(lr.to90_s));
	cr_expect_eq(loc_rise(t, local, remote, N, 30, &lr), -1, "a start after the last interval");
}

/*
 * From the collector's table: the work began at 1.5 s (within the
 * interval ending at 2) and ended within the one ending at 7. Those two
 * intervals hold setup and the exit (all remote here) and are left out,
 * as are a row that does not move time on and a negative count (hostile).
 * Left: 3, 4, 5, 6 at 0.2, 0.2, 1.0, 1.0: the work is 6 - 1.5 = 4.5 s,
 * its windows 0.225 s, single intervals; 90 % of 0.2 -> 1.0 is reached at
 * second 5, 3.5 s into the work.
 */
/* TEXT loaded as the runner loads a timeseries.csv */
static void load_table(const char *text, struct csv *tab)
{
	char path[] = "/tmp/bnb-locrise-XXXXXX", err[256];
	FILE *f;
	int fd;

	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	cr_assert_eq(csv_load(path, tab, err, sizeof(err)), 0, "%s", err);
	unlink(path);
}

Test(locrise, the_table_is_cut_to_the_work)
{
	struct loc_rise lr;
	struct csv tab;

	load_table("# a comment\nsample,t_s,acc_local_d,acc_remote_d\n"
		   "1,1,0,100\n2,2,0,100\n3,3,20,80\n4,4,20,80\n4,4,100,0\n5,5,100,0\n"
		   "6,6,100,-5\n7,7,0,100\n8,8,0,100\n", &tab);
	cr_assert_eq(loc_rise_table(&tab, 1.5, 7, &lr), 0);
	cr_expect_float_eq(lr.start, 0.2, 1e-12, "start %g", lr.start);
	cr_expect_float_eq(lr.peak, 1.0, 1e-12, "peak %g", lr.peak);
	cr_expect_float_eq(lr.to90_s, 3.5, 1e-12, "to90_s %g", lr.to90_s);
	cr_assert_eq(loc_rise_table(&tab, 1.5, NAN, &lr), 0, "no end: to the last row");
	cr_expect_float_eq(lr.peak, 1.0, 1e-12);
	csv_free(&tab);
}

/* A table without the plugin's columns (no --plugin) says nothing. */
Test(locrise, no_plugin_columns)
{
	struct loc_rise lr;
	struct csv tab;

	load_table("sample,t_s,convergence\n1,1,0.5\n2,2,0.6\n3,3,0.7\n4,4,0.8\n", &tab);
	cr_expect_eq(loc_rise_table(&tab, 0.5, NAN, &lr), -1);
	csv_free(&tab);
}
