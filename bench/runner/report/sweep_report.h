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
	int metric;		/* a fixed metric, or -1: */
	const char *named;	/* a run metric by name */
};
const struct objective *objective_of(enum objective_id id);

/*
 * Adds "sweep" to ROOT and a section to MD when R's variants were swept:
 * per swept sysctl a table against its value and the best value of each
 * objective with its CI, held against the worst (Welch).
 */
void sweep_report(const struct results *r, FILE *md, struct json_object *root);

/*
 * The time-to-converge metric of R's sweep: the phases workload's own
 * re-convergence time (scalerun.c) when its runs have it, since the
 * seed's convergence over the whole guest's hints says little there;
 * else the collector's time_to_conv_90_s.
 */
#define SWEEP_PHASE_CONV "phase_to90_s"
const char *sweep_conv_metric(const struct results *r);

/* V's value of the swept sysctl KEY, or NULL when V does not sweep it. */
const char *sweep_point(const struct variant *v, const char *key);

/* The mean of METRIC over VARIANT's finished runs (NAN if none). */
double variant_mean(const struct results *r, const char *variant, int metric);

#endif
