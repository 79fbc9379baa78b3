/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `bnb-run compare DIR1 DIR2 [DIR...]`: N results folders (N kernels, say)
 * in one table per variant and metric, as MMTests' compare-kernels lays
 * them out: Amean, Stddev, CoeffVar, Min and Max per folder, each with its
 * difference in percent from the first folder, then the difference of the
 * means with its 95 % confidence interval, then Welch's p and, for the
 * metrics that are not the first folder's experiment's primary ones,
 * Holm's adjusted p over all of them; the mean is marked where the test
 * (the adjusted one for those) finds it significant. Folders are matched
 * by variant name (else by position). Every provenance difference between
 * the folders that the experiments' own settings do not explain is a
 * warning. A verdict per folder opens the report.
 *
 * The steps are separate so that they can be extended on their own: load,
 * statistics (cmp_build, with the correction), provenance, then the
 * renderers (Markdown, CSV, JSON) and where they are written (cmp_write:
 * a folder of its own, never one of those it reads).
 */
#ifndef BNB_COMPARE_H
#define BNB_COMPARE_H

#include <json-c/json.h>
#include <stdio.h>

#include "run/provenance.h"
#include "results.h"
#include "stats.h"

#define CMP_MAX_DIRS 16
#define CMP_MAX_WARN 256

enum cmp_stat { CS_AMEAN, CS_STDDEV, CS_CV, CS_MIN, CS_MAX, N_CS };
extern const char *const cmp_stat_names[N_CS];

/* One folder's figures for one metric. */
struct cmp_cell {
	int n;
	double v[N_CS];
	double pct[N_CS];	/* difference from the first folder, percent of it */
	struct welch w;		/* this folder's mean against the first's */
	struct family_test t;	/* w.p after the correction (primary: as is) */
};

struct cmp_row {
	int pair;		/* index into cmp.pairs */
	struct metric_info m;
	bool primary;		/* one of the first folder's experiment's primary metrics */
	struct cmp_cell cell[CMP_MAX_DIRS];
};

/* Which variant of each folder goes with variant NAME[0] of the first. */
struct cmp_pair {
	const char *name[CMP_MAX_DIRS];
};

struct cmp_warning {
	int dir;		/* folder index (against folder 0) */
	int pair;
	struct prov_diff d;
};

struct cmp {
	int n;
	const char *dir[CMP_MAX_DIRS];
	struct results r[CMP_MAX_DIRS];
	struct cmp_pair *pairs;
	int n_pairs;
	struct cmp_row *rows;
	int n_rows;
	struct cmp_warning warn[CMP_MAX_WARN];
	int n_warn;
	int prov_compared;	/* folder pairs that both had provenance */
};

int cmp_load(struct cmp *c, const char *const *dirs, int n, char *err, size_t errlen);
void cmp_build(struct cmp *c);
void cmp_provenance(struct cmp *c);
void cmp_markdown(const struct cmp *c, FILE *f);
void cmp_csv(const struct cmp *c, FILE *f);
struct json_object *cmp_json(const struct cmp *c);
/*
 * Write compare.{md,csv,json} into OUT, or into a new folder
 * results/<UTC time>-compare-A+B... when OUT is NULL; never into (or
 * under) one of the folders compared. The folder written is put in
 * WROTE. Returns 0, or -1 with the reason on stderr.
 */
int cmp_write(const struct cmp *c, const char *out, char *wrote, size_t len);
void cmp_free(struct cmp *c);

/*
 * The whole command, ARGV[0] being "compare": [--out DIR] DIR1 DIR2
 * [DIR...]; exit status 0, 1 (nothing to compare), 2 (bad usage).
 */
int cmd_compare(int argc, char **argv);

#endif
