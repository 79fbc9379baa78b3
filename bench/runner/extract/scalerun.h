/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's scan passes and time scale as metrics: the scanner's passes over
 * the workload (the agent's numa_scan_seq column), the passes it took to
 * converge and for the true locality to rise (locrise.h), and under
 * scale_scan = hardware the factors and every time in hardware-equivalent
 * seconds (guest seconds / the time factor).
 */
#ifndef BNB_SCALERUN_H
#define BNB_SCALERUN_H

#include <stdbool.h>
#include <stddef.h>

struct xmetrics;

/* Add them to X, from RUNDIR's out.log, summary.json and timeseries.csv. */
void scalerun_add(const char *rundir, struct xmetrics *x);

struct results;
/*
 * The report's note: the plan's factors and what it gave up, and per
 * variant the passes a run held and the passes to converge; false (BUF
 * empty) when no run counted passes and none had a plan.
 */
bool scalerun_note(const struct results *r, char *buf, size_t len);

#endif
