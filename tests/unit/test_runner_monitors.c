// SPDX-License-Identifier: GPL-2.0
/*
 * The monitors' host side (bench/runner/extract/monitors.c) on guest output
 * captured with bnb-monitor (fixtures/extract): splitting the monitor
 * files out of out.log, the per-second series, the totals, the names an
 * experiment may give, and guest lines that try to write elsewhere.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture_dir.h"
#include "extract/csv.h"
#include "extract/monitors.h"
#include "scratch.h"

static char fixtures[PATH_MAX + 64], tmp[64];
static struct xmetrics x;

static void setup(void)
{
	fixture_dir(fixtures, sizeof(fixtures), "extract");
	scratch_make(tmp, sizeof(tmp), "mon");
	memset(&x, 0, sizeof(x));
}

static void teardown(void)
{
	scratch_remove(tmp);
}

TestSuite(monitors, .init = setup, .fini = teardown);

static struct json_object *load(const char *fixture)
{
	char path[PATH_MAX + 160];

	snprintf(path, sizeof(path), "%s/%s.log", fixtures, fixture);
	cr_assert_eq(monitors_split(path, tmp), 0);
	return monitors_load(tmp, &x);
}

static double total(struct json_object *all, const char *monitor, const char *name)
{
	struct json_object *m, *v;

	cr_assert(json_object_object_get_ex(all, monitor, &m), "no %s totals", monitor);
	cr_assert(json_object_object_get_ex(m, name, &v), "no %s.%s total", monitor, name);
	return json_object_get_double(v);
}

static void load_csv(const char *name, struct csv *t)
{
	char path[PATH_MAX], err[256];

	snprintf(path, sizeof(path), "%s/monitor/%s", tmp, name);
	cr_assert_eq(csv_load(path, t, err, sizeof(err)), 0, "%s: %s", name, err);
}

Test(monitors, trace_totals_and_rates)
{
	struct json_object *all = load("perf-mem-2x1-cpu0");
	struct csv t;
	int c;

	cr_assert(all);
	/* 16385 + 14 pages in the fixture's two busy intervals */
	cr_assert_float_eq(total(all, "trace", "pages_numa_misplaced"), 16399, 1e-9);
	cr_assert_float_eq(total(all, "trace", "mm_migrate_pages"), 47, 1e-9);
	cr_assert_float_eq(total(all, "trace", "sched_move_numa"), 0, 1e-9);
	cr_assert_float_eq(total(all, "trace", "lost_events"), 0, 1e-9);
	cr_assert(xm_find(&x, "trace.pages_numa_misplaced"), "totals are metrics too");
	load_csv("trace-rates.csv", &t);
	c = csv_col(&t, "pages_numa_misplaced_per_s");
	cr_assert_geq(c, 0);
	cr_assert_eq(t.nrows, 5);
	/* 16385 pages in the interval 3.010146 .. 4.001884 */
	cr_assert_float_eq(csv_at(&t, 3, c), 16385 / (4.001884 - 3.010146), 1e-2);
	csv_free(&t);
	json_object_put(all);
}

Test(monitors, trace_event_log_is_kept)
{
	struct json_object *all = load("perf-mem-2x1-cpu0");
	struct csv t;

	load_csv("trace-events.csv", &t);
	cr_assert_eq(t.nrows, 47, "one line per mm_migrate_pages event");
	cr_assert_float_eq(csv_at(&t, 1, csv_col(&t, "nr_succeeded")), 512, 1e-9);
	csv_free(&t);
	json_object_put(all);
}

Test(monitors, sched_scan_period_series)
{
	struct json_object *all = load("perf-mem-2x1-cpu0");
	struct csv t;

	cr_assert_geq(total(all, "sched", "tasks_seen"), 4, "sh, numa-mem, two workers");
	cr_assert_geq(total(all, "sched", "scan_period_min_ms"), 1000);
	load_csv("sched-series.csv", &t);
	cr_assert_gt(t.nrows, 2);
	cr_assert_geq(csv_col(&t, "scan_period_mean_ms"), 0);
	cr_assert_geq(csv_col(&t, "preferred_nid_changes_per_s"), 0);
	csv_free(&t);
	json_object_put(all);
}

Test(monitors, perfstat_totals_and_rates)
{
	struct json_object *all = load("autonuma-perfstat");
	struct csv t;
	int c;

	cr_assert_float_eq(total(all, "perfstat", "task-clock"), 1992.94 + 989.79, 1e-6);
	cr_assert_float_eq(total(all, "perfstat", "migrate:mm_migrate_pages"), 121, 1e-9);
	cr_assert(xm_find(&x, "perfstat.task-clock"));
	cr_assert_str_eq(xm_find(&x, "perfstat.task-clock")->unit, "msec");
	load_csv("perfstat-rates.csv", &t);
	cr_assert_eq(t.nrows, 2);
	c = csv_col(&t, "page-faults_per_s");
	cr_assert_geq(c, 0);
	cr_assert_float_eq(csv_at(&t, 0, c), 629 / 1.012476190, 1e-2);
	cr_assert_float_eq(csv_at(&t, 1, c), 550 / (1.514552970 - 1.012476190), 1e-2);
	csv_free(&t);
	json_object_put(all);
}

Test(monitors, none_without_monitor_lines)
{
	cr_assert_null(load("perf-mem-2x1"));
	cr_assert_eq(x.n, 0);
}

Test(monitors, guest_cannot_name_other_files)
{
	const char *out = scratch_write(tmp, "out.log",
		"# bnb-mon:../evil: x\n# bnb-mon:trace.csv/../../evil: x\n"
		"# bnb-mon:sched.csv: t_s,pid\n# bnb-mon:nocolon\n");
	char path[PATH_MAX + 64];

	cr_assert_eq(monitors_split(out, tmp), 0);
	snprintf(path, sizeof(path), "%s/evil", tmp);
	cr_assert_neq(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/monitor/sched.csv", tmp);
	cr_assert_eq(access(path, F_OK), 0, "the known file is split out");
}

Test(monitors, names)
{
	char why[256];

	cr_assert_eq(monitors_validate("trace, sched", why, sizeof(why)), 0);
	cr_assert_eq(monitors_validate("none", why, sizeof(why)), 0);
	cr_assert_eq(monitors_validate("trace perfstat", why, sizeof(why)), 0);
	cr_assert_eq(monitors_validate("trace,tracee", why, sizeof(why)), -1);
	cr_assert(strstr(why, "'tracee'"), "%s", why);
	cr_assert(monitors_has("trace, sched", "sched"));
	cr_assert_not(monitors_has("trace, sched", "perfstat"));
	cr_assert(monitor_lookup("perfstat")->needs_perf);
	cr_assert(monitors_need_perf("trace, perfstat"), "the tools archive must be booted");
	cr_assert_not(monitors_need_perf("trace,sched"));
	cr_assert_not(monitor_lookup("trace")->needs_perf);
}
