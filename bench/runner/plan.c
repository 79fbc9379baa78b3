// SPDX-License-Identifier: GPL-2.0
/*
 * Resolving a variant against this machine: which kernel and tools, and
 * which latency mode the run will have. The mode goes into every report,
 * so it is decided here once, from facts (plugin present, accelerator,
 * host NUMA nodes), not guessed later.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "keys.h"
#include "runner.h"

static int host_numa_nodes(void)
{
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *de;
	int n = 0, id;

	if (!d)
		return 1;
	while ((de = readdir(d)))
		n += sscanf(de->d_name, "node%d", &id) == 1;
	closedir(d);
	return n ? n : 1;
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
	else if (value[0] == '/')
		snprintf(out, len, "%s", value);
	else
		snprintf(out, len, "%s/%s", basedir, value);
	return need(out, "kernel", why, whylen);
}

static int resolve_latency(const struct variant *v, struct run_plan *p,
			   char *why, size_t whylen)
{
	const char *want = variant_get(v, "latency");
	bool tcg = !strcmp(variant_get(v, "accel"), "tcg");

	root_path(p->plugin, sizeof(p->plugin), "build/bin/bnb-plugin.so");
	if (!strcmp(want, "emulated") && !tcg) {
		snprintf(why, whylen, "latency=emulated needs accel=tcg (plugins are TCG only)");
		return -1;
	}
	if (!strcmp(want, "emulated") && need(p->plugin, "latency plugin", why, whylen))
		return -1;
	if (strcmp(want, "off") && tcg && !access(p->plugin, R_OK)) {
		p->latency = "emulated";
		return 0;
	}
	p->plugin[0] = 0;
	p->latency = !tcg && host_numa_nodes() > 1 ? "real" : "uniform";
	return 0;
}

int plan_run(const struct variant *v, const char *basedir, struct run_plan *p,
	     char *why, size_t whylen)
{
	memset(p, 0, sizeof(*p));
	parse_long(variant_get(v, "time_limit"), 1, 86400, &p->time_limit);
	root_path(p->initrd, sizeof(p->initrd), "build/guest/initramfs.cpio");
	root_path(p->vm, sizeof(p->vm), "build/bin/bnb-vm");
	root_path(p->collect, sizeof(p->collect), "build/bin/bnb-collect");
	if (resolve_kernel(variant_get(v, "kernel"), basedir, p->kernel, sizeof(p->kernel),
			   why, whylen))
		return -1;
	if (need(p->initrd, "guest initramfs", why, whylen) ||
	    need(p->vm, "launcher", why, whylen) ||
	    need(p->collect, "collector", why, whylen))
		return -1;
	return resolve_latency(v, p, why, whylen);
}
