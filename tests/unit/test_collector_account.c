// SPDX-License-Identifier: GPL-2.0
/*
 * The account of balancing (bench/collector/account.c) on hand-made
 * intervals whose account is worked out by hand: the prices of a local
 * and a remote miss, the counterfactual remote share from the plugin's
 * window or its stand-ins, the benefit, the cost, the break-even, and
 * what prices nothing.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "account.h"

#define ROWS 11

static struct acct_interval iv[ROWS];

/*
 * Rows at t = 0..10 s (row 0 the first sample: no interval). The WORK
 * marker was seen at the sample of t = 1 (work from 0.5), so the work is
 * rows 2..10; row 1 is setup, where the first scan (50 PTEs) ran. Every
 * work row has 1000 misses, a local one stalls 10 ns and a remote one 30:
 * a miss made local saves 20 ns. Rows 2 and 3 are 99 % remote, the
 * balancer's migrations make rows 4..10 1 % remote. Cost: 100 u in row
 * 1, 1000 u in rows 2..4, at 1 ns a u.
 */
static void fill(double first_remote)
{
	memset(iv, 0, sizeof(iv));
	for (int i = 0; i < ROWS; i++) {
		double remote = i < 2 ? 0 : i < 4 ? 990 : 10;

		if (i == 2)
			remote = first_remote;
		iv[i].t_s = i;
		iv[i].miss_remote = remote;
		iv[i].miss_local = i ? 1000 - remote : 0;
		iv[i].stall_local_ns = 10 * iv[i].miss_local;
		iv[i].stall_remote_ns = 30 * iv[i].miss_remote;
		iv[i].cost_u = i == 1 ? 100 : i >= 2 && i <= 4 ? 1000 : 0;
		iv[i].pte_updates = i == 1 ? 50 : 0;
	}
}

static struct acct_params params(void)
{
	return (struct acct_params){
		.d = 2, .work_from_s = 0.5, .work_to_s = NAN, .hw_s_per_u = 1e-9,
		.win_local = 10, .win_remote = 990, .acted = true,
	};
}

/* Saved: rows 4..10, (0.99 x 1000 - 10) x 20 ns each = 7 x 19.6 us. */
Test(account, the_window_prices_and_saves_by_hand)
{
	struct acct_params p = params();
	struct account a;

	fill(990);
	cr_assert_eq(account_compute(iv, ROWS, &p, &a, NULL), 0);
	cr_assert(a.priced, "%s", a.why);
	cr_expect_eq(a.r0_from, ACCT_R0_WINDOW);
	cr_expect_float_eq(a.r0, 0.99, 1e-12);
	cr_expect_float_eq(a.r0_misses, 1000, 1e-9);
	cr_expect_float_eq(a.price_local_ns, 10, 1e-9);
	cr_expect_float_eq(a.price_remote_ns, 30, 1e-9);
	cr_expect_float_eq(a.benefit_s, 7 * 19.6e-6, 1e-12, "benefit %g", a.benefit_s);
	cr_expect_float_eq(a.cost_s, 3e-6, 1e-15, "cost in the work %g", a.cost_s);
	cr_expect_float_eq(a.cost_all_s, 3.1e-6, 1e-15);
	cr_expect_float_eq(a.net_s, 7 * 19.6e-6 - 3e-6, 1e-12);
	cr_expect_float_eq(a.first_scan_s, 1, 1e-12);
	/* row 4 (t = 4) first has benefit >= cost: 3 guest s after the scan, / D */
	cr_expect_float_eq(a.breakeven_s, 1.5, 1e-12, "break-even %g", a.breakeven_s);
}

/* Without a window the work's first row stands in: a lower bound. */
Test(account, no_window_takes_the_first_interval)
{
	struct acct_params p = params();
	struct account a;

	p.win_local = p.win_remote = NAN;
	fill(500);
	cr_assert_eq(account_compute(iv, ROWS, &p, &a, NULL), 0);
	cr_expect_eq(a.r0_from, ACCT_R0_FIRST);
	cr_expect_float_eq(a.r0, 0.5, 1e-12);
	/* row 2: 0; row 3: (500 - 990) x 20 ns; rows 4..10: (500 - 10) x 20 ns */
	cr_expect_float_eq(a.benefit_s, (-490 + 7 * 490) * 20e-9, 1e-12, "%g", a.benefit_s);
}

/* A window of too few misses says too little: the first interval again. */
Test(account, a_tiny_window_is_not_used)
{
	struct acct_params p = params();
	struct account a;

	p.win_local = 1;
	p.win_remote = ACCT_MIN_WINDOW - 2;
	fill(990);
	cr_assert_eq(account_compute(iv, ROWS, &p, &a, NULL), 0);
	cr_expect_eq(a.r0_from, ACCT_R0_FIRST);
	cr_expect_float_eq(a.r0, 0.99, 1e-12);
}

/* The balancer never acted in the work: the work's own share, no benefit. */
Test(account, never_acted_saves_nothing)
{
	struct acct_params p = params();
	struct account a;

	p.win_local = p.win_remote = NAN;
	p.acted = false;
	fill(990);
	for (int i = 2; i < ROWS; i++) {
		iv[i].miss_remote = 990;
		iv[i].miss_local = 10;
		iv[i].stall_local_ns = 100;
		iv[i].stall_remote_ns = 990 * 30;
	}
	cr_assert_eq(account_compute(iv, ROWS, &p, &a, NULL), 0);
	cr_expect_eq(a.r0_from, ACCT_R0_WORK);
	cr_expect_float_eq(a.benefit_s, 0, 1e-15, "%g", a.benefit_s);
}

/* No stalls (the model was off): no benefit, and the reason; the cost stands. */
Test(account, without_the_model_there_is_no_benefit)
{
	struct acct_params p = params();
	struct account a;

	fill(990);
	for (int i = 0; i < ROWS; i++)
		iv[i].stall_local_ns = iv[i].stall_remote_ns = 0;
	cr_assert_eq(account_compute(iv, ROWS, &p, &a, NULL), 0);
	cr_expect_not(a.priced);
	cr_expect(isnan(a.benefit_s) && isnan(a.net_s) && isnan(a.breakeven_s));
	cr_expect(strstr(a.why, "model"), "why: %s", a.why);
	cr_expect_float_eq(a.cost_s, 3e-6, 1e-15);
}

/* Nothing remote in the whole run: a miss made local has no price. */
Test(account, no_remote_misses_no_price)
{
	struct acct_params p = params();
	struct account a;

	fill(0);
	for (int i = 0; i < ROWS; i++) {
		iv[i].miss_local += iv[i].miss_remote;
		iv[i].miss_remote = iv[i].stall_remote_ns = 0;
	}
	cr_assert_eq(account_compute(iv, ROWS, &p, &a, NULL), 0);
	cr_expect_not(a.priced);
	cr_expect(strstr(a.why, "remote"), "why: %s", a.why);
}

/* The guest's numbers: negative or not finite counts count nothing. */
Test(account, hostile_values_count_nothing)
{
	struct acct_params p = params();
	struct account a, b;

	fill(990);
	cr_assert_eq(account_compute(iv, ROWS, &p, &b, NULL), 0);
	iv[5].cost_u = -1e30;
	iv[6].miss_remote = NAN;
	iv[6].miss_local = -5;
	iv[6].stall_remote_ns = INFINITY;
	iv[6].stall_local_ns = NAN;
	cr_assert_eq(account_compute(iv, ROWS, &p, &a, NULL), 0);
	cr_expect(isfinite(a.benefit_s) && isfinite(a.cost_s));
	cr_expect_float_eq(a.cost_s, b.cost_s, 1e-15);
	/* row 6 now has no misses at all: it saves nothing instead of 19.6 us */
	cr_expect_float_eq(a.benefit_s, 6 * 19.6e-6, 1e-12, "%g", a.benefit_s);
}

/* No row after the work's start: nothing to account, and why. */
Test(account, no_work_no_account)
{
	struct acct_params p = params();
	struct account a;

	fill(990);
	p.work_from_s = 20;
	cr_expect_eq(account_compute(iv, ROWS, &p, &a, NULL), -1);
	cr_expect(strstr(a.why, "work"), "why: %s", a.why);
}

/* The course: a row per work interval, hardware s from the work's start. */
Test(account, the_course_as_csv)
{
	struct acct_params p = params();
	struct account a;
	char buf[4096] = "";
	double t, cost, benefit;
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	int rows = 0;

	fill(990);
	cr_assert_eq(account_compute(iv, ROWS, &p, &a, f), 0);
	fclose(f);
	f = fmemopen(buf, strlen(buf), "r");
	while (fscanf(f, "%lf,%lf,%lf\n", &t, &cost, &benefit) == 3)
		rows++;
	fclose(f);
	cr_expect_eq(rows, 9, "%d rows:\n%s", rows, buf);
	/* the last: t = 10 is 9 guest s after the work's first interval began at 1 */
	cr_expect_float_eq(t, 4.5, 1e-9);
	cr_expect_float_eq(cost, 3e-6, 1e-15);
	cr_expect_float_eq(benefit, a.benefit_s, 1e-15);
}


/*
 * The misses left remote after balancing cost 100 ns each (a pointer's
 * stragglers) where the moved ones cost 30: the price of a remote miss is
 * that of the misses above the floor the last half of the work keeps (10
 * a row at 1000 ns), (29700 - 1000) / (990 - 10) ns, not the work's mean.
 */
Test(account, a_remote_miss_as_balancing_removed_it)
{
	struct acct_params p = params();
	struct account a;
	double price = (29700.0 - 1000) / (990 - 10);

	fill(990);
	for (int i = 4; i < ROWS; i++)
		iv[i].stall_remote_ns = 100 * iv[i].miss_remote;
	cr_assert_eq(account_compute(iv, ROWS, &p, &a, NULL), 0);
	cr_expect(a.price_removed);
	cr_expect_float_eq(a.price_remote_ns, price, 1e-9, "%g", a.price_remote_ns);
	cr_expect_float_eq(a.benefit_s, 7 * 980 * (price - 10) * 1e-9, 1e-12, "%g", a.benefit_s);
}

/* Nothing moved in the work: no interval stands out, the work's mean prices. */
Test(account, without_a_rise_the_mean_prices)
{
	struct acct_params p = params();
	struct account a;

	fill(990);
	for (int i = 2; i < ROWS; i++) {
		iv[i].miss_remote = 500;
		iv[i].miss_local = 500;
		iv[i].stall_remote_ns = 500 * 30;
		iv[i].stall_local_ns = 500 * 10;
	}
	cr_assert_eq(account_compute(iv, ROWS, &p, &a, NULL), 0);
	cr_expect_not(a.price_removed);
	cr_expect_float_eq(a.price_remote_ns, 30, 1e-9);
}
