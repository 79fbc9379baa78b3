// SPDX-License-Identifier: GPL-2.0
/*
 * The experiment key table. Every key an experiment file may use is here,
 * with its type, bounds and default; the parser validates each key=value
 * against it as it reads, so errors point at the line that is wrong.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dilation.h"
#include "keys.h"

static const struct key_def keys[] = {
	{ "description", KT_TEXT, 0, 0, NULL, "", false,
	  "free text shown in the report" },
	{ "nodes", KT_INT, 1, 64, NULL, "2", false, "guest NUMA nodes" },
	{ "cpus", KT_INTLIST, 1, 64, NULL, "1", false,
	  "vCPUs per node: one number or one per node" },
	{ "mem", KT_SIZELIST, 2, 65536, NULL, "512M", false,
	  "memory per node (M or G): one size or one per node" },
	{ "distance", KT_MATRIX, 10, 255, NULL, NULL, false,
	  "SLIT distance matrix, rows split by ';' (default 10 local, 20 remote)" },
	{ "hmat", KT_CHOICE, 0, 0, "on|off", "on", false,
	  "HMAT latency/bandwidth tables from the distances" },
	{ "accel", KT_CHOICE, 0, 0, "tcg|kvm", "tcg", false,
	  "QEMU accelerator" },
	{ "latency", KT_CHOICE, 0, 0, "auto|emulated|off", "auto", false,
	  "emulated remote latency via the TCG plugin (auto: when built)" },
	{ "plugin_opts", KT_TEXT, 0, 0, NULL, "", false,
	  "extra K=V plugin options, space separated" },
	{ "kernel", KT_KERNEL, 0, 0, NULL, "default", false,
	  "'default' (the cached patched build) or a bzImage path" },
	{ "append", KT_TEXT, 0, 0, NULL, "", false,
	  "extra kernel command line" },
	{ "balancing", KT_CHOICE, 0, 0, "on|off", "on", false,
	  "automatic NUMA balancing at boot" },
	{ "workload", KT_TEXT, 0, 0, NULL, NULL, false,
	  "guest command (required), e.g. stream --placement misplaced" },
	{ "repetitions", KT_INT, 1, 1000, NULL, "3", false,
	  "runs per variant, each in a fresh guest" },
	{ "interval_ms", KT_INT, 10, 60000, NULL, "100", false,
	  "collector sample interval" },
	{ "window_hints", KT_INT, 1, 100000000, NULL, "10000", false,
	  "hinting faults in the convergence window" },
	{ "time_limit", KT_INT, 5, 86400, NULL, "300", false,
	  "seconds one run may take, boot included" },
	{ "bound", KT_CHOICE, 0, 0, "none|local|remote", "none", false,
	  "this variant is a hand-bound reference drawn on rate plots" },
	{ "scale_scan", KT_SCALE, 0, 0, NULL, "off", false,
	  "multiply scan_delay_ms, scan_period_min_ms and scan_period_max_ms by the "
	  "time dilation: off, auto (measured per run) or a factor" },
	{ "objective", KT_CHOICE, 0, 0, "convergence|cost|work", "convergence",
	  true, "what the sweep report optimises" },
	{ SYSCTL_PREFIX "*", KT_SYSCTL, 0, 0, NULL, NULL, false,
	  "sysctl to set before the workload; a list a,b,c or range start:end:step sweeps it" },
};

const struct key_def *key_table(size_t *n)
{
	*n = sizeof(keys) / sizeof(keys[0]);
	return keys;
}

static bool sysctl_name_ok(const char *name)
{
	if (!*name || *name == '.' || strstr(name, ".."))
		return false;
	for (; *name; name++)
		if (!islower((unsigned char)*name) && !isdigit((unsigned char)*name) &&
		    *name != '_' && *name != '.')
			return false;
	return true;
}

const struct key_def *key_lookup(const char *key)
{
	size_t n, i;

	if (!strncmp(key, SYSCTL_PREFIX, strlen(SYSCTL_PREFIX)))
		return sysctl_name_ok(key + strlen(SYSCTL_PREFIX)) ?
			&keys[sizeof(keys) / sizeof(keys[0]) - 1] : NULL;
	key_table(&n);
	for (i = 0; i < n; i++)
		if (!strcmp(keys[i].name, key))
			return &keys[i];
	return NULL;
}

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_size_mib(const char *s, long *mib)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || v <= 0)
		return -1;
	if ((end[0] == 'M' || end[0] == 'm') && !end[1])
		*mib = v;
	else if ((end[0] == 'G' || end[0] == 'g') && !end[1] && v <= 1024)
		*mib = v * 1024;
	else
		return -1;
	return 0;
}

int count_list(const char *s, char sep)
{
	int n = 1;

	for (; *s; s++)
		n += *s == sep;
	return n;
}

/* Apply CHECK to every SEP-separated item of VALUE. */
static int each_item(const char *value, char sep,
		     int (*check)(const char *item, const struct key_def *def),
		     const struct key_def *def)
{
	char buf[1024], *item, *save = NULL, seps[2] = { sep, 0 };

	if (strlen(value) >= sizeof(buf) || !*value || value[strlen(value) - 1] == sep ||
	    value[0] == sep || strstr(value, (char[]){ sep, sep, 0 }))
		return -1;
	strcpy(buf, value);
	for (item = strtok_r(buf, seps, &save); item; item = strtok_r(NULL, seps, &save))
		if (check(item, def))
			return -1;
	return 0;
}

static int check_int(const char *item, const struct key_def *def)
{
	long v;

	return parse_long(item, def->min, def->max, &v);
}

static int check_size(const char *item, const struct key_def *def)
{
	long mib;

	if (parse_size_mib(item, &mib) || mib < def->min || mib > def->max)
		return -1;
	return mib % 2 ? -1 : 0;	/* the launcher wants 2 MiB multiples */
}

static int check_row(const char *row, const struct key_def *def)
{
	return each_item(row, ',', check_int, def);
}

static int check_matrix(const char *value, const struct key_def *def)
{
	int rows = count_list(value, ';');

	if (each_item(value, ';', check_row, def))
		return -1;
	/* square: rows * rows numbers in all */
	return count_list(value, ',') + count_list(value, ';') - 1 == rows * rows ? 0 : -1;
}

static int check_choice(const char *value, const char *choices)
{
	size_t len = strlen(value);
	const char *p = choices;

	while (p) {
		if (!strncmp(p, value, len) && (p[len] == '|' || !p[len]))
			return len ? 0 : -1;
		p = strchr(p, '|');
		p = p ? p + 1 : NULL;
	}
	return -1;
}

/* Sysctl values reach a guest shell: allow only plain tokens. */
static int check_token(const char *item, const struct key_def *def)
{
	if (!*item)
		return -1;
	for (; *item; item++)
		if (!isalnum((unsigned char)*item) && !strchr("-_.", *item))
			return -1;
	return 0;
}

static int check_sysctl(const char *value, char *why, size_t whylen)
{
	long a, b, step;

	if (strchr(value, ':')) {
		if (sscanf(value, "%ld:%ld:%ld", &a, &b, &step) != 3 ||
		    count_list(value, ':') != 3 || step <= 0 || b < a) {
			snprintf(why, whylen, "bad range '%s' (want start:end:step, start <= end, step > 0)", value);
			return -1;
		}
		if ((b - a) / step + 1 > 64) {
			snprintf(why, whylen, "range '%s' has more than 64 values", value);
			return -1;
		}
		return 0;
	}
	if (each_item(value, ',', check_token, NULL)) {
		snprintf(why, whylen, "bad value '%s' (want a value, a list a,b,c or a range start:end:step; letters, digits, - _ . only)", value);
		return -1;
	}
	return 0;
}

int key_validate(const struct key_def *def, const char *key,
		 const char *value, char *why, size_t whylen)
{
	switch (def->type) {
	case KT_INT:
		if (!check_int(value, def))
			return 0;
		snprintf(why, whylen, "bad value '%s' (want an integer %ld..%ld)",
			 value, def->min, def->max);
		return -1;
	case KT_CHOICE:
		if (!check_choice(value, def->choices))
			return 0;
		snprintf(why, whylen, "bad value '%s' (want one of %s)", value, def->choices);
		return -1;
	case KT_TEXT:
		return 0;
	case KT_INTLIST:
		if (!each_item(value, ',', check_int, def))
			return 0;
		snprintf(why, whylen, "bad value '%s' (want integers %ld..%ld, comma separated)",
			 value, def->min, def->max);
		return -1;
	case KT_SIZELIST:
		if (!each_item(value, ',', check_size, def))
			return 0;
		snprintf(why, whylen, "bad value '%s' (want sizes like 512M or 1G, even MiB, comma separated)",
			 value);
		return -1;
	case KT_MATRIX:
		if (!check_matrix(value, def))
			return 0;
		snprintf(why, whylen, "bad value '%s' (want a square matrix of integers %ld..%ld, rows split by ';')",
			 value, def->min, def->max);
		return -1;
	case KT_KERNEL:
		if (*value)
			return 0;
		snprintf(why, whylen, "empty value (want 'default' or a bzImage path)");
		return -1;
	case KT_SYSCTL:
		return check_sysctl(value, why, whylen);
	case KT_SCALE: {
		struct scan_scale sc;

		if (!scan_scale_parse(value, &sc))
			return 0;
		snprintf(why, whylen, "bad value '%s' (want off, auto or a factor 0.001..%g)",
			 value, SCALE_FACTOR_MAX);
		return -1;
	}
	}
	snprintf(why, whylen, "internal: no validator for %s", key);
	return -1;
}

/* Scan tunables that 6.1 moved to debugfs; the series adds sysctls back. */
static const char *const debugfs_tunables[] = {
	"scan_delay_ms", "scan_period_min_ms", "scan_period_max_ms", "scan_size_mb",
};

#define DEBUGFS_NUMA "/sys/kernel/debug/sched/numa_balancing/"

int sysctl_target(const char *key, struct sysctl_target *t)
{
	static char paths[4][96];
	const char *name = key + strlen(SYSCTL_PREFIX);
	size_t i;

	if (strncmp(key, SYSCTL_PREFIX, strlen(SYSCTL_PREFIX)) || !sysctl_name_ok(name))
		return -1;
	t->debugfs = NULL;
	if (strchr(name, '.')) {
		snprintf(t->sysctl, sizeof(t->sysctl), "%s", name);
		return 0;
	}
	snprintf(t->sysctl, sizeof(t->sysctl), "kernel.numa_balancing_%s", name);
	for (i = 0; i < 4; i++) {
		if (strcmp(name, debugfs_tunables[i]))
			continue;
		snprintf(paths[i], sizeof(paths[i]), DEBUGFS_NUMA "%s", name);
		t->debugfs = paths[i];
	}
	return 0;
}
