/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A results folder: DIR/experiment.ini, DIR/runs/VARIANT/repN/ with each
 * run's files, and the per-run metrics the reports are built from.
 */
#ifndef BNB_RESULTS_H
#define BNB_RESULTS_H

#include <limits.h>
#include <stdbool.h>

#include "experiment/experiment.h"
#include "extract/extract.h"
#include "extract/tieringrun.h"

struct xmetrics;
struct json_object;

enum metric_id {
	M_WORK_S, M_RATE, M_COST_TOTAL, M_COST_PER_S, M_MMTESTS_COST,
	M_PTE_UPDATES, M_HINT_FAULTS, M_HINT_LOCAL, M_PAGES_MIGRATED,
	M_CONV_90, M_CONV_95, M_CONV_FINAL, M_CONV_WEIGHTED, M_LOCALITY,
	M_TRUE_LOCALITY, M_BENEFIT, M_WALL_S, M_DILATION, M_SCAN_SCALE, M_CONV_90_PAGES,
	M_CONV_PAGES_FINAL, N_METRICS
};

/*
 * A fixed metric. MIN..MAX are its sanity bounds: what any run of any
 * workload can give, not what is plausible for one. A value outside
 * (work_s=-5, rate_mean=1e308) or not a number is refused, with a note
 * naming the run and the metric, and goes into no statistic.
 */
struct metric_def {
	const char *name;	/* JSON key */
	const char *label;	/* table row */
	const char *unit;	/* "" when dimensionless; rate uses the workload's */
	enum better better;
	double min, max;
};

extern const struct metric_def metric_defs[N_METRICS];

/* Whether V is a value of metric M: finite and within its bounds. */
bool metric_sane(int m, double v);

struct wl_summary;
/*
 * Why the "# summary" line(s) of S cannot be used, or NULL: more than one
 * line (a guest program may print a fake one; one run has one), a field
 * that is not a number, work_s or rate_mean out of bounds; with REQUIRED
 * (the project's workloads) also work_s or rate_mean missing.
 */
const char *summary_refusal(const struct wl_summary *s, bool required, char *buf, size_t len);

enum run_status { RUN_OK, RUN_FAILED, RUN_INCOMPLETE };

struct run {
	char variant[EXP_NAME_MAX * 2];
	int rep;
	char dir[PATH_MAX + 1024];
	enum run_status status;
	char reason[512];
	double m[N_METRICS];	/* NAN where not measured */
	char rate_unit[32];
	char latency[16];	/* emulated | uniform | real, from the status file */
	char latency_why[256];	/* why not emulated although requested */
	char dilation_why[256];	/* why M_DILATION is not measured */
	double thread_rate;	/* the guest's rate_mean per worker thread */
	/* the convergence window: N >= window_hints, the hints of window_s
	 * seconds; window_n its mean N over the run (NAN: not recorded) */
	double window_hints, window_s, window_n;
	/* summary.json "metrics": extracted from a foreign workload's output
	 * and the monitors' totals; NULL when the run has none */
	struct xmetrics *xm;
	struct json_object *prov;	/* summary.json "provenance", or NULL */
	int warnings;		/* the guest kernel's (vm_warnings()), -1 unknown */
	struct tiering tiering;	/* summary.json "tiering" (tieringrun.h) */
	char refused[1024];	/* values refused as absurd, "; "-separated, or "" */
	char damaged[512];	/* files of an ok run that could not be read, or "" */
	bool status_damaged;	/* its status file is damaged or gone (reason says) */
};

struct results {
	char dir[PATH_MAX];
	struct experiment exp;
	struct run *runs;
	int n_runs;
};

/* Load DIR (its experiment.ini and every run folder found). */
int results_load(const char *dir, struct results *r, char *err, size_t errlen);

/*
 * DIR/experiment.ini, its kernel paths relative to the folder jobs.conf
 * records (BASEDIR, LEN bytes; DIR itself when it records none). With
 * KERNEL_GONE_OK a bzImage gone since the runs is no error (a report).
 */
int results_experiment(const char *dir, bool kernel_gone_ok, struct experiment *exp,
		       char *basedir, size_t len, char *err, size_t errlen);
void results_free(struct results *r);

/* Fill RUN's status and metrics from the files in RUN->dir. */
void run_load(struct run *run);

const char *run_status_name(enum run_status s);
/*
 * Whether remote memory cost nothing in a run of latency MODE: uniform
 * (nothing charged it: TCG without the plugin, deterministic timing with
 * model = off, KVM on too few host nodes).
 */
bool latency_free(const char *mode);
/*
 * Whether RUN ended ok with balancing on and its scanner changed no PTE:
 * it measured the workload without balancing.
 */
bool run_unscanned(const struct results *r, const struct run *run);
/* Whether R has any run (finished or not) of VARIANT. */
bool results_has_runs(const struct results *r, const char *variant);
/* Metric values of VARIANT's finished (ok) runs, into OUT; returns count. */
int results_values(const struct results *r, const char *variant, int metric,
		   double *out, int max);
/*
 * The value of metric NAME in RUN: a metric_defs name or one of the run's
 * extracted metrics; NAN when the run does not have it.
 */
double run_metric(const struct run *run, const char *name);
/* A metric as reports list it: a fixed one (metric_defs) or an extracted one. */
struct metric_info {
	char name[64];
	char label[96];
	char unit[32];
	enum better better;
	int fixed;		/* enum metric_id, or -1 for an extracted metric */
};
#define METRICS_MAX (N_METRICS + 256)
/*
 * The metrics of VARIANT in R: every fixed one, then the extracted ones its
 * runs have, in the order first seen. Returns the count (at most MAX).
 */
int results_metrics(const struct results *r, const char *variant, struct metric_info *out,
		    int max);

/* As results_values, for a metric by NAME. */
int results_values_named(const struct results *r, const char *variant, const char *name,
			 double *out, int max);

/* The workload's rate unit as reported by VARIANT's runs, or "". */
const char *results_rate_unit(const struct results *r, const char *variant);

/* key=value files (RUN_DIR/status, bnb-vm's RUN_DIR/result) */
int results_kv_get(const char *path, const char *key, char *out, size_t outlen);

/*
 * The guest kernel's warnings that bnb-vm's result file RESULT counts
 * (warnings=: WARNINGs, and under deterministic timing its stall reports
 * too), or -1 when it holds no count.
 */
int vm_warnings(const char *result);

#endif
