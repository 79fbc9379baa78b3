// SPDX-License-Identifier: GPL-2.0
/*
 * The key table against everything it drives: the README's table, --help,
 * its own defaults, the enums its choices fill, the shipped experiments,
 * and the command lines a variant's fields turn into.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <dlfcn.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "docblock.h"
#include "experiment/experiment.h"
#include "experiment/keys.h"
#include "lib/err.h"
#include "lib/parse.h"
#include "plot/plot_gp.h"
#include "runner.h"
#include "report/sweep_report.h"
#include "scratch.h"

Test(keys, readme_table_is_the_key_table)
{
	char *doc = doc_block("bench/runner/README.md", "experiment keys");
	char *now = printed(keys_markdown);

	cr_assert_not_null(doc, "no <!-- experiment keys --> block in bench/runner/README.md");
	cr_assert_str_eq(doc, now, "bench/runner/README.md is stale: put build/bin/bnb-run "
			 "--help=markdown between its markers");
	free(doc);
	free(now);
}

Test(keys, help_lists_every_key)
{
	char *text = printed(keys_usage), want[80];
	const struct opt_def *t;
	size_t n, i;

	t = key_table(&n);
	for (i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "\n  %s ", t[i].name);
		cr_assert(strstr(text, want) || (i == 0 && !strncmp(text, want + 1, strlen(want) - 1)),
			  "--help lacks '%s'", t[i].name);
	}
	free(text);
}

Test(keys, every_row_is_whole_and_its_default_parses)
{
	char err[ERRLEN];
	const struct opt_def *t;
	size_t n, i;

	t = key_table(&n);
	for (i = 0; i < n; i++) {
		cr_assert(t[i].help && *t[i].help, "'%s' has no help", t[i].name);
		cr_assert(t[i].scope == KS_VARIANT || t[i].scope == KS_EXPERIMENT ||
			  t[i].scope == KS_MACHINE, "'%s'", t[i].name);
		cr_assert(t[i].type != OPT_FUNC || t[i].metavar, "'%s' needs a metavar", t[i].name);
		cr_assert(t[i].type != OPT_FLAG, "'%s': a key always has a value", t[i].name);
		if (t[i].def)
			cr_assert_eq(opt_set(&t[i], t[i].def, NULL, err, sizeof(err)), 0,
				     "default of '%s': %s", t[i].name, err);
		cr_assert_eq(key_lookup(t[i].name), (t[i].flags & OPTF_PREFIX) ? NULL : &t[i]);
	}
}

/* Choices fill enums: their words must be in enum order. */
Test(keys, choices_are_in_enum_order)
{
	cr_assert_eq(parse_choice("kvm", key_lookup("accel")->choices, NULL, 0), ACCEL_KVM);
	cr_assert_eq(parse_choice("deterministic", key_lookup("timing")->choices, NULL, 0),
		     TIMING_DETERMINISTIC);
	cr_assert_eq(parse_choice("off", key_lookup("latency")->choices, NULL, 0), LATENCY_OFF);
	cr_assert_eq(parse_choice("emulated", key_lookup("latency")->choices, NULL, 0),
		     LATENCY_EMULATED);
	cr_assert_eq(parse_choice("remote", key_lookup("bound")->choices, NULL, 0), BOUND_REMOTE);
	cr_assert_eq(parse_choice("local", key_lookup("bound")->choices, NULL, 0), BOUND_LOCAL);
	cr_assert_str_eq(objective_of(OBJ_COST)->name, "cost");
	cr_assert_str_eq(objective_of(OBJ_WORK)->name, "work");
	cr_assert_eq(parse_choice("work", key_lookup("objective")->choices, NULL, 0), OBJ_WORK);
}

Test(keys, shipped_experiments_load)
{
	char pattern[4096], err[ERRLEN];
	glob_t g;
	size_t i;

	snprintf(pattern, sizeof(pattern), "%s/bench/experiments/*.ini", BNB_SRC_DIR);
	cr_assert_eq(glob(pattern, 0, NULL, &g), 0);
	cr_assert_geq(g.gl_pathc, 1);
	for (i = 0; i < g.gl_pathc; i++) {
		struct experiment exp;

		cr_assert_eq(experiment_load(g.gl_pathv[i], &exp, err, sizeof(err)), 0, "%s", err);
		experiment_free(&exp);
	}
	globfree(&g);
}

static char tmpdir[64];

static void setup(void)
{
	scratch_make(tmpdir, sizeof(tmpdir), "keys");
}

static void teardown(void)
{
	scratch_remove(tmpdir);
}

static void load(struct experiment *exp, const char *text)
{
	const char *path = scratch_write(tmpdir, "x.ini", text);
	char err[ERRLEN];

	cr_assert_eq(experiment_load(path, exp, err, sizeof(err)), 0, "%s", err);
}

static int find(const struct argv *a, const char *arg)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (!strcmp(a->v[i], arg))
			return i;
	return -1;
}

static const struct run_plan plan = {
	.kernel = "K", .initrd = "I", .vm = "bnb-vm", .collect = "bnb-collect",
	.plugin = "p.so", .latency = "emulated", .time_limit = 77,
};

TestSuite(args, .init = setup, .fini = teardown);

/* The fields as bnb-vm and bnb-collect read them, in their syntax. */
Test(args, variant_fields_become_launcher_options)
{
	struct experiment exp;
	struct argv vm = { 0 }, col = { 0 };

	load(&exp, "[global]\nworkload = true\nnodes = 3\ncpus = 2,1,0\nmem = 1G\n"
	     "distance = 10,16,22;16,10,16;22,17,10\nhmat = off\nbalancing = off\n"
	     "interval_ms = 250\nplugin_opts = cap_ns=3000 verbose=on\n[a]\n");
	vm_args(&vm, &exp.variants[0], &plan, NULL, "/t", "/r");
	collect_args(&col, &exp.variants[0], &plan, NULL, "/t", "/r");
	cr_assert_geq(find(&vm, "--nodes=3"), 0);
	cr_assert_geq(find(&vm, "--cpus=2,1,0"), 0);
	cr_assert_geq(find(&vm, "--mem=1G,1G,1G"), 0);
	cr_assert_geq(find(&vm, "--distance=10,16,22;16,10,16;22,17,10"), 0);
	cr_assert_geq(find(&vm, "--no-hmat"), 0);
	cr_assert_geq(find(&vm, "--balancing=off"), 0);
	cr_assert_geq(find(&vm, "--timeout=77"), 0);
	cr_assert_geq(find(&vm, "--plugin-opt=cap_ns=3000"), 0);
	cr_assert_geq(find(&vm, "--plugin-opt=verbose=on"), 0);
	cr_assert_str_eq(vm.v[vm.n - 2], "--");
	cr_assert_null(vm.v[vm.n]);
	cr_assert_geq(find(&col, "--interval-ms=250"), 0);
	cr_assert_geq(find(&col, "--distance=10,16,22;16,10,16;22,17,10"), 0);
	argv_free(&vm);
	argv_free(&col);
	experiment_free(&exp);
}

/* The run's delay reaches the guest command bnb-vm gets, after its "--". */
Test(args, start_delay_reaches_the_guest_command)
{
	struct experiment exp;
	struct argv vm = { 0 };
	struct run_plan p = plan;

	load(&exp, "[global]\nworkload = true\nstart_jitter = on\n[a]\n");
	p.start_delay_us = 1888;
	cr_assert_eq(vm_args(&vm, &exp.variants[0], &p, NULL, "/t", "/r"), 0);
	cr_assert_str_eq(vm.v[vm.n - 2], "--");
	cr_assert_not_null(strstr(vm.v[vm.n - 1], "usleep 1888\n"));
	argv_free(&vm);
	experiment_free(&exp);
}

Test(args, deterministic_timing_reaches_the_launcher_with_the_default_model)
{
	struct experiment exp;
	struct argv vm = { 0 }, col = { 0 };
	struct run_plan day = plan;

	load(&exp, "[global]\nworkload = true\n[wall]\n[det]\ntiming = deterministic\n"
	     "icount_shift = 2\n[off]\ntiming = deterministic\n[machine]\nmodel = off\n");
	vm_args(&vm, &exp.variants[0], &plan, NULL, "/t", "/r");
	cr_assert_lt(find(&vm, "--timing=deterministic"), 0);
	cr_assert_lt(find(&vm, "--plugin-opt=delay=off"), 0);
	argv_free(&vm);
	/* model = off: the plugin only counts and keeps time */
	vm_args(&vm, &exp.variants[2], &plan, NULL, "/t", "/r");
	cr_assert_geq(find(&vm, "--model=off"), 0);
	cr_assert_geq(find(&vm, "--plugin-opt=delay=off"), 0);
	argv_free(&vm);
	experiment_free(&exp);
	load(&exp, "[global]\nworkload = true\n[wall]\n[det]\ntiming = deterministic\n"
	     "icount_shift = 2\n");
	collect_args(&col, &exp.variants[0], &plan, NULL, "/t", "/r");
	cr_assert_lt(find(&col, "--stream"), 0);
	argv_free(&col);
	collect_args(&col, &exp.variants[1], &plan, NULL, "/t", "/r");
	cr_assert_geq(find(&col, "--stream"), 0);
	/* the boot may take longer than the collector's default 120 s */
	cr_assert_geq(find(&col, "--start-timeout-ms=77000"), 0);
	argv_free(&col);
	/* a day's limit: the collector takes at most an hour, not its refusal */
	day.time_limit = 86400;
	collect_args(&col, &exp.variants[1], &day, NULL, "/t", "/r");
	cr_assert_geq(find(&col, "--start-timeout-ms=3600000"), 0);
	argv_free(&col);
	vm_args(&vm, &exp.variants[1], &plan, NULL, "/t", "/r");
	cr_assert_geq(find(&vm, "--agent-stream-ms=100"), 0);
	cr_assert_geq(find(&vm, "--timing=deterministic"), 0);
	cr_assert_geq(find(&vm, "--icount-shift=2"), 0);
	/* no [machine]: the default class charges remote memory, no delays to turn off */
	cr_assert_geq(find(&vm, "--model=2socket"), 0);
	cr_assert_lt(find(&vm, "--plugin-opt=delay=off"), 0);
	argv_free(&vm);
	experiment_free(&exp);
}

/*
 * The convergence window counts scan periods on the guest's clock.  A
 * deterministic run lasts a few guest seconds: with the wall mode's fixed
 * 5 s it held every hint since the start (the test experiment's scanner
 * passes every 100 ms, and its runs ended at 0.67, never "converged").
 */
static void expect_window(const struct variant *v, const struct scan_plan *sp,
			  const char *want)
{
	struct argv col = { 0 };

	collect_args(&col, v, &plan, sp, "/t", "/r");
	cr_expect_geq(find(&col, want), 0, "%s: no %s", v->name, want);
	argv_free(&col);
}

Test(args, window_is_five_scan_periods_of_guest_time_when_deterministic)
{
	struct experiment exp;
	const struct scan_plan scaled = { .scale = { SCALE_FIXED, 6.5 } };

	load(&exp, "[global]\nworkload = true\n[wall]\n"
	     "[wall-fast]\nsysctl.scan_period_min_ms = 100\n"
	     "[det]\ntiming = deterministic\n"
	     "[det-fast]\ntiming = deterministic\nsysctl.scan_period_min_ms = 100\n"
	     "[det-long]\ntiming = deterministic\n"
	     "sysctl.kernel.numa_balancing_scan_period_min_ms = 2000\n"
	     "[det-set]\ntiming = deterministic\nsysctl.scan_period_min_ms = 100\n"
	     "window_s = 3\n[det-fixed]\ntiming = deterministic\nwindow_s = 0\n");
	expect_window(&exp.variants[0], NULL, "--window-s=5");
	expect_window(&exp.variants[1], NULL, "--window-s=5");	/* wall: as it was */
	expect_window(&exp.variants[2], NULL, "--window-s=5");
	expect_window(&exp.variants[3], NULL, "--window-s=0.5");
	expect_window(&exp.variants[3], &scaled, "--window-s=3.25");
	expect_window(&exp.variants[4], NULL, "--window-s=10");
	expect_window(&exp.variants[5], &scaled, "--window-s=3");
	expect_window(&exp.variants[6], NULL, "--window-s=0");
	experiment_free(&exp);
}

Test(args, window_s_is_auto_or_seconds)
{
	const char *path = scratch_write(tmpdir, "w.ini",
					 "[global]\nworkload = true\nwindow_s = soon\n[a]\n");
	struct experiment exp;
	char err[ERRLEN];

	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), -1);
	cr_expect(strstr(err, "w.ini:3: key 'window_s': 'soon' is not auto or seconds"), "%s", err);
}

/*
 * job.c's array held 64 arguments, dropped the rest silently and wrote
 * one past its end after the last. An experiment line (200 bytes for
 * inih) cannot hold that many plugin options, but keys to come will add
 * arguments: the vector must grow.
 */
Test(args, no_plugin_option_is_dropped)
{
	struct experiment exp;
	struct argv vm = { 0 };
	int i;

	load(&exp, "[global]\nworkload = echo ran\n[a]\n");
	for (i = 0; i < 60; i++)
		argv_add(&exp.variants[0].plugin_opts, "cap_ns=%d", 1000 + i);
	vm_args(&vm, &exp.variants[0], &plan, NULL, "/t", "/r");
	cr_assert_geq(find(&vm, "--plugin-opt=cap_ns=1000"), 0);
	cr_assert_geq(find(&vm, "--plugin-opt=cap_ns=1059"), 0, "the last plugin option was dropped");
	cr_assert_str_eq(vm.v[vm.n - 2], "--", "the guest command must follow --");
	cr_assert(strstr(vm.v[vm.n - 1], "echo ran"));
	cr_assert_null(vm.v[vm.n]);
	argv_free(&vm);
	experiment_free(&exp);
}

/*
 * Out of memory, open_memstream() returns NULL; none of its callers
 * checked. This binary's open_memstream() fails on request.
 */
static bool fail_memstream;

FILE *open_memstream(char **buf, size_t *len)
{
	static FILE *(*real)(char **, size_t *);

	if (!real)
		real = (FILE *(*)(char **, size_t *))dlsym(RTLD_NEXT, "open_memstream");
	return fail_memstream ? NULL : real(buf, len);
}

Test(args, out_of_memory_is_an_error_not_a_crash)
{
	struct experiment exp;
	struct argv vm = { 0 };
	struct gp_elems e;

	load(&exp, "[global]\nworkload = true\n[a]\n");
	fail_memstream = true;
	cr_assert_null(guest_command(&exp.variants[0], NULL, 0));
	cr_assert_eq(vm_args(&vm, &exp.variants[0], &plan, NULL, "/t", "/r"), -1);
	gp_elems_open(&e);
	gp_elem(&e, "'%s' using 1:2", "x");
	cr_assert_null(gp_elems_close(&e));
	cr_assert_eq(e.n, 0, "nothing to draw");
	fail_memstream = false;
	argv_free(&vm);
	experiment_free(&exp);
}

/* "real" only when bnb-vm will bind every guest node to its own host node. */
Test(args, kvm_latency_is_real_only_when_bound)
{
	struct host_numa host = { .n = 1 };
	struct bnb_topology t;
	char why[ERRLEN];

	topo_init(&t, 2);
	host.node[0].n_cpus = 2;
	CPU_SET(0, &host.node[0].cpus);
	cr_assert_str_eq(kvm_latency(&host, &t, why, sizeof(why)), "uniform (KVM)");
	cr_assert(strstr(why, "the host has 1 with memory"), "%s", why);
	host.n = 2;
	host.node[1] = host.node[0];
	host.node[1].id = 1;
	cr_assert_str_eq(kvm_latency(&host, &t, why, sizeof(why)), "real");
	cr_assert_str_eq(why, "");
	topo_init(&t, 3);
	cr_assert_str_eq(kvm_latency(&host, &t, why, sizeof(why)), "uniform (KVM)");
	cr_assert_str_eq(kvm_latency(NULL, &t, why, sizeof(why)), "uniform (KVM)");
}

/*
 * A deterministic run's plugin only counts: its latency is uniform before
 * the run starts, so the progress line and the status say so from the start.
 */
Test(args, plugin_latency_is_known_before_the_run_when_it_only_counts)
{
	struct experiment exp;
	char why[ERRLEN];

	/* deterministic timing: the default class charges miss costs, once the map
	 * check passed; remote memory is never silently free */
	load(&exp, "[global]\nworkload = true\n[wall]\n[det]\ntiming = deterministic\n");
	cr_assert_str_eq(plugin_latency(&exp.variants[0], why, sizeof(why)), "emulated");
	cr_assert_str_eq(why, "");
	cr_assert_str_eq(plugin_latency(&exp.variants[1], why, sizeof(why)), "emulated");
	experiment_free(&exp);
	/* model = off: the plugin only counts, and the reason says what that means */
	load(&exp, "[global]\nworkload = true\ntiming = deterministic\n"
	     "[machine]\nmodel = off\n[m]\n");
	cr_assert_str_eq(plugin_latency(&exp.variants[0], why, sizeof(why)), "uniform");
	cr_assert(strstr(why, "model = off"), "%s", why);
	experiment_free(&exp);
}

/* A run whose guest kernel warned says so on stderr, a quiet one says nothing. */
Test(args, kernel_warnings_go_to_stderr)
{
	const struct job j = { .id = 2, .total = 6, .variant = "on", .rep = 1 };

	cr_redirect_stderr();
	job_warnings("out/runs/on/rep1", &j, 0);
	job_warnings("out/runs/on/rep1", &j, -1);
	job_warnings("out/runs/on/rep1", &j, 2);
	fflush(stderr);
	cr_assert_stderr_eq_str("bnb-run: on rep 1: the guest kernel reported 2 warning(s); "
				"see out/runs/on/rep1/console.log\n");
}

/*
 * A kernel stall fails a run on the guest's own clock, and only flags it
 * on the host's, where a loaded host can starve a vCPU into one.
 */
Test(args, stalls_fail_deterministic_runs_and_flag_wall_runs)
{
	static const char stall[] = "status=ok\nstalls=2\n"
		"stall=[   42.1] rcu: INFO: rcu_sched self-detected stall on CPU\n";
	struct experiment exp;
	char path[128], reason[512] = "";
	int n;

	load(&exp, "[global]\nworkload = true\n[wall]\n[det]\ntiming = deterministic\n");
	scratch_write(tmpdir, "stall", stall);
	scratch_write(tmpdir, "calm", "status=ok\nstalls=0\nstall=\n");
	snprintf(path, sizeof(path), "%s/stall", tmpdir);
	cr_assert_str_eq(stall_verdict(path, &exp.variants[0], "ok", &n, reason,
				       sizeof(reason)), "ok");
	cr_assert_eq(n, 2);
	cr_assert(strstr(reason, "flagged") && strstr(reason, "self-detected stall"), "%s", reason);
	cr_assert_str_eq(stall_verdict(path, &exp.variants[1], "ok", &n, reason,
				       sizeof(reason)), "failed");
	cr_assert(strstr(reason, "guest's own clock") && strstr(reason, "rcu_sched"), "%s", reason);
	/* a failed run keeps its own reason */
	strcpy(reason, "guest command exited 1");
	cr_assert_str_eq(stall_verdict(path, &exp.variants[1], "failed", &n, reason,
				       sizeof(reason)), "failed");
	cr_assert_str_eq(reason, "guest command exited 1");
	snprintf(path, sizeof(path), "%s/calm", tmpdir);
	reason[0] = '\0';
	cr_assert_str_eq(stall_verdict(path, &exp.variants[1], "ok", &n, reason,
				       sizeof(reason)), "ok");
	cr_assert_eq(n, 0);
	cr_assert_str_eq(reason, "");
	experiment_free(&exp);
}
