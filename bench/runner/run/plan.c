// SPDX-License-Identifier: GPL-2.0
/*
 * Resolving a variant against this machine: which kernel and tools, and
 * which latency mode the run will have. The mode goes into every report,
 * so it is decided here once, from facts (plugin present, accelerator,
 * host NUMA nodes), not guessed later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootcheck.h"
#include "lib/argv.h"
#include "lib/err.h"
#include "lib/util.h"
#include "experiment/keys.h"
#include "experiment/knobs.h"
#include "runner.h"

/* This host's NUMA nodes, read once; NULL when they cannot be read. */
static const struct host_numa *this_host(void)
{
	static struct host_numa h;
	static int state;	/* 0 unread, 1 read, -1 failed */

	if (!state)
		state = host_numa_read(&h) ? -1 : 1;
	return state > 0 ? &h : NULL;
}

const char *kvm_latency(const struct host_numa *h, const struct bnb_topology *t,
			char *why, size_t whylen)
{
	int map[BNB_MAX_NODES];

	why[0] = '\0';
	if (!h) {
		snprintf(why, whylen, "KVM: cannot read the host's NUMA nodes");
		return LATENCY_UNIFORM_KVM;
	}
	if (host_numa_bind(h, t, map, why, whylen))
		return LATENCY_UNIFORM_KVM;
	return "real";
}

static int need(const char *path, const char *what, char *why, size_t whylen)
{
	if (!access(path, R_OK))
		return 0;
	snprintf(why, whylen, "%s %s is missing (run.sh or make builds it)", what, path);
	return -1;
}

/* kernel/build.sh's options for K: the kernel or tree, as built for `kernel =`. */
static void build_opts(const struct kernel_spec *ks, char *out, size_t len)
{
	char q[PATH_MAX + 16];

	if (ks->kind == KSPEC_NAMED)
		snprintf(out, len, "--kernel %s", ks->named->name);
	else
		snprintf(out, len, "--ksrc %s --patches none", shell_quote(ks->path, q, sizeof(q)));
}

/* The command a user types to build K. */
static void make_command(const struct kernel_spec *ks, char *out, size_t len)
{
	if (ks->kind == KSPEC_KSRC)
		snprintf(out, len, "make kernel KSRC=%s PATCHES=none", ks->path);
	else if (ks->named->id == KERNEL_PATCHED)
		snprintf(out, len, "make kernel");
	else
		snprintf(out, len, "make kernel K=%s", ks->named->name);
}

/*
 * The cache directory of K's build, from kernel/build.sh itself (its key
 * is a hash of every input, so only it can say). Asked once per kernel
 * and process: the key does not change while an experiment runs, and a
 * run must not boot a build other than the one its experiment started on.
 */
static int build_dir(const struct kernel_spec *ks, char *dir, size_t len, char *why,
		     size_t whylen)
{
	static struct { char opts[PATH_MAX + 64], dir[PATH_MAX]; } seen[8];
	static int n_seen;
	char opts[PATH_MAX + 64], script[PATH_MAX], cmd[PATH_MAX * 2 + 128], q[PATH_MAX + 16];
	FILE *p;
	int i, rc;

	build_opts(ks, opts, sizeof(opts));
	for (i = 0; i < n_seen; i++)
		if (!strcmp(seen[i].opts, opts))
			return snprintf(dir, len, "%s", seen[i].dir) >= (int)len ? -1 : 0;
	root_path(script, sizeof(script), "kernel/build.sh");
	snprintf(cmd, sizeof(cmd), "%s %s --print-dir 2>&1", shell_quote(script, q, sizeof(q)),
		 opts);
	p = popen(cmd, "r");
	if (!p)
		return errf(why, whylen, "cannot run %s: %m", script);
	if (!fgets(dir, (int)len, p))
		dir[0] = 0;
	rc = pclose(p);
	dir[strcspn(dir, "\n")] = 0;
	if (rc || dir[0] != '/')
		return errf(why, whylen, "%s", dir[0] ? dir : "kernel/build.sh --print-dir failed");
	if (n_seen < (int)ARRAY_SIZE(seen)) {
		snprintf(seen[n_seen].opts, sizeof(seen[0].opts), "%s", opts);
		snprintf(seen[n_seen++].dir, sizeof(seen[0].dir), "%s", dir);
	}
	return 0;
}

int kernel_locate(const char *value, const char *basedir, struct kernel_loc *k, char *why,
		  size_t whylen)
{
	memset(k, 0, sizeof(*k));
	if (kernel_spec_parse(value, basedir, &k->spec, why, whylen))
		return -1;
	if (k->spec.kind == KSPEC_PATH) {
		snprintf(k->image, sizeof(k->image), "%s", k->spec.path);
		snprintf(k->dir, sizeof(k->dir), "%s", k->spec.path);
		*(strrchr(k->dir, '/') ?: k->dir) = 0;
		k->built = !access(k->image, R_OK);
		return 0;
	}
	if (build_dir(&k->spec, k->dir, sizeof(k->dir), why, whylen))
		return -1;
	if (path_join(k->image, sizeof(k->image), k->dir, "bzImage"))
		return errf(why, whylen, "kernel path %s/bzImage is too long", k->dir);
	snprintf(k->key, sizeof(k->key), "%s", strrchr(k->dir, '/') + 1);
	make_command(&k->spec, k->make, sizeof(k->make));
	k->built = !access(k->image, R_OK);
	return 0;
}

int kernel_build(const struct kernel_loc *k)
{
	char script[PATH_MAX], opts[PATH_MAX + 64], cmd[PATH_MAX * 3 + 256], q[PATH_MAX + 16];
	char link[PATH_MAX], ql[PATH_MAX + 16], qm[PATH_MAX + 96];
	int rc;

	if (k->spec.kind == KSPEC_PATH)
		return -1;
	root_path(script, sizeof(script), "kernel/build.sh");
	root_path(link, sizeof(link), "build");
	build_opts(&k->spec, opts, sizeof(opts));
	snprintf(cmd, sizeof(cmd), "BNB_RETRY=%s %s %s --link-in %s", shell_quote(k->make, qm,
		 sizeof(qm)), shell_quote(script, q, sizeof(q)), opts,
		 shell_quote(link, ql, sizeof(ql)));
	fflush(stdout);
	rc = system(cmd);
	return rc == 0 && !access(k->image, R_OK) ? 0 : -1;
}

int prepare_kernel(const struct variant *v, const char *basedir, char *why, size_t whylen)
{
	struct kernel_loc k;

	if (kernel_locate(v->kernel, basedir, &k, why, whylen))
		return -1;
	if (k.built || k.spec.kind == KSPEC_PATH)
		return 0;
	printf("bnb-run: variant %s: kernel %s (build %s) is not built yet: building it "
	       "(%s)\n", v->name, v->kernel, k.key, k.make);
	if (kernel_build(&k))
		return errf(why, whylen, "kernel %s could not be built (above); retry with: %s",
			    v->kernel, k.make);
	return 0;
}

/*
 * The System.map of K's build: beside the bzImage (the cache's builds),
 * or at the top of the kbuild tree whose arch/x86/boot holds it; "" when
 * there is none.
 */
void kernel_map(const struct kernel_loc *k, char *map, size_t len)
{
	static const char boot[] = "/arch/x86/boot";
	size_t n = strlen(k->dir);

	snprintf(map, len, "%s/System.map", k->dir);
	if (!access(map, R_OK))
		return;
	map[0] = 0;
	if (n > strlen(boot) && !strcmp(k->dir + n - strlen(boot), boot)) {
		snprintf(map, len, "%.*s/System.map", (int)(n - strlen(boot)), k->dir);
		if (access(map, R_OK))
			map[0] = 0;
	}
}

/*
 * A kernel the knob table does not name: its knobs checked against its
 * System.map where it has one (the guest checks the rest).
 */
static int check_map_knobs(const struct variant *v, const struct kernel_loc *k, char *why,
			   size_t whylen)
{
	char map[PATH_MAX + 16];
	int i;

	if (k->spec.kind == KSPEC_NAMED)
		return 0;
	kernel_map(k, map, sizeof(map));
	for (i = 0; map[0] && i < v->n_sysctls; i++)
		if (knob_check_map(map, v->kernel, v->sysctls[i].key, why, whylen))
			return -1;
	return 0;
}

static int resolve_kernel(const struct variant *v, const char *basedir, struct run_plan *p,
			  char *why, size_t whylen)
{
	struct kernel_loc k;

	if (kernel_locate(v->kernel, basedir, &k, why, whylen))
		return -1;
	/* a bzImage of the user's: nothing here builds it */
	if (k.spec.kind == KSPEC_PATH && access(k.image, R_OK))
		return errf(why, whylen, "kernel %s: %m (the `kernel` key names a bzImage, relative "
			    "to the experiment file)", k.image);
	if (k.spec.kind != KSPEC_PATH && !k.built)
		return errf(why, whylen, "kernel %s (build %s) is not built: %s", v->kernel, k.key,
			    k.make);
	if (bzimage_check(k.image, why, whylen) || check_map_knobs(v, &k, why, whylen))
		return -1;
	snprintf(p->kernel, sizeof(p->kernel), "%s", k.image);
	return 0;
}

/*
 * The latency a run with the plugin is planned to have. Under deterministic
 * timing without the machine model the plugin only counts and keeps time, so the
 * run is uniform and that is known now; otherwise it is emulated only if
 * the guest's map check passes, which latency_verdict() reads after the run.
 */
const char *plugin_latency(const struct variant *v, char *why, size_t whylen)
{
	struct bnb_machine_spec m = v->machine;

	why[0] = '\0';
	bnb_machine_resolve(&m, v->timing == TIMING_DETERMINISTIC);
	if (v->timing == TIMING_DETERMINISTIC && !bnb_machine_class(&m)) {
		snprintf(why, whylen, "deterministic timing with model = off: the plugin only "
			 "counts accesses and keeps time");
		return "uniform";
	}
	return "emulated";
}

static int resolve_latency(const struct variant *v, struct run_plan *p,
			   char *why, size_t whylen)
{
	bool tcg = v->accel == ACCEL_TCG;

	/* latency=emulated with accel=kvm is refused when the file is read */
	root_path(p->plugin, sizeof(p->plugin), "build/bin/bnb-plugin.so");
	if (v->latency == LATENCY_EMULATED && need(p->plugin, "latency plugin", why, whylen))
		return -1;
	if (v->latency != LATENCY_OFF && tcg && !access(p->plugin, R_OK)) {
		p->latency = plugin_latency(v, p->latency_why, sizeof(p->latency_why));
		return 0;
	}
	p->plugin[0] = 0;
	/* bnb-vm binds the guest's nodes by the same rule, host_numa_bind() */
	p->latency = tcg ? "uniform" : kvm_latency(this_host(), &v->topo, p->latency_why,
						    sizeof(p->latency_why));
	return 0;
}

int plan_run(const struct variant *v, const char *basedir, struct run_plan *p,
	     char *why, size_t whylen)
{
	memset(p, 0, sizeof(*p));
	p->time_limit = v->time_limit;
	root_path(p->initrd, sizeof(p->initrd), "build/guest/initramfs.cpio");
	root_path(p->vm, sizeof(p->vm), "build/bin/bnb-vm");
	root_path(p->collect, sizeof(p->collect), "build/bin/bnb-collect");
	if (resolve_kernel(v, basedir, p, why, whylen))
		return -1;
	if (need(p->initrd, "guest initramfs", why, whylen) ||
	    need(p->vm, "launcher", why, whylen) ||
	    need(p->collect, "collector", why, whylen))
		return -1;
	return resolve_latency(v, p, why, whylen);
}
