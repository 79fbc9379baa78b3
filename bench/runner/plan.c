// SPDX-License-Identifier: GPL-2.0
/*
 * Resolving a variant against this machine: which kernel and tools, and
 * which latency mode the run will have. The mode goes into every report,
 * so it is decided here once, from facts (plugin present, accelerator,
 * host NUMA nodes), not guessed later.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "keys.h"
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

static int resolve_kernel(const char *value, const char *basedir, char *out, size_t len,
			  char *why, size_t whylen)
{
	if (!strcmp(value, "default"))
		root_path(out, len, "build/kernel/bzImage");
	else if (path_join(out, len, basedir, value))
		return errf(why, whylen, "kernel path '%s' is too long", value);
	return need(out, "kernel", why, whylen);
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
	if (resolve_kernel(v->kernel, basedir, p->kernel, sizeof(p->kernel),
			   why, whylen))
		return -1;
	if (need(p->initrd, "guest initramfs", why, whylen) ||
	    need(p->vm, "launcher", why, whylen) ||
	    need(p->collect, "collector", why, whylen))
		return -1;
	return resolve_latency(v, p, why, whylen);
}
