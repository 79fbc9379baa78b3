// SPDX-License-Identifier: GPL-2.0
/*
 * Kernels by name and their knobs (bench/runner/experiment/knobs.c): which kernel a
 * `kernel =` value names, where each named kernel keeps each tunable, a
 * knob the named kernel lacks refused when the file is read (naming the
 * key and the kernel), a System.map check for other kernels, and the
 * README's table printed from the same data.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "docblock.h"
#include "experiment/experiment.h"
#include "experiment/keys.h"
#include "experiment/knobs.h"
#include "lib/err.h"
#include "lib/path.h"
#include "runner.h"
#include "scratch.h"

static char tmpdir[64];

static void setup(void)
{
	scratch_make(tmpdir, sizeof(tmpdir), "knobs");
}

static void teardown(void)
{
	scratch_remove(tmpdir);
}

TestSuite(knobs, .init = setup, .fini = teardown);

Test(knobs, names_resolve)
{
	struct kernel_spec s;
	char why[ERRLEN];

	cr_assert_eq(kernel_spec_parse("patched", tmpdir, &s, why, sizeof(why)), 0);
	cr_assert_eq(s.kind, KSPEC_NAMED);
	cr_assert_eq(s.named->id, KERNEL_PATCHED);
	cr_assert_eq(kernel_spec_parse("default", tmpdir, &s, why, sizeof(why)), 0);
	cr_assert_eq(s.named, named_kernel("patched"), "default is the patched kernel's alias");
	cr_assert_eq(kernel_spec_parse("debian-6.12", tmpdir, &s, why, sizeof(why)), 0);
	cr_assert_eq(s.named->id, KERNEL_DEBIAN_612);
	cr_assert_str_eq(s.named->package, "linux-source-6.12");
	cr_assert_eq(kernel_spec_parse("debian-6.1", tmpdir, &s, why, sizeof(why)), 0);
	cr_assert_eq(s.named->id, KERNEL_DEBIAN_61);
}

Test(knobs, paths_and_trees_resolve_against_the_experiment)
{
	struct kernel_spec s;
	char why[ERRLEN], want[128];

	cr_assert_eq(kernel_spec_parse("ksrc:/src/linux", tmpdir, &s, why, sizeof(why)), 0);
	cr_assert_eq(s.kind, KSPEC_KSRC);
	cr_assert_str_eq(s.path, "/src/linux");
	cr_assert_eq(kernel_spec_parse("ksrc:linux", tmpdir, &s, why, sizeof(why)), 0);
	snprintf(want, sizeof(want), "%s/linux", tmpdir);
	cr_assert_str_eq(s.path, want, "a relative tree is the experiment's neighbour");
	cr_assert_eq(kernel_spec_parse("ksrc:", tmpdir, &s, why, sizeof(why)), -1);
	cr_assert(strstr(why, "needs a kernel source directory"), "%s", why);
	cr_assert_eq(kernel_spec_parse("../k/bzImage", tmpdir, &s, why, sizeof(why)), 0);
	cr_assert_eq(s.kind, KSPEC_PATH);
	scratch_write(tmpdir, "bzImage", "x");
	cr_assert_eq(kernel_spec_parse("bzImage", tmpdir, &s, why, sizeof(why)), 0,
		     "a file beside the experiment is a path: %s", why);
	snprintf(want, sizeof(want), "%s/bzImage", tmpdir);
	cr_assert_str_eq(s.path, want);
}

Test(knobs, a_misspelt_name_is_refused_with_the_names)
{
	struct kernel_spec s;
	char why[ERRLEN];

	cr_assert_eq(kernel_spec_parse("debian-6.13", tmpdir, &s, why, sizeof(why)), -1);
	cr_assert(strstr(why, "unknown kernel 'debian-6.13'"), "%s", why);
	cr_assert(strstr(why, "patched, debian-6.1, debian-6.12"), "%s", why);
}

/* Where each named kernel keeps a knob: the table's cells. */
Test(knobs, each_kernel_keeps_each_knob_where_it_does)
{
	struct sysctl_target t;
	char why[ERRLEN];

	cr_assert_eq(knob_target(named_kernel("patched"), "sysctl.scan_delay_ms", &t, why,
				 sizeof(why)), 0, "%s", why);
	cr_assert_str_eq(t.sysctl, "kernel.numa_balancing_scan_delay_ms");
	cr_assert_null(t.debugfs, "the series has the sysctl: no fallback to hide its absence");
	cr_assert_eq(knob_target(named_kernel("debian-6.12"), "sysctl.scan_delay_ms", &t, why,
				 sizeof(why)), 0, "%s", why);
	cr_assert_str_eq(t.debugfs, "/sys/kernel/debug/sched/numa_balancing/scan_delay_ms");
	cr_assert_eq(knob_target(named_kernel("debian-6.1"), "sysctl.scan_size_mb", &t, why,
				 sizeof(why)), 0, "%s", why);
	cr_assert_str_eq(t.debugfs, "/sys/kernel/debug/sched/numa_balancing/scan_size_mb");
	cr_assert_eq(knob_target(named_kernel("debian-6.12"), "sysctl.promote_rate_limit_MBps",
				 &t, why, sizeof(why)), 0, "%s", why);
	cr_assert_str_eq(t.sysctl, "kernel.numa_balancing_promote_rate_limit_MBps");
	cr_assert_null(t.debugfs);
	cr_assert_eq(knob_target(named_kernel("patched"), "sysctl.hot_threshold_ms", &t, why,
				 sizeof(why)), 0, "%s", why);
	cr_assert_str_eq(t.debugfs, "/sys/kernel/debug/sched/numa_balancing/hot_threshold_ms");
	cr_assert_eq(knob_target(named_kernel("debian-6.12"), "sysctl.kernel.numa_balancing", &t,
				 why, sizeof(why)), 0, "%s", why);
	cr_assert_str_eq(t.sysctl, "kernel.numa_balancing");
	/* not NUMA balancing: the guest checks it */
	cr_assert_eq(knob_target(named_kernel("debian-6.12"), "sysctl.vm.zone_reclaim_mode", &t,
				 why, sizeof(why)), 0, "%s", why);
	cr_assert_str_eq(t.sysctl, "vm.zone_reclaim_mode");
}

Test(knobs, a_knob_the_kernel_lacks_is_refused_naming_both)
{
	struct sysctl_target t;
	char why[ERRLEN];

	cr_assert_eq(knob_target(named_kernel("debian-6.12"), "sysctl.migrate_policy", &t, why,
				 sizeof(why)), -1);
	cr_assert(strstr(why, "kernel debian-6.12 has no NUMA balancing knob 'migrate_policy'"),
		  "%s", why);
	cr_assert(strstr(why, "scan_delay_ms"), "it lists what the kernel has: %s", why);
	cr_assert_eq(knob_target(named_kernel("debian-6.1"), "sysctl.scan_adapt", &t, why,
				 sizeof(why)), -1);
	cr_assert(strstr(why, "debian-6.1 has no"), "%s", why);
	cr_assert_eq(knob_target(named_kernel("patched"), "sysctl.scan_delay", &t, why,
				 sizeof(why)), -1, "a misspelt knob");
	cr_assert(strstr(why, "kernel patched has no NUMA balancing knob 'scan_delay'"), "%s", why);
	cr_assert_eq(knob_target(named_kernel("patched"), "sysctl.kernel.numa_balancing_bogus",
				 &t, why, sizeof(why)), -1);
	/* 6.12 has the knob, but not as that sysctl */
	cr_assert_eq(knob_target(named_kernel("debian-6.12"),
				 "sysctl.kernel.numa_balancing_scan_delay_ms", &t, why,
				 sizeof(why)), -1);
	cr_assert(strstr(why, "keeps kernel.numa_balancing_scan_delay_ms in debugfs"), "%s", why);
	cr_assert(strstr(why, "set sysctl.scan_delay_ms"), "%s", why);
}

Test(knobs, other_kernels_try_the_sysctl_then_debugfs)
{
	struct sysctl_target t;

	cr_assert_eq(knob_target(NULL, "sysctl.scan_period_min_ms", &t, NULL, 0), 0);
	cr_assert_str_eq(t.sysctl, "kernel.numa_balancing_scan_period_min_ms");
	cr_assert_str_eq(t.debugfs, "/sys/kernel/debug/sched/numa_balancing/scan_period_min_ms");
	cr_assert_eq(knob_target(NULL, "sysctl.hot_threshold_ms", &t, NULL, 0), 0);
	cr_assert_str_eq(t.debugfs, "/sys/kernel/debug/sched/numa_balancing/hot_threshold_ms");
	cr_assert_eq(knob_target(NULL, "sysctl.some_future_knob", &t, NULL, 0), 0);
	cr_assert_str_eq(t.sysctl, "kernel.numa_balancing_some_future_knob");
	cr_assert_null(t.debugfs);
	cr_assert_eq(knob_target(NULL, "sysctl.a;b", &t, NULL, 0), -1);
}

Test(knobs, a_system_map_says_what_another_kernel_has)
{
	char why[ERRLEN];
	const char *map = scratch_write(tmpdir, "System.map",
		"ffffffff81a4e1f4 D sysctl_numa_balancing_scan_delay\n"
		"ffffffff81bfc584 B sysctl_numa_balancing_mode\n");

	cr_assert_eq(knob_check_map(map, "K", "sysctl.scan_delay_ms", why, sizeof(why)), 0, "%s",
		     why);
	cr_assert_eq(knob_check_map(map, "K", "sysctl.vm.zone_reclaim_mode", why, sizeof(why)), 0,
		     "not a knob of the table: nothing to check");
	cr_assert_eq(knob_check_map(map, "/k/bzImage", "sysctl.migrate_policy", why, sizeof(why)),
		     -1);
	cr_assert(strstr(why, "kernel /k/bzImage has no sysctl.migrate_policy"), "%s", why);
	cr_assert(strstr(why, "sysctl_numa_balancing_migrate_policy"), "%s", why);
	cr_assert_eq(knob_check_map("/nonexistent/System.map", "K", "sysctl.scan_delay_ms", why,
				    sizeof(why)), -1);
}

/* Refused when the file is read: file, line, key, and the kernel. */
Test(knobs, an_experiment_asking_a_kernel_for_a_knob_it_lacks_is_refused)
{
	struct experiment exp;
	char err[ERRLEN];
	const char *path = scratch_write(tmpdir, "k.ini",
		"[global]\nworkload = stream\nsysctl.scan_delay_ms = 100\n"
		"[a]\nsysctl.migrate_policy = 1\n"
		"[b]\nkernel = debian-6.12\n");

	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), 0, "%s", err);
	experiment_free(&exp);
	path = scratch_write(tmpdir, "k2.ini",
		"[global]\nworkload = stream\nsysctl.migrate_policy = 1\n"
		"[a]\n"
		"[b]\nkernel = debian-6.12\n");
	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), -1);
	cr_assert(strstr(err, ":3: key 'sysctl.migrate_policy': variant 'b': kernel debian-6.12 "
			 "has no NUMA balancing knob 'migrate_policy'"), "%s", err);
	path = scratch_write(tmpdir, "k3.ini",
			     "[global]\nworkload = stream\n[a]\nkernel = linux-6.12\n");
	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), -1);
	cr_assert(strstr(err, ":4: key 'kernel': variant 'a': unknown kernel 'linux-6.12'"), "%s",
		  err);
}

/*
 * The series' task placement knob (patch 0007): the patched kernel takes
 * it as a sysctl; the unpatched kernels have no such sysctl and refuse it
 * when the file is read, at file:line:key.
 */
Test(knobs, task_placement_is_a_knob_of_the_patched_kernel_only)
{
	static const char *const unpatched[] = { "debian-6.1", "debian-6.12" };
	struct sysctl_target t;
	struct experiment exp;
	char err[ERRLEN], text[256];
	const char *path;

	cr_assert_eq(knob_target(named_kernel("patched"), "sysctl.task_placement", &t, err,
				 sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(t.sysctl, "kernel.numa_balancing_task_placement");
	cr_assert_null(t.debugfs);
	path = scratch_write(tmpdir, "tp.ini",
		"[global]\nworkload = stream\n"
		"[on]\nsysctl.migrate_policy = 2\nsysctl.task_placement = 0\n");
	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), 0, "%s", err);
	experiment_free(&exp);
	for (size_t i = 0; i < ARRAY_SIZE(unpatched); i++) {
		snprintf(text, sizeof(text),
			 "[global]\nworkload = stream\n[on]\nkernel = %s\n"
			 "sysctl.task_placement = 0\n", unpatched[i]);
		path = scratch_write(tmpdir, "tp.ini", text);
		cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), -1, "%s took it",
			     unpatched[i]);
		cr_assert(strstr(err, "tp.ini:5: key 'sysctl.task_placement'"), "%s", err);
		cr_assert(strstr(err, "has no NUMA balancing knob 'task_placement'"), "%s", err);
	}
}

/*
 * Memory tiering asked of a kernel without memory tiers (issue 33, bad
 * input): mode 2 or 3, alone or in a sweep, and the tiering knobs are
 * refused on the 6.1 kernels, naming the key and the kernel; 6.12 takes
 * them, and mode 1 is no tiering.
 */
Test(knobs, tiering_on_a_kernel_without_tiers_is_refused)
{
	static const char *const refused[] = {
		"sysctl.kernel.numa_balancing = 2", "sysctl.kernel.numa_balancing = 1,3",
		"sysctl.hot_threshold_ms = 500", "sysctl.promote_rate_limit_MBps = 100",
		"sysctl.demotion_enabled = true", "sysctl.demotion_enabled = false,true",
	};
	struct experiment exp;
	char err[ERRLEN], text[256];
	const char *path;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		snprintf(text, sizeof(text), "[global]\nworkload = stream\n[a]\nkernel = %s\n%s\n",
			 i % 2 ? "debian-6.1" : "patched", refused[i]);
		path = scratch_write(tmpdir, "t.ini", text);
		cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), -1, "%s", refused[i]);
		cr_assert(strstr(err, ":5: key 'sysctl.") && strstr(err, "memory tiering with kernel ") &&
			  strstr(err, "kernel = debian-6.12"), "%s: %s", refused[i], err);
		snprintf(text, sizeof(text), "[global]\nworkload = stream\n[a]\n"
			 "kernel = debian-6.12\n%s\n", refused[i]);
		path = scratch_write(tmpdir, "t.ini", text);
		cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), 0, "%s", err);
		experiment_free(&exp);
	}
	path = scratch_write(tmpdir, "t.ini", "[global]\nworkload = stream\n[a]\n"
			     "sysctl.kernel.numa_balancing = 0,1\n");
	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), 0, "%s", err);
	experiment_free(&exp);
}

/* Demotion's switch is a sysfs file whose values are the words it reads back. */
Test(knobs, demotion_is_switched_in_sysfs_with_true_or_false)
{
	static const char *const bad[] = { "1", "on", "true,0", "yes" };
	struct sysctl_target t;
	struct experiment exp;
	char why[ERRLEN], err[ERRLEN], text[256];
	const char *path;
	size_t i;

	cr_assert_eq(knob_target(named_kernel("debian-6.12"), "sysctl.demotion_enabled", &t, why,
				 sizeof(why)), 0, "%s", why);
	cr_assert_str_eq(t.debugfs, "/sys/kernel/mm/numa/demotion_enabled");
	cr_assert_eq(knob_target(NULL, "sysctl.demotion_enabled", &t, NULL, 0), 0);
	cr_assert_str_eq(t.debugfs, "/sys/kernel/mm/numa/demotion_enabled");
	cr_assert_eq(knob_value_check(named_kernel("debian-6.12"), "sysctl.demotion_enabled",
				      "false,true", why, sizeof(why)), 0, "%s", why);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		cr_assert_eq(knob_value_check(NULL, "sysctl.demotion_enabled", bad[i], why,
					      sizeof(why)), -1, "%s", bad[i]);
		cr_assert(strstr(why, "demotion_enabled takes true|false") && strstr(why, bad[i]),
			  "%s", why);
	}
	snprintf(text, sizeof(text), "[global]\nworkload = stream\nkernel = debian-6.12\n"
		 "[a]\nsysctl.demotion_enabled = 1\n");
	path = scratch_write(tmpdir, "t.ini", text);
	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), -1);
	cr_assert(strstr(err, ":5: key 'sysctl.demotion_enabled'") && strstr(err, "true|false"),
		  "%s", err);
}

/* The guest writes where the variant's kernel keeps the knob. */
Test(knobs, the_guest_command_follows_the_kernel)
{
	struct experiment exp;
	char err[ERRLEN], *a, *b;
	const char *path = scratch_write(tmpdir, "g.ini",
		"[global]\nworkload = stream\nsysctl.scan_delay_ms = 100\n"
		"[a]\n[b]\nkernel = debian-6.12\n");

	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), 0, "%s", err);
	a = guest_command(&exp.variants[0], NULL, 0);
	b = guest_command(&exp.variants[1], NULL, 0);
	cr_assert(strstr(a, "bnb_set kernel.numa_balancing_scan_delay_ms 100 ''"), "%s", a);
	cr_assert(strstr(b, "bnb_set kernel.numa_balancing_scan_delay_ms 100 "
			 "'/sys/kernel/debug/sched/numa_balancing/scan_delay_ms'"), "%s", b);
	free(a);
	free(b);
	/* scale_scan too */
	struct scan_plan sp = { .scale = { SCALE_FIXED, 2 } };

	b = guest_command(&exp.variants[1], &sp, 0);
	cr_assert(strstr(b, "bnb_scale kernel.numa_balancing_scan_period_max_ms "
			 "'/sys/kernel/debug/sched/numa_balancing/scan_period_max_ms'"), "%s", b);
	free(b);
	experiment_free(&exp);
}

Test(knobs, readme_table_is_the_knob_table)
{
	char *doc = doc_block("bench/runner/README.md", "kernel knobs");
	char *now = printed(knobs_markdown);

	cr_assert_not_null(doc, "no <!-- kernel knobs --> block in bench/runner/README.md");
	cr_assert_str_eq(doc, now, "bench/runner/README.md is stale: its kernel knobs block "
			 "must be knobs_markdown()'s table:\n%s", now);
	free(doc);
	free(now);
}

/* The first line COMMAND prints, run in the tree. */
static void first_line(const char *command, char *out, size_t len)
{
	char cmd[1024];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "cd '%s' && %s", bnb_root(), command);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	if (!fgets(out, (int)len, p))
		out[0] = 0;
	pclose(p);
	out[strcspn(out, "\n")] = 0;
}

/* A named kernel is its own build, by kernel/build.sh's key, not build/kernel. */
Test(knobs, a_named_kernel_is_found_by_its_key)
{
	struct kernel_loc a, b;
	char why[ERRLEN], key[64], dir[PATH_MAX];

	cr_assert_eq(kernel_locate("default", tmpdir, &a, why, sizeof(why)), 0, "%s", why);
	first_line("kernel/build.sh --print-key", key, sizeof(key));
	cr_assert_str_eq(a.key, key);
	first_line("kernel/build.sh --print-dir", dir, sizeof(dir));
	cr_assert_str_eq(a.dir, dir);
	cr_assert(strstr(a.image, key) && strstr(a.image, "/kernels/"), "%s", a.image);
	cr_assert_str_eq(a.make, "make kernel");
	cr_assert_eq(kernel_locate("debian-6.12", tmpdir, &b, why, sizeof(why)), 0, "%s", why);
	first_line("kernel/build.sh --kernel debian-6.12 --print-key", key, sizeof(key));
	cr_assert_str_eq(b.key, key);
	cr_assert_str_neq(a.key, b.key);
	cr_assert_str_eq(b.make, "make kernel K=debian-6.12");
}

Test(knobs, a_path_is_itself_and_its_map_is_looked_for)
{
	struct kernel_loc k;
	char why[ERRLEN], dir[128], map[PATH_MAX + 16], cmd[1024];

	snprintf(dir, sizeof(dir), "%s/linux/arch/x86/boot", tmpdir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && touch %s/bzImage %s/linux/System.map", dir, dir,
		 tmpdir);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(kernel_locate("linux/arch/x86/boot/bzImage", tmpdir, &k, why, sizeof(why)),
		     0, "%s", why);
	cr_assert(k.built);
	cr_assert_str_eq(k.key, "");
	kernel_map(&k, map, sizeof(map));
	snprintf(cmd, sizeof(cmd), "%s/linux/System.map", tmpdir);
	cr_assert_str_eq(map, cmd, "a kbuild tree's System.map");
	cr_assert_eq(kernel_locate("nothere/bzImage", tmpdir, &k, why, sizeof(why)), 0);
	cr_assert(!k.built);
	kernel_map(&k, map, sizeof(map));
	cr_assert_str_eq(map, "");
}
