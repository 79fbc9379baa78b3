/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's summary.json is the collector's; after the run the runner adds
 * what it knows beside it: "provenance" (provenance.h), "metrics" (what
 * the extractor found and the monitors' totals, each with its unit and
 * direction) and "monitors" (the monitors' totals by monitor).
 */
#ifndef BNB_RUNSUMMARY_H
#define BNB_RUNSUMMARY_H

#include <json-c/json.h>

#include "extract/extract.h"

/*
 * Add the three objects to RUNDIR/summary.json, creating it when the
 * collector wrote none; written to a temporary file and renamed, so a
 * crash leaves the old file whole. Takes over PROV and MONITORS (either may
 * be NULL). Returns 0 or -1.
 */
int run_summary_add(const char *rundir, struct json_object *prov, const struct xmetrics *x,
		    struct json_object *monitors);

const char *better_name(enum better b);

#endif
