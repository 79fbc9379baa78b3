/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload output contract (docs/HACKING.md, "Workload output"):
 * "# unit rate=UNIT", a CSV header starting t_s,rate,locality, one row per
 * iteration or interval, and a final "# summary key=value ..." line. Every
 * line is flushed as it is written so a killed run keeps its rows.
 */
#ifndef WL_CSVOUT_H
#define WL_CSVOUT_H

#include <stdbool.h>
#include <stdio.h>

struct wl_out {
	FILE *f;
	unsigned int extra;	/* columns after t_s,rate,locality */
	unsigned int rows;
	double rate_sum;
	double loc_start;	/* before the timed part, NaN if not sampled */
	double loc_end;		/* the last locality written */
	bool interrupted;	/* stopped by a signal: the summary says so */
};

/* @columns: names of the extra columns, NULL-terminated (may be NULL). */
void wl_out_begin(struct wl_out *o, FILE *f, const char *unit,
		  const char *const *columns);

/* One row; NaN in @locality or in @values leaves the cell empty. */
void wl_out_row(struct wl_out *o, double t_s, double rate, double locality,
		const double *values);

/*
 * Locality sampled after the first touch, before the timed part: printed as
 * a comment now and as locality_start= in the summary.
 */
void wl_out_start_locality(struct wl_out *o, double locality);

void wl_out_comment(struct wl_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The closing line: status, work_s, rate_mean (mean of the row rates, 0
 * without rows), locality_start and locality_end when known, then the
 * caller's own "key=value ..." text, if any.
 */
void wl_out_summary(struct wl_out *o, bool ok, double work_s, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
