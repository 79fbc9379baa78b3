// SPDX-License-Identifier: GPL-2.0
/*
 * perf bench numa: every result line print_res() writes (tools/perf/bench/
 * numa.c), " NAME,   VALUE, UNIT,   METRIC", for example
 *   " main,                          2.123, secs,           NUMA-convergence-latency"
 * NAME is "main" for a single test, or the test's name in the -a suite;
 * the metric is then called NAME/METRIC. Quiet (-q) output has no names
 * and is not recognised: run the tests without -q.
 */
#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "extract.h"

/* Copy a token of P up to STOP (no blanks inside); its length, 0 if none. */
static size_t token(const char *p, char stop, char *buf, size_t len)
{
	size_t n = 0;

	while (p[n] && p[n] != stop && !isspace((unsigned char)p[n]))
		n++;
	if (!n || n >= len || (stop && p[n] != stop))
		return 0;
	memcpy(buf, p, n);
	buf[n] = 0;
	return n;
}

static const char *blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static enum better direction(const char *unit, const char *metric)
{
	if (strstr(metric, "speed") || !strcmp(unit, "GB/sec"))
		return BETTER_HIGHER;
	if (!strcmp(unit, "secs") || !strcmp(unit, "nsecs") || strstr(metric, "spread"))
		return BETTER_LOWER;
	return BETTER_NONE;
}

/* perf [perf options] bench [bench options] numa ... */
static bool claims_perf_numa(const char *command)
{
	char word[64];
	bool bench = false;
	int i;

	if (!command_word(command, 0, word, sizeof(word)) || strcmp(word, "perf"))
		return false;
	for (i = 1; command_word(command, i, word, sizeof(word)); i++) {
		if (!strcmp(word, "bench"))
			bench = true;
		else if (bench && !strcmp(word, "numa"))
			return true;
	}
	return false;
}

static void perf_line(const char *line, struct xmetrics *x, void *state)
{
	char name[32], unit[XM_UNIT_MAX], metric[31], full[XM_NAME_MAX];
	const char *p = blanks(line);
	char *end;
	double v;
	size_t n;

	n = token(p, ',', name, sizeof(name));
	if (!n)
		return;
	p = blanks(p + n + 1);
	errno = 0;
	v = strtod(p, &end);
	if (errno || end == p || *end != ',')
		return;
	p = blanks(end + 1);
	n = token(p, ',', unit, sizeof(unit));
	if (!n)
		return;
	p = blanks(p + n + 1);
	n = token(p, 0, metric, sizeof(metric));
	if (!n || *blanks(p + n))
		return;
	if (!strcmp(name, "main"))
		snprintf(full, sizeof(full), "%s", metric);
	else
		snprintf(full, sizeof(full), "%s/%s", name, metric);
	xm_add(x, full, unit, v, direction(unit, metric));
}

const struct extractor extract_perf_numa = {
	"perf-bench-numa",
	"perf bench numa: every 'main, VALUE, UNIT, NAME' result line "
	"(NUMA-convergence-latency, runtime-max/thread, total-speed, thread-speed, ...)",
	claims_perf_numa, perf_line, 0,
	"result line ' main,  VALUE, UNIT,  NAME' (perf bench numa without -q)",
};
