// SPDX-License-Identifier: GPL-2.0
/*
 * Reports from the hand-made result folders in fixtures/runner: the
 * summary.json values, the markdown tables, folder comparison, the sweep
 * section, and the plots (valid, non-empty PNG and SVG files).
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture_dir.h"
#include "plot/plot.h"
#include "plot/plot_gp.h"
#include "report/report.h"
#include "report/results.h"
#include "scratch.h"

static char tmpdir[64];
static char fixtures[PATH_MAX * 2];

static void setup(void)
{
	char cmd[PATH_MAX * 5];

	fixture_dir(fixtures, sizeof(fixtures), "runner");
	scratch_make(tmpdir, sizeof(tmpdir), "report");
	setenv("BNB_ROOT", tmpdir, 1);	/* plots are published under it */
	snprintf(cmd, sizeof(cmd), "cp -r '%s/onoff' '%s/sweep' '%s/'", fixtures, fixtures, tmpdir);
	cr_assert_eq(system(cmd), 0);
}

static void teardown(void)
{
	scratch_remove(tmpdir);
}

TestSuite(report, .init = setup, .fini = teardown);

static void load(const char *name, struct results *r)
{
	char dir[PATH_MAX], err[512];

	snprintf(dir, sizeof(dir), "%s/%s", tmpdir, name);
	cr_assert_eq(results_load(dir, r, err, sizeof(err)), 0, "%s", err);
}

static struct json_object *path_get(struct json_object *o, const char *const *keys)
{
	for (; *keys && o; keys++) {
		struct json_object *next = NULL;

		if (json_object_is_type(o, json_type_array))
			next = json_object_array_get_idx(o, atoi(*keys));
		else if (!json_object_object_get_ex(o, *keys, &next))
			return NULL;
		o = next;
	}
	return o;
}

#define J(o, ...) path_get(o, (const char *const[]){ __VA_ARGS__, NULL })

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);

	cr_assert_not_null(f, "%s missing", path);
	buf[fread(buf, 1, (1 << 20) - 1, f)] = 0;
	fclose(f);
	return buf;
}

static void append(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	f = fopen(path, "a");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

/* Put TIERING (a JSON object's text) into the summary.json of run REL. */
static void set_tiering(const char *rel, const char *tiering)
{
	char path[PATH_MAX];
	struct json_object *o;

	snprintf(path, sizeof(path), "%s/%s/summary.json", tmpdir, rel);
	o = json_object_from_file(path);
	cr_assert_not_null(o, "%s", path);
	json_object_object_add(o, "tiering", json_tokener_parse(tiering));
	cr_assert_eq(json_object_to_file(path, o), 0);
	json_object_put(o);
}

/* Set the plugin's fast_tier_share in the summary.json of run REL. */
static void set_fast_share(const char *rel, double share)
{
	char path[PATH_MAX];
	struct json_object *o, *plugin;

	snprintf(path, sizeof(path), "%s/%s/summary.json", tmpdir, rel);
	o = json_object_from_file(path);
	cr_assert_not_null(o, "%s", path);
	if (!json_object_object_get_ex(o, "plugin", &plugin)) {
		plugin = json_object_new_object();
		json_object_object_add(o, "plugin", plugin);
	}
	json_object_object_add(plugin, "fast_tier_share", json_object_new_double(share));
	cr_assert_eq(json_object_to_file(path, o), 0);
	json_object_put(o);
}

/* SET(PREFIX on/repN, ON) and SET(PREFIX off/repN, OFF) for the 3 repetitions */
static void each_onoff(void (*set)(const char *rel, const char *what), const char *prefix,
		       const char *on, const char *off)
{
	char rel[64];

	for (int rep = 1; rep <= 3; rep++) {
		snprintf(rel, sizeof(rel), "%son/rep%d", prefix, rep);
		set(rel, on);
		snprintf(rel, sizeof(rel), "%soff/rep%d", prefix, rep);
		set(rel, off);
	}
}

/* Every ok run of onoff: ON's promote, OFF's have the counters at 0. */
static void tiering_onoff(const char *on, const char *off)
{
	each_onoff(set_tiering, "onoff/runs/", on, off);
}

#define TIER_ON "{\"promoted_pages\": 2560, \"promote_candidates\": 4000, " \
		"\"demoted_pages\": null, \"promote_mbps_mean\": 2.5}"
#define TIER_OFF "{\"promoted_pages\": 0, \"promote_candidates\": 0, " \
		 "\"demoted_pages\": null, \"promote_mbps_mean\": 0}"

/*
 * Once a run of the experiment promotes, every run with the counters
 * reports them, the variant without tiering its zeros beside the other's;
 * a counter its kernel lacks (null) stays absent.
 */
Test(report, tiering_metrics)
{
	struct results r;
	char path[PATH_MAX * 2], *md;

	tiering_onoff(TIER_ON, TIER_OFF);
	load("onoff", &r);
	for (int i = 0; i < r.n_runs; i++) {
		const struct run *run = &r.runs[i];
		bool on = !strcmp(run->variant, "on");

		if (run->status != RUN_OK)
			continue;
		cr_expect_float_eq(run_metric(run, "promoted_pages"), on ? 2560 : 0, 1e-9);
		cr_expect_float_eq(run_metric(run, "promote_mbps_mean"), on ? 2.5 : 0, 1e-9);
		cr_expect(isnan(run_metric(run, "demoted_pages")), "absent, not 0");
		cr_expect(isnan(run_metric(run, "fast_tier_share")), "no slow tier, no share");
	}
	cr_assert_eq(report_write(&r), 0);
	snprintf(path, sizeof(path), "%s/summary.md", r.dir);
	md = slurp(path);
	cr_expect(strstr(md, "| promote_mbps_mean | MB/s |"), "%s", md);
	free(md);
	results_free(&r);
}

/* Where nothing tiers (every figure 0, or no tiering object) they are no rows. */
Test(report, no_tiering_metrics_without_traffic)
{
	struct results r;

	tiering_onoff(TIER_OFF, TIER_OFF);
	load("onoff", &r);
	cr_expect(isnan(run_metric(&r.runs[0], "promoted_pages")));
	results_free(&r);
}

/* A slow tier the plugin counted is tiering too, even where nothing moved. */
Test(report, fast_tier_share_metric)
{
	struct results r;

	tiering_onoff(TIER_OFF, TIER_OFF);
	set_fast_share("onoff/runs/off/rep1", 0.25);
	set_fast_share("onoff/runs/on/rep3", 1.5);
	load("onoff", &r);
	for (int i = 0; i < r.n_runs; i++) {
		const struct run *run = &r.runs[i];
		bool off1 = !strcmp(run->variant, "off") && run->rep == 1;
		bool on3 = !strcmp(run->variant, "on") && run->rep == 3;

		if (run->status != RUN_OK)
			continue;
		cr_expect_float_eq(run_metric(run, "promoted_pages"), 0, 1e-9);
		if (off1)
			cr_expect_float_eq(run_metric(run, "fast_tier_share"), 0.25, 1e-9);
		else
			cr_expect(isnan(run_metric(run, "fast_tier_share")));
		if (on3)
			cr_expect(strstr(run->refused, "plugin.fast_tier_share=1.5 is outside its "
					 "sane range 0..1"), "%s", run->refused);
	}
	results_free(&r);
}

/* summary.json may have been edited: a negative count is refused, named. */
Test(report, tiering_values_refused)
{
	struct results r;

	tiering_onoff(TIER_ON, TIER_OFF);
	set_tiering("onoff/runs/on/rep2", "{\"promoted_pages\": -5, \"promote_mbps_mean\": \"x\"}");
	load("onoff", &r);
	for (int i = 0; i < r.n_runs; i++) {
		const struct run *run = &r.runs[i];

		if (strcmp(run->variant, "on") || run->rep != 2)
			continue;
		cr_expect(isnan(run_metric(run, "promoted_pages")));
		cr_expect(strstr(run->refused, "tiering.promoted_pages=-5 is outside its sane range"),
			  "%s", run->refused);
		cr_expect(strstr(run->refused, "tiering.promote_mbps_mean is not a number"),
			  "%s", run->refused);
	}
	results_free(&r);
}

/* Dilation = host rate (status) / guest rate_mean; "not measured" names why. */
Test(report, dilation_per_run)
{
	struct results r;
	struct json_object *root, *runs;
	const struct run *on[3] = { NULL };
	char path[PATH_MAX * 2], *md;
	int i;
	int seen = 0;

	append("onoff/runs/on/rep1/status", "host_rate=12000\ndilation_why=\n");	/* 120 */
	append("onoff/runs/on/rep2/status", "host_rate=33000\n");			/* 110 */
	append("onoff/runs/on/rep3/status", "host_rate=nan\ndilation_why=host run of 'x' failed\n");
	load("onoff", &r);
	for (i = 0; i < r.n_runs; i++)
		if (!strcmp(r.runs[i].variant, "on") && r.runs[i].rep <= 3)
			on[r.runs[i].rep - 1] = &r.runs[i];
	cr_assert_float_eq(on[0]->m[M_DILATION], 100, 1e-9);
	cr_assert_float_eq(on[1]->m[M_DILATION], 300, 1e-9);
	cr_assert(isnan(on[2]->m[M_DILATION]));
	cr_assert_str_eq(on[2]->dilation_why, "host run of 'x' failed");
	cr_assert_eq(report_write(&r), 0);
	snprintf(path, sizeof(path), "%s/summary.md", r.dir);
	md = slurp(path);
	cr_assert(strstr(md, "| on | 1 | ok | 8 | "), "%s", md);
	cr_assert(strstr(md, " | 100.0x |"), "%s", md);
	cr_assert(strstr(md, " | not measured: host run of 'x' failed |"), "%s", md);
	cr_assert(strstr(md, "ran 200x slower in the guest"), "%s", md);
	cr_assert(strstr(md, "2 runs, 100..300x"), "%s", md);
	snprintf(path, sizeof(path), "%s/summary.json", r.dir);
	root = json_object_from_file(path);
	runs = J(root, "runs");
	for (i = 0; i < (int)json_object_array_length(runs); i++) {
		struct json_object *o = json_object_array_get_idx(runs, i);

		if (strcmp(json_object_get_string(J(o, "variant")), "on"))
			continue;
		if (json_object_get_int(J(o, "rep")) == 2) {
			cr_assert_float_eq(json_object_get_double(J(o, "metrics", "dilation")), 300, 1e-9);
			seen++;
		}
		if (json_object_get_int(J(o, "rep")) == 3) {
			cr_assert_str_eq(json_object_get_string(J(o, "dilation_why")),
					 "host run of 'x' failed");
			seen++;
		}
	}
	cr_assert_eq(seen, 2);
	json_object_put(root);
	free(md);
	results_free(&r);
}

Test(report, runs_and_statuses)
{
	struct results r;
	int i, ok = 0;

	load("onoff", &r);
	cr_assert_str_eq(r.exp.name, "onoff");
	cr_assert_eq(r.n_runs, 8);
	for (i = 0; i < r.n_runs; i++)
		ok += r.runs[i].status == RUN_OK;
	cr_assert_eq(ok, 6);
	cr_assert_eq(r.runs[6].status, RUN_FAILED);
	cr_assert_str_eq(r.runs[6].reason, "kernel panic/oops/BUG (bnb-vm exit 4)");
	cr_assert_eq(r.runs[7].status, RUN_INCOMPLETE);
	cr_assert_str_eq(r.runs[3].rate_unit, "MB/s");
	cr_assert_float_eq(r.runs[3].m[M_LOCALITY], 0.9, 1e-9);	/* last sampled row */
	cr_assert_float_eq(r.runs[3].m[M_PAGES_MIGRATED], 5000, 1e-9);
	cr_assert_float_eq(r.runs[3].m[M_WALL_S], 11, 1e-9);
	cr_assert_float_eq(r.runs[3].m[M_TRUE_LOCALITY], 0.91, 1e-9);	/* plugin ground truth */
	cr_assert_float_eq(r.runs[3].m[M_BENEFIT], 1500, 1e-9);
	cr_assert(isnan(r.runs[4].m[M_TRUE_LOCALITY]), "no plugin, no ground truth");
	cr_assert(isnan(r.runs[0].m[M_CONV_90]), "null in summary.json is not a number");
	results_free(&r);
}

Test(report, summary_json)
{
	struct results r;
	struct json_object *root, *on, *cmp;
	char path[PATH_MAX * 2];

	load("onoff", &r);
	cr_assert_eq(report_write(&r), 0);
	snprintf(path, sizeof(path), "%s/summary.json", r.dir);
	root = json_object_from_file(path);
	cr_assert_not_null(root, "summary.json does not parse");
	cr_assert_str_eq(json_object_get_string(J(root, "experiment")), "onoff");
	cr_assert_str_eq(json_object_get_string(J(root, "baseline")), "off");
	cr_assert_str_eq(json_object_get_string(J(root, "latency", "on")), "uniform");
	cr_assert(strstr(json_object_get_string(J(root, "time_dilation")),
			 "Time dilation: not measured (no host run recorded)"));
	on = J(root, "variants", "1");
	cr_assert_str_eq(json_object_get_string(J(on, "name")), "on");
	cr_assert_eq(json_object_get_int(J(on, "ok")), 3);
	cr_assert_eq(json_object_get_int(J(on, "failed")), 1);
	cr_assert_eq(json_object_get_int(J(on, "incomplete")), 1);
	cr_assert_eq(json_object_get_int(J(on, "metrics", "work_s", "n")), 3);
	cr_assert_float_eq(json_object_get_double(J(on, "metrics", "work_s", "mean")), 9, 1e-9);
	cr_assert_float_eq(json_object_get_double(J(on, "metrics", "work_s", "stddev")), 1, 1e-9);
	cr_assert_float_eq(json_object_get_double(J(on, "metrics", "cost_total", "median")), 1100, 1e-9);
	cr_assert_float_eq(json_object_get_double(J(on, "metrics", "rate_mean", "cv")), 5.0 / 115, 1e-9);
	cr_assert_str_eq(json_object_get_string(J(on, "metrics", "rate_mean", "unit")), "MB/s");
	cr_assert_null(J(root, "variants", "0", "metrics", "time_to_conv_90_s", "mean"),
		       "off never converges: mean must be null");
	cmp = J(root, "comparisons", "0", "metrics");
	cr_assert_str_eq(json_object_get_string(J(root, "comparisons", "0", "variant")), "on");
	cr_assert_float_eq(json_object_get_double(J(cmp, "work_s", "p_value")), 0.104479, 1e-5);
	cr_assert_float_eq(json_object_get_double(J(cmp, "work_s", "diff_pct")), -25, 1e-9);
	cr_assert_float_eq(json_object_get_double(J(cmp, "work_s", "ci95_lo_pct")), -59.6283, 1e-3);
	cr_assert(!json_object_get_boolean(J(cmp, "work_s", "significant")));
	cr_assert(json_object_get_boolean(J(cmp, "work_s", "primary")));
	cr_assert_null(J(cmp, "work_s", "p_holm"), "a primary metric is not adjusted");
	/*
	 * rate: 90 +- 10 vs 115 +- 5, p = 0.031562, the 8th smallest of the 9
	 * secondary p-values (the others: 0.000922, 0.002356, 0.002743 x 4,
	 * 0.003317, and wall time's 0.104479), so Holm's is 2 * p: not
	 * significant, where an uncorrected test said it was.
	 */
	cr_assert_float_eq(json_object_get_double(J(cmp, "rate_mean", "p_value")), 0.031562, 1e-6);
	cr_assert_float_eq(json_object_get_double(J(cmp, "rate_mean", "p_holm")), 0.063124, 1e-6);
	cr_assert(!json_object_get_boolean(J(cmp, "rate_mean", "significant")));
	cr_assert_float_eq(json_object_get_double(J(cmp, "rate_mean", "diff_pct")), 250.0 / 9, 1e-9);
	cr_assert_eq(json_object_get_int(J(root, "comparisons", "0", "correction", "secondary_tests")), 9);
	cr_assert_eq(json_object_get_int(J(root, "comparisons", "0", "correction",
					   "secondary_significant_uncorrected")), 8);
	cr_assert_eq(json_object_get_int(J(root, "comparisons", "0", "correction",
					   "secondary_significant_holm")), 7);
	cr_assert_str_eq(json_object_get_string(J(root, "verdict", "0", "primary", "cost_total",
						  "outcome")), "changed: worse");
	cr_assert_str_eq(json_object_get_string(J(root, "verdict", "0", "timing")), "wall");
	cr_assert(json_object_get_boolean(J(root, "verdict", "0", "remote_memory_free")),
		  "uniform latency: remote memory cost nothing");
	cr_assert_eq(json_object_array_length(J(root, "runs")), 8);
	cr_assert_str_eq(json_object_get_string(J(root, "runs", "6", "status")), "failed");
	cr_assert_null(J(root, "sweep"));
	json_object_put(root);
	results_free(&r);
}

Test(report, summary_md)
{
	struct results r;
	char path[PATH_MAX * 2], *md;

	load("onoff", &r);
	cr_assert_eq(report_write(&r), 0);
	snprintf(path, sizeof(path), "%s/summary.md", r.dir);
	md = slurp(path);
	cr_assert(strstr(md, "# Experiment onoff"));
	cr_assert(strstr(md, "Latency: uniform."), "the latency mode must be stated");
	cr_assert(strstr(md, "same real latency"));
	cr_assert(strstr(md, "Time dilation"));
	cr_assert(strstr(md, "| workload time | s | 3 | 12 | 2 | 16.67 | 10 | 12 | 14 |"), "%s", md);
	cr_assert(strstr(md, "| on | 4 | failed | - | - | - | - | - | "
			 "kernel panic/oops/BUG (bnb-vm exit 4) |"));
	cr_assert_null(strstr(md, "reported"), "no run warned: %s", md);
	cr_assert(strstr(md, "### on vs off"));
	/* the effect and its CI before the p-values; rate not significant after Holm */
	cr_assert(strstr(md, "| workload rate | MB/s | 90 ± 10 | 115 ± 5 | 25 [4.223, 45.78] | "
			 "27.78 [4.692, 50.86] | 0.03156 | 0.06312 |  |"), "%s", md);
	cr_assert(strstr(md, "| **workload time** | s | 12 ± 2 | 9 ± 1 | -3 [-7.155, 1.155] | "
			 "-25 [-59.63, 9.628] | 0.1045 | primary |  |"), "%s", md);
	cr_assert(strstr(md, "Of those 9, 8 had p < 0.05 before the correction and 7 after it."));
	/* the verdict comes first and says what changed, by how much, at what cost */
	cr_assert(strstr(md, "## Verdict") && strstr(md, "## Verdict") < strstr(md, "## Notes"));
	cr_assert(strstr(md, "**on** against **off**: balancing = on (off). Latency uniform "
			 "(remote memory costs nothing there: only the balancer's cost shows), "
			 "timing wall. 1 of 2 primary metrics changed significantly"), "%s", md);
	/* remote memory that costs nothing is said before the verdicts (issue 29) */
	cr_assert(strstr(md, "## Verdict\n\nRemote memory cost nothing in the runs of **off**, "
			 "**on** (latency uniform), so on against off there shows only the "
			 "balancer's cost, not what placement gains."), "%s", md);
	cr_assert(strstr(md, "- workload time: on 9 s [6.52, 11.5] (3 runs), off 12 s [7.03, 17] "
			 "(3 runs); difference -3 [-7.16, +1.16] (-25 % [-59.6, +9.63]), p = 0.104: "
			 "**no significant change**"), "%s", md);
	cr_assert(strstr(md, "- cost in the seed's units (u, one word access): on 1.1e+03 u"));
	cr_assert(strstr(md, "on 90 % after 3 s [0.516, 5.48] in 3 of 3 runs"), "%s", md);
	cr_assert(strstr(md, "- the 9 other metrics: 7 changed after Holm's correction (8 had "
			 "p < 0.05 before it)"));
	free(md);
	results_free(&r);
}

/*
 * bnb-vm's warnings= (the guest kernel's WARNINGs) reaches each run, the
 * table of runs, a note under it and summary.json; a run without a count
 * (it never got that far, or a malformed one) is "-" and null.
 */
Test(report, kernel_warnings)
{
	struct results r;
	struct json_object *root;
	char path[PATH_MAX * 2], *md;

	append("onoff/runs/off/rep1/result", "warnings=0\n");
	append("onoff/runs/on/rep2/result", "warnings=3\n");
	append("onoff/runs/on/rep3/result", "warnings=-2\n");
	snprintf(path, sizeof(path), "%s/onoff/runs/on/rep2/result", tmpdir);
	cr_assert_eq(vm_warnings(path), 3);
	snprintf(path, sizeof(path), "%s/onoff/runs/on/rep3/result", tmpdir);
	cr_assert_eq(vm_warnings(path), -1, "a negative count is no count");
	snprintf(path, sizeof(path), "%s/onoff/runs/on/rep5/result", tmpdir);
	cr_assert_eq(vm_warnings(path), -1, "no result file, no count");
	load("onoff", &r);
	cr_assert_eq(r.runs[0].warnings, 0);
	cr_assert_str_eq(r.runs[4].variant, "on");
	cr_assert_eq(r.runs[4].rep, 2);
	cr_assert_eq(r.runs[4].warnings, 3);
	cr_assert_eq(r.runs[5].warnings, -1);
	cr_assert_eq(report_write(&r), 0);
	snprintf(path, sizeof(path), "%s/summary.md", r.dir);
	md = slurp(path);
	cr_assert(strstr(md, "| guest wall (s) | dilation | warnings | reason |"), "%s", md);
	cr_assert(strstr(md, "| off | 1 | ok | 10 | never | 13 | not measured: no host run recorded | 0 |  |"),
		  "%s", md);
	cr_assert(strstr(md, "| on | 2 | ok | 9 | 3 | 12 | not measured: no host run recorded | 3 |  |"),
		  "%s", md);
	cr_assert(strstr(md, "**The guest kernel reported 3 warning(s) in 1 of 8 run(s)**"), "%s", md);
	snprintf(path, sizeof(path), "%s/summary.json", r.dir);
	root = json_object_from_file(path);
	cr_assert_not_null(root);
	cr_assert_eq(json_object_get_int(J(root, "kernel_warnings", "warnings")), 3);
	cr_assert_eq(json_object_get_int(J(root, "kernel_warnings", "runs")), 1);
	cr_assert_eq(json_object_get_int(J(root, "runs", "4", "warnings")), 3);
	cr_assert_eq(json_object_get_int(J(root, "runs", "0", "warnings")), 0);
	cr_assert_null(J(root, "runs", "5", "warnings"));
	json_object_put(root);
	free(md);
	results_free(&r);
}

/* Put METRICS (summary.json's "metrics" object, as text) into run REL's summary. */
static void set_metrics(const char *rel, const char *metrics)
{
	char path[PATH_MAX];
	struct json_object *root;

	snprintf(path, sizeof(path), "%s/onoff/runs/%s/summary.json", tmpdir, rel);
	root = json_object_from_file(path);
	cr_assert_not_null(root, "%s", path);
	json_object_object_add(root, "metrics", json_tokener_parse(metrics));
	cr_assert_eq(json_object_to_file(path, root), 0);
	json_object_put(root);
}

/* Set counters.KEY to VALUE in the summary.json of onoff's run REL (made if missing). */
static void set_counter(const char *rel, const char *key, long value)
{
	char path[PATH_MAX];
	struct json_object *root, *counters;

	snprintf(path, sizeof(path), "%s/onoff/runs/%s/summary.json", tmpdir, rel);
	root = json_object_from_file(path);
	if (!root)
		root = json_object_new_object();
	if (!json_object_object_get_ex(root, "counters", &counters)) {
		counters = json_object_new_object();
		json_object_object_add(root, "counters", counters);
	}
	json_object_object_add(counters, key, json_object_new_int64(value));
	cr_assert_eq(json_object_to_file(path, root), 0);
	json_object_put(root);
}

/* OFF and ON as the metrics of every repetition of off and on */
static void set_onoff_metrics(const char *off, const char *on)
{
	each_onoff(set_metrics, "", on, off);
}

/* R's report written, and its summary.md */
static char *report_md(struct results *r)
{
	char path[PATH_MAX * 2];

	cr_assert_eq(report_write(r), 0);
	snprintf(path, sizeof(path), "%s/summary.md", r->dir);
	return slurp(path);
}

/*
 * A run whose convergence never held (balancing off) has no passes or time
 * to converge: the Runs table says "never", nothing is refused as absurd,
 * and the note, for a workload without phases, says nothing of phases.
 */
Test(report, never_converged_is_never)
{
	struct results r;
	char *md;

	set_onoff_metrics("{ \"scan_passes\": { \"value\": 0 }, "
			  "\"scale_time\": { \"value\": 0.05 }, "
			  "\"scale_size\": { \"value\": 0.01 }, "
			  "\"hw_passes_min\": { \"value\": 2 }, "
			  "\"hw_passes_max\": { \"value\": 50 } }",
			  "{ \"scan_passes\": { \"value\": 9 }, "
			  "\"passes_to_conv_90\": { \"value\": 4 }, "
			  "\"time_to_conv_90_hw_s\": { \"value\": 40 }, "
			  "\"scale_time\": { \"value\": 0.05 } }");
	load("onoff", &r);
	md = report_md(&r);
	cr_assert(strstr(md, "| off | 1 | ok | 10 | never | 0 | never | - | never |"), "%s", md);
	cr_assert(strstr(md, "| on | 1 | ok | 8 | 2 | 9 | 4 | - | 40 |"), "%s", md);
	cr_assert_null(strstr(md, "Refused values"), "%s", md);
	cr_assert(strstr(md, "on 90 % after 3 s [0.516, 5.48], 4 passes, 40 s of the hardware run "
			 "in 3 of 3 runs"), "the verdict's passes and hardware seconds\n%s", md);
	cr_assert(strstr(md, "on: 9 scan passes a run (9..9), 90 % convergence after 4 passes, 3 s "
			 "(40 s of the hardware run)"), "%s", md);
	cr_assert_null(strstr(md, "phase"), "no phases, nothing about them:\n%s", md);
	cr_assert_null(strstr(md, "nan"), "%s", md);
	free(md);
	results_free(&r);
}

/*
 * Where the accesses went: the Runs table's locality column is the time
 * to 90 % of the rise, "flat" where it rose by under LOCRISE_MIN_GAIN
 * (off), and the note says start, best and passes, also for the "on"
 * runs whose hint-fault convergence never held.
 */
Test(report, the_locality_rise_beside_the_convergence)
{
	struct results r;
	char *md;

	set_onoff_metrics("{ \"scan_passes\": { \"value\": 0 }, "
			  "\"locality_start\": { \"value\": 0.5 }, "
			  "\"locality_peak\": { \"value\": 0.55 } }",
			  "{ \"scan_passes\": { \"value\": 9 }, "
			  "\"locality_start\": { \"value\": 0.2 }, "
			  "\"locality_peak\": { \"value\": 0.9 }, "
			  "\"locality_to90_s\": { \"value\": 1.5 }, "
			  "\"passes_to_locality_90\": { \"value\": 3 } }");
	load("onoff", &r);
	md = report_md(&r);
	cr_assert(strstr(md, "| off | 1 | ok | 10 | never | flat | 0 | never |"), "%s", md);
	cr_assert(strstr(md, "| on | 1 | ok | 8 | 2 | 1.5 | 9 | - |"), "%s", md);
	cr_assert(strstr(md, "true locality 0.20 -> 0.90 at best, 90 % of the rise after 3 passes, "
			 "1.5 s"), "%s", md);
	cr_assert(strstr(md, "² Where the accesses went"), "%s", md);
	cr_assert(strstr(md, "- true locality over the work (the plugin's accesses, first "
			 "window -> best): on 0.20 -> 0.90, 90 % of the rise after 1.5 s, 3 passes "
			 "in 3 of 3 runs; off 0.50 -> 0.55, flat in 3 runs\n"),
		  "the verdict's line\n%s", md);
	cr_assert_null(strstr(md, "nan"), "%s", md);
	free(md);
	results_free(&r);
}

/*
 * A balancing-on run whose scanner changed no PTE measured no balancing:
 * the notes name it and summary.json lists it; balancing-off runs and a
 * failed one are not listed, and a report where every on run scanned
 * says nothing of it.
 */
Test(report, names_the_runs_that_never_scanned)
{
	struct json_object *root;
	struct results r;
	char path[PATH_MAX * 2];
	char *md;

	load("onoff", &r);
	md = report_md(&r);
	cr_assert_null(strstr(md, "No balancing happened"), "%s", md);
	free(md);
	results_free(&r);

	set_counter("on/rep2", "numa_pte_updates", 0);
	set_counter("on/rep4", "numa_pte_updates", 0);
	load("onoff", &r);
	md = report_md(&r);
	cr_assert(strstr(md, "- **No balancing happened** in run on/rep2: balancing was on but "
			 "the scanner changed no PTE (numa_pte_updates 0), so it measured the "
			 "workload without balancing."), "%s", md);
	cr_assert_null(strstr(md, "on/rep4"), "a failed run is not named\n%s", md);
	cr_assert_null(strstr(md, "off/rep1:"), "off runs scan nothing by design\n%s", md);
	snprintf(path, sizeof(path), "%s/summary.json", r.dir);
	root = json_object_from_file(path);
	cr_assert_not_null(root);
	cr_assert_eq(json_object_array_length(J(root, "unscanned_runs")), 1);
	cr_assert_str_eq(json_object_get_string(J(root, "unscanned_runs", "0")), "on/rep2");
	json_object_put(root);
	free(md);
	results_free(&r);
}

Test(report, sweep_best_setting)
{
	struct results r;
	struct json_object *root;
	char path[PATH_MAX * 2], *md;

	load("sweep", &r);
	cr_assert_eq(r.exp.n_variants, 3);
	cr_assert_eq(report_write(&r), 0);
	snprintf(path, sizeof(path), "%s/summary.json", r.dir);
	root = json_object_from_file(path);
	cr_assert_str_eq(json_object_get_string(J(root, "sweep", "objective")), "cost");
	cr_assert_str_eq(json_object_get_string(J(root, "sweep", "keys", "scan_period_min_ms",
						  "best", "variant")),
			 "scan-scan_period_min_ms=1000");
	cr_assert_str_eq(json_object_get_string(J(root, "sweep", "keys", "scan_period_min_ms",
						  "best_per_objective", "convergence", "value")),
			 "100");
	cr_assert_str_eq(json_object_get_string(J(root, "sweep", "keys", "scan_period_min_ms",
						  "best_per_objective", "work", "variant")),
			 "scan-scan_period_min_ms=500");
	cr_assert_float_eq(json_object_get_double(J(root, "sweep", "keys", "scan_period_min_ms",
						    "best", "p_welch")), 0.003791, 1e-6,
			   "best against worst, Welch");
	cr_assert_str_eq(json_object_get_string(J(root, "sweep", "keys", "scan_period_min_ms",
						  "variants", "1", "point", "scan_period_min_ms")),
			 "500");
	cr_assert_float_eq(json_object_get_double(J(root, "sweep", "keys", "scan_period_min_ms",
						    "variants", "1", "cost_total")), 2050, 1e-9);
	json_object_put(root);
	snprintf(path, sizeof(path), "%s/summary.md", r.dir);
	md = slurp(path);
	cr_assert(strstr(md, "| 500 | 2.2 [-0.3412, 4.741] | 2050 [1415, 2685] | 10.2 [7.659, 12.74] "
			 "| - | - | scan-scan_period_min_ms=500 |"), "%s", md);
	/* the fixture has no account: the net objective says so */
	cr_assert(strstr(md, "- net (lowest account_spent_s): no finished run has it"), "%s", md);
	cr_assert(strstr(md, "- cost (lowest cost_total) **<- objective**: **scan_period_min_ms = "
			 "1000**, 1050 [414.7, 1685] (2 runs); the worst, 100, 5100 [3829, 6371] (2 "
			 "runs); difference -4050, p (Welch) 0.003791: **significant**"), "%s", md);
	free(md);
	results_free(&r);
}

static void assert_png(const char *dir, const char *name)
{
	static const unsigned char magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	unsigned char head[24];
	char path[PATH_MAX * 2];
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.png", dir, name);
	f = fopen(path, "rb");
	cr_assert_not_null(f, "%s missing", path);
	cr_assert_eq(fread(head, 1, sizeof(head), f), sizeof(head));
	fclose(f);
	cr_assert_eq(memcmp(head, magic, 8), 0, "%s is not a PNG", path);
	cr_assert_eq(memcmp(head + 12, "IHDR", 4), 0);
	cr_assert_gt((head[16] << 24 | head[17] << 16 | head[18] << 8 | head[19]), 500, "width");
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_gt(st.st_size, 10000, "%s is suspiciously small", path);
	snprintf(path, sizeof(path), "%s/%s.svg", dir, name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s missing", path);
	fclose(f);
	cr_assert(strstr(slurp(path), "<svg"), "%s is not SVG", path);
}

Test(report, plots_onoff)
{
	static const char *const names[] = {
		"convergence", "cost", "faults-on", "faults-off", "rate", "locality",
	};
	struct results r;
	char pub[PATH_MAX * 2], *gp;
	size_t i;
	FILE *f;

	/* the last section, [on], becomes a bound line on the rate plot */
	snprintf(pub, sizeof(pub), "%s/onoff/experiment.ini", tmpdir);
	f = fopen(pub, "a");
	fputs("bound = remote\n", f);
	fclose(f);
	load("onoff", &r);
	cr_assert_eq(plot_all(&r), 0);
	snprintf(pub, sizeof(pub), "%s/plots/rate.gp", r.dir);
	gp = slurp(pub);
	cr_assert(strstr(gp, "115 with lines lw 2 dt 4 lc rgb '#7f7f7f' title 'remote bound: on mean 115'"),
		  "%s", gp);
	cr_assert(strstr(gp, "set ylabel 'workload rate (MB/s)'"));
	cr_assert(strstr(gp, "set title 'onoff: workload rate over time (off, on)'"));
	free(gp);
	snprintf(pub, sizeof(pub), "%s/plots/onoff", tmpdir);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char dir[PATH_MAX * 2];

		snprintf(dir, sizeof(dir), "%s/plots", r.dir);
		assert_png(dir, names[i]);
		assert_png(pub, names[i]);
	}
	results_free(&r);
}

/*
 * Add the collector's promote_mbps and demote_mbps to run REL's
 * timeseries.csv: MBPS at every row from the second on (0 with 0); with
 * SHARE >= 0 the plugin's fast_tier_share too.
 */
static void tier_columns(const char *rel, double mbps, double share)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8], line[4096];
	FILE *in, *out;
	int row = 0;

	snprintf(path, sizeof(path), "%s/%s/timeseries.csv", tmpdir, rel);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	in = fopen(path, "r");
	out = fopen(tmp, "w");
	cr_assert(in && out, "%s", path);
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] == '#')
			fprintf(out, "%s\n", line);
		else if (!row++)
			fprintf(out, "%s,promote_mbps,demote_mbps%s\n", line,
				share >= 0 ? ",fast_tier_share" : "");
		else if (share >= 0)
			fprintf(out, "%s,%g,%g,%g\n", line, row > 2 ? mbps : 0, mbps / 4, share);
		else
			fprintf(out, "%s,%g,%g\n", line, row > 2 ? mbps : 0, mbps / 4);
	}
	fclose(in);
	fclose(out);
	cr_assert_eq(rename(tmp, path), 0);
}

/* Promotion traffic over time is drawn when a run tiers, and only then. */
Test(report, plots_tiering)
{
	struct results r;
	char dir[PATH_MAX * 2], rel[64], *gp;

	for (int rep = 1; rep <= 3; rep++) {
		snprintf(rel, sizeof(rel), "onoff/runs/off/rep%d", rep);
		tier_columns(rel, 0, -1);
		snprintf(rel, sizeof(rel), "onoff/runs/on/rep%d", rep);
		tier_columns(rel, 8 * rep, -1);
	}
	load("onoff", &r);
	cr_assert_eq(plot_all(&r), 0);
	snprintf(dir, sizeof(dir), "%s/plots", r.dir);
	assert_png(dir, "tiering");
	snprintf(dir, sizeof(dir), "%s/plots/tiering.gp", r.dir);
	gp = slurp(dir);
	cr_expect(strstr(gp, "'data/on-rep1.tiering.dat' using 1:2 with lines lw 1 dt 1 "
			 "lc rgb '#d62728' title 'on: promoted'"), "%s", gp);
	cr_expect(strstr(gp, "'data/off-rep2.tiering.dat' using 1:3 with lines lw 1 dt 2 "
			 "lc rgb '#1f77b4' notitle"), "%s", gp);
	cr_expect_null(strstr(gp, "fast tier"), "no share without the plugin's tier counts");
	free(gp);
	results_free(&r);
}

/* The fast tier's share gets a panel of its own, drawn even where nothing moved. */
Test(report, plots_tiering_share)
{
	struct results r;
	char path[PATH_MAX * 2], *gp;

	for (int rep = 1; rep <= 3; rep++) {
		snprintf(path, sizeof(path), "onoff/runs/off/rep%d", rep);
		tier_columns(path, 0, 0.4);
	}
	load("onoff", &r);
	cr_assert_eq(plot_all(&r), 0);
	snprintf(path, sizeof(path), "%s/plots/tiering.gp", r.dir);
	gp = slurp(path);
	cr_expect(strstr(gp, "set multiplot layout 2,1"), "%s", gp);
	cr_expect(strstr(gp, "set ylabel 'share of accesses served by the fast tier'\n"
			 "set yrange [0:1.05]\n"
			 "plot 'data/off-rep1.tiering.dat' using 1:4 with lines lw 1 dt 1 "
			 "lc rgb '#1f77b4' title 'off: fast tier'"), "%s", gp);
	free(gp);
	snprintf(path, sizeof(path), "%s/plots", r.dir);
	assert_png(path, "tiering");
	results_free(&r);
}

Test(report, plots_without_tiering)
{
	struct results r;
	char path[PATH_MAX * 2];

	for (int rep = 1; rep <= 3; rep++) {
		snprintf(path, sizeof(path), "onoff/runs/on/rep%d", rep);
		tier_columns(path, 0, -1);
	}
	load("onoff", &r);
	cr_assert_eq(plot_all(&r), 0);
	snprintf(path, sizeof(path), "%s/plots/tiering.png", r.dir);
	cr_expect_neq(access(path, F_OK), 0, "a plot of zeros was drawn");
	results_free(&r);
}

Test(report, plots_sweep)
{
	struct results r;
	char dir[PATH_MAX + 16], err[512];

	/* a relative folder, as in `bnb-run plot results/...` */
	cr_assert_eq(chdir(tmpdir), 0);
	cr_assert_eq(results_load("sweep", &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(plot_all(&r), 0);
	snprintf(dir, sizeof(dir), "%s/plots", r.dir);
	assert_png(dir, "sweep-scan_period_min_ms");
	results_free(&r);
}

/* TMPDIR/REL (a summary.json): without key DROP, with METRICS when given. */
static void edit_summary(const char *rel, const char *drop, const char *metrics)
{
	struct json_object *root;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	root = json_object_from_file(path);
	cr_assert_not_null(root, "%s", path);
	if (drop)
		json_object_object_del(root, drop);
	if (metrics)
		json_object_object_add(root, "metrics", json_tokener_parse(metrics));
	cr_assert_eq(json_object_to_file(path, root), 0);
	json_object_put(root);
}

/* The results folder NAME plotted (gnuplot accepting every script), and its PLOT.gp. */
static char *plot_script(const char *name, const char *plot, struct results *r)
{
	char path[PATH_MAX * 2];

	load(name, r);
	cr_assert_eq(plot_all(r), 0, "gnuplot refused a script of %s", r->exp.name);
	snprintf(path, sizeof(path), "%s/plots/%s.gp", r->dir, plot);
	return slurp(path);
}

/* gnuplot reads '' as one ' inside '...'; a cut never splits the pair. */
Test(report, gp_str_quotes)
{
	char buf[GP_STR_MAX], small[6];

	cr_assert_str_eq(gp_str(buf, sizeof(buf), "numa's 'sweep'"), "numa''s ''sweep''");
	cr_assert_str_eq(gp_str(buf, sizeof(buf), "two\nlines"), "two lines");
	cr_assert_str_eq(gp_str(small, sizeof(small), "ab'cd"), "ab''c");
	cr_assert_str_eq(gp_str(small, sizeof(small), "abcd'"), "abcd");
}

/*
 * An experiment named with an apostrophe, swept on the hardware's scale
 * (whose x label says "the hardware's value"): gnuplot accepts every
 * script, and the names are in them, quoted.
 */
Test(report, plots_apostrophe)
{
	struct results r;
	char path[PATH_MAX * 2], *gp;

	cr_assert_eq(system("cd \"$BNB_ROOT\" && echo \"name=numa's sweep\" > sweep/jobs.conf && "
			   "echo \"name=it's onoff\" > onoff/jobs.conf"), 0);
	edit_summary("sweep/runs/scan-scan_period_min_ms=100/rep1/summary.json", NULL,
		     "{ \"scale_time\": { \"value\": 0.05 } }");
	gp = plot_script("sweep", "sweep-scan_period_min_ms", &r);
	cr_assert_str_eq(r.exp.name, "numa's sweep");
	cr_assert(strstr(gp, "title 'numa''s sweep: sweep of scan_period_min_ms"), "%s", gp);
	cr_assert(strstr(gp, "(the hardware''s value: scale_scan = hardware)'"), "%s", gp);
	cr_assert_null(strstr(gp, "a missing point"), "every point has every figure:\n%s", gp);
	cr_assert(strstr(gp, "set logscale x\nset xrange [83.3333:1200]\nset xtics (100, 500, 1000)\n"),
		  "a log axis with a tic at each swept value:\n%s", gp);
	free(gp);
	snprintf(path, sizeof(path), "%s/plots", r.dir);
	assert_png(path, "sweep-scan_period_min_ms");
	results_free(&r);

	gp = plot_script("onoff", "convergence", &r);
	cr_assert(strstr(gp, "set title 'it''s onoff: NUMA convergence over time"), "%s", gp);
	free(gp);
	results_free(&r);
}

/* A point without a figure in any run: the plot says so, and still draws. */
Test(report, plots_sweep_missing_point)
{
	struct results r;
	char *gp;

	edit_summary("sweep/runs/scan-scan_period_min_ms=500/rep1/summary.json", "cost_total", NULL);
	edit_summary("sweep/runs/scan-scan_period_min_ms=500/rep2/summary.json", "cost_total", NULL);
	gp = plot_script("sweep", "sweep-scan_period_min_ms", &r);
	cr_assert(strstr(gp, "set label 1 'a missing point: no finished run reached that figure'"),
		  "%s", gp);
	free(gp);
	results_free(&r);
}

/* Each side's kernel, from its runs' provenance, in the tables and the verdict (issue 29). */
static void set_kernel(struct results *r, const char *variant, const char *release,
		       const char *build)
{
	struct json_object *p;
	int i;

	for (i = 0; i < r->n_runs; i++) {
		if (strcmp(r->runs[i].variant, variant))
			continue;
		p = json_object_new_object();
		json_object_object_add(p, "guest.uname_r", json_object_new_string(release));
		json_object_object_add(p, "kernel_key", json_object_new_string(build));
		if (r->runs[i].prov)
			json_object_put(r->runs[i].prov);
		r->runs[i].prov = p;
	}
}

Test(report, names_each_sides_kernel)
{
	struct json_object *root;
	struct results r;
	char path[PATH_MAX * 2], *md;

	load("onoff", &r);
	set_kernel(&r, "off", "6.1.192+", "46a10bb8599e551b");
	set_kernel(&r, "on", "6.12.118+", "fce705f952b5f424");
	cr_assert_eq(report_write(&r), 0);
	snprintf(path, sizeof(path), "%s/summary.md", r.dir);
	md = slurp(path);
	cr_assert(strstr(md, "timing wall, kernel 6.12.118+ (patched, build fce705f952b5f424) "
			 "against 6.1.192+ (patched, build 46a10bb8599e551b)."), "%s", md);
	cr_assert(strstr(md, "### off\n\nKernel: 6.1.192+ (patched, build 46a10bb8599e551b)"),
		  "%s", md);
	free(md);
	snprintf(path, sizeof(path), "%s/summary.json", r.dir);
	root = json_object_from_file(path);
	cr_assert_not_null(root);
	cr_assert_str_eq(json_object_get_string(J(root, "variants", "1", "kernel", "release")),
			 "6.12.118+");
	cr_assert_str_eq(json_object_get_string(J(root, "verdict", "0", "baseline_kernel",
						  "build")), "46a10bb8599e551b");
	json_object_put(root);
	results_free(&r);
}
