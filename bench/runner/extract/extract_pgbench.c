// SPDX-License-Identifier: GPL-2.0
/*
 * pgbench (PostgreSQL 15): its closing lines
 *   number of transactions actually processed: 12345
 *   number of failed transactions: 0 (0.000%)
 *   latency average = 3.240 ms
 *   latency stddev = 1.021 ms
 *   initial connection time = 12.345 ms
 *   tps = 1234.567890 (without initial connection time)
 * Metrics: pgbench.tps, pgbench.latency_avg_ms, pgbench.latency_stddev_ms,
 * pgbench.transactions, pgbench.failed, pgbench.connect_ms; with -T, its
 * "duration: 4 s" line as workload_fixed_s (XM_FIXED_TIME). Progress lines
 * (-P) are not results.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "extract.h"

/* The number after PREFIX at the start of LINE, followed by SUFFIX (or anything when NULL). */
static bool number_after(const char *line, const char *prefix, const char *suffix, double *v)
{
	size_t n = strlen(prefix);
	char *end;

	if (strncmp(line, prefix, n))
		return false;
	*v = strtod(line + n, &end);
	if (end == line + n)
		return false;
	return !suffix || !strncmp(end, suffix, strlen(suffix));
}

static void pgbench_line(const char *line, struct xmetrics *x, void *state)
{
	double v;

	if (number_after(line, "tps = ", " (without initial connection time)", &v))
		xm_add_range(x, "pgbench.tps", "tx/s", v, BETTER_HIGHER, 0, XM_RATE_MAX);
	else if (number_after(line, "latency average = ", " ms", &v))
		xm_add_range(x, "pgbench.latency_avg_ms", "ms", v, BETTER_LOWER, 0,
			     XM_LATENCY_MS_MAX);
	else if (number_after(line, "latency stddev = ", " ms", &v))
		xm_add_range(x, "pgbench.latency_stddev_ms", "ms", v, BETTER_LOWER, 0,
			     XM_LATENCY_MS_MAX);
	else if (number_after(line, "initial connection time = ", " ms", &v))
		xm_add_range(x, "pgbench.connect_ms", "ms", v, BETTER_LOWER, 0, XM_LATENCY_MS_MAX);
	else if (number_after(line, "number of transactions actually processed: ", NULL, &v))
		xm_add_range(x, "pgbench.transactions", "tx", v, BETTER_HIGHER, 0, XM_SANE_MAX);
	else if (number_after(line, "duration: ", " s", &v))
		xm_add_range(x, XM_FIXED_TIME, "s", v, BETTER_NONE, 0, XM_SANE_MAX);
	else if (number_after(line, "number of failed transactions: ", NULL, &v))
		xm_add_range(x, "pgbench.failed", "tx", v, BETTER_LOWER, 0, XM_SANE_MAX);
}

static bool claims_pgbench(const char *command)
{
	return tool_named(command, "pgbench");
}

const struct extractor extract_pgbench = {
	"pgbench",
	"pgbench: transactions/s (pgbench.tps, without the initial connections), the "
	"latency average and stddev in ms, transactions and failures",
	claims_pgbench, pgbench_line, 0, "a 'tps = N (without initial connection time)' line",
};
