/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a finished run produced, beyond the collector's files: the
 * workload's metrics (its extractor), the monitors' series and totals and
 * the run's provenance, all added to the run's summary.json. The runner's
 * verdict on a foreign workload (anything but the project's own) rests
 * on this: it succeeded when it exited 0 and its extractor found metrics.
 */
#ifndef BNB_OUTCOME_H
#define BNB_OUTCOME_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "extract/extract.h"

struct outcome {
	const struct extractor *extractor;
	bool project;		/* the project's own workload: its summary line decides */
	bool found;		/* the extractor found the workload's metrics */
	char why[512];		/* when not: the command and what was missing */
	char monitor_error[256];	/* bnb-monitor could not start a monitor */
	char write_error[400];	/* a file of the run that could not be written */
	char boot_error[512];	/* the guest booted another kernel (bootcheck.h) */
	struct xmetrics x;
};

/*
 * After the guest ran WORKLOAD (its `metrics` key METRICS, NULL or ""
 * when unset): split the monitor files out of RUNDIR/out.log and read
 * them, extract the metrics, complete PROV (taken over, may be NULL) with
 * the end of the run and the guest's lines, and add all of it to
 * RUNDIR/summary.json. A file that could not be written is named in
 * O->write_error.
 */
void outcome_collect(const char *rundir, const char *workload, const char *metrics,
		     struct json_object *prov, struct outcome *o);

/*
 * The guest shell lines that run WORKLOAD under bnb-monitor with the
 * monitors MONITORS (a list, "" or "none"), perf stat EVENTS (or NULL for
 * bnb-monitor's default) and provenance, its stderr kept aside and
 * appended as "# stderr: " lines; the script exits with the workload's
 * status. WRAP (NULL: none) is a command that runs the workload, the
 * words after it: bnb-service's, for a server around it. MARK_WORK: the
 * whole workload is the measured work (bnb-monitor --mark-work).
 */
void outcome_guest_lines(FILE *f, const char *workload, const char *monitors,
			 const char *events, int interval_ms, const char *wrap, bool mark_work);

#endif
