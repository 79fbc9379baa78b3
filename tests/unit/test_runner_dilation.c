// SPDX-License-Identifier: GPL-2.0
/*
 * Time dilation and scale_scan: the ratio, the key's parsing, the scaling
 * arithmetic (the guest shell's, run for real on a scratch file), the host
 * command derived from a workload, and the guest command's order of steps.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "experiment/dilation.h"
#include "experiment/experiment.h"
#include "experiment/keys.h"
#include "runner.h"
#include "extract/wlout.h"
#include "scratch.h"

static char tmpdir[64];

static void setup(void)
{
	scratch_make(tmpdir, sizeof(tmpdir), "dilation");
	chmod(scratch_write(tmpdir, "stream", "#!/bin/sh\n"), 0755);	/* a stand-in binary */
}

static void teardown(void)
{
	scratch_remove(tmpdir);
}

TestSuite(dilation, .init = setup, .fini = teardown);

Test(dilation, ratio)
{
	cr_assert_float_eq(dilation_ratio(32800, 253), 129.644, 1e-3);
	cr_assert_float_eq(dilation_ratio(120, 120), 1, 1e-12);
	cr_assert(isnan(dilation_ratio(NAN, 253)));
	cr_assert(isnan(dilation_ratio(32800, NAN)));
	cr_assert(isnan(dilation_ratio(32800, 0)));
	cr_assert(isnan(dilation_ratio(-1, 253)));
	cr_assert(isnan(dilation_ratio(INFINITY, 253)));
}

/*
 * Under the time keeper D is the class's instruction time over the
 * hardware's, whatever the vCPU count or icount shift; without it one
 * busy vCPU runs at icount's 2^shift ns.
 */
Test(dilation, deterministic_d_is_the_configured_instruction_time)
{
	struct bnb_machine_spec two = { .model = BNB_MACHINE_DEFAULT };
	struct bnb_machine_spec off = { .model = BNB_MACHINE_OFF };
	struct bnb_machine_spec four = { .model = BNB_MACHINE_DEFAULT + 1 };

	cr_assert_float_eq(icount_dilation(&two, 0, true, 300), 2000.0 / 300, 1e-9);
	cr_assert_float_eq(icount_dilation(&four, 0, true, 300), 8000.0 / 300, 1e-9, "4node");
	cr_assert_float_eq(icount_dilation(&two, 3, true, 300), 2000.0 / 300, 1e-9);
	cr_assert_float_eq(icount_dilation(&off, 0, true, 300), 2000.0 / 300, 1e-9,
			   "the model off: the default class's");
	cr_assert_float_eq(icount_dilation(&two, 0, false, 300), 1000.0 / 300, 1e-9);
	cr_assert_float_eq(icount_dilation(&two, 3, false, 1000), 8.0, 1e-9);
}

Test(dilation, scale_key_parsing)
{
	static const char *const bad[] = {
		"", "on", "0", "-2", "abc", "130x", "1e9", "0.0001", "nan", "inf", " 3",
	};
	struct scan_scale s;
	char why[256];
	size_t i;

	cr_assert_eq(scan_scale_parse("off", &s), 0);
	cr_assert_eq(s.mode, SCALE_OFF);
	cr_assert_eq(scan_scale_parse("auto", &s), 0);
	cr_assert_eq(s.mode, SCALE_AUTO);
	cr_assert_eq(scan_scale_parse("130", &s), 0);
	cr_assert_eq(s.mode, SCALE_FIXED);
	cr_assert_float_eq(s.factor, 130, 1e-12);
	cr_assert_eq(scan_scale_parse("2.5", &s), 0);
	cr_assert_float_eq(s.factor, 2.5, 1e-12);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(scan_scale_parse(bad[i], &s), -1, "'%s' accepted", bad[i]);
	cr_assert_not_null(key_lookup("scale_scan"));
	cr_assert_str_eq(key_lookup("scale_scan")->def, "off");
	cr_assert_eq(opt_set(key_lookup("scale_scan"), "auto", NULL, why, sizeof(why)), 0);
	cr_assert_eq(opt_set(key_lookup("scale_scan"), "fast", NULL, why, sizeof(why)), -1);
	cr_assert(strstr(why, "'fast'") && strstr(why, "auto"), "%s", why);
}

Test(dilation, scaling_arithmetic)
{
	cr_assert_eq(scale_milli(130), 130000);
	cr_assert_eq(scale_milli(129.6443), 129644);
	cr_assert_eq(scale_milli(0.5), 500);
	/* the kernel defaults at D = 130: 1 s -> 130 s, 60 s -> 7800 s, past the hour */
	cr_assert_eq(scale_ms(1000, 130000), 130000);
	cr_assert_eq(scale_ms(60000, 130000), SCAN_PERIOD_LIMIT_MS);
	cr_assert_eq(scale_ms(27692, 130000), 3599960);
	cr_assert_eq(scale_ms(333, 1500), 499);	/* truncates, like sh $(( )) */
	cr_assert_eq(scale_ms(1000, 1000), 1000);
	cr_assert_eq(scale_ms(1000, 500), 500);
	cr_assert_eq(scale_ms(INT_MAX, 2000), SCAN_PERIOD_LIMIT_MS);
	cr_assert_eq(scale_ms(-5, 1000), -1);
}

static void build_ok(const char *workload, const char *want_line)
{
	struct host_cmd c;
	char why[256] = "", path[128];

	cr_assert_eq(host_cmd_build(workload, tmpdir, &c, why, sizeof(why)), 0, "%s: %s",
		     workload, why);
	cr_assert_str_eq(c.line, want_line);
	snprintf(path, sizeof(path), "%s/stream", tmpdir);
	cr_assert_str_eq(c.argv[0], path);
	cr_assert_null(c.argv[c.argc]);
	host_cmd_free(&c);
}

Test(dilation, host_command)
{
	static const struct { const char *workload, *why; } bad[] = {
		{ "stream | tee x", "needs a shell" },
		{ "stream --size 8M; reboot", "needs a shell" },
		{ "numa01 --size 8M", "not a binary of build/guest/bin" },
		{ "/bin/stream", "not a single project binary" },
		{ "", "not a single project binary" },
	};
	struct host_cmd c;
	char why[256];
	size_t i;

	build_ok("stream --size 8M --iterations 24 --placement misplaced --node 0",
		 "stream --size 8M --iterations 24 --placement=free");
	build_ok("stream --node=1 --mem-node 0 --size 8M --producer-node 1",
		 "stream --size 8M --placement=free");
	build_ok("stream --nodes 2 --size 8M", "stream --nodes 2 --size 8M --placement=free");
	build_ok("stream --placement=local --size 8M", "stream --placement=free --size 8M");
	build_ok("stream --size 8M", "stream --size 8M --placement=free");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		cr_assert_eq(host_cmd_build(bad[i].workload, tmpdir, &c, why, sizeof(why)), -1,
			     "'%s' accepted", bad[i].workload);
		cr_assert(strstr(why, bad[i].why), "'%s': %s", bad[i].workload, why);
		cr_assert_eq(c.argc, 0);
	}
}

static char *command_for(const char *ini, const struct scan_plan *sp)
{
	const char *path = scratch_write(tmpdir, "e.ini", ini);
	struct experiment exp;
	char err[512];
	char *gc;

	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), 0, "%s", err);
	gc = guest_command(&exp.variants[0], sp, 0);
	experiment_free(&exp);
	return gc;
}

/* Explicit sysctls first (they are the base), then scaling, then the workload. */
Test(dilation, guest_command_fixed)
{
	struct scan_plan sp = { .scale = { SCALE_FIXED, 130 } };
	char *gc = command_for("[global]\nworkload = stream --size 8M\n"
			       "[a]\nsysctl.scan_period_min_ms = 500\n", &sp);
	char *set = strstr(gc, "bnb_set kernel.numa_balancing_scan_period_min_ms 500");
	char *milli = strstr(gc, "milli=130000\n");
	/* the default kernel has the series' sysctl: no debugfs fallback (knobs.c) */
	char *scale = strstr(gc, "bnb_scale kernel.numa_balancing_scan_period_min_ms '' \"$milli\"");
	char *work = strstr(gc, "stream --size 8M");

	cr_assert(set && milli && scale && work, "%s", gc);
	cr_assert(set < milli && milli < scale && scale < work, "%s", gc);
	/* growing: max before min (the kernel keeps min <= max); shrinking: min first */
	scale = strstr(gc, "-ge 1000 ]; then\nbnb_scale kernel.numa_balancing_scan_period_max_ms ");
	cr_assert(scale && strstr(scale, "else\nbnb_scale kernel.numa_balancing_scan_period_min_ms "),
		  "%s", gc);
	cr_assert(strstr(gc, "bnb_scale kernel.numa_balancing_scan_delay_ms "));
	cr_assert(strstr(gc, "bnb_scale kernel.numa_balancing_scan_period_max_ms "));
	cr_assert_null(strstr(gc, "bnb_scale kernel.numa_balancing_scan_size_mb"));
	free(gc);
	gc = command_for("[global]\nworkload = stream\n[a]\n", NULL);
	cr_assert_null(strstr(gc, "bnb_scale"), "scaling without scale_scan");
	free(gc);
}

Test(dilation, guest_command_auto)
{
	struct scan_plan sp = { .scale = { SCALE_AUTO, 1 }, .host_rate = 32800,
				.free_line = "stream --placement=free" };
	char *gc = command_for("[global]\nworkload = stream --placement misplaced\n[a]\n", &sp);

	cr_assert(strstr(gc, "(stream --placement=free) 2>/dev/null"), "%s", gc);
	cr_assert(strstr(gc, "-v h=32800 "), "%s", gc);
	free(gc);
}

/* Run the generated shell functions on a scratch file standing in for the
 * debugfs tunable: the value in force times milli/1000, read back. */
static long run_scale(const char *gc, const char *start, const char *milli, int *rc)
{
	char file[128], cmd[1024], line[256];
	long got = -1;
	FILE *f;

	snprintf(file, sizeof(file), "%s/tunable", tmpdir);
	f = fopen(file, "w");
	fprintf(f, "%s\n", start);
	fclose(f);
	setenv("BNB_GC", gc, 1);
	snprintf(cmd, sizeof(cmd), "sh -c 'eval \"$(printf %%s \"$BNB_GC\" | "
		 "sed -n \"/^bnb_set()/,/^}/p;/^bnb_scale()/,/^}/p\")\"; "
		 "bnb_scale kernel.bnb_no_such_knob %s %s' >/dev/null 2>&1; echo $?", file, milli);
	f = popen(cmd, "r");
	*rc = fgets(line, sizeof(line), f) ? atoi(line) : -1;
	pclose(f);
	f = fopen(file, "r");
	if (fgets(line, sizeof(line), f))
		got = atol(line);
	fclose(f);
	return got;
}

Test(dilation, guest_shell_scales)
{
	struct scan_plan sp = { .scale = { SCALE_FIXED, 130 } };
	char *gc = command_for("[global]\nworkload = stream\n[a]\n", &sp);
	int rc;

	cr_assert_eq(run_scale(gc, "1000", "130000", &rc), scale_ms(1000, 130000));
	cr_assert_eq(rc, 0);
	cr_assert_eq(run_scale(gc, "333", "1500", &rc), scale_ms(333, 1500));
	cr_assert_eq(rc, 0);
	cr_assert_eq(run_scale(gc, "60000", "130000", &rc), scale_ms(60000, 130000));
	cr_assert_eq(rc, 0);
	cr_assert_eq(run_scale(gc, "1000", "500", &rc), scale_ms(1000, 500));
	run_scale(gc, "junk", "1500", &rc);
	cr_assert_neq(rc, 0);
	free(gc);
}

/* auto: the guest pass's rate per thread against the host's, in thousandths.
 * Only the factor lines run here, never the sysctl writes. */
Test(dilation, guest_shell_auto_factor)
{
	struct scan_plan sp = { .scale = { SCALE_AUTO, 1 }, .host_rate = 1000,
				.free_line = "echo '# summary status=ok work_s=1 rate_mean=100 threads=2'" };
	char *gc = command_for("[global]\nworkload = stream\n[a]\n", &sp);
	char line[256];
	bool seen = false;
	FILE *p;

	setenv("BNB_GC", gc, 1);
	p = popen("sh -c 'eval \"$(printf %s \"$BNB_GC\" | sed -n \"/^gs=/,/scan periods scaled/p\")\"'", "r");
	while (fgets(line, sizeof(line), p))
		seen |= !strncmp(line, "# bnb-run: scan periods scaled, milli=20000 ", 44);
	pclose(p);
	cr_assert(seen, "1000 per thread on the host, 100 / 2 threads in the guest: 20x");
	/* balancing paused around the pass, restored after it */
	cr_assert(strstr(gc, "echo 0 > /proc/sys/kernel/numa_balancing\ngs="), "%s", gc);
	cr_assert(strstr(gc, "host_thread_rate=1000\"\n[ -z \"$nb\" ] || echo \"$nb\" > /proc/sys/kernel/numa_balancing\n"),
		  "%s", gc);
	free(gc);
}

Test(dilation, thread_rate)
{
	struct wl_summary s;
	const char *path;

	path = scratch_write(tmpdir, "out.log",
			     "# summary status=ok work_s=1 rate_mean=900 threads=3\n");
	cr_assert_eq(wl_scan(path, &s), 0);
	cr_assert_float_eq(wl_thread_rate(&s), 300, 1e-9);
	path = scratch_write(tmpdir, "out.log", "# summary status=ok work_s=1 rate_mean=900\n");
	cr_assert_eq(wl_scan(path, &s), 0);
	cr_assert_float_eq(wl_thread_rate(&s), 900, 1e-9);
}
