// SPDX-License-Identifier: GPL-2.0
/*
 * kt-sysctl: every sysctl of the balancenuma series exists, reads its
 * documented default, accepts a valid value and refuses out-of-range,
 * negative and garbage writes with EINVAL, keeping the old value.
 */
#include "kt.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MAX_BAD 4

struct knob {
	const char *name;
	long def;		/* documented default */
	long valid;		/* a valid value other than the default */
	const char *bad[MAX_BAD];	/* out of range, with the defaults in place */
};

static const struct knob knobs[] = {
	{ "numa_balancing_scan_delay_ms", 1000, 250, { "3600001" } },
	/* 0 means "not set up yet" to task_numa_work(): 1 ms is the floor */
	{ "numa_balancing_scan_period_min_ms", 1000, 500,
	  { "0", "60001", "3600001" } },	/* above max, above the cap */
	{ "numa_balancing_scan_period_max_ms", 60000, 30000,
	  { "0", "999", "3600001" } },		/* below min, above the cap */
	{ "numa_balancing_scan_size_mb", 256, 64, { "0", "1048577" } },
	{ "numa_balancing_migrate_policy", 0, 2, { "3", "100" } },
	{ "numa_balancing_migrate_ratelimit_mb", 0, 128, { "1048577" } },
	{ "numa_balancing_migrate_interval_ms", 100, 250, { "0", "60001" } },
	{ "numa_balancing_scan_adapt", 0, 1, { "2" } },
	{ "numa_balancing_scan_period_reset_ms", 60000, 1000,
	  { "0", "3600001" } },
	{ "numa_balancing_scan_first_node", 0, 1, { "2" } },
	{ "numa_balancing_task_placement", 1, 0, { "2" } },
};

/* Written to every knob: none of them is a valid number */
static const char *const garbage[] = { "-1", "abc", "12abc", "0x", " " };

/* A refused write: EINVAL and the value read back is still @before */
static void check_refused(const char *name, const char *text, long before)
{
	int err = kt_sysctl_write(name, text);
	long after = -1;

	kt_sysctl_read(name, &after);
	kt_ok(err == -EINVAL && after == before,
	      "%s: writing '%s' fails with EINVAL and keeps %ld (got %s, %ld)",
	      name, text, before, err ? strerror(-err) : "success", after);
}

static void check_knob(const struct knob *k)
{
	long val;
	char text[32];
	size_t i;

	if (kt_sysctl_read(k->name, &val)) {
		kt_ok(false, "kernel.%s exists", k->name);
		return;
	}
	kt_ok(true, "kernel.%s exists", k->name);
	/* Remembered, so that kt_done() restores it whatever happens below */
	kt_sysctl_set(k->name, val);
	kt_ok(val == k->def, "%s reads its default %ld (got %ld)",
	      k->name, k->def, val);

	for (i = 0; i < MAX_BAD && k->bad[i]; i++)
		check_refused(k->name, k->bad[i], val);
	for (i = 0; i < sizeof(garbage) / sizeof(garbage[0]); i++)
		check_refused(k->name, garbage[i], val);

	snprintf(text, sizeof(text), "%ld", k->valid);
	kt_ok(kt_sysctl_write(k->name, text) == 0 &&
	      !kt_sysctl_read(k->name, &val) && val == k->valid,
	      "%s accepts %ld", k->name, k->valid);
	snprintf(text, sizeof(text), "%ld", k->def);
	kt_sysctl_write(k->name, text);
}

/* The period bounds are checked against each other in both directions */
static void check_min_max_order(void)
{
	kt_sysctl_set("numa_balancing_scan_period_max_ms", 5000);
	kt_sysctl_set("numa_balancing_scan_period_min_ms", 5000);
	check_refused("numa_balancing_scan_period_min_ms", "5001", 5000);
	check_refused("numa_balancing_scan_period_max_ms", "4999", 5000);
	kt_sysctl_restore();
}

/* The debugfs files of 6.1 still show the same variables */
static void check_debugfs(void)
{
	const char *path = "/sys/kernel/debug/sched/numa_balancing/scan_size_mb";
	FILE *f;
	long val = -1;

	kt_sysctl_set("numa_balancing_scan_size_mb", 32);
	f = fopen(path, "r");
	if (!f) {
		kt_skip("debugfs not mounted", "scan_size_mb in debugfs");
		return;
	}
	if (fscanf(f, "%ld", &val) != 1)
		val = -1;
	fclose(f);
	kt_ok(val == 32, "debugfs scan_size_mb follows the sysctl (got %ld)",
	      val);
	kt_sysctl_restore();
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		check_knob(&knobs[i]);
	check_min_max_order();
	check_debugfs();
	return kt_done();
}
