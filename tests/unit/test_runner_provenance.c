// SPDX-License-Identifier: GPL-2.0
/*
 * Provenance (bench/runner/run/provenance.c): the kernel's identity from a
 * cache-like directory, hashes made the way kernel/build.sh makes its key,
 * the guest's lines from a captured run, and the comparison that compare
 * builds its warnings on.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/provenance.h"
#include "scratch.h"

static char tmp[64];

static void run(const char *cmd)
{
	cr_assert_eq(system(cmd), 0, "%s", cmd);
}

static void setup(void)
{
	char cmd[1024];

	scratch_make(tmp, sizeof(tmp), "prov");
	setenv("BNB_ROOT", tmp, 1);
	snprintf(cmd, sizeof(cmd), "cd %s && mkdir -p kernel/patches kernel/config "
		 "cache/kernels/0123456789abcdef && echo one > kernel/patches/0001-a.patch && "
		 "echo two > kernel/patches/0002-b.patch && echo CONFIG_NUMA=y > kernel/config/guest.config && "
		 "cd cache/kernels/0123456789abcdef && echo kernel > bzImage && echo CONFIG_X=y > .config && "
		 "printf 'source=debian:x\\ncompiler=gcc 12\\nfragments=/elsewhere/kernel/config/guest.config\\n"
		 "patches=0001-a.patch 0002-b.patch\\n' > info && cd %s && "
		 "echo plugin-build > bnb-plugin.so", tmp, tmp);
	run(cmd);
}

static void teardown(void)
{
	scratch_remove(tmp);
}

TestSuite(provenance, .init = setup, .fini = teardown);

static const char *get(struct json_object *o, const char *key)
{
	struct json_object *v;

	cr_assert(json_object_object_get_ex(o, key, &v), "no %s", key);
	return json_object_get_string(v);
}

/* What kernel/build.sh's hash_of gives for "basename; cat" of each file. */
static void expected_hash(const char *files, char *out)
{
	char cmd[1024];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "cd %s && for f in %s; do basename $f; cat $f; done | "
		 "sha256sum | cut -c1-16", tmp, files);
	p = popen(cmd, "r");
	cr_assert(p && fgets(out, 32, p));
	pclose(p);
	out[strcspn(out, "\n")] = 0;
}

Test(provenance, kernel_and_host)
{
	char kernel[128], want[32];
	struct json_object *p;

	snprintf(kernel, sizeof(kernel), "%s/cache/kernels/0123456789abcdef/bzImage", tmp);
	p = prov_start(kernel);
	cr_assert_str_eq(get(p, "kernel_key"), "0123456789abcdef");
	cr_assert_str_eq(get(p, "kernel_source"), "debian:x");
	cr_assert_str_eq(get(p, "kernel_patches"), "0001-a.patch 0002-b.patch");
	expected_hash("kernel/patches/0001-a.patch kernel/patches/0002-b.patch", want);
	cr_assert_str_eq(get(p, "series_hash"), want);
	expected_hash("kernel/config/guest.config", want);
	cr_assert_str_eq(get(p, "config_fragments_hash"), want,
			 "the fragment the info file names, as it is in this tree");
	expected_hash("cache/kernels/0123456789abcdef/.config", want);
	cr_assert_str_eq(get(p, "kernel_config_hash"), want);
	cr_assert_neq(strlen(get(p, "host_cpu")), 0);
	cr_assert_eq(strspn(get(p, "host_loadavg_start"), "0123456789. "),
		     strlen(get(p, "host_loadavg_start")));
	prov_end(p);
	get(p, "host_loadavg_end");
	json_object_put(p);
}

Test(provenance, unknown_kernel)
{
	struct json_object *p = prov_start("/nonexistent/bzImage");

	cr_assert_str_eq(get(p, "kernel_key"), "unknown");
	json_object_put(p);
}

static bool has(struct json_object *o, const char *key)
{
	return json_object_object_get_ex(o, key, NULL);
}

/* What bnb-vm ran comes from its result file, not from the runner's guesses. */
Test(provenance, from_the_launchers_result)
{
	char path[256], cmd[1024], want[32];
	struct json_object *p = json_object_new_object();
	FILE *f;

	snprintf(path, sizeof(path), "%s/result", tmp);
	f = fopen(path, "w");
	cr_assert(f);
	fprintf(f, "status=ok\naccel=tcg\ntiming=deterministic\nicount_shift=3\n"
		"insn_ps=8000\nqemu=/c/qemu/abc/bin/qemu-system-x86_64\nqemu_version=10.0.0\n"
		"qemu_key=abc\nqemu_patches=f00d\nplugin=%s/bnb-plugin.so\nplugin_api=5\n"
		"plugin_opts=delay=on shm=/dev/shm/x ksym=/k/System.map ksym_out=/r/rep1/numawork\n",
		tmp);
	fclose(f);
	prov_add_vm(p, path);
	cr_assert_str_eq(get(p, "qemu"), "/c/qemu/abc/bin/qemu-system-x86_64");
	cr_assert_str_eq(get(p, "qemu_version"), "10.0.0");
	cr_assert_str_eq(get(p, "qemu_key"), "abc");
	cr_assert_str_eq(get(p, "qemu_patches"), "f00d");
	cr_assert_str_eq(get(p, "timing"), "deterministic");
	cr_assert_str_eq(get(p, "icount_shift"), "3");
	cr_assert_str_eq(get(p, "insn_ps"), "8000");
	cr_assert_str_eq(get(p, "plugin_api"), "5");
	cr_assert_str_eq(get(p, "plugin_opts"), "delay=on ksym=/k/System.map",
			 "the run's own paths (shm, ksym_out) left out, the kernel's map kept");
	snprintf(cmd, sizeof(cmd), "bnb-plugin.so");
	expected_hash(cmd, want);
	cr_assert_str_eq(get(p, "plugin_hash"), want, "the build QEMU loaded");
	json_object_put(p);

	/* wall, no plugin; a launch that wrote no emulator says unknown */
	p = json_object_new_object();
	scratch_write(tmp, "result", "status=launch-error\naccel=tcg\ntiming=wall\nplugin=none\n");
	prov_add_vm(p, path);
	cr_assert_str_eq(get(p, "plugin"), "none");
	cr_assert_str_eq(get(p, "qemu_version"), "unknown");
	cr_assert(!has(p, "icount_shift") && !has(p, "plugin_hash") && !has(p, "plugin_opts"));
	json_object_put(p);

	/* no result file at all */
	p = json_object_new_object();
	snprintf(path, sizeof(path), "%s/none", tmp);
	prov_add_vm(p, path);
	cr_assert_str_eq(get(p, "timing"), "unknown");
	cr_assert_str_eq(get(p, "qemu"), "unknown");
	json_object_put(p);
}

Test(provenance, guest_lines)
{
	struct json_object *p = json_object_new_object();
	const char *path = scratch_write(tmp, "out.log",
		"# bnb-prov: uname_r=6.1.192+\n"
		"# bnb-prov: uname_v=#1 SMP 2026-01-01 00:00 UTC\n"
		"# bnb-prov: sysctl.kernel.numa_balancing_scan_delay_ms=1000\n"
		"# bnb-prov: bad key=x\n# bnb-prov: noequals\n# bnb-prov: ctl=a\x01z\n"
		"stdout line\n");

	cr_assert_eq(prov_add_guest(p, path), 0);
	cr_assert_str_eq(get(p, "guest.uname_r"), "6.1.192+");
	cr_assert_str_eq(get(p, "guest.uname_v"), "#1 SMP 2026-01-01 00:00 UTC");
	cr_assert_str_eq(get(p, "guest.sysctl.kernel.numa_balancing_scan_delay_ms"), "1000");
	cr_assert_str_eq(get(p, "guest.ctl"), "a?z");
	cr_assert_eq(json_object_object_length(p), 4);
	json_object_put(p);
}

Test(provenance, compare)
{
	struct json_object *a = json_object_new_object(), *b = json_object_new_object();
	const char *ignored[] = { "host_*", "plugin_opts", NULL };
	struct prov_diff d[8];
	int n;

	json_object_object_add(a, "harness", json_object_new_string("v1"));
	json_object_object_add(b, "harness", json_object_new_string("v2"));
	json_object_object_add(a, "host_loadavg_start", json_object_new_string("1"));
	json_object_object_add(b, "host_loadavg_start", json_object_new_string("2"));
	json_object_object_add(a, "plugin_opts", json_object_new_string("x"));
	json_object_object_add(a, "same", json_object_new_string("s"));
	json_object_object_add(b, "same", json_object_new_string("s"));
	json_object_object_add(b, "only_b", json_object_new_string("y"));
	n = prov_compare(a, b, ignored, d, 8);
	cr_assert_eq(n, 2);
	cr_assert_str_eq(d[0].key, "harness");
	cr_assert_str_eq(d[0].a, "v1");
	cr_assert_str_eq(d[0].b, "v2");
	cr_assert_str_eq(d[1].key, "only_b");
	cr_assert_str_eq(d[1].a, "(absent)");
	json_object_put(a);
	json_object_put(b);
}

/*
 * Two folders that used the plugin differ in every run path of
 * plugin_opts, as older folders recorded them: that is no provenance
 * difference, another option is.
 */
Test(provenance, run_paths_are_no_difference)
{
	struct json_object *a = json_object_new_object(), *b = json_object_new_object();
	struct prov_diff d[4];

	json_object_object_add(a, "plugin_opts", json_object_new_string(
		"shm=/x/A/runs/on/rep1/plugin.shm ksym=/k/System.map ksym_out=/x/A/runs/on/rep1/numawork"));
	json_object_object_add(b, "plugin_opts", json_object_new_string(
		"shm=/x/B/runs/on/rep2/plugin.shm ksym=/k/System.map ksym_out=/x/B/runs/on/rep2/numawork"));
	cr_assert_eq(prov_compare(a, b, NULL, d, 4), 0, "got %s: %s / %s", d[0].key, d[0].a, d[0].b);
	json_object_object_add(b, "plugin_opts", json_object_new_string(
		"shm=/x/B/plugin.shm ksym=/k/System.map ksym_out=/x/B/numawork delay=off"));
	cr_assert_eq(prov_compare(a, b, NULL, d, 4), 1, "another option is a difference");
	cr_assert_str_eq(d[0].key, "plugin_opts");
	json_object_put(a);
	json_object_put(b);
}
