// SPDX-License-Identifier: GPL-2.0
/*
 * scale_scan = hardware: the kernel's scan arithmetic the plan follows,
 * the factors and their units, the plans of runs shaped like the shipped
 * ones, what each gives up, and the bad input it refuses with the key and
 * the limit named.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment/experiment.h"
#include "extract/extract.h"
#include "reference/reference.h"
#include "report/results.h"
#include "runner.h"
#include "experiment/scale.h"
#include "extract/scalerun.h"
#include "scratch.h"

static struct scale_plan plan;
static const char *key;
static char err[512];

static struct scale_input input(double hw_s, double guest_s, double hw_ws_mb, double guest_ws_mb)
{
	struct scale_input in;

	scale_input_init(&in);
	in.hw_s = hw_s;
	in.guest_s = guest_s;
	in.hw_ws_mb = hw_ws_mb;
	in.guest_ws_mb = guest_ws_mb;
	return in;
}

static int build(const struct scale_input *in)
{
	err[0] = 0;
	return scale_plan_build(in, &plan, &key, err, sizeof(err));
}

Test(scale, the_kernels_windows_floor_and_ticks)
{
	cr_assert_eq(scale_windows(1024, 256), 4);
	cr_assert_eq(scale_windows(3072, 256), 12);
	cr_assert_eq(scale_windows(8, 2), 4);
	cr_assert_eq(scale_windows(8.01, 2), 5, "RSS is rounded up to whole windows");
	cr_assert_eq(scale_windows(1, 256), 1);
	/* task_scan_min(): scan_period_min / windows, floored at 2560 MB/s */
	cr_assert_eq(scale_window_min_ms(1000, 256, 4), 250);
	cr_assert_eq(scale_window_min_ms(1000, 256, 12), 100, "3 GiB: 83 ms under the floor");
	cr_assert_eq(scale_window_min_ms(1000, 2, 4), 250);
	cr_assert_eq(scale_window_min_ms(3, 2, 4), 0, "integer ms, as the kernel");
	/* msecs_to_jiffies() rounds up to whole 4 ms ticks at HZ=250 */
	cr_assert_float_eq(scale_tick_round_ms(4), 4, 1e-9);
	cr_assert_float_eq(scale_tick_round_ms(5), 8, 1e-9);
	cr_assert_float_eq(scale_tick_round_ms(1), 4, 1e-9);
	cr_assert_float_eq(scale_tick_round_ms(41), 44, 1e-9);
}

/* numa02 as the reference suite runs it: 8 MiB for 1 GiB, 9 s for 49.77 s. */
Test(scale, numa02_keeps_passes_and_windows)
{
	struct scale_input in = input(49.77, 9.0, 1024, 8);

	cr_assert_eq(build(&in), 0, "%s", err);
	cr_assert_float_eq(plan.time, 9.0 / 49.77, 1e-12, "guest s / hardware s");
	cr_assert_float_eq(plan.size, 8.0 / 1024, 1e-12, "guest MiB / hardware MiB");
	cr_assert_str_eq(plan.time_key, SCALE_KEY_GUEST_S);
	cr_assert_str_eq(plan.size_key, SCALE_KEY_GUEST_WS);
	cr_assert_eq(plan.hw_windows, 4);
	cr_assert_float_eq(plan.hw_pass_ms, 1000, 1e-9);
	cr_assert_eq(plan.guest[SK_DELAY], 181, "1000 ms x 0.1808");
	cr_assert_eq(plan.guest[SK_MIN], 181);
	cr_assert_eq(plan.guest[SK_MAX], 10850, "60000 ms x 0.1808");
	cr_assert_eq(plan.guest[SK_SIZE], 2, "256 MB / 128");
	cr_assert_eq(plan.guest_windows, 4);
	/* 181 ms / 4 = 45 ms a window, 48 ms in ticks: 192 ms a pass */
	cr_assert_float_eq(plan.guest_pass_ms, 192, 1e-9);
	cr_assert_float_eq(plan.hw_passes_max, 48.77, 1e-9, "(49.77 s - 1 s) / 1 s");
	cr_assert_float_eq(plan.hw_passes_min, 48.77 / 60, 1e-9);
	cr_assert_float_eq(plan.guest_passes_max, (9000 - 181) / 192.0, 1e-9);
	cr_assert_str_eq(plan.given_up, "", "nothing given up: %s", plan.given_up);
	cr_assert(plan.set[SK_RESET]);
	cr_assert_eq(plan.guest[SK_RESET], 10850);
	cr_assert(!plan.set[SK_MIG_INTERVAL] && !plan.set[SK_MIG_LIMIT], "the limit is off");
}

/*
 * numa01: 2 s for 1353 s of hardware. A pass of 1.2 s (12 windows of the
 * floor's 100 ms) becomes 1.7 ms: one window per pass, and one tick.
 */
Test(scale, numa01_gives_up_windows_then_the_tick)
{
	struct scale_input in = input(1352.74, 1.96, 3072, 8);

	cr_assert_eq(build(&in), 0, "%s", err);
	cr_assert_eq(plan.hw_windows, 12);
	cr_assert_float_eq(plan.hw_pass_ms, 1200, 1e-9, "the 2560 MB/s floor binds");
	cr_assert_eq(plan.guest[SK_MIN], 2);
	cr_assert_eq(plan.guest[SK_SIZE], 8, "one window holds the working set");
	cr_assert_eq(plan.guest_windows, 1);
	cr_assert_float_eq(plan.guest_pass_ms, 4, 1e-9, "one tick");
	cr_assert_not_null(strstr(plan.given_up, "windows per pass: 12 on hardware, 1 here"),
			   "%s", plan.given_up);
	cr_assert_not_null(strstr(plan.given_up, "pass period"), "%s", plan.given_up);
}

Test(scale, factors_given_outright_override_the_ratios)
{
	struct scale_input in = input(100, 20, 1024, 512);

	in.time = 0.5;
	in.size = 1.0 / 64;
	cr_assert_eq(build(&in), 0, "%s", err);
	cr_assert_float_eq(plan.time, 0.5, 1e-12);
	cr_assert_float_eq(plan.size, 1.0 / 64, 1e-12);
	cr_assert_str_eq(plan.time_key, SCALE_KEY_TIME);
	cr_assert_str_eq(plan.size_key, SCALE_KEY_SIZE);
	cr_assert_float_eq(plan.guest_s, 50, 1e-12, "the factor's, not the stated 20 s");
	cr_assert_float_eq(plan.guest_ws_mb, 16, 1e-12);
	cr_assert_eq(plan.guest[SK_MIN], 500);
	cr_assert_eq(plan.guest[SK_SIZE], 4);
	cr_assert_eq(plan.guest_windows, 4);
}

/* A value the experiment sets (sysctl.NAME) is the hardware's, and scaled. */
Test(scale, the_experiments_own_values_are_the_hardwares)
{
	struct scale_input in = input(100, 10, 1024, 128);

	in.hw[SK_MIN] = 2000;
	in.hw[SK_DELAY] = 500;
	in.hw[SK_MIG_LIMIT] = 128;
	in.hw[SK_MIG_INTERVAL] = 100;
	cr_assert_eq(build(&in), 0, "%s", err);
	cr_assert_eq(plan.guest[SK_MIN], 200);
	cr_assert_eq(plan.guest[SK_DELAY], 50);
	cr_assert(plan.set[SK_MIG_LIMIT] && plan.set[SK_MIG_INTERVAL]);
	cr_assert_eq(plan.guest[SK_MIG_LIMIT], 16, "128 MB x 1/8");
	cr_assert_eq(plan.guest[SK_MIG_INTERVAL], 10, "100 ms x 0.1");
}

Test(scale, factors_at_or_below_zero_are_refused)
{
	struct scale_input in = input(100, 10, 1024, 8);

	in.time = 0;
	cr_assert_eq(build(&in), -1);
	cr_assert_str_eq(key, SCALE_KEY_TIME);
	cr_assert_not_null(strstr(err, "not above 0"), "%s", err);
	in = input(100, -3, 1024, 8);
	cr_assert_eq(build(&in), -1);
	cr_assert_str_eq(key, SCALE_KEY_GUEST_S);
	in = input(100, 10, 1024, 8);
	in.size = -0.5;
	cr_assert_eq(build(&in), -1);
	cr_assert_str_eq(key, SCALE_KEY_SIZE);
}

Test(scale, missing_inputs_name_the_key)
{
	struct scale_input in = input(NAN, 10, 1024, 8);

	cr_assert_eq(build(&in), -1);
	cr_assert_str_eq(key, SCALE_KEY_HW_S);
	in = input(100, NAN, 1024, 8);
	cr_assert_eq(build(&in), -1);
	cr_assert_str_eq(key, SCALE_KEY_GUEST_S);
	cr_assert_not_null(strstr(err, SCALE_KEY_TIME), "%s", err);
	in = input(100, 10, NAN, 8);
	cr_assert_eq(build(&in), -1);
	cr_assert_str_eq(key, SCALE_KEY_HW_WS);
	in = input(100, 10, NAN, NAN);
	in.size = 0.01;
	cr_assert_eq(build(&in), -1, "passes per pass need the hardware working set");
	cr_assert_str_eq(key, SCALE_KEY_HW_WS);
}

Test(scale, a_scan_period_under_1_ms_is_refused)
{
	struct scale_input in = input(10000, 1, 1024, 8);

	cr_assert_eq(build(&in), -1);
	cr_assert_str_eq(key, SCALE_KEY_GUEST_S);
	cr_assert_not_null(strstr(err, "scan_period_min_ms: 1000 ms on the hardware x time "
				  "factor 0.0001 = 0.1 ms, under the kernel's minimum of 1 ms"),
			   "%s", err);
}

/* Windows kept (the tick allows them), but each under one huge page. */
Test(scale, a_scan_size_under_a_huge_page_is_refused)
{
	struct scale_input in = input(100, 100, 1024, 4);

	cr_assert_eq(build(&in), -1);
	cr_assert_str_eq(key, SCALE_KEY_GUEST_WS);
	cr_assert_not_null(strstr(err, "scan_size_mb: 256 MB on the hardware x size factor "
				  "0.003906 = 1 MB, under the kernel's minimum of 2 MB (one huge "
				  "page)"), "%s", err);
}

Test(scale, a_period_over_the_kernels_bound_is_refused)
{
	struct scale_input in = input(10, 1000, 1024, 1024);

	cr_assert_eq(build(&in), -1);
	cr_assert_str_eq(key, SCALE_KEY_GUEST_S);
	cr_assert_not_null(strstr(err, "scan_period_max_ms"), "%s", err);
	cr_assert_not_null(strstr(err, "over the kernel's maximum of 3600000 ms"), "%s", err);
}

Test(scale, the_rate_limits_interval_under_1_ms_is_refused_when_on)
{
	struct scale_input in = input(1000, 4, 1024, 128);

	cr_assert_eq(build(&in), 0, "off: the interval is not scaled (%s)", err);
	in.hw[SK_MIG_LIMIT] = 128;
	cr_assert_eq(build(&in), -1);
	cr_assert_not_null(strstr(err, "migrate_interval_ms: 100 ms"), "%s", err);
}

Test(scale, the_description_line_carries_the_plan)
{
	struct scale_input in = input(49.77, 9.0, 1024, 8);
	char line[512];

	cr_assert_eq(build(&in), 0, "%s", err);
	scale_plan_describe(&plan, line, sizeof(line));
	cr_assert_not_null(strstr(line, "time=0.180832 size=0.0078125 "), "%s", line);
	cr_assert_not_null(strstr(line, "hw_windows=4 guest_windows=4 hw_pass_ms=1000 "
				  "guest_pass_ms=192 "), "%s", line);
}

/* The experiment file: the plan's bad input fails as it is read. */
static char tmpdir[64];

static void mktmp(void)
{
	scratch_make(tmpdir, sizeof(tmpdir), "scale");
}

static void rmtmp(void)
{
	scratch_remove(tmpdir);
}

static int load(const char *ini, struct experiment *exp)
{
	const char *path = scratch_write(tmpdir, "e.ini", ini);

	err[0] = 0;
	return experiment_load(path, exp, err, sizeof(err));
}

#define PLAN_OK "[global]\nworkload = stream --size 8M\nscale_scan = hardware\n" \
	"scale_hw_s = 49.77\nscale_hw_ws = 1G\nscale_guest_s = 9\nscale_guest_ws = 8M\n"

Test(scale_file, bad_input_is_refused_naming_file_line_and_key, .init = mktmp, .fini = rmtmp)
{
	static const struct { const char *ini, *want; } bad[] = {
		{ PLAN_OK "scale_time = 0\n[a]\n", "8: key 'scale_time': '0' is not a number above 0" },
		{ PLAN_OK "[a]\nscale_size = -1\n", "9: key 'scale_size': '-1' is not a number above 0" },
		{ "[global]\nworkload = stream\nscale_scan = hardware\nscale_hw_ws = 1G\n"
		  "scale_guest_s = 9\nscale_guest_ws = 8M\n[a]\n",
		  "3: key 'scale_hw_s': variant 'a': scale_scan=hardware needs the hardware run's "
		  "scale_hw_s" },
		{ PLAN_OK "[a]\nscale_guest_s = 0.04\n",
		  "9: key 'scale_guest_s': variant 'a': scan_period_min_ms: 1000 ms on the hardware x "
		  "time factor 0.0008037 = 0.804 ms, under the kernel's minimum of 1 ms" },
		{ PLAN_OK "[a]\nscale_guest_ws = 4M\nscale_guest_s = 49.77\n",
		  "9: key 'scale_guest_ws': variant 'a': scan_size_mb: 256 MB on the hardware x size "
		  "factor 0.003906 = 1 MB, under the kernel's minimum of 2 MB (one huge page)" },
		{ PLAN_OK "[a]\nsysctl.scan_period_min_ms = soon\n",
		  "9: key 'sysctl.scan_period_min_ms': variant 'a': 'soon' is not a whole number of ms "
		  "to scale" },
		{ "[global]\nworkload = stream\nscale_hw_s = 50\n[a]\n",
		  "3: key 'scale_hw_s': variant 'a': needs scale_scan = hardware" },
		{ PLAN_OK "scale_guest_ws = 8\n[a]\n", "did you mean 8M?" },
	};
	struct experiment exp;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(load(bad[i].ini, &exp), -1, "accepted: %s", bad[i].ini);
		cr_assert_not_null(strstr(err, bad[i].want), "%s\nwanted: %s", err, bad[i].want);
	}
	cr_assert_eq(load(PLAN_OK "[a]\n", &exp), 0, "%s", err);
	cr_assert_eq(exp.variants[0].scale_scan.mode, SCALE_HARDWARE);
	cr_assert_eq(exp.variants[0].scale_hw_ws, 1ULL << 30);
	cr_assert_float_eq(exp.variants[0].scale_guest_s, 9, 1e-12);
	experiment_free(&exp);
}

/*
 * The guest command, run for real by sh with /proc/sys and debugfs under
 * a scratch folder: the plan's values, the experiment's hardware value
 * not written as it is, the minimum after the maximum only when it grows
 * past it, and the series' knob a kernel lacks reported, not fatal.
 */
static char *run_plan(const char *ini, const char *max_in_force, bool series)
{
	struct scan_plan sp = { .scale = { SCALE_HARDWARE, 1 } };
	struct experiment exp;
	char cmd[1024], path[256], *gc, *out = NULL;
	size_t len = 0;
	FILE *f, *o;

	cr_assert_eq(load(ini, &exp), 0, "%s", err);
	cr_assert_eq(scale_plan_variant(&exp.variants[0], &sp.hw, &key, err, sizeof(err)), 0);
	gc = guest_command(&exp.variants[0], &sp, 0);
	experiment_free(&exp);
	snprintf(cmd, sizeof(cmd), "rm -rf %s/proc %s/dbg && mkdir -p %s/proc/kernel %s/dbg && "
		 "cd %s/proc/kernel && "
		 "for k in scan_delay_ms scan_size_mb scan_period_min_ms; do echo 1000 > "
		 "numa_balancing_$k; done && echo %s > numa_balancing_scan_period_max_ms%s",
		 tmpdir, tmpdir, tmpdir, tmpdir, tmpdir, max_in_force,
		 series ? " && echo 60000 > numa_balancing_scan_period_reset_ms" : "");
	cr_assert_eq(system(cmd), 0);
	setenv("BNB_GC", gc, 1);
	snprintf(cmd, sizeof(cmd), "printf %%s \"$BNB_GC\" | sed -n '1,/^# bnb-run: start\\|^mkdir -p \\/tmp$/p' | "
		 "sed 's|/proc/sys/|%s/proc/|g; s|/sys/kernel/debug/sched/numa_balancing/|%s/dbg/|g' | "
		 "sed '$d' | sh 2>&1", tmpdir, tmpdir);
	f = popen(cmd, "r");
	o = open_memstream(&out, &len);
	while (fgets(path, sizeof(path), f))
		fputs(path, o);
	pclose(f);
	fclose(o);
	free(gc);
	return out;
}

static long file_value(const char *name)
{
	char path[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/kernel/numa_balancing_%s", tmpdir, name);
	f = fopen(path, "r");
	if (f && fscanf(f, "%ld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

Test(scale_file, the_guest_writes_the_plan, .init = mktmp, .fini = rmtmp)
{
	char *out = run_plan(PLAN_OK "[a]\nsysctl.scan_period_min_ms = 2000\n", "60000", true);
	char *min, *max;

	cr_assert_not_null(strstr(out, "# bnb-run: scale plan: time=0.180832 size=0.0078125 "),
			   "%s", out);
	cr_assert_eq(file_value("scan_period_min_ms"), 362, "2000 ms of hardware, scaled");
	cr_assert_eq(file_value("scan_period_max_ms"), 10850);
	cr_assert_eq(file_value("scan_delay_ms"), 181);
	cr_assert_eq(file_value("scan_size_mb"), 2);
	cr_assert_eq(file_value("scan_period_reset_ms"), 10850);
	cr_assert_null(strstr(out, "= 2000 "), "the hardware's value is not written: %s", out);
	min = strstr(out, "sysctl kernel.numa_balancing_scan_period_min_ms = 362");
	max = strstr(out, "sysctl kernel.numa_balancing_scan_period_max_ms = 10850");
	cr_assert(min && max && min < max, "shrinking below the max in force: min first\n%s", out);
	free(out);
	out = run_plan(PLAN_OK "[a]\n", "100", false);
	min = strstr(out, "sysctl kernel.numa_balancing_scan_period_min_ms = 181");
	max = strstr(out, "sysctl kernel.numa_balancing_scan_period_max_ms = 10850");
	cr_assert(min && max && max < min, "growing past the max in force: max first\n%s", out);
	cr_assert_not_null(strstr(out, "# bnb-run: scale: not set: scan_period_reset_ms (not in "
				  "this kernel)"), "%s", out);
	free(out);
}

/*
 * numa01's plan (1352.74 s of hardware in 2.43 s): the guest's ticks and
 * scan floor cannot keep the pass period, and the line that says so,
 * "after the guest's 4 ms ticks", has a quote the shell must not see as
 * one: the command runs and prints it whole.
 */
Test(scale_file, a_given_up_text_with_a_quote_runs, .init = mktmp, .fini = rmtmp)
{
	char *out = run_plan("[global]\nworkload = stream --size 8M\nscale_scan = hardware\n"
			     "scale_hw_s = 1352.74\nscale_hw_ws = 3G\nscale_guest_s = 2.43\n"
			     "scale_guest_ws = 8M\n[a]\n", "60000", true);

	cr_assert_null(strstr(out, "syntax error"), "%s", out);
	cr_assert_not_null(strstr(out, "ms after the guest's "), "%s", out);
	cr_assert_gt(file_value("scan_period_max_ms"), 0, "the plan after the text was set: %s", out);
	free(out);
}

/* A run folder as a scaled run leaves it: what scalerun_add() reads. */
static void scaled_run(void)
{
	mktmp();
	scratch_write(tmpdir, "out.log",
		      "# bnb-run: scale plan: time=0.05 size=0.0078125 hw_s=80 "
		      "hw_ws_mb=3072 guest_s=4 guest_ws_mb=24 hw_windows=12 guest_windows=1 "
		      "hw_pass_ms=1200 guest_pass_ms=60 hw_passes_max=65.8 hw_passes_min=1.3 "
		      "guest_passes_max=65.8\n"
		      "# bnb-run: scale given up: windows per pass: 12 on hardware, 1 here\n"
		      "# summary status=ok work_s=3.6 rate_mean=600 threads=1\n");
	scratch_write(tmpdir, "timeseries.csv",
		      "# comment\nsample,t_s,numa_scan_seq,convergence,"
		      "acc_local_d,acc_remote_d\n1,0,0,,,\n2,0.5,1,0.1,0,100\n3,1.0,4,0.8,20,80\n"
		      "4,1.5,6,0.97,60,40\n5,2.0,9,1,100,0\n6,2.0,9,1,100,0\n");
	scratch_write(tmpdir, "summary.json",
		      "{ \"counters\": { \"numa_scan_seq\": 9, "
		      "\"numa_hint_faults\": 90, \"numa_pte_updates\": 1800 }, "
		      "\"time_to_conv_90_s\": 1.3, \"time_to_conv_95_s\": null, "
		      "\"plugin\": { \"work_start_s\": 0.2 } }");
	scratch_write(tmpdir, "result", "timing=deterministic\ninsn_ps=2000\n");
	scratch_write(tmpdir, "numawork", "hw_insn_ps=300\n");
}

static double xm(const struct xmetrics *x, const char *name)
{
	const struct xmetric *m = xm_find(x, name);

	return m ? m->value : NAN;
}

Test(scale_run, passes_and_hardware_seconds, .init = scaled_run, .fini = rmtmp)
{
	static struct xmetrics x;

	memset(&x, 0, sizeof(x));
	scalerun_add(tmpdir, &x);
	cr_assert_float_eq(xm(&x, "scan_passes"), 9, 1e-12);
	cr_assert_float_eq(xm(&x, "hint_faults_per_pass"), 10, 1e-12);
	cr_assert_float_eq(xm(&x, "pte_updates_per_pass"), 200, 1e-12);
	cr_assert_null(xm_find(&x, "numa_work_per_pass_s"), "no balancer time measured");
	/* converged from 0.2 + 1.3 s: the first sample at or after 1.5 s */
	cr_assert_float_eq(xm(&x, "passes_to_conv_90"), 6, 1e-12);
	cr_assert(isnan(xm(&x, "passes_to_conv_95")), "never held 95 %%");
	cr_assert(isnan(xm(&x, "time_to_conv_95_hw_s")), "never held 95 %%");
	cr_assert_str_eq(x.refused, "", "never is no absurd value");
	cr_assert_float_eq(xm(&x, "scale_time"), 0.05, 1e-12);
	cr_assert_float_eq(xm(&x, "scale_size"), 0.0078125, 1e-12);
	cr_assert_float_eq(xm(&x, "time_to_conv_90_hw_s"), 26, 1e-9, "1.3 s / 0.05");
	cr_assert_float_eq(xm(&x, "work_hw_s"), 72, 1e-9, "3.6 s / 0.05");
	cr_assert_float_eq(xm(&x, "scale_time_achieved"), 0.045, 1e-12, "3.6 s / 80 s");
	cr_assert_float_eq(xm(&x, "hw_passes_max"), 65.8, 1e-12);
	/*
	 * The true locality over the work (from 0.2 s: the intervals ending
	 * at 1.0, 1.5 and 2.0, one window each): 0.2 -> 1.0, 90 % of the rise
	 * at 2.0 s, 1.8 s into the work, at pass 9; 36 s of the hardware run.
	 */
	cr_assert_float_eq(xm(&x, "locality_start"), 0.2, 1e-12);
	cr_assert_float_eq(xm(&x, "locality_peak"), 1.0, 1e-12);
	cr_assert_float_eq(xm(&x, "locality_to90_s"), 1.8, 1e-9);
	cr_assert_float_eq(xm(&x, "passes_to_locality_90"), 9, 1e-12);
	cr_assert_float_eq(xm(&x, "locality_to90_hw_s"), 36, 1e-9, "1.8 s / 0.05");
}

/*
 * Balancing off: the scanner never ran, the convergence never held. The
 * passes are 0, and there are no passes or hardware seconds to converge,
 * which is "never", not a value refused as absurd.
 */
Test(scale_run, never_converged_has_no_passes_to_converge, .init = scaled_run, .fini = rmtmp)
{
	static struct xmetrics x;

	memset(&x, 0, sizeof(x));
	scratch_write(tmpdir, "timeseries.csv",
		      "# comment\nsample,t_s,numa_scan_seq,convergence\n"
		      "1,0,0,\n2,0.5,0,\n3,1.0,0,\n");
	scratch_write(tmpdir, "summary.json",
		      "{ \"counters\": { \"numa_scan_seq\": 0 }, "
		      "\"time_to_conv_90_s\": null, \"time_to_conv_95_s\": null, "
		      "\"plugin\": { \"work_start_s\": 0.2 } }");
	scalerun_add(tmpdir, &x);
	cr_assert_float_eq(xm(&x, "scan_passes"), 0, 1e-12);
	cr_assert_null(xm_find(&x, "passes_to_conv_90"));
	cr_assert_null(xm_find(&x, "passes_to_conv_95"));
	cr_assert_null(xm_find(&x, "hint_faults_per_pass"), "no pass: no per-pass figure");
	cr_assert_null(xm_find(&x, "time_to_conv_90_hw_s"));
	cr_assert_null(xm_find(&x, "locality_start"), "no plugin columns: no locality");
	cr_assert_float_eq(xm(&x, "work_hw_s"), 72, 1e-9, "3.6 s / 0.05");
	cr_assert_str_eq(x.refused, "", "never is no absurd value");
}

/* A run without the plan and an agent that counts no passes adds nothing. */
Test(scale_run, nothing_without_passes_or_plan, .init = mktmp, .fini = rmtmp)
{
	static struct xmetrics x;

	memset(&x, 0, sizeof(x));
	scratch_write(tmpdir, "out.log", "# summary status=ok work_s=3.6 rate_mean=600\n");
	scratch_write(tmpdir, "summary.json", "{ \"counters\": { \"numa_pte_updates\": 9 } }");
	scalerun_add(tmpdir, &x);
	cr_assert_eq(x.n, 0);
}

/* Deterministic timing: D is insn_ps / hw_insn_ps, whatever the host rate. */
Test(scale_run, deterministic_dilation_is_the_configured_d, .init = scaled_run, .fini = rmtmp)
{
	struct run run = { 0 };

	snprintf(run.dir, sizeof(run.dir), "%s", tmpdir);
	scratch_write(tmpdir, "status", "status=ok\nhost_rate=30000\n");
	run_load(&run);
	cr_assert_float_eq(run.m[M_DILATION], 2000.0 / 300, 1e-12);
	cr_assert_str_eq(run.dilation_why, "");
}

/*
 * The reference programs know their hardware run: each shipped
 * TOPO-PROGRAM.ini states the published balancing-on seconds of the
 * machine whose on/off ratio the suite holds it to (published.ini), and
 * the working set of one process of the program as upstream sizes it.
 */
Test(scale_file, reference_programs_state_their_published_run)
{
	static const struct { const char *prog; unsigned long long hw_ws; } progs[] = {
		{ "numa01", 3ULL << 30 }, { "numa01_THREAD_ALLOC", 3ULL << 30 },
		{ "numa02", 1ULL << 30 }, { "numa02_SMT", 1ULL << 30 },
	};
	static const char *const topos[] = { "2n", "4n" };
	struct ref_published pub;
	int machine = -1;
	char b[64];

	cr_assert_eq(ref_published_load(BNB_SRC_DIR "/bench/experiments/reference/published.ini",
					&pub, err, sizeof(err)), 0, "%s", err);
	for (int i = 0; i < pub.n_ratios; i++)
		if (!strcmp(ref_ratio_text(&pub.ratio[i], b, sizeof(b)), "on/off"))
			machine = pub.ratio[i].machine;
	cr_assert_geq(machine, 0);
	for (size_t t = 0; t < sizeof(topos) / sizeof(topos[0]); t++)
		for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
			const struct ref_program *prog = ref_program_find(&pub, progs[i].prog);
			struct experiment exp;
			const struct variant *on;
			char path[512];

			snprintf(path, sizeof(path), BNB_SRC_DIR "/bench/experiments/reference/%s-%s.ini",
				 topos[t], progs[i].prog);
			cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), 0, "%s", err);
			on = experiment_variant(&exp, "on");
			cr_assert_not_null(on);
			cr_assert_eq(on->scale_scan.mode, SCALE_HARDWARE, "%s", path);
			cr_assert_float_eq(on->scale_hw_s, prog->elapsed[machine][RV_ON], 1e-9,
					   "%s: scale_hw_s %g, published %g", path, on->scale_hw_s,
					   prog->elapsed[machine][RV_ON]);
			cr_assert_eq(on->scale_hw_ws, progs[i].hw_ws, "%s", path);
			experiment_free(&exp);
		}
}
