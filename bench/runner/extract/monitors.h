/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The monitors' host side. bnb-monitor (bench/monitor) prints each monitor
 * file into the run's guest output; here they are split out into
 * RUN/monitor/, turned into per-second series (RUN/monitor/NAME-rates.csv)
 * and totals (summary.json "monitors", and per-run metrics so that they
 * get the same statistics as everything else).
 */
#ifndef BNB_MONITORS_H
#define BNB_MONITORS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "extract.h"

/* The monitors an experiment may name (`monitors = trace, sched`). */
struct monitor_def {
	const char *name;
	const char *help;
	bool needs_perf;	/* the guest needs the perf tool */
};
const struct monitor_def *monitor_table(size_t *n);
const struct monitor_def *monitor_lookup(const char *name);

/*
 * Check a monitors value ("none" or a list split by ',' or blanks of
 * known names); on error WHY names the unknown one.
 */
int monitors_validate(const char *value, char *why, size_t whylen);
/* Whether a monitor of the list VALUE needs the guest's perf. */
bool monitors_need_perf(const char *value);
/* Whether the list VALUE names monitor NAME. */
bool monitors_has(const char *value, const char *name);

/* Copy the "# bnb-mon:FILE: " lines of OUTLOG into RUNDIR/monitor/FILE;
 * -1 with errno when one could not be read or written. */
int monitors_split(const char *outlog, const char *rundir);

/*
 * Read RUNDIR/monitor/: write the per-second series beside the raw files
 * and return the totals as a JSON object (NULL when there is no monitor
 * data); each total is also added to X as "MONITOR.NAME".
 */
struct json_object *monitors_load(const char *rundir, struct xmetrics *x);

#endif
