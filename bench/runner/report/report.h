/* SPDX-License-Identifier: GPL-2.0 */
/* summary.json / summary.md of a results folder, and folder comparisons. */
#ifndef BNB_REPORT_H
#define BNB_REPORT_H

#include <json-c/json.h>
#include <stdio.h>

#include "results.h"

/* Write DIR/summary.json and DIR/summary.md from R. */
int report_write(const struct results *r);

/* The statistics object of one variant (keys as in summary.json). */
struct json_object *report_variant_json(const struct results *r, const char *variant);

struct versus;
struct argv;
/*
 * The comparison V as a Markdown table on MD (NULL: none), the primary
 * metrics first, each difference with its 95 % CI before the p-values,
 * Welch's and Holm's; returns its JSON.
 */
struct json_object *report_versus(const struct versus *v, const struct argv *primary, FILE *md,
				  const char *label_a, const char *label_b);

/*
 * What reports must not keep quiet about: each run of R with refused
 * values (absurd, not a number) or, ended ok, with damaged files, as a
 * Markdown list item on MD and a line on ERR (either may be NULL).
 * Returns how many runs lost figures to damaged files: a refused value
 * is a warning, a lost run makes the command's exit status 1.
 */
int report_problems(const struct results *r, FILE *md, FILE *err);

/*
 * Each run of R that did not end ok (failed, incomplete, its status file
 * damaged or gone, its folder missing), a line on ERR naming it and why.
 * Returns how many: a folder with any is not every run ok (report's exit
 * 1); *DAMAGED (may be NULL) gets how many of them have a damaged or
 * missing status file, which a comparison of the folder loses (its exit 1).
 */
int report_unfinished(const struct results *r, FILE *err, int *damaged);

/* Plain-language notes every report carries. */
const char *latency_note(const char *mode);
/* The measured time dilation of R's runs and what it means, into BUF. */
const char *time_dilation_note(const struct results *r, char *buf, size_t len);

#endif
