/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DIR/timeseries.csv: one row per good sample and a final row saying how
 * the run ended.  Every column is described in bench/collector/FORMAT.md.
 */
#ifndef BNB_COLLECTOR_TIMESERIES_H
#define BNB_COLLECTOR_TIMESERIES_H

#include "csv.h"
#include "series.h"

#define TIMESERIES_FORMAT	1

void timeseries_header(struct csv *c, const struct series *s);
void timeseries_row(struct csv *c, const struct series *s);
void timeseries_end(struct csv *c, const struct series *s, double t_s,
		    const char *reason);

#endif /* BNB_COLLECTOR_TIMESERIES_H */
