/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal CSV writer: one row at a time, every row flushed so that a
 * crash or Ctrl-C leaves all finished rows on disk.  Field values are
 * numbers or names checked to need no quoting.
 */
#ifndef BNB_COLLECTOR_CSV_H
#define BNB_COLLECTOR_CSV_H

#include <stdbool.h>
#include <stdio.h>

struct csv {
	FILE *f;
	int columns;		/* fixed by the header */
	int field;		/* fields written in the current row */
	bool error;		/* a write failed: disk full, ... */
};

void csv_init(struct csv *c, FILE *f);
void csv_comment(struct csv *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void csv_str(struct csv *c, const char *s);
void csv_u64(struct csv *c, unsigned long long v);
void csv_double(struct csv *c, double v);
void csv_empty(struct csv *c);
/* The first row ends the header and fixes the column count. */
void csv_end_row(struct csv *c);

#endif /* BNB_COLLECTOR_CSV_H */
