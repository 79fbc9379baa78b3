/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `bnb-run compare DIR1 DIR2 [DIR...]`: N results folders (N kernels, say)
 * in one table per variant and metric, as MMTests' compare-kernels lays
 * them out: Amean, Stddev, CoeffVar, Min and Max per folder, each with its
 * difference in percent from the first folder, and the mean marked where
 * Welch's t-test finds it significant. Folders are matched by variant
 * name (else by position). Every provenance difference between the
 * folders that the experiments' own settings do not explain is a warning.
 *
 * The steps are separate so that they can be extended on their own: load,
 * statistics (cmp_build; a multiple-comparison correction would adjust
 * the p-values there), provenance, then the renderers (Markdown, CSV,
 * JSON) and where they are written (cmp_write).
 */
#ifndef BNB_COMPARE_H
#define BNB_COMPARE_H

#include <json-c/json.h>
#include <stdio.h>

#include "provenance.h"
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
};

struct cmp_row {
	int pair;		/* index into cmp.pairs */
	struct metric_info m;
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
/* Write compare-NAME.{md,csv,json} into the last folder; NAME from the others. */
int cmp_write(const struct cmp *c);
void cmp_free(struct cmp *c);

/* The whole command; exit status 0, 1 (nothing to compare), 2 (bad usage). */
int cmd_compare(int argc, char **argv);

#endif
