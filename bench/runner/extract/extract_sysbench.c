// SPDX-License-Identifier: GPL-2.0
/*
 * sysbench 1.0 (memory, threads, cpu, mutex): its closing statistics
 *   Total operations: 32768 (12764.13 per second)        memory only
 *   32.00 MiB transferred (12.46 MiB/sec)                memory only
 *   General statistics:
 *       total time:                          3.2103s
 *       total number of events:              200
 *   Latency (ms):
 *            min:     1.87
 *            avg:    29.90
 *            max:   284.74
 *            95th percentile:  94.10
 * Metrics: sysbench.events_per_s (events over the total time: the
 * headline for every test), sysbench.ops_per_s and .mib_per_s (memory),
 * sysbench.total_s, .events, and .latency_min_ms, _avg_ms, _max_ms,
 * _p95_ms.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "extract.h"

struct sb_state {
	bool latency;	/* inside "Latency (ms):" */
	double total_s, events;
};

static const char *after(const char *line, const char *label)
{
	line += strspn(line, " \t");
	if (strncmp(line, label, strlen(label)))
		return NULL;
	return line + strlen(label);
}

static bool number(const char *p, const char *suffix, double *v)
{
	char *end;

	if (!p)
		return false;
	*v = strtod(p, &end);
	return end != p && !strncmp(end, suffix, strlen(suffix));
}

static void events_rate(struct sb_state *s, struct xmetrics *x)
{
	if (s->total_s > 0 && s->events > 0)
		xm_add_range(x, "sysbench.events_per_s", "events/s", s->events / s->total_s,
			     BETTER_HIGHER, 0, XM_RATE_MAX);
}

static void latency_row(const char *line, struct xmetrics *x)
{
	static const struct { const char *label, *name; } rows[] = {
		{ "min:", "sysbench.latency_min_ms" }, { "avg:", "sysbench.latency_avg_ms" },
		{ "max:", "sysbench.latency_max_ms" },
		{ "95th percentile:", "sysbench.latency_p95_ms" },
	};
	double v;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (number(after(line, rows[i].label), "", &v))
			xm_add_range(x, rows[i].name, "ms", v, BETTER_LOWER, 0, XM_LATENCY_MS_MAX);
}

static void sb_line(const char *line, struct xmetrics *x, void *state)
{
	struct sb_state *s = state;
	const char *p;
	double v;

	if (after(line, "Latency (ms):")) {
		s->latency = true;
		return;
	}
	if (s->latency && (after(line, "Threads fairness:") || !*line)) {
		s->latency = false;
		return;
	}
	if (s->latency) {
		latency_row(line, x);
	} else if ((p = after(line, "Total operations:")) && (p = strchr(p, '(')) &&
		   number(p + 1, " per second)", &v)) {
		xm_add_range(x, "sysbench.ops_per_s", "ops/s", v, BETTER_HIGHER, 0, XM_RATE_MAX);
	} else if ((p = strstr(line, " transferred (")) && number(p + 14, " MiB/sec)", &v)) {
		xm_add_range(x, "sysbench.mib_per_s", "MiB/s", v, BETTER_HIGHER, 0, XM_RATE_MAX);
	} else if (number(after(line, "total time:"), "s", &v) &&
		   !xm_add_range(x, "sysbench.total_s", "s", v, BETTER_LOWER, 0, XM_SANE_MAX)) {
		s->total_s = v;
		events_rate(s, x);
	} else if (number(after(line, "total number of events:"), "", &v) &&
		   !xm_add_range(x, "sysbench.events", "events", v, BETTER_NONE, 0, XM_SANE_MAX)) {
		s->events = v;
		events_rate(s, x);
	}
}

static bool claims_sysbench(const char *command)
{
	return tool_named(command, "sysbench");
}

const struct extractor extract_sysbench = {
	"sysbench",
	"sysbench 1.0 (memory, threads, cpu, mutex): events/s over the total time "
	"(sysbench.events_per_s), memory's ops/s and MiB/s, and the latency min, avg, max "
	"and 95th percentile in ms",
	claims_sysbench, sb_line, sizeof(struct sb_state),
	"'General statistics' with the total time and number of events",
};
