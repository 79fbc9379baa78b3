// SPDX-License-Identifier: GPL-2.0
/*
 * What the guest knows about what produced a number: the kernel's release
 * and version strings, its command line, and every NUMA balancing knob in
 * force as the workload starts (the kernel.numa_balancing* sysctls, the
 * debugfs scan tunables of kernels without the series' sysctls, and the
 * memory tiering switches of /sys/kernel/mm/numa).
 */
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "monitor.h"

static void item(FILE *out, const char *key, const char *value)
{
	char clean[512];

	mon_printable(clean, sizeof(clean), value);
	fprintf(out, BNB_MON_PROV "%s=%s\n", key, clean);
}

static void file_item(FILE *out, const char *key, const char *path)
{
	char value[512] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	if (!fgets(value, sizeof(value), f))
		value[0] = 0;
	fclose(f);
	value[strcspn(value, "\n")] = 0;
	item(out, key, value);
}

/* Every file matching DIR/PATTERN as PREFIX + its name. */
static void files_item(FILE *out, const char *prefix, const char *dir, const char *pattern)
{
	char glob_path[512], key[256];
	const char *name;
	glob_t g;
	size_t i;

	snprintf(glob_path, sizeof(glob_path), "%s/%s", dir, pattern);
	if (glob(glob_path, 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		name = strrchr(g.gl_pathv[i], '/') + 1;
		snprintf(key, sizeof(key), "%s%s", prefix, name);
		file_item(out, key, g.gl_pathv[i]);
	}
	globfree(&g);
}

void prov_print(FILE *out, const char *proc, const char *debugfs, const char *sysfs)
{
	struct utsname u;
	char path[512];

	if (!uname(&u)) {
		item(out, "uname_r", u.release);
		item(out, "uname_v", u.version);
	}
	snprintf(path, sizeof(path), "%s/cmdline", proc);
	file_item(out, "cmdline", path);
	snprintf(path, sizeof(path), "%s/sys/kernel", proc);
	files_item(out, "sysctl.kernel.", path, "numa_balancing*");
	snprintf(path, sizeof(path), "%s/sched/numa_balancing", debugfs);
	files_item(out, "debugfs.numa_balancing.", path, "*");
	snprintf(path, sizeof(path), "%s/kernel/mm/numa", sysfs);
	files_item(out, "sysfs.kernel.mm.numa.", path, "*");
	fflush(out);
}
