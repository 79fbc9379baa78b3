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

/* The first variant of R's experiment that has runs, or NULL. */
const char *report_baseline(const struct results *r);
/* The latency mode VARIANT's runs recorded: emulated, uniform, real, or unknown. */
const char *report_latency(const struct results *r, const char *variant);
/*
 * The kernel VARIANT's runs booted, from their provenance: its release as
 * the guest reported it (the image's where the guest said nothing), the
 * variant's `kernel =` value and the build key, as "6.1.192+ (patched,
 * build 46a10bb8599e551b)"; "unknown" without provenance. In BUF.
 */
const char *report_kernel(const struct results *r, const char *variant, char *buf, size_t len);
/* The same as a JSON object: asked, release, version, build, image_hash. */
struct json_object *report_kernel_json(const struct results *r, const char *variant);

/* Plain-language notes every report carries. */
const char *latency_note(const char *mode);
/* The measured time dilation of R's runs and what it means, into BUF. */
const char *time_dilation_note(const struct results *r, char *buf, size_t len);

/* Number formatting shared by tables: "-" for NAN. */
const char *fmt_num(double v, char *buf, size_t len);
/* A p-value for a table: "< 0.001" below that, else as fmt_num(). */
const char *fmt_p(double p, char *buf, size_t len);

#endif
