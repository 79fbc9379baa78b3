// SPDX-License-Identifier: GPL-2.0
/*
 * Results folders with hostile or broken contents (issue 29): absurd or
 * non-numeric metrics are refused with a note naming the run and the
 * metric, a second "# summary" line is refused rather than believed, and
 * truncated files of a run that ended ok are reported, never silent.
 * Each test edits a copy of the hand-made fixture folder fixtures/runner/onoff.
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

#include "report/compare.h"
#include "lib/util.h"
#include "extract/extract.h"
#include "fixture_dir.h"
#include "report/report.h"
#include "report/results.h"
#include "runner.h"
#include "scratch.h"
#include "extract/wlout.h"

static char tmpdir[64], dir[PATH_MAX];

static void setup(void)
{
	char fixtures[PATH_MAX * 2], cmd[PATH_MAX * 5];

	fixture_dir(fixtures, sizeof(fixtures), "runner");
	scratch_make(tmpdir, sizeof(tmpdir), "hostile");
	setenv("BNB_ROOT", tmpdir, 1);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/onoff' '%s/'", fixtures, tmpdir);
	cr_assert_eq(system(cmd), 0);
	snprintf(dir, sizeof(dir), "%s/onoff", tmpdir);
}

static void teardown(void)
{
	scratch_remove(tmpdir);
}

TestSuite(hostile, .init = setup, .fini = teardown);

/* Write TEXT into the file REL of the folder: MODE "w" replaces, "a" appends. */
static void write_rel(const char *rel, const char *mode, const char *text)
{
	char path[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, mode);
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

#define put(rel, text) write_rel(rel, "w", text)
#define append(rel, text) write_rel(rel, "a", text)

static void load(struct results *r)
{
	char err[512];

	cr_assert_eq(results_load(dir, r, err, sizeof(err)), 0, "%s", err);
}

static const struct run *run_of(const struct results *r, const char *variant, int rep)
{
	for (int i = 0; i < r->n_runs; i++)
		if (!strcmp(r->runs[i].variant, variant) && r->runs[i].rep == rep)
			return &r->runs[i];
	cr_assert_fail("no run %s/rep%d", variant, rep);
	return NULL;
}

/* The values of METRIC over VARIANT's ok runs: none of them absurd. */
static int values(const struct results *r, const char *variant, int metric, double *v)
{
	return results_values(r, variant, metric, v, 16);
}

static char *slurp(const char *rel)
{
	char path[PATH_MAX * 2];
	char *buf = calloc(1, 1 << 20);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	buf[fread(buf, 1, (1 << 20) - 1, f)] = 0;
	fclose(f);
	return buf;
}

/* work_s=-5 and rate_mean=1e308 reach no statistic; the report says which run. */
Test(hostile, absurd_summary_values_refused)
{
	struct results r;
	double v[16];
	int n, i;

	put("runs/on/rep1/out.log", "# unit rate=MB/s\n"
	    "# summary status=ok work_s=-5 rate_mean=1e308 threads=1\n");
	load(&r);
	n = values(&r, "on", M_WORK_S, v);
	for (i = 0; i < n; i++)
		cr_assert(isnan(v[i]) || v[i] >= 0, "work_s %g used", v[i]);
	n = values(&r, "on", M_RATE, v);
	for (i = 0; i < n; i++)
		cr_assert(isnan(v[i]) || v[i] < 1e300, "rate_mean %g used", v[i]);
	cr_assert_not_null(strstr(run_of(&r, "on", 1)->refused, "work_s=-5 is outside"),
			   "%s", run_of(&r, "on", 1)->refused);
	cr_assert_not_null(strstr(run_of(&r, "on", 1)->refused, "rate_mean=1e+308 is outside"));
	cr_assert_eq(report_write(&r), 0);
	results_free(&r);
	char *md = slurp("summary.md");
	cr_assert_not_null(strstr(md, "**Refused values** of run on/rep1"), "%s", md);
	cr_assert_not_null(strstr(md, "work_s=-5 is outside its sane range 0..1e+09"));
	free(md);
}

/* NaN and inf are said, not dropped in silence; the other fields still count. */
Test(hostile, non_numbers_noted)
{
	struct results r;

	put("runs/on/rep2/out.log", "# summary status=ok work_s=nan rate_mean=77 threads=1\n");
	put("runs/off/rep1/out.log", "# summary status=ok work_s=3 rate_mean=inf threads=1\n");
	load(&r);
	cr_assert(isnan(run_of(&r, "on", 2)->m[M_WORK_S]));
	cr_assert_float_eq(run_of(&r, "on", 2)->m[M_RATE], 77, 1e-9);
	cr_assert_not_null(strstr(run_of(&r, "on", 2)->refused, "work_s='nan' is not a finite number"),
			   "%s", run_of(&r, "on", 2)->refused);
	cr_assert_not_null(strstr(run_of(&r, "off", 1)->refused, "rate_mean='inf'"));
	cr_assert_float_eq(run_of(&r, "off", 1)->m[M_WORK_S], 3, 1e-9);
	results_free(&r);
}

/*
 * A second "# summary" line (a guest program printing a fake after the
 * workload's) is refused: neither is believed, and the note says where.
 */
Test(hostile, second_summary_line_refused)
{
	struct results r;
	struct wl_summary s;
	char path[PATH_MAX * 2], why[256];

	append("runs/on/rep3/out.log", "# summary status=ok work_s=0.001 rate_mean=99999\n");
	load(&r);
	cr_assert(isnan(run_of(&r, "on", 3)->m[M_WORK_S]), "the fake line's work_s is used");
	cr_assert(isnan(run_of(&r, "on", 3)->m[M_RATE]), "the first line is not believed either");
	cr_assert_not_null(strstr(run_of(&r, "on", 3)->refused, "2 '# summary' lines"), "%s",
			   run_of(&r, "on", 3)->refused);
	results_free(&r);

	/* the run's verdict uses the same rule */
	snprintf(path, sizeof(path), "%s/runs/on/rep3/out.log", dir);
	cr_assert_eq(wl_scan(path, &s), 0);
	cr_assert_eq(s.n_lines, 2);
	cr_assert_not_null(summary_refusal(&s, true, why, sizeof(why)));
	cr_assert_not_null(strstr(why, "out.log lines"), "%s", why);
}

/* A project workload's line must carry work_s and rate_mean, sane. */
Test(hostile, summary_refusal_rules)
{
	struct wl_summary s;
	char path[PATH_MAX], why[256];

	snprintf(path, sizeof(path), "%s/x.log", tmpdir);
	put("../x.log", "# summary status=ok work_s=2 rate_mean=3\n");
	cr_assert_eq(wl_scan(path, &s), 0);
	cr_assert_null(summary_refusal(&s, true, why, sizeof(why)), "%s", why);
	put("../x.log", "# summary status=ok rate_mean=3\n");
	wl_scan(path, &s);
	cr_assert_null(summary_refusal(&s, false, why, sizeof(why)));
	cr_assert_not_null(summary_refusal(&s, true, why, sizeof(why)));
	cr_assert_str_eq(why, "'# summary' line: no work_s=");
	put("../x.log", "# summary status=ok work_s=1e10 rate_mean=3\n");
	wl_scan(path, &s);
	cr_assert_not_null(summary_refusal(&s, true, why, sizeof(why)));
	cr_assert_not_null(strstr(why, "work_s=1e+10 is outside"), "%s", why);
	put("../x.log", "# summary status=ok work_s=1 rate_mean=3\x1b[2J\n");
	wl_scan(path, &s);
	cr_assert_not_null(summary_refusal(&s, true, why, sizeof(why)));
	cr_assert_null(strchr(why, '\x1b'), "a terminal escape from the guest is echoed: %s", why);
}

/* The collector's and the extractors' numbers get the same bounds. */
Test(hostile, collector_and_extracted_values_bounded)
{
	struct results r;
	struct xmetrics x = { 0 };

	put("runs/on/rep4/summary.json", "{ \"cost_total\": -1, \"convergence_final\": 7,"
	    " \"time_to_conv_90_s\": NaN, \"metrics\": { \"perf.x\": { \"value\": 1e300,"
	    " \"unit\": \"s\" }, \"perf.y\": { \"value\": 2 } } }");
	load(&r);
	const struct run *run = run_of(&r, "on", 4);

	cr_assert(isnan(run->m[M_COST_TOTAL]) && isnan(run->m[M_CONV_FINAL]));
	cr_assert_not_null(strstr(run->refused, "cost_total=-1 is outside"), "%s", run->refused);
	cr_assert_not_null(strstr(run->refused, "convergence_final=7 is outside its sane range 0..1"));
	cr_assert_not_null(strstr(run->refused, "time_to_conv_90_s is not a finite number"),
			   "%s", run->refused);
	cr_assert_not_null(strstr(run->refused, "perf.x=1e+300"), "%s", run->refused);
	cr_assert(isnan(run_metric(run, "perf.x")));
	cr_assert_float_eq(run_metric(run, "perf.y"), 2, 1e-9);
	results_free(&r);

	cr_assert_eq(xm_add(&x, "a", "", INFINITY, BETTER_NONE), -1);
	cr_assert_eq(xm_add(&x, "b\x1b", "", -1e19, BETTER_NONE), -1);
	cr_assert_eq(xm_add(&x, "c", "", 5, BETTER_NONE), 0);
	cr_assert_str_eq(x.refused, "a=inf, b_=-1e+19");
}

/* Cut the file REL of the folder to its first HALF of bytes (half = 0: to half its size). */
static void cut(const char *rel, long bytes)
{
	char path[PATH_MAX * 2];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	cr_assert_eq(stat(path, &st), 0, "%s", path);
	cr_assert_eq(truncate(path, bytes ? bytes : st.st_size / 2), 0);
}

/* What report_problems() says on its console stream for DIR's results. */
static char *problems(int *n_damaged)
{
	struct results r;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	load(&r);
	*n_damaged = report_problems(&r, NULL, f);
	fclose(f);
	results_free(&r);
	return text;
}

/*
 * A run that ended ok but whose summary.json or timeseries.csv was cut
 * short loses figures: plot, report and compare name the file and exit 1.
 */
Test(hostile, truncated_files_are_reported)
{
	char out[PATH_MAX * 2], whole[PATH_MAX * 2], fixtures[PATH_MAX * 2], cmd[PATH_MAX * 5];
	char *argv[] = { "compare", "--out", out, whole, dir, NULL };
	char *text, *md;
	int n;

	cr_redirect_stdout();	/* the reports' own output */
	text = problems(&n);
	cr_assert_eq(n, 0, "the fixture is whole: %s", text);
	free(text);
	cut("runs/on/rep1/summary.json", 0);
	cut("runs/off/rep2/timeseries.csv", 0);
	text = problems(&n);
	cr_assert_eq(n, 2, "%s", text);
	cr_assert_not_null(strstr(text, "run on/rep1 ended ok but summary.json is not valid JSON"),
			   "%s", text);
	cr_assert_not_null(strstr(text, "run off/rep2 ended ok but timeseries.csv has 1 row(s)"),
			   "%s", text);
	free(text);
	cr_assert_eq(cmd_report(dir, false), 1, "report/plot of a damaged folder exits 1");
	md = slurp("summary.md");
	cr_assert_not_null(strstr(md, "**Damaged files** of run on/rep1"), "%s", md);
	free(md);
	/* a whole copy of the fixture against the damaged folder */
	fixture_dir(fixtures, sizeof(fixtures), "runner");
	snprintf(whole, sizeof(whole), "%s/whole", tmpdir);
	snprintf(out, sizeof(out), "%s/cmp", tmpdir);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/onoff' '%s'", fixtures, whole);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(cmd_compare(ARRAY_SIZE(argv) - 1, argv), 1,
		     "compare with a damaged folder exits 1");
}

/* A truncated status file says so instead of "never finished". */
Test(hostile, damaged_status_file)
{
	struct results r;

	put("runs/on/rep5/status", "status=o\x1b[2J");
	load(&r);
	cr_assert_eq(run_of(&r, "on", 5)->status, RUN_INCOMPLETE);
	cr_assert_str_eq(run_of(&r, "on", 5)->reason,
			 "the status file is damaged: status='o\\x1b[2J'");
	results_free(&r);
}
