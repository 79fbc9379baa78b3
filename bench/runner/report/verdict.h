/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict: the few lines that open summary.md and end ./run.sh. For
 * each variant against the baseline (the first variant), or each folder
 * against the first one in compare: what differs between them, whether
 * the primary metrics changed and by how much with a 95 % confidence
 * interval, what balancing cost in the seed's units, how fast it
 * converged, how many other metrics changed after Holm's correction, and
 * under which latency (emulated, uniform, real) and timing (wall,
 * deterministic) the numbers were taken, and whether the repetitions
 * sampled initial conditions (start_jitter) or repeat one run.
 */
#ifndef BNB_VERDICT_H
#define BNB_VERDICT_H

#include <json-c/json.h>
#include <stdio.h>

#include "results.h"

/*
 * The verdict of R's variants against its baseline, as Markdown on F;
 * returns its JSON, an array with one object per comparison.
 */
struct json_object *verdict_results(const struct results *r, FILE *f);

/*
 * One comparison: variant VB of RB against VA of RA, under the heading
 * LABEL_B against LABEL_A; with the primary metrics of RA's experiment.
 * Returns its JSON (what each primary metric did), NULL when out of memory.
 */
struct json_object *verdict_pair(const struct results *ra, const char *va,
				 const struct results *rb, const char *vb,
				 const char *label_a, const char *label_b, FILE *f);

#endif
