/* SPDX-License-Identifier: GPL-2.0 */
/* DIR/summary.json: the run's totals; keys are listed in FORMAT.md. */
#ifndef BNB_COLLECTOR_SUMMARY_H
#define BNB_COLLECTOR_SUMMARY_H

#include "series.h"

struct run_info {
	const char *end;		/* how the run ended; "running" meanwhile */
	unsigned long long dropped;	/* requests without a valid reply */
	unsigned long long late;	/* sampling instants missed or served late */
	unsigned interval_ms;
	double duration_s;		/* first request to the end */
};

/* Build the summary object; the caller owns the reference. */
struct json_object *summary_build(const struct series *s, const struct run_info *run);

/* Write DIR/summary.json atomically (temporary file + rename). */
int summary_write(const char *dir, const struct series *s, const struct run_info *run);

#endif /* BNB_COLLECTOR_SUMMARY_H */
