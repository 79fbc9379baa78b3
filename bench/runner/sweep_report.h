/* SPDX-License-Identifier: GPL-2.0 */
/* The sweep section of a report: trade-off table and best setting. */
#ifndef BNB_SWEEP_REPORT_H
#define BNB_SWEEP_REPORT_H

#include <json-c/json.h>
#include <stdio.h>

#include "results.h"

/* Objectives a sweep can optimise, and the metric (lower is better) each uses. */
struct objective {
	const char *name;
	int metric;
};
const struct objective *objective_of(enum objective_id id);

/* Adds "sweep" to ROOT and a section to MD when R's variants were swept. */
void sweep_report(const struct results *r, FILE *md, struct json_object *root);

/* The mean of METRIC over VARIANT's finished runs (NAN if none). */
double variant_mean(const struct results *r, const char *variant, int metric);

#endif
