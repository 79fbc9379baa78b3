/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Metrics of workloads that are not the project's own: perf bench numa,
 * stress-ng --metrics/--metrics-brief, and the elapsed guest time of any
 * command. One table of extractors; a run's extractor is the one the
 * experiment names (`metrics = NAME`) or else the first that claims the
 * command. The guest's output is untrusted: every value is parsed
 * strictly, names are bounded and reduced to a safe alphabet.
 */
#ifndef BNB_EXTRACT_H
#define BNB_EXTRACT_H

#include <stdbool.h>
#include <stddef.h>

/* Which way a metric improves; the reports compare by it. */
enum better { BETTER_NONE, BETTER_LOWER, BETTER_HIGHER };

#define XM_NAME_MAX 64
#define XM_UNIT_MAX 16
#define XM_MAX 256	/* metrics one run may report */
/* Extracted metrics (any name) are bounded by this in magnitude. */
#define XM_SANE_MAX 1e18

struct xmetric {
	char name[XM_NAME_MAX];
	char unit[XM_UNIT_MAX];
	double value;
	enum better better;
};

struct xmetrics {
	struct xmetric v[XM_MAX];
	int n;
	bool truncated;		/* more than XM_MAX were offered */
	char refused[256];	/* "NAME=VALUE, ..." of values refused as absurd */
};

/* Whether V may be a metric's value: finite and at most XM_SANE_MAX in magnitude. */
bool xm_sane(double v);

/*
 * Whether V may be a value in UNIT: xm_sane() and within the unit's sane
 * range (a time is not negative, a share not above 100 %, a bandwidth not
 * above physics; extract.c's table), which *MIN and *MAX get (may be NULL).
 */
bool xm_in_range(const char *unit, double v, double *min, double *max);

/*
 * Add or replace NAME (cleaned to [A-Za-z0-9_.%/+-]); a value that is not
 * xm_in_range() of its unit is refused and noted in X->refused. Returns
 * 0, or -1 when refused or full.
 */
int xm_add(struct xmetrics *x, const char *name, const char *unit, double value,
	   enum better better);
/* Note NAME=VALUE in X->refused: absurd, used in no statistic. */
void xm_refuse(struct xmetrics *x, const char *name, double value);
const struct xmetric *xm_find(const struct xmetrics *x, const char *name);

/*
 * xm_add() of a value a tool may give only within [LO, HI]: one outside
 * (a negative throughput, a latency of days) is refused like an absurd
 * one and noted in X->refused.
 */
#define XM_RATE_MAX 1e10		/* operations a second */
#define XM_LATENCY_MS_MAX 3.6e6		/* an hour */
int xm_add_range(struct xmetrics *x, const char *name, const char *unit, double value,
		 enum better better, double lo, double hi);

struct extractor {
	const char *name;	/* as the metrics key spells it */
	const char *help;
	/* Whether COMMAND (the workload line) is this extractor's tool. */
	bool (*claims)(const char *command);
	/* Feed one output line (stderr lines come without their prefix). */
	void (*line)(const char *line, struct xmetrics *x, void *state);
	size_t state_size;
	/* What the output lacked, for the error, when it gave no metric. */
	const char *wants;
};

/* The project's own workloads: their "# summary" line is the contract. */
#define EXTRACT_SUMMARY "summary"
/* Elapsed guest time of the command, measured by bnb-monitor. */
#define EXTRACT_ELAPSED "elapsed"

const struct extractor *const *extractor_table(size_t *n);
const struct extractor *extractor_lookup(const char *name);
/*
 * The extractor for COMMAND: METRICS when not NULL or empty (the `metrics`
 * key), else the summary contract for a project workload, else the first
 * tool that claims it, else elapsed.
 */
const struct extractor *extractor_for(const char *command, const char *metrics);

/*
 * Word K of COMMAND (split at blanks and shell operators) as a basename,
 * leading VAR=value assignments not counted; NULL when there is none.
 */
const char *command_word(const char *command, int k, char *buf, size_t len);

/*
 * Whether COMMAND runs the program NAME: its first word, or the first
 * after numactl and numactl's options (numactl --cpunodebind=0 NAME ...).
 */
bool tool_named(const char *command, const char *name);

/* Whether COMMAND's first word is one of the project's workloads. */
bool is_project_workload(const char *command);

/*
 * Run extractor E over the guest output PATH (the run's out.log) into X,
 * and the elapsed time bnb-monitor printed as "elapsed_s". Returns 0 when
 * E found at least one metric; else -1 with WHY naming the command and
 * what was missing.
 */
int extract_run(const struct extractor *e, const char *path, const char *command,
		struct xmetrics *x, char *why, size_t whylen);

/* The metric "elapsed_s": the command's guest time, lower is better. */
#define XM_ELAPSED "elapsed_s"
/*
 * The metric "workload_fixed_s": the load generator ran for this long by
 * its own clock (pgbench -T, memaslap -t), so its time says nothing of
 * how fast it went: its throughput does.
 */
#define XM_FIXED_TIME "workload_fixed_s"

/* Per-tool line parsers, exposed for the unit tests. */
extern const struct extractor extract_perf_numa;
extern const struct extractor extract_stress_ng;
extern const struct extractor extract_redis;
extern const struct extractor extract_memaslap;
extern const struct extractor extract_pgbench;
extern const struct extractor extract_sysbench;

#endif
