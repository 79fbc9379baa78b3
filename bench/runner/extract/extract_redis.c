// SPDX-License-Identifier: GPL-2.0
/*
 * redis-benchmark: with --csv, a header and one row per test
 *   "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms",...
 *   "GET","846.92","777.737","14.736","397.823","2635.775","2639.871","2639.871"
 * or, with -q, one line per test after its progress lines (joined by \r):
 *   GET: 1079.33 requests per second, p50=11.735 msec
 * Metrics: redis.TEST.rps, and redis.TEST.avg_ms, .min_ms, .p50_ms, .p95_ms,
 * .p99_ms, .max_ms (TEST in lower case: get, set, lpush, ...).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract.h"

#define MAX_COLS 16

struct redis_state {
	char col[MAX_COLS][32];	/* the CSV header's names */
	int n_cols;
};

/* "SET", "LPUSH (needed to benchmark LPOP)" -> "set", "lpush" */
static bool test_name(const char *s, size_t n, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < n && i + 1 < len && (isalnum((unsigned char)s[i]) || s[i] == '_'); i++)
		buf[i] = tolower((unsigned char)s[i]);
	buf[i] = 0;
	return i > 0;
}

/* The CSV fields of LINE, unquoted, into F; their number. */
static int csv_fields(const char *line, char f[][64], int max)
{
	int n = 0;
	size_t k;

	while (*line && n < max) {
		bool quoted = *line == '"';

		line += quoted;
		for (k = 0; *line && (quoted ? *line != '"' : *line != ','); line++)
			if (k + 1 < 64)
				f[n][k++] = *line;
		f[n++][k] = 0;
		line += quoted && *line == '"';
		if (*line != ',')
			break;
		line++;
	}
	return n;
}

/* avg_latency_ms -> avg_ms; rps stays */
static void metric_of(const char *col, char *buf, size_t len)
{
	const char *lat = strstr(col, "_latency_ms");

	if (lat)
		snprintf(buf, len, "%.*s_ms", (int)(lat - col), col);
	else
		snprintf(buf, len, "%s", col);
}

static void csv_row(struct redis_state *s, const char *line, struct xmetrics *x)
{
	char f[MAX_COLS][64], test[24], name[XM_NAME_MAX], m[24];
	int n = csv_fields(line, f, MAX_COLS), i;
	char *end;
	double v;

	if (n < 2 || n > s->n_cols || !test_name(f[0], strlen(f[0]), test, sizeof(test)))
		return;
	for (i = 1; i < n; i++) {
		v = strtod(f[i], &end);
		if (end == f[i] || *end)
			continue;
		metric_of(s->col[i], m, sizeof(m));
		snprintf(name, sizeof(name), "redis.%s.%s", test, m);
		if (!strcmp(m, "rps"))
			xm_add_range(x, name, "req/s", v, BETTER_HIGHER, 0, XM_RATE_MAX);
		else if (strstr(m, "_ms"))
			xm_add_range(x, name, "ms", v, BETTER_LOWER, 0, XM_LATENCY_MS_MAX);
	}
}

/* "GET: 1079.33 requests per second, p50=11.735 msec" (the last \r part) */
static void quiet_line(const char *line, struct xmetrics *x)
{
	const char *p = strrchr(line, '\r'), *colon, *rest;
	char test[32], name[XM_NAME_MAX];
	char *end;
	double v;

	p = p ? p + 1 : line;
	p += strspn(p, " ");
	colon = strchr(p, ':');
	if (!colon || !test_name(p, colon - p, test, sizeof(test)) ||
	    !strstr(colon, " requests per second"))
		return;
	v = strtod(colon + 1, &end);
	if (end == colon + 1 || strncmp(end, " requests per second", 20))
		return;
	snprintf(name, sizeof(name), "redis.%s.rps", test);
	xm_add_range(x, name, "req/s", v, BETTER_HIGHER, 0, XM_RATE_MAX);
	rest = strstr(end, "p50=");
	if (!rest)
		return;
	v = strtod(rest + 4, &end);
	if (end != rest + 4 && !strncmp(end, " msec", 5)) {
		snprintf(name, sizeof(name), "redis.%s.p50_ms", test);
		xm_add_range(x, name, "ms", v, BETTER_LOWER, 0, XM_LATENCY_MS_MAX);
	}
}

static void redis_line(const char *line, struct xmetrics *x, void *state)
{
	struct redis_state *s = state;
	char f[MAX_COLS][64];

	if (!strncmp(line, "\"test\",", 7)) {
		s->n_cols = csv_fields(line, f, MAX_COLS);
		for (int i = 0; i < s->n_cols; i++)
			snprintf(s->col[i], sizeof(s->col[i]), "%s", f[i]);
		return;
	}
	if (line[0] == '"' && s->n_cols)
		csv_row(s, line, x);
	else
		quiet_line(line, x);
}

static bool claims_redis(const char *command)
{
	return tool_named(command, "redis-benchmark");
}

const struct extractor extract_redis = {
	"redis-benchmark",
	"redis-benchmark --csv (or -q): requests/s per test (redis.get.rps) and its latency "
	"percentiles in ms (redis.get.p50_ms, .p99_ms, ...)",
	claims_redis, redis_line, sizeof(struct redis_state),
	"\"test\",\"rps\" CSV rows or 'TEST: N requests per second' lines",
};
