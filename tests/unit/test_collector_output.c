// SPDX-License-Identifier: GPL-2.0
/*
 * The series accounting and its writers: CSV rows and columns, the final
 * row, the JSON summary with its nulls, and the guest's lies (a counter
 * going backwards, more local hints than hints).
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "reply.h"
#include "series.h"
#include "summary.h"
#include "timeseries.h"
#include "docblock.h"
#include "lib/err.h"
#include "sampler.h"

static struct series s;
static struct bnb_reply replies[8];
static int nr_replies;
static char *out;
static size_t outlen;
static FILE *mem;
static struct csv csv;

static void setup(void)
{
	cr_assert_eq(series_init(&s, 2.0, 10, 0), 0);
	nr_replies = 0;
	mem = open_memstream(&out, &outlen);
	csv_init(&csv, mem);
}

static void teardown(void)
{
	series_free(&s);
	fclose(mem);
	free(out);
}

/* Feed one reply taken at guest time t_ms (host time the same). */
static void feed(const char *text, unsigned t_ms)
{
	struct bnb_reply *r = &replies[nr_replies++];
	struct sample_time t = { t_ms * 1000000ULL, t_ms * 1000000ULL + 2000, t_ms * 1000000ULL };
	char err[200];

	cr_assert_eq(reply_parse(text, strlen(text), r, err, sizeof(err)), 0, "%s", err);
	if (!s.samples) {
		series_columns(&s, r);
		timeseries_header(&csv, &s);
	}
	series_update(&s, r, &t);
	timeseries_row(&csv, &s);
}

static void sample(unsigned long long pte, unsigned long long hints,
		   unsigned long long local, unsigned long long migrated, unsigned t_ms)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "bnb 1 %d %u\nc numa_pte_updates %llu\nc numa_hint_faults %llu\n"
		 "c numa_hint_faults_local %llu\nc numa_pages_migrated %llu\n"
		 "n 0 1000 100\nn 1 1000 200\nend\n",
		 nr_replies + 1, t_ms, pte, hints, local, migrated);
	feed(text, t_ms);
}

/* Line `line` (0-based, comments skipped) of the CSV output. */
static char *csv_line(int line)
{
	static char buf[16384];
	char *p = out;

	fflush(mem);
	for (;;) {
		char *nl = strchr(p, '\n');

		cr_assert(nl, "no line %d in CSV", line);
		if (*p != '#' && line-- == 0) {
			snprintf(buf, sizeof(buf), "%.*s", (int)(nl - p), p);
			return buf;
		}
		p = nl + 1;
	}
}

static int column(const char *name)
{
	char *hdr = strdup(csv_line(0)), *save, *tok;
	int i = 0;

	for (tok = strtok_r(hdr, ",", &save); tok; tok = strtok_r(NULL, ",", &save), i++) {
		if (!strcmp(tok, name)) {
			free(hdr);
			return i;
		}
	}
	free(hdr);
	cr_assert_fail("no column %s", name);
	return -1;
}

/* Field `name` of data row `row` (1-based), empty fields kept. */
static const char *cell(int row, const char *name)
{
	static char val[64];
	int col = column(name);
	const char *p = csv_line(row);

	while (col--) {
		p = strchr(p, ',');
		cr_assert(p, "row %d too short", row);
		p++;
	}
	snprintf(val, sizeof(val), "%.*s", (int)strcspn(p, ","), p);
	return val;
}

TestSuite(output, .init = setup, .fini = teardown);

Test(output, csv_writer_pads_and_drops_nan)
{
	csv_str(&csv, "a");
	csv_str(&csv, "b");
	csv_str(&csv, "c");
	csv_end_row(&csv);
	csv_double(&csv, 0.0 / 0.0);
	csv_u64(&csv, 18446744073709551615ULL);
	csv_end_row(&csv);
	fflush(mem);
	cr_expect_str_eq(out, "a,b,c\n,18446744073709551615,\n");
}

Test(output, header_has_the_contract_columns)
{
	static const char *const required[] = {
		"t_s", "numa_pte_updates", "numa_hint_faults", "numa_hint_faults_local",
		"numa_pages_migrated", "cost_cum", "cost_rate", "convergence",
		"mmtests_cost_cum", "node0_mem_used_kb", "node1_pages", "end",
	};

	sample(0, 0, 0, 0, 0);
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		column(required[i]);
	cr_expect_eq(strncmp(out, "# bnb-collect timeseries", 24), 0);
}

Test(output, deltas_cost_and_convergence)
{
	sample(1000, 50, 10, 7, 0);	/* baseline: nothing counted yet */
	sample(1100, 53, 11, 9, 100);	/* +100 pte, +3 hints (1 local), +2 pages */
	cr_expect_str_eq(cell(1, "numa_hint_faults"), "0");
	cr_expect_str_eq(cell(1, "convergence"), "");	/* no hints: undefined */
	cr_expect_str_eq(cell(1, "cost_rate"), "");
	cr_expect_str_eq(cell(2, "numa_pte_updates"), "100");
	cr_expect_str_eq(cell(2, "numa_pte_updates_ps"), "1000");
	cr_expect_str_eq(cell(2, "numa_hint_faults_remote"), "2");
	/* 8*100 + 1000*3 + 20*2 + 1620*2 */
	cr_expect_str_eq(cell(2, "cost_cum"), "7080");
	cr_expect_str_eq(cell(2, "cost_rate"), "70800");
	cr_expect_str_eq(cell(2, "mmtests_cost_cum"), "15738");
	cr_expect_str_eq(cell(2, "cost_copy_cum"), "3240");
	cr_expect_float_eq(atof(cell(2, "convergence")), 1.0 / 3, 1e-9);
	cr_expect_str_eq(cell(2, "node1_mem_used_kb"), "200");
	cr_expect_str_eq(cell(2, "node1_pages"), "");	/* not walked */
}

Test(output, guest_lies_are_contained)
{
	sample(1000, 50, 10, 7, 0);
	sample(900, 60, 30, 7, 100);	/* pte backwards, local +20 > hints +10 */
	cr_expect_str_eq(cell(2, "numa_pte_updates_d"), "0");
	cr_expect_str_eq(cell(2, "numa_hint_faults_local"), "20");
	cr_expect_str_eq(cell(2, "convergence"), "1");	/* clamped to hints */
	cr_expect_geq(s.warnings, 2);
	sample(950, 60, 30, 7, 200);	/* rebased on 900: +50 */
	cr_expect_str_eq(cell(3, "numa_pte_updates"), "50");
}

Test(output, absent_counters_are_empty_not_zero)
{
	feed("bnb 1 1 0\nc pgfault 5\nend\n", 0);
	feed("bnb 1 2 100000000\nc pgfault 9\nend\n", 100);
	cr_expect_str_eq(cell(2, "numa_hint_faults"), "");
	cr_expect_str_eq(cell(2, "cost_cum"), "");
	cr_expect_str_eq(cell(2, "pgfault"), "4");
	cr_expect_str_eq(cell(2, "pgpromote_success"), "");
	cr_expect_str_eq(cell(2, "promote_mbps"), "");
	cr_expect_str_eq(cell(2, "demote_mbps"), "");
}

/* A 6.12-like guest's tiering counters at T_MS, without pgdemote_khugepaged (6.1). */
static void tier_sample(unsigned long long promoted, unsigned long long candidates,
			unsigned long long kswapd, unsigned long long direct, unsigned t_ms)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "bnb 1 %d %llu\nc pgpromote_success %llu\nc pgpromote_candidate %llu\n"
		 "c pgdemote_kswapd %llu\nc pgdemote_direct %llu\nend\n", nr_replies + 1,
		 t_ms * 1000000ULL, promoted, candidates, kswapd, direct);
	feed(text, t_ms);
}

/* 1280 pages promoted and 512 demoted in the first 0.5 s, nothing in the next. */
static void tier_run(void)
{
	tier_sample(100, 300, 10, 0, 0);
	tier_sample(100 + 1280, 300 + 2000, 10 + 256, 256, 500);
	tier_sample(100 + 1280, 300 + 2000, 10 + 256, 256, 1000);
}

/*
 * Promotion traffic per interval in MB/s of 2^20 bytes (the unit of the
 * kernel's numa_balancing_promote_rate_limit_MBps): 1280 pages of 4 KiB
 * in 0.5 s are 10 MB/s; demotion sums kswapd's and direct reclaim's.
 */
Test(output, tiering_rates_per_interval)
{
	tier_run();
	cr_expect_str_eq(cell(1, "promote_mbps"), "");	/* no interval yet */
	cr_expect_str_eq(cell(2, "pgpromote_success"), "1280");
	cr_expect_str_eq(cell(2, "pgpromote_success_ps"), "2560");
	cr_expect_str_eq(cell(2, "promote_mbps"), "10");
	cr_expect_str_eq(cell(2, "demote_mbps"), "4");
	cr_expect_str_eq(cell(3, "promote_mbps"), "0");
	cr_expect_str_eq(cell(3, "pgpromote_candidate"), "2000");
	cr_expect_str_eq(cell(3, "pgdemote_khugepaged"), "", "absent on this kernel, not 0");
}

/* A counter that goes backwards or leaps is no traffic, not a huge rate. */
Test(output, tiering_lies_are_no_traffic)
{
	tier_sample(5000, 0, 0, 0, 0);
	tier_sample(4000, 0, 0, 0, 100);
	cr_expect_str_eq(cell(2, "promote_mbps"), "0");
	tier_sample(4000 + (1ULL << 50), 0, 0, 0, 200);
	cr_expect_str_eq(cell(3, "promote_mbps"), "0");
	tier_sample(4000 + (1ULL << 50) + 256, 0, 0, 0, 300);	/* rebased: +256 */
	cr_expect_str_eq(cell(4, "promote_mbps"), "10");
	cr_expect_geq(s.warnings, 2);
}

Test(output, final_row_marks_the_end)
{
	sample(0, 0, 0, 0, 0);
	timeseries_end(&csv, &s, 1.5, "agent-gone");
	cr_expect_str_eq(cell(2, "status"), "end");
	cr_expect_str_eq(cell(2, "end"), "agent-gone");
	cr_expect_str_eq(cell(2, "t_s"), "1.5");
	cr_expect_str_eq(cell(1, "end"), "");
}

static struct json_object *key(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	cr_assert(json_object_object_get_ex(o, k, &v), "summary has no key %s", k);
	return v;
}

Test(output, summary_json)
{
	struct run_info run = { .end = "agent-gone", .dropped = 2, .late = 1,
				.interval_ms = 100, .duration_s = 3 };
	struct json_object *j;

	sample(0, 0, 0, 0, 0);
	sample(100, 10, 5, 0, 1000);	/* conv 0.5 from t = 1 s */
	sample(200, 20, 15, 0, 2000);	/* last 10 hints all local: 1.0 */
	j = summary_build(&s, &run);
	cr_expect_str_eq(json_object_get_string(key(j, "end")), "agent-gone");
	cr_expect_eq(json_object_get_int(key(j, "samples")), 3);
	cr_expect_eq(json_object_get_int(key(j, "dropped")), 2);
	cr_expect_eq(json_object_get_int(key(j, "late")), 1);
	cr_expect_eq(json_object_get_int(key(key(j, "counters"), "numa_hint_faults")), 20);
	cr_expect_float_eq(json_object_get_double(key(j, "cost_total")),
			   8 * 200 + 1000 * 20, 1e-6);
	cr_expect_float_eq(json_object_get_double(key(j, "cost_per_s")),
			   (8 * 200 + 1000 * 20) / 2.0, 0.1);	/* host span 2 s + 1 us */
	cr_expect_float_eq(json_object_get_double(key(j, "convergence_final")), 1.0, 1e-12);
	/* 0.5 held over [1 s, 2 s]: the only interval with a defined value */
	cr_expect_float_eq(json_object_get_double(key(j, "convergence_time_weighted")),
			   0.5, 1e-9);
	cr_expect_float_eq(json_object_get_double(key(j, "time_to_conv_90_s")), 2.0, 1e-5);
	cr_expect_float_eq(json_object_get_double(key(j, "time_to_conv_95_s")), 2.0, 1e-5);
	cr_expect_float_eq(json_object_get_double(key(key(j, "cost_params"), "Cpagecopy")),
			   1620, 1e-9);
	cr_expect_eq(json_object_get_int(key(j, "window_hints")), 10);
	cr_expect_float_eq(json_object_get_double(key(j, "window_s")), 0, 1e-12);
	cr_expect_float_eq(json_object_get_double(key(j, "window_n_mean")), 10, 1e-12);
	json_object_put(j);
}

/*
 * N = the hints of the last 1.5 s of guest time, at least 5: 10, 20, 10,
 * then 5 once no hint is that recent; the CSV says which N each value had.
 */
Test(output, window_sized_to_the_run)
{
	struct run_info run = { .end = "agent-gone", .interval_ms = 1000 };
	struct json_object *j;

	series_free(&s);
	cr_assert_eq(series_init(&s, 2.0, 5, 1.5), 0);
	sample(0, 0, 0, 0, 0);
	sample(0, 10, 5, 0, 1000);	/* N 10: 0.5 */
	sample(0, 20, 15, 0, 2000);	/* N 20: 15 / 20 */
	cr_expect_float_eq(s.conv, 0.75, 1e-12);
	sample(0, 20, 15, 0, 3000);	/* N 10, the hints of t = 2 s: 1.0 */
	cr_expect_str_eq(cell(4, "window_hints"), "10");
	sample(0, 20, 15, 0, 4000);	/* N 5, the floor */
	cr_expect_str_eq(cell(5, "window_hints"), "5");
	cr_expect_str_eq(cell(5, "convergence"), "1");
	j = summary_build(&s, &run);
	cr_expect_eq(json_object_get_int(key(j, "window_hints")), 5);
	cr_expect_float_eq(json_object_get_double(key(j, "window_s")), 1.5, 1e-12);
	cr_expect_eq(json_object_get_int(key(j, "window_n_min")), 5);
	cr_expect_eq(json_object_get_int(key(j, "window_n_max")), 20);
	cr_expect_float_eq(json_object_get_double(key(j, "window_n_mean")), 45 / 4.0, 1e-12);
	cr_expect_float_eq(json_object_get_double(key(j, "convergence_final")), 1.0, 1e-12);
	json_object_put(j);
}

/* Time to converge is the start of the final stretch above the level. */
Test(output, time_to_converge_is_sustained)
{
	struct run_info run = { .end = "agent-gone", .interval_ms = 100 };
	struct json_object *j;

	sample(0, 0, 0, 0, 0);
	sample(0, 4, 4, 0, 1000);	/* 1.0 by chance */
	sample(0, 10, 4, 0, 2000);	/* 0.4 */
	sample(0, 30, 22, 0, 3000);	/* 20 hints, 18 local: 0.9 */
	sample(0, 40, 32, 0, 4000);	/* 1.0 */
	j = summary_build(&s, &run);
	cr_expect_float_eq(json_object_get_double(key(j, "time_to_conv_90_s")), 3.0, 1e-5);
	cr_expect_float_eq(json_object_get_double(key(j, "time_to_conv_95_s")), 4.0, 1e-5);
	json_object_put(j);
}

Test(output, summary_nulls_when_undefined)
{
	struct run_info run = { .end = "sigint", .interval_ms = 100 };
	struct json_object *j;

	sample(0, 0, 0, 0, 0);
	sample(10, 0, 0, 0, 100);
	j = summary_build(&s, &run);
	cr_expect_null(key(j, "convergence_final"));
	cr_expect_null(key(j, "convergence_time_weighted"));
	cr_expect_null(key(j, "time_to_conv_90_s"));
	cr_expect_null(key(j, "time_to_conv_95_s"));
	cr_expect_null(key(key(j, "counters"), "pgfault"));
	/* a kernel without the counters has no tiering figures, not zeros */
	cr_expect_null(key(j, "tiering"));
	cr_expect_null(key(key(j, "counters"), "pgpromote_success"));
	json_object_put(j);
}

Test(output, summary_tiering)
{
	struct run_info run = { .end = "agent-gone", .interval_ms = 500 };
	struct json_object *j, *t;

	tier_run();
	j = summary_build(&s, &run);
	t = key(j, "tiering");
	cr_expect_eq(json_object_get_int(key(t, "promoted_pages")), 1280);
	cr_expect_eq(json_object_get_int(key(t, "promote_candidates")), 2000);
	cr_expect_eq(json_object_get_int(key(t, "demoted_pages")), 512);
	cr_expect_str_eq(json_object_get_string(key(t, "rates_over")), "run");
	cr_expect_float_eq(json_object_get_double(key(t, "rates_span_s")), 1.0, 1e-9);
	cr_expect_float_eq(json_object_get_double(key(t, "promote_pages_per_s")), 1280, 1e-6);
	cr_expect_float_eq(json_object_get_double(key(t, "promote_mbps_mean")), 5, 1e-9);
	cr_expect_float_eq(json_object_get_double(key(t, "promote_mbps_max")), 10, 1e-9);
	cr_expect_float_eq(json_object_get_double(key(t, "demote_mbps_mean")), 2, 1e-9);
	cr_expect_null(key(key(j, "counters"), "pgdemote_khugepaged"));
	json_object_put(j);
}

static void collect_markdown(FILE *f)
{
	opt_tool_markdown(f, &collect_tool);
}

/* docs/HACKING.md's bnb-collect table is the options table, printed. */
Test(options, hacking_table_is_the_options_table)
{
	char *doc = doc_block("docs/HACKING.md", "bnb-collect options");
	char *now = printed(collect_markdown);

	cr_assert_not_null(doc, "no <!-- bnb-collect options --> block in docs/HACKING.md");
	cr_assert_str_eq(doc, now, "docs/HACKING.md is stale: put build/bin/bnb-collect "
			 "--help=markdown between its markers");
	free(doc);
	free(now);
}

Test(options, defaults_and_errors)
{
	char *ok[] = { "bnb-collect", "--socket=s", "--out", "o", "--distance=10,30;30,10", NULL };
	char *bad[] = { "bnb-collect", "--socket=s", "--interval-ms=0", NULL };
	char *missing[] = { "bnb-collect", "--out=o", NULL };
	struct sampler_opts o;
	char err[ERRLEN];

	cr_assert_eq(collect_parse(&o, 5, ok, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(o.socket, "s");
	cr_assert_eq(o.interval_ms, 100);
	cr_assert_eq(o.window_hints, 100);
	cr_assert_float_eq(o.window_s, 5, 1e-12);
	cr_assert_float_eq(o.wnuma, 3.0, 1e-12);
	opt_free(collect_options, collect_n_options, &o);
	cr_assert_eq(collect_parse(&o, 3, bad, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "--interval-ms: '0' is not an integer from 1 to 3600000");
	opt_free(collect_options, collect_n_options, &o);
	cr_assert_eq(collect_parse(&o, 2, missing, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "--socket is required");
	opt_free(collect_options, collect_n_options, &o);
}

static void sample_huge(unsigned long long hints, unsigned long long local,
			unsigned long long huge, unsigned long long huge_local, unsigned t_ms)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "bnb 1 %d %u\nc numa_pte_updates 0\nc numa_hint_faults %llu\n"
		 "c numa_hint_faults_local %llu\nc numa_huge_hint_faults %llu\n"
		 "c numa_huge_hint_faults_local %llu\nc numa_pages_migrated 0\n"
		 "n 0 1000 100\nn 1 1000 200\nend\n",
		 nr_replies + 1, t_ms, hints, local, huge, huge_local);
	feed(text, t_ms);
}

/*
 * By pages (the suite's window: the last 10, faults or pages): 20
 * faults, 19 of them local base pages and one remote huge PMD, read
 * 19 / 20 = 0.95 by faults but 19 / (19 + 512) by pages; 10 local huge
 * faults later both windows hold only local ones.
 */
Test(output, convergence_weighted_by_pages)
{
	sample_huge(0, 0, 0, 0, 0);
	sample_huge(20, 19, 1, 0, 1000);
	cr_expect_float_eq(atof(cell(2, "convergence")), 0.95, 1e-9);
	cr_expect_float_eq(atof(cell(2, "convergence_pages")), 19.0 / 531, 1e-9);
	sample_huge(30, 29, 11, 10, 2000);
	cr_expect_str_eq(cell(3, "convergence_pages"), "1");
}

/* Without the series' huge counters (Debian's kernels): undefined, not made up. */
Test(output, convergence_by_pages_needs_the_counters)
{
	sample(0, 0, 0, 0, 0);
	sample(0, 20, 19, 0, 1000);
	cr_expect_str_eq(cell(2, "convergence_pages"), "");
}

/* The guest's huge counts beyond its faults are clamped to them. */
Test(output, huge_faults_beyond_the_faults_are_clamped)
{
	sample_huge(0, 0, 0, 0, 0);
	sample_huge(4, 4, 9, 9, 1000);	/* 9 huge of 4 faults: 4, all local */
	cr_expect_float_eq(atof(cell(2, "convergence_pages")), 1.0, 1e-9);
}
