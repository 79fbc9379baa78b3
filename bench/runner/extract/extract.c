// SPDX-License-Identifier: GPL-2.0
/*
 * The extractor table, metric bookkeeping and the pass over a run's guest
 * output that feeds each line to the run's extractor. The per-tool line
 * parsers are in extract_perf.c and extract_stressng.c.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bnb_monitor.h"
#include "extract.h"
#include "lib/util.h"

#define STDERR_PREFIX "# stderr: "

/* workloads/registry.def: the one list of the project's workloads */
static const char *const project_workloads[] = {
#define WORKLOAD(name) #name,
#include "registry.def"
#undef WORKLOAD
};

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || strchr("_.%/+-", c);
}

int xm_add(struct xmetrics *x, const char *name, const char *unit, double value,
	   enum better better)
{
	struct xmetric m = { .value = value, .better = better };
	size_t i;
	int k;

	if (!*name)
		return -1;
	for (i = 0; name[i] && i + 1 < sizeof(m.name); i++)
		m.name[i] = name_char(name[i]) ? name[i] : '_';
	if (!xm_in_range(unit, value, NULL, NULL)) {
		xm_refuse(x, name, value);
		return -1;
	}
	for (i = 0; unit[i] && i + 1 < sizeof(m.unit); i++)
		m.unit[i] = name_char(unit[i]) ? unit[i] : '_';
	for (k = 0; k < x->n; k++)
		if (!strcmp(x->v[k].name, m.name)) {
			x->v[k] = m;	/* a tool that repeats a result: the last counts */
			return 0;
		}
	if (x->n >= XM_MAX) {
		x->truncated = true;
		return -1;
	}
	x->v[x->n++] = m;
	return 0;
}

void xm_refuse(struct xmetrics *x, const char *name, double value)
{
	size_t used = strlen(x->refused), i;
	char clean[XM_NAME_MAX];

	for (i = 0; name[i] && i + 1 < sizeof(clean); i++)
		clean[i] = name_char(name[i]) ? name[i] : '_';
	clean[i] = 0;
	snprintf(x->refused + used, sizeof(x->refused) - used, "%s%.40s=%g", used ? ", " : "",
		 clean, value);
}

int xm_add_range(struct xmetrics *x, const char *name, const char *unit, double value,
		 enum better better, double lo, double hi)
{
	if (value >= lo && value <= hi)
		return xm_add(x, name, unit, value, better);
	xm_refuse(x, name, value);
	return -1;
}

bool xm_sane(double v)
{
	return isfinite(v) && fabs(v) <= XM_SANE_MAX;
}

/*
 * What a value in each unit the extractors and monitors give can be, the
 * way metric_defs bounds the "# summary" figures: times and counts are
 * not negative and no run lasts 10^9 s; a share is at most 100 %; 10^5
 * GB/s (10^8 MB/s) is ten times the fastest memory system built, far
 * above any guest's; a difference of times ("+-s") may be negative. A
 * unit not named here keeps the magnitude bound.
 */
static const struct unit_range {
	const char *unit;
	double min, max;
} unit_ranges[] = {
	{ "s", 0, 1e9 }, { "secs", 0, 1e9 }, { "ms", 0, 1e12 }, { "msec", 0, 1e12 },
	{ "us", 0, 1e15 }, { "usecs", 0, 1e15 }, { "ns", 0, 1e18 }, { "nsecs", 0, 1e18 },
	{ "%", 0, 100 },
	{ "GB/sec", 0, 1e5 }, { "GB/s", 0, 1e5 }, { "MB/s", 0, 1e8 }, { "MB/sec", 0, 1e8 },
	{ "GB", 0, 1e9 }, { "MB", 0, 1e12 },
	{ "ops", 0, 1e15 }, { "ops/s", 0, 1e15 }, { "events", 0, XM_SANE_MAX },
	/* differences of times: a net that is a loss, a saving that is one */
	{ "+-s", -1e9, 1e9 }, { "+-ns", -1e18, 1e18 },
};

bool xm_in_range(const char *unit, double v, double *min, double *max)
{
	double lo = -XM_SANE_MAX, hi = XM_SANE_MAX;

	for (size_t i = 0; unit && i < ARRAY_SIZE(unit_ranges); i++)
		if (!strcmp(unit, unit_ranges[i].unit)) {
			lo = unit_ranges[i].min;
			hi = unit_ranges[i].max;
			break;
		}
	if (min)
		*min = lo;
	if (max)
		*max = hi;
	return xm_sane(v) && v >= lo && v <= hi;
}

const struct xmetric *xm_find(const struct xmetrics *x, const char *name)
{
	int i;

	for (i = 0; i < x->n; i++)
		if (!strcmp(x->v[i].name, name))
			return &x->v[i];
	return NULL;
}

const char *command_word(const char *command, int k, char *buf, size_t len)
{
	const char *p = command, *base;
	bool leading = true;
	size_t n;

	for (;;) {
		p += strspn(p, " \t(");
		n = strcspn(p, " \t;|&)");
		if (!n)
			return NULL;
		if (leading && memchr(p, '=', n)) {
			p += n;
			continue;
		}
		leading = false;
		if (!k--)
			break;
		p += n;
	}
	n = n < len ? n : len - 1;
	memcpy(buf, p, n);
	buf[n] = 0;
	base = strrchr(buf, '/');
	if (base)
		memmove(buf, base + 1, strlen(base));
	return buf;
}

/* numactl's options that take the next word as their value. */
static const char *const numactl_valued[] = {
	"-N", "-m", "-C", "-p", "-i", "-P", "--cpunodebind", "--membind", "--physcpubind",
	"--preferred", "--interleave", "--preferred-many", "--cpubind",
};

bool tool_named(const char *command, const char *name)
{
	char word[64];
	size_t i;
	int k;

	if (!command_word(command, 0, word, sizeof(word)))
		return false;
	if (strcmp(word, "numactl"))
		return !strcmp(word, name);
	for (k = 1; command_word(command, k, word, sizeof(word)); k++) {
		if (word[0] != '-')
			return !strcmp(word, name);
		for (i = 0; i < ARRAY_SIZE(numactl_valued); i++)
			if (!strcmp(word, numactl_valued[i]))
				k++;	/* its value */
	}
	return false;
}

bool is_project_workload(const char *command)
{
	char word[64];
	size_t i;

	if (!command_word(command, 0, word, sizeof(word)))
		return false;
	for (i = 0; i < ARRAY_SIZE(project_workloads); i++)
		if (!strcmp(word, project_workloads[i]))
			return true;
	return false;
}

static const struct extractor summary_extractor = {
	EXTRACT_SUMMARY,
	"the project's workloads: their '# summary status=ok work_s= rate_mean=' line",
	NULL, NULL, 0, "a '# summary status=ok' line",
};
static const struct extractor elapsed_extractor = {
	EXTRACT_ELAPSED, "any command: its elapsed guest time (elapsed_s), success = exit 0",
	NULL, NULL, 0, "the elapsed time bnb-monitor prints",
};

static const struct extractor *const table[] = {
	&summary_extractor, &extract_perf_numa, &extract_stress_ng, &extract_redis,
	&extract_memaslap, &extract_pgbench, &extract_sysbench, &elapsed_extractor,
};

const struct extractor *const *extractor_table(size_t *n)
{
	*n = ARRAY_SIZE(table);
	return table;
}

const struct extractor *extractor_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(table); i++)
		if (!strcmp(table[i]->name, name))
			return table[i];
	return NULL;
}

const struct extractor *extractor_for(const char *command, const char *metrics)
{
	size_t i;

	if (metrics && *metrics)
		return extractor_lookup(metrics);
	if (is_project_workload(command))
		return &summary_extractor;
	for (i = 0; i < ARRAY_SIZE(table); i++)
		if (table[i]->claims && table[i]->claims(command))
			return table[i];
	return extractor_lookup(EXTRACT_ELAPSED);
}

/* "# bnb-monitor: elapsed_s=12.3 exit=0" */
static void monitor_line(const char *line, struct xmetrics *x)
{
	const char *p = strstr(line, "elapsed_s=");
	char *end;
	double v;

	if (!p)
		return;
	errno = 0;
	v = strtod(p + 10, &end);
	if (!errno && end != p + 10 && (!*end || isspace((unsigned char)*end)) && v >= 0)
		xm_add(x, XM_ELAPSED, "s", v, BETTER_LOWER);
}

static void shorten(char *dst, size_t len, const char *command)
{
	size_t i;

	for (i = 0; i + 1 < len && command[i] && command[i] != '\n'; i++)
		dst[i] = isprint((unsigned char)command[i]) ? command[i] : '?';
	dst[i] = 0;
	if (command[i] && len > 4)
		strcpy(dst + len - 4, "...");
}

/* One line of the guest's output to E (the monitor's and runner's own aside). */
static void feed_line(const struct extractor *e, char *l, struct xmetrics *x, void *state)
{
	if (!strncmp(l, BNB_MON_DONE, strlen(BNB_MON_DONE))) {
		monitor_line(l, x);
		return;
	}
	if (!strncmp(l, STDERR_PREFIX, strlen(STDERR_PREFIX)))
		l += strlen(STDERR_PREFIX);
	else if (!strncmp(l, "# bnb-", 6))
		return;	/* the runner's and the monitor's own lines */
	if (e->line)
		e->line(l, x, state);
}

int extract_run(const struct extractor *e, const char *path, const char *command,
		struct xmetrics *x, char *why, size_t whylen)
{
	char *line = NULL, *l, *next, cmd[100];
	void *state = e->state_size ? calloc(1, e->state_size) : NULL;
	int before = x->n;
	size_t cap = 0;
	bool elapsed;
	FILE *f;

	shorten(cmd, sizeof(cmd), command);
	f = fopen(path, "r");
	if (!f) {
		snprintf(why, whylen, "'%s': no guest output (%s)", cmd, strerror(errno));
		free(state);
		return -1;
	}
	/* a \r ends a line too: a tool's progress redraws its line (redis-benchmark -q) */
	while (getline(&line, &cap, f) > 0) {
		for (l = line; *l; l = next) {
			next = l + strcspn(l, "\r\n");
			if (*next)
				*next++ = 0;
			feed_line(e, l, x, state);
		}
	}
	free(line);
	fclose(f);
	free(state);
	elapsed = xm_find(x, XM_ELAPSED) != NULL;
	if (!e->line) {	/* summary and elapsed: only the time is ours to find */
		if (elapsed || !strcmp(e->name, EXTRACT_SUMMARY))
			return 0;
		snprintf(why, whylen, "'%s': no elapsed time in the output (%s)", cmd, e->wants);
		return -1;
	}
	if (x->n - before > (int)elapsed)
		return 0;
	snprintf(why, whylen, "'%s': %s extractor found nothing: no %s", cmd, e->name, e->wants);
	return -1;
}
