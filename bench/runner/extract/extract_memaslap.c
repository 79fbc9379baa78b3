// SPDX-License-Identifier: GPL-2.0
/*
 * memaslap (libmemcached-tools' memcaslap): the closing line
 *   Run time: 10.0s Ops: 88000 TPS: 8793 Net_rate: 3.4M/s
 * and, with -S (statistics every interval), per kind the "Global" row of
 *   Get Statistics
 *   Type  Time(s)  Ops  TPS(ops/s)  Net(M/s)  Get_miss  Min(us)  Max(us)  Avg(us)  Std_dev  Geo_dist
 *   Global  20  1257935  62896  71.8  0  26  3791  224  117.79  192.60
 * and after the last interval the whole run's, per kind
 *   Get Statistics (940 events)
 *      Min:       465
 *      Avg:     12500       (Max:, Geo:, Std: too)
 * Metrics: memaslap.tps (ops/s), .ops, .run_s, .net_mbs, .get_misses (a
 * get that found nothing: the data was not there); per kind (get, set,
 * total) KIND.tps, .events, and the whole run's .min_us, .max_us, .avg_us,
 * .std_us, .geo_us. With -t, the settings' "run time: 4s" is
 * workload_fixed_s (XM_FIXED_TIME).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract.h"

struct mas_state {
	char kind[8];	/* after "Get Statistics": "get" */
	bool final;	/* after "Get Statistics (940 events)": the whole run's */
};

/* "Global  20  1257935  62896  71.8  0  26  3791  224  117.79  192.60" */
static void global_row(const char *kind, const char *p, struct xmetrics *x)
{
	static const struct { const char *name, *unit; enum better better; } col[] = {
		{ "time_s", "s", BETTER_NONE }, { "ops", "ops", BETTER_NONE },
		{ "tps", "ops/s", BETTER_HIGHER }, { "net_mbs", "MB/s", BETTER_HIGHER },
		{ "get_misses", "ops", BETTER_LOWER }, { "min_us", "us", BETTER_LOWER },
		{ "max_us", "us", BETTER_LOWER }, { "avg_us", "us", BETTER_LOWER },
		{ "std_us", "us", BETTER_LOWER }, { "geo_us", "us", BETTER_LOWER },
	};
	char name[XM_NAME_MAX], *end;
	double v[10];
	size_t i;

	for (i = 0; i < 10; i++) {
		v[i] = strtod(p, &end);
		if (end == p)
			return;
		p = end;
	}
	for (i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "memaslap.%s.%s", kind, col[i].name);
		xm_add_range(x, name, col[i].unit, v[i], col[i].better, 0,
			     col[i].unit[0] == 'u' ? XM_LATENCY_MS_MAX * 1e3 : XM_RATE_MAX);
	}
}

/* "Run time: 10.0s Ops: 88000 TPS: 8793 Net_rate: 3.4M/s" */
static void closing(const char *p, struct xmetrics *x)
{
	double run, ops, tps, net;

	if (sscanf(p, "Run time: %lfs Ops: %lf TPS: %lf Net_rate: %lfM/s", &run, &ops, &tps,
		   &net) != 4)
		return;
	xm_add_range(x, "memaslap.tps", "ops/s", tps, BETTER_HIGHER, 0, XM_RATE_MAX);
	xm_add_range(x, "memaslap.ops", "ops", ops, BETTER_NONE, 0, XM_SANE_MAX);
	xm_add_range(x, "memaslap.run_s", "s", run, BETTER_NONE, 0, XM_SANE_MAX);
	xm_add_range(x, "memaslap.net_mbs", "MB/s", net, BETTER_HIGHER, 0, XM_RATE_MAX);
}

/* "Get Statistics" or "Get Statistics (940 events)": the kind, and the events. */
static bool stats_header(struct mas_state *s, const char *line, struct xmetrics *x)
{
	const char *stats = strstr(line, " Statistics");
	char name[XM_NAME_MAX];
	double events;
	size_t n;

	if (!stats || stats - line >= (int)sizeof(s->kind) || stats == line)
		return false;
	if (stats[11] && sscanf(stats + 11, " (%lf events)", &events) != 1)
		return false;
	for (n = 0; line + n < stats; n++)
		s->kind[n] = tolower((unsigned char)line[n]);
	s->kind[n] = 0;
	s->final = stats[11];
	if (s->final) {
		snprintf(name, sizeof(name), "memaslap.%s.events", s->kind);
		xm_add_range(x, name, "ops", events, BETTER_NONE, 0, XM_SANE_MAX);
	}
	return true;
}

/* The whole run's "   Avg:     12500" lines: they count the last interval too. */
static void final_row(const char *kind, const char *line, struct xmetrics *x)
{
	static const char *const rows[][2] = {
		{ "Min:", "min_us" }, { "Max:", "max_us" }, { "Avg:", "avg_us" },
		{ "Geo:", "geo_us" }, { "Std:", "std_us" },
	};
	char name[XM_NAME_MAX], *end;
	double v;

	line += strspn(line, " ");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (strncmp(line, rows[i][0], 4))
			continue;
		v = strtod(line + 4, &end);
		if (end == line + 4)
			return;
		snprintf(name, sizeof(name), "memaslap.%s.%s", kind, rows[i][1]);
		xm_add_range(x, name, "us", v, BETTER_LOWER, 0, XM_LATENCY_MS_MAX * 1e3);
	}
}

static void mas_line(const char *line, struct xmetrics *x, void *state)
{
	struct mas_state *s = state;
	double v;

	if (stats_header(s, line, x))
		return;
	if (s->kind[0] && !s->final && !strncmp(line, "Global", 6))
		global_row(s->kind, line + 6, x);
	else if (s->final && !strncmp(line, "   ", 3))
		final_row(s->kind, line, x);
	else if (sscanf(line, "run time: %lfs", &v) == 1)	/* -t: the settings' line */
		xm_add_range(x, XM_FIXED_TIME, "s", v, BETTER_NONE, 0, XM_SANE_MAX);
	else if (sscanf(line, "get_misses: %lf", &v) == 1)
		xm_add_range(x, "memaslap.get_misses", "ops", v, BETTER_LOWER, 0, XM_SANE_MAX);
	else if (!strncmp(line, "Run time:", 9))
		closing(line, x);
}

static bool claims_memaslap(const char *command)
{
	return tool_named(command, "memcaslap") || tool_named(command, "memaslap");
}

const struct extractor extract_memaslap = {
	"memaslap",
	"memaslap (memcaslap): operations/s (memaslap.tps) and, with -S, per kind (get, set, "
	"total) its latency min, avg, max in us",
	claims_memaslap, mas_line, sizeof(struct mas_state),
	"a 'Run time: ... TPS: N' line",
};
