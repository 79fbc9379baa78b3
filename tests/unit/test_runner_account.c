// SPDX-License-Identifier: GPL-2.0
/*
 * The account of balancing in the report (bench/runner/account/): the
 * fixture folder onoff with hand-set account metrics in each run, so that
 * the saving against the baseline, the cost, the net, the check against
 * the workload's time and the verdict's sentence are known by hand; a
 * baseline with balancing on (another policy); runs without the model;
 * and the class's price of the seed's u.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account/account_report.h"
#include "account/account_run.h"
#include "extract/extract.h"
#include "fixture_dir.h"
#include "report/results.h"
#include "scratch.h"

static char tmpdir[64];

static void setup(void)
{
	char fixtures[PATH_MAX * 2], cmd[PATH_MAX * 5];

	fixture_dir(fixtures, sizeof(fixtures), "runner");
	scratch_make(tmpdir, sizeof(tmpdir), "account");
	snprintf(cmd, sizeof(cmd), "cp -r '%s/onoff' '%s/'", fixtures, tmpdir);
	cr_assert_eq(system(cmd), 0);
}

static void teardown(void)
{
	scratch_remove(tmpdir);
}

TestSuite(account_report, .init = setup, .fini = teardown);

/* Set metric NAME of run VARIANT/repREP to V (NAN: remove it). */
static void set(const char *variant, int rep, const char *name, double v)
{
	char path[PATH_MAX];
	struct json_object *o, *m, *entry;

	snprintf(path, sizeof(path), "%s/onoff/runs/%s/rep%d/summary.json", tmpdir, variant, rep);
	o = json_object_from_file(path);
	cr_assert_not_null(o, "%s", path);
	if (!json_object_object_get_ex(o, "metrics", &m)) {
		m = json_object_new_object();
		json_object_object_add(o, "metrics", m);
	}
	if (isnan(v)) {
		json_object_object_del(m, name);
	} else {
		entry = json_object_new_object();
		json_object_object_add(entry, "value", json_object_new_double(v));
		json_object_object_add(entry, "unit", json_object_new_string("s"));
		json_object_object_add(m, name, entry);
	}
	cr_assert_eq(json_object_to_file(path, o), 0);
	json_object_put(o);
}

/*
 * off: stall 0.80 s, no cost, work 0.975 s; on: stall 0.32 s, cost 0.014
 * s, work 0.50 s (its three finished runs), its own estimate 0.48 s, break-even 0.015 s, one vCPU
 * busy. Saved 0.48, net 0.466, predicted change 0.014 - 0.48 = -0.466,
 * measured -0.475: residual -0.009, 1.9 % of the change.
 */
static void onoff_account(void)
{
	for (int rep = 1; rep <= 3; rep++) {
		set("off", rep, "account_stall_s", 0.80);
		set("off", rep, "account_cost_s", 0);
		set("off", rep, "account_work_s", 0.975);
		set("off", rep, "account_vcpus", 1);
	}
	for (int rep = 1; rep <= 3; rep++) {
		set("on", rep, "account_stall_s", 0.32);
		set("on", rep, "account_cost_s", 0.014);
		set("on", rep, "account_work_s", 0.50);
		set("on", rep, "account_benefit_s", 0.48);
		set("on", rep, "account_breakeven_s", 0.015);
		set("on", rep, "account_vcpus", 1);
		set("on", rep, "numa_work_hw_s", 0.016);
	}
}

static void load(struct results *r)
{
	char dir[PATH_MAX], err[512];

	snprintf(dir, sizeof(dir), "%s/onoff", tmpdir);
	cr_assert_eq(results_load(dir, r, err, sizeof(err)), 0, "%s", err);
}

static char *verdict_text(const struct acct_pair *p)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	account_verdict(f, p, "off", "on");
	fclose(f);
	return buf;
}

Test(account_report, saved_cost_net_and_the_check_by_hand)
{
	struct acct_pair p;
	struct results r;
	char *text;

	onoff_account();
	load(&r);
	cr_assert_eq(account_pair(&r, "off", &r, "on", &p), 0);
	cr_expect_eq(p.against, ACCT_VS_OFF);
	cr_expect_float_eq(p.saved.diff, 0.48, 1e-9, "saved %g", p.saved.diff);
	cr_expect_float_eq(p.cost.diff, 0.014, 1e-9);
	cr_expect_float_eq(p.net.diff, 0.466, 1e-9, "net %g", p.net.diff);
	cr_expect_float_eq(p.dwork.diff, -0.475, 1e-9);
	cr_expect_float_eq(p.predicted, -0.466, 1e-9);
	cr_expect_float_eq(p.residual, -0.009, 1e-9);
	cr_expect(p.closes);
	cr_expect(p.measured);
	text = verdict_text(&p);
	cr_expect(strstr(text, "on's balancing cost 14 ms") &&
		  strstr(text, "saved 480 ms [480, 480] of memory stall against off (balancing off)") &&
		  strstr(text, "(net +466 ms") && strstr(text, "paid back 15 ms after its first "
							      "scan pass in 3 of 3 runs") &&
		  strstr(text, "the account closes"), "%s", text);
	cr_expect_null(strstr(text, "does not close"), "%s", text);
	results_free(&r);
}

/* A workload that got slower than the account says: it does not close. */
Test(account_report, a_residual_beyond_a_tenth_does_not_close)
{
	struct acct_pair p;
	struct results r;

	onoff_account();
	for (int rep = 1; rep <= 3; rep++)
		set("on", rep, "account_work_s", 0.60);
	load(&r);
	cr_assert_eq(account_pair(&r, "off", &r, "on", &p), 0);
	/* measured -0.375 against -0.466 predicted: 0.091, 24 % of the change */
	cr_expect_float_eq(p.residual, 0.091, 1e-9);
	cr_expect_not(p.closes);
	cr_expect(strstr(verdict_text(&p), "**the account does not close** by 91 ms"),
		  "%s", verdict_text(&p));
	results_free(&r);
}

/* Two vCPUs busy at once: a saving spreads over both. */
Test(account_report, the_saving_spreads_over_the_busy_vcpus)
{
	struct acct_pair p;
	struct results r;

	onoff_account();
	for (int rep = 1; rep <= 3; rep++)
		set("on", rep, "account_vcpus", 2);
	for (int rep = 1; rep <= 3; rep++)
		set("off", rep, "account_vcpus", 2);
	load(&r);
	cr_assert_eq(account_pair(&r, "off", &r, "on", &p), 0);
	cr_expect_float_eq(p.predicted, -0.233, 1e-9);
	results_free(&r);
}

/* Balancing on in the baseline too: the saving is beyond that policy's. */
Test(account_report, a_baseline_that_balances_is_another_policy)
{
	char path[PATH_MAX], cmd[PATH_MAX * 2];
	struct acct_pair p;
	struct results r;

	onoff_account();
	snprintf(path, sizeof(path), "%s/onoff/experiment.ini", tmpdir);
	snprintf(cmd, sizeof(cmd), "sed -i 's/^balancing = off/balancing = on\\nsysctl.scan_delay_ms = 500/' '%s'",
		 path);
	cr_assert_eq(system(cmd), 0);
	load(&r);
	cr_assert_eq(account_pair(&r, "off", &r, "on", &p), 0);
	cr_expect_eq(p.against, ACCT_VS_POLICY);
	cr_expect(strstr(verdict_text(&p), "against off's balancing (another policy or kernel"),
		  "%s", verdict_text(&p));
	results_free(&r);
}

/* No model, no estimate: the cost alone, and why there is no saving. */
Test(account_report, without_the_model_the_cost_alone)
{
	struct acct_pair p;
	struct results r;

	onoff_account();
	for (int rep = 1; rep <= 3; rep++) {
		set("on", rep, "account_stall_s", NAN);
		set("on", rep, "account_benefit_s", NAN);
		set("on", rep, "account_breakeven_s", NAN);
	}
	for (int rep = 1; rep <= 3; rep++)
		set("off", rep, "account_stall_s", NAN);
	load(&r);
	cr_assert_eq(account_pair(&r, "off", &r, "on", &p), 0);
	cr_expect_not(p.model);
	cr_expect(strstr(verdict_text(&p), "no machine model in these runs") &&
		  strstr(verdict_text(&p), "its cost alone: 14 ms"), "%s", verdict_text(&p));
	results_free(&r);
}

/* Runs with no account at all (no plugin): the verdict says why. */
Test(account_report, no_plugin_no_account_and_why)
{
	struct acct_pair p;
	struct results r;
	char buf[1024] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	load(&r);
	cr_expect_eq(account_pair(&r, "off", &r, "on", &p), -1);
	account_none(f, &r, "on");
	fclose(f);
	cr_expect(strstr(buf, "account of balancing: none, on's runs had no TCG plugin"),
		  "%s", buf);
	results_free(&r);
}

/*
 * The 2socket class: 108 ns local, 10 misses in flight, 69.3 GB/s for 16
 * CPUs: a line every max(10.8, 64 B / 4.33 GB/s = 14.78) ns, a word 1.847.
 */
Test(account_report, the_class_prices_the_seeds_u)
{
	cr_expect_float_eq(account_ns_per_u(108, 10, 69300, 16), 64 / (69300.0 / 16 * 1e-3) / 8,
			   1e-12);
	cr_expect_float_eq(account_ns_per_u(400, 2, 69300, 16), 400.0 / 2 / 8, 1e-12,
			   "latency-bound");
	cr_expect(isnan(account_ns_per_u(108, 0, 69300, 16)));
	cr_expect(isnan(account_ns_per_u(108, 10, 0, 16)));
}

/* A net that is a loss is a figure, not an absurd one; a negative cost is. */
Test(account_report, a_loss_is_a_figure_a_negative_cost_is_not)
{
	static struct xmetrics x;

	cr_expect_eq(xm_add(&x, "account_net_s", "+-s", -0.2, BETTER_HIGHER), 0);
	cr_expect_eq(xm_add(&x, "account_benefit_s", "+-s", -0.1, BETTER_HIGHER), 0);
	cr_expect_neq(xm_add(&x, "account_cost_s", "s", -0.2, BETTER_LOWER), 0);
}

/*
 * A change within its noise: on's runs 0.97, 0.975 and 0.98 s against
 * off's 0.975 s, a change of 0 [-0.0124, +0.0124] s, while the account
 * predicts -0.466 s: the residual is far beyond the noise, it does not
 * close. With the saving gone too (on's stall as off's), the prediction
 * is the cost, 14 ms, still beyond the CI's half width (12.4 ms)... and
 * with half the cost, 7 ms, within it: it closes within the noise.
 */
Test(account_report, a_change_within_its_noise)
{
	static const double work[] = { 0.97, 0.975, 0.98 };
	struct acct_pair p;
	struct results r;

	onoff_account();
	for (int rep = 1; rep <= 3; rep++) {
		set("on", rep, "account_work_s", work[rep - 1]);
		set("on", rep, "account_stall_s", 0.80);
		set("on", rep, "account_cost_s", 0.007);
	}
	load(&r);
	cr_assert_eq(account_pair(&r, "off", &r, "on", &p), 0);
	cr_expect(p.in_noise && p.closes, "residual %g, CI [%g, %g]", p.residual, p.dwork.ci_lo,
		  p.dwork.ci_hi);
	cr_expect(strstr(verdict_text(&p), "within its noise"), "%s", verdict_text(&p));
	results_free(&r);
}

/*
 * A load generator that ran for a fixed time (pgbench -T 4): the same
 * slower work that does not close above is not checked at all, since its
 * time could not have changed; the verdict says where to look instead.
 */
Test(account_report, a_generator_of_fixed_time_is_not_checked)
{
	struct acct_pair p;
	struct results r;

	onoff_account();
	for (int rep = 1; rep <= 3; rep++) {
		set("on", rep, "account_work_s", 0.60);
		set("on", rep, "workload_fixed_s", 4);
		set("off", rep, "workload_fixed_s", 4);
	}
	load(&r);
	cr_assert_eq(account_pair(&r, "off", &r, "on", &p), 0);
	cr_expect_float_eq(p.fixed_s, 4, 1e-9);
	cr_expect_not(p.closes);
	cr_expect_not(strstr(verdict_text(&p), "does not close"), "%s", verdict_text(&p));
	cr_expect(strstr(verdict_text(&p), "not checked, the load generator ran for a fixed 4 s"),
		  "%s", verdict_text(&p));
	results_free(&r);
}
