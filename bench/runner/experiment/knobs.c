// SPDX-License-Identifier: GPL-2.0
/*
 * knobs.c - the named kernels and where each keeps each NUMA balancing
 * tunable (knobs.h). Both tables are data: a kernel or a knob is a row.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "knobs.h"
#include "lib/err.h"
#include "lib/path.h"
#include "lib/util.h"

/*
 * kernel/build.sh --kernel NAME builds these (its kernel_named() maps the
 * same names to the same packages; tests/guest/01-kernel-build.t checks
 * that every name here is one it knows).
 */
static const struct named_kernel kernels[N_NAMED_KERNELS] = {
	{ KERNEL_PATCHED, "patched", "linux-source-6.1", "6.1.",
	  "Debian's 6.1 with the balancenuma series (kernel/patches), the default", false },
	{ KERNEL_DEBIAN_61, "debian-6.1", "linux-source-6.1", "6.1.",
	  "Debian's 6.1 as it ships, without the series", false },
	{ KERNEL_DEBIAN_612, "debian-6.12", "linux-source-6.12", "6.12.",
	  "Debian's 6.12 (bookworm's linux-6.12) as it ships", true },
};

const struct named_kernel *named_kernel(const char *name)
{
	if (!strcmp(name, "default"))
		return &kernels[KERNEL_PATCHED];
	for (size_t i = 0; i < ARRAY_SIZE(kernels); i++)
		if (!strcmp(kernels[i].name, name))
			return &kernels[i];
	return NULL;
}

const struct named_kernel *named_kernel_at(enum kernel_id id)
{
	return id < N_NAMED_KERNELS ? &kernels[id] : NULL;
}

static int unknown_kernel(const char *value, char *why, size_t whylen)
{
	char names[256] = "";
	size_t used = 0;

	for (size_t i = 0; i < ARRAY_SIZE(kernels); i++)
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
					 i ? ", " : "", kernels[i].name);
	return errf(why, whylen, "unknown kernel '%s': a name (%s; default is patched), "
		    KSRC_PREFIX "DIR (a source tree built as is) or a bzImage path", value, names);
}

int kernel_spec_parse(const char *value, const char *basedir, struct kernel_spec *s,
		      char *why, size_t whylen)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->named = named_kernel(value);
	if (s->named) {
		s->kind = KSPEC_NAMED;
		return 0;
	}
	if (!strncmp(value, KSRC_PREFIX, strlen(KSRC_PREFIX))) {
		s->kind = KSPEC_KSRC;
		value += strlen(KSRC_PREFIX);
		if (!*value)
			return errf(why, whylen, KSRC_PREFIX " needs a kernel source directory");
	} else {
		s->kind = KSPEC_PATH;
	}
	if (path_join(s->path, sizeof(s->path), basedir, value))
		return errf(why, whylen, "kernel path '%s' is too long", value);
	if (s->kind == KSPEC_PATH && !strchr(value, '/') && stat(s->path, &st))
		return unknown_kernel(value, why, whylen);
	return 0;
}

/* Where a named kernel keeps a knob. */
enum place { NO, SYS, DBG, SFS };

#define SYSCTL_NUMA "kernel.numa_balancing"
#define DEBUGFS_NUMA "/sys/kernel/debug/sched/numa_balancing/"

/*
 * The knobs, per named kernel (columns in enum kernel_id order). A knob
 * is set as sysctl.SHORT, or as sysctl.SYSCTL where it is a sysctl: 6.1
 * moved the scan tunables to debugfs (8a99b6833c88), the series puts them
 * back as sysctls (patch 0001) and adds its own (0002-0005, 0007); 6.1 and 6.12
 * keep hot_threshold_ms in debugfs and the promotion rate limit as a
 * sysctl; demotion is switched in sysfs (SFS: /sys/kernel/mm/numa). SYMBOL
 * is the variable behind the knob, looked for in the System.map of a
 * kernel the table does not know. CHOICES, where given, are the values
 * the file reads back ("a|b"), which are the only ones accepted.
 */
static const struct knob {
	const char *short_name;	/* NULL: set by its sysctl name only */
	const char *sysctl;	/* its name as a sysctl, where it is one */
	const char *debugfs;	/* its file in sched/numa_balancing (SFS: in mm/numa) */
	const char *symbol;
	enum place at[N_NAMED_KERNELS];
	const char *what;
	bool tiering;		/* acts only on memory tiering */
	const char *choices;	/* the values it takes, "a|b", or NULL: any */
} knobs[] = {
	{ NULL, SYSCTL_NUMA, NULL, "sysctl_numa_balancing_mode", { SYS, SYS, SYS },
	  "0 off, 1 on, 2 memory tiering, 3 both", false, NULL },
	{ "scan_delay_ms", SYSCTL_NUMA "_scan_delay_ms", "scan_delay_ms",
	  "sysctl_numa_balancing_scan_delay", { SYS, DBG, DBG },
	  "a new task's first scan after this long", false, NULL },
	{ "scan_period_min_ms", SYSCTL_NUMA "_scan_period_min_ms", "scan_period_min_ms",
	  "sysctl_numa_balancing_scan_period_min", { SYS, DBG, DBG }, "shortest scan period",
	  false, NULL },
	{ "scan_period_max_ms", SYSCTL_NUMA "_scan_period_max_ms", "scan_period_max_ms",
	  "sysctl_numa_balancing_scan_period_max", { SYS, DBG, DBG }, "longest scan period",
	  false, NULL },
	{ "scan_size_mb", SYSCTL_NUMA "_scan_size_mb", "scan_size_mb",
	  "sysctl_numa_balancing_scan_size", { SYS, DBG, DBG }, "memory one scan step covers",
	  false, NULL },
	{ "hot_threshold_ms", NULL, "hot_threshold_ms", "sysctl_numa_balancing_hot_threshold",
	  { DBG, DBG, DBG }, "tiering: a page faulting within this of its scan is hot", true, NULL },
	{ "promote_rate_limit_MBps", SYSCTL_NUMA "_promote_rate_limit_MBps", NULL,
	  "sysctl_numa_balancing_promote_rate_limit", { SYS, SYS, SYS },
	  "tiering: promotion rate limit", true, NULL },
	{ "migrate_policy", SYSCTL_NUMA "_migrate_policy", NULL,
	  "sysctl_numa_balancing_migrate_policy", { SYS, NO, NO },
	  "the series: 0 the 6.1 default, 1 the 2012 policy", false, NULL },
	{ "migrate_ratelimit_mb", SYSCTL_NUMA "_migrate_ratelimit_mb", NULL,
	  "sysctl_numa_balancing_migrate_ratelimit_mb", { SYS, NO, NO },
	  "the series: MB migrated per node and interval", false, NULL },
	{ "migrate_interval_ms", SYSCTL_NUMA "_migrate_interval_ms", NULL,
	  "sysctl_numa_balancing_migrate_interval_ms", { SYS, NO, NO },
	  "the series: the rate limit's interval", false, NULL },
	{ "scan_adapt", SYSCTL_NUMA "_scan_adapt", NULL, "sysctl_numa_balancing_scan_adapt",
	  { SYS, NO, NO }, "the series: the 2012 scan period adaptation", false, NULL },
	{ "scan_period_reset_ms", SYSCTL_NUMA "_scan_period_reset_ms", NULL,
	  "sysctl_numa_balancing_scan_period_reset", { SYS, NO, NO },
	  "the series: 2012's periodic reset of the scan period", false, NULL },
	{ "scan_first_node", SYSCTL_NUMA "_scan_first_node", NULL,
	  "sysctl_numa_balancing_scan_first_node", { SYS, NO, NO },
	  "the series: delay scanning until a task settles on a node", false, NULL },
	{ "task_placement", SYSCTL_NUMA "_task_placement", NULL,
	  "sysctl_numa_balancing_task_placement", { SYS, NO, NO },
	  "the series: 0 the scheduler ignores NUMA faults, as in 2012", false, NULL },
	{ "demotion_enabled", NULL, "demotion_enabled", "numa_demotion_enabled",
	  { SFS, SFS, SFS }, "tiering: reclaim demotes pages to a slower tier (off at boot)",
	  true, "true|false" },
};

/* The row of NAME (after "sysctl."): its short name or its sysctl. */
static const struct knob *knob_of(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++) {
		const struct knob *k = &knobs[i];

		if (strchr(name, '.') ? k->sysctl && !strcmp(name, k->sysctl) :
		    k->short_name && !strcmp(name, k->short_name))
			return k;
	}
	return NULL;
}

/* "scan_delay_ms, ..." of the knobs KERNEL has. */
static void knobs_of(const struct named_kernel *kernel, char *out, size_t len)
{
	size_t used = 0;

	out[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(knobs) && used < len; i++)
		if (knobs[i].at[kernel->id] != NO)
			used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "",
						 knobs[i].short_name ? knobs[i].short_name :
						 knobs[i].sysctl);
}

static int lacks(const struct named_kernel *kernel, const char *name, char *why, size_t whylen)
{
	char have[512];

	knobs_of(kernel, have, sizeof(have));
	return errf(why, whylen, "kernel %s has no NUMA balancing knob '%s' (it has: %s)",
		    kernel->name, name, have);
}

static void target_of(const struct knob *k, const char *name, struct sysctl_target *t)
{
	static char paths[ARRAY_SIZE(knobs)][96];
	size_t i = (size_t)(k - knobs);

	if (k->sysctl)
		snprintf(t->sysctl, sizeof(t->sysctl), "%s", k->sysctl);
	else
		snprintf(t->sysctl, sizeof(t->sysctl), SYSCTL_NUMA "_%s", name);
	if (!k->debugfs)
		return;
	snprintf(paths[i], sizeof(paths[i]), "%s%s", k->at[0] == SFS ? SYSFS_NUMA : DEBUGFS_NUMA,
		 k->debugfs);
	t->debugfs = paths[i];
}

/* A named kernel: the table decides, and a knob it lacks is refused. */
static int named_target(const struct named_kernel *kernel, const struct knob *k,
			const char *name, struct sysctl_target *t, char *why, size_t whylen)
{
	enum place at = k->at[kernel->id];

	if (at == NO)
		return lacks(kernel, name, why, whylen);
	if ((at == DBG || at == SFS) && strchr(name, '.'))
		return errf(why, whylen, "kernel %s keeps %s in %s "
			    "(%s%s), not as a sysctl: set sysctl.%s",
			    kernel->name, name, at == SFS ? "sysfs" : "debugfs",
			    at == SFS ? SYSFS_NUMA : "sched/numa_balancing/", k->debugfs,
			    k->short_name);
	target_of(k, name, t);
	/*
	 * The sysctl is written when it exists, else the debugfs file: a
	 * knob the table keeps in debugfs has no sysctl on that kernel.
	 */
	if (at == SYS)
		t->debugfs = NULL;
	return 0;
}

int knob_target(const struct named_kernel *kernel, const char *key, struct sysctl_target *t,
		char *why, size_t whylen)
{
	const char *name = key + strlen(SYSCTL_PREFIX);
	const struct knob *k;

	if (strncmp(key, SYSCTL_PREFIX, strlen(SYSCTL_PREFIX)) || !sysctl_name_ok(name))
		return errf(why, whylen, "'%s' is not sysctl.NAME", key);
	t->debugfs = NULL;
	k = knob_of(name);
	if (k && kernel)
		return named_target(kernel, k, name, t, why, whylen);
	/* another kernel: a short name tries the sysctl, then debugfs */
	if (k && !strchr(name, '.')) {
		target_of(k, name, t);
		return 0;
	}
	/* a NUMA balancing name the table does not know is none of ours */
	if (kernel && (!strchr(name, '.') || !strncmp(name, SYSCTL_NUMA, strlen(SYSCTL_NUMA))))
		return lacks(kernel, name, why, whylen);
	if (strchr(name, '.'))
		snprintf(t->sysctl, sizeof(t->sysctl), "%s", name);
	else
		snprintf(t->sysctl, sizeof(t->sysctl), SYSCTL_NUMA "_%s", name);
	return 0;
}

/* Whether VALUE (a value, a list or a range of them) includes mode 2 or 3. */
static bool tiering_mode(const char *value)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", value);
	for (tok = strtok_r(buf, ",: ", &save); tok; tok = strtok_r(NULL, ",: ", &save))
		if (!strcmp(tok, "2") || !strcmp(tok, "3"))
			return true;
	return false;
}

/* Whether every value of VALUE (a value or a list a,b) is one of CHOICES, "a|b". */
static bool among(const char *value, const char *choices)
{
	char buf[256], *tok, *save = NULL;
	size_t len;
	const char *c;

	snprintf(buf, sizeof(buf), "%s", value);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		len = strlen(tok);
		for (c = choices; c; c = strchr(c, '|') ? strchr(c, '|') + 1 : NULL)
			if (!strncmp(c, tok, len) && (c[len] == '|' || !c[len]))
				break;
		if (!c)
			return false;
	}
	return true;
}

int knob_value_check(const struct named_kernel *kernel, const char *key, const char *value,
		     char *why, size_t whylen)
{
	const char *name = key + strlen(SYSCTL_PREFIX);
	const struct knob *k;

	if (strncmp(key, SYSCTL_PREFIX, strlen(SYSCTL_PREFIX)))
		return 0;
	k = knob_of(name);
	if (k && k->choices && !among(value, k->choices))
		return errf(why, whylen, "%s takes %s (what its file reads back), not '%s'",
			    name, k->choices, value);
	if (!k || !kernel || kernel->hmat_tiers ||
	    !(k->tiering || (k->sysctl && !strcmp(k->sysctl, SYSCTL_NUMA) && tiering_mode(value))))
		return 0;
	return errf(why, whylen, "memory tiering with kernel %s, which puts every node in one "
		    "memory tier (6.1 takes tiers from dax/kmem devices only; tiers from the "
		    "HMAT came with 6.7), so nothing would be promoted or demoted: use a kernel "
		    "with tiers (kernel = debian-6.12)", kernel->name);
}

bool sysctl_name_ok(const char *name)
{
	if (!*name || *name == '.' || strstr(name, ".."))
		return false;
	for (; *name; name++)
		if (!isalnum((unsigned char)*name) && *name != '_' && *name != '.')
			return false;
	return true;
}

int sysctl_target(const char *key, struct sysctl_target *t)
{
	return knob_target(NULL, key, t, NULL, 0);
}

/* Whether the System.map MAP defines SYMBOL; -1 when it cannot be read. */
static int map_has(const char *map, const char *symbol)
{
	char line[512], name[256];
	FILE *f = fopen(map, "r");
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*s %255s", name) == 1 && !strcmp(name, symbol);
	fclose(f);
	return found;
}

int knob_check_map(const char *map, const char *label, const char *key, char *why,
		   size_t whylen)
{
	const char *name = key + strlen(SYSCTL_PREFIX);
	const struct knob *k = knob_of(name);
	int has;

	if (!k)
		return 0;
	has = map_has(map, k->symbol);
	if (has < 0)
		return errf(why, whylen, "cannot read %s to check %s", map, key);
	if (!has)
		return errf(why, whylen, "kernel %s has no %s: its System.map (%s) lacks %s", label,
			    key, map, k->symbol);
	return 0;
}

static const char *place_md(const struct knob *k, enum place at)
{
	static char cell[N_NAMED_KERNELS][160];
	static int next;
	char *c = cell[next++ % N_NAMED_KERNELS];

	if (at == NO)
		return "-";
	if (at == SYS)
		snprintf(c, sizeof(cell[0]), "sysctl `%s`", k->sysctl);
	else if (at == SFS)
		snprintf(c, sizeof(cell[0]), "sysfs `" SYSFS_NUMA "%s`", k->debugfs);
	else
		snprintf(c, sizeof(cell[0]), "debugfs `sched/numa_balancing/%s`", k->debugfs);
	return c;
}

void knobs_markdown(FILE *f)
{
	size_t i;
	int j;

	fprintf(f, "| key |");
	for (j = 0; j < N_NAMED_KERNELS; j++)
		fprintf(f, " %s |", kernels[j].name);
	fprintf(f, " what |\n|---|");
	for (j = 0; j < N_NAMED_KERNELS; j++)
		fprintf(f, "---|");
	fprintf(f, "---|\n");
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		fprintf(f, "| `sysctl.%s` |", knobs[i].short_name ? knobs[i].short_name :
			knobs[i].sysctl);
		for (j = 0; j < N_NAMED_KERNELS; j++)
			fprintf(f, " %s |", place_md(&knobs[i], knobs[i].at[j]));
		fprintf(f, " %s |\n", knobs[i].what);
	}
}
