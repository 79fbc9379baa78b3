/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One variant against a baseline variant, metric by metric: the two
 * groups' statistics, the difference with its 95 % confidence interval and
 * Welch's p. The experiment's primary metrics (the `primary` key) are each
 * tested at p < 0.05 as they are; every other metric is secondary, and
 * the secondary tests are one family under Holm's correction, so that
 * twenty metrics tested at once do not cry wolf. Summary tables and the
 * verdict both read these rows.
 */
#ifndef BNB_VERSUS_H
#define BNB_VERSUS_H

#include <stdbool.h>

#include "lib/argv.h"
#include "results.h"
#include "stats.h"

struct vs_row {
	struct metric_info m;
	bool primary;
	struct describe a, b;		/* baseline, variant */
	struct welch w;			/* b against a */
	struct family_test t;		/* p_adj and significant after the correction */
};

struct versus {
	struct vs_row *rows;		/* the primary metrics first, as named */
	int n;
	int secondary;			/* tests in the Holm family */
	int secondary_raw;		/* of those, p < 0.05 before the correction */
	int secondary_adj;		/* and after */
};

/* Whether NAME is one of PRIMARY's metric names. */
bool metric_is_primary(const struct argv *primary, const char *name);

/* Variant VB of RB against baseline VA of RA; -1 when out of memory. */
int versus_build(struct versus *v, const struct results *ra, const char *va,
		 const struct results *rb, const char *vb, const struct argv *primary);
void versus_free(struct versus *v);

/* The row of metric NAME, or NULL. */
const struct vs_row *versus_row(const struct versus *v, const char *name);

#endif
