/* SPDX-License-Identifier: GPL-2.0 */
/* Numeric CSV tables (guest and collector output: untrusted input). */
#ifndef BNB_CSV_H
#define BNB_CSV_H

#include <stddef.h>

#define CSV_MAX_COLS 512
#define CSV_MAX_ROWS 1000000

struct csv {
	int ncols;
	char *names[CSV_MAX_COLS];
	int nrows;
	double *vals;		/* nrows x ncols, NAN for empty or non-numeric */
	int bad_rows;		/* rows with the wrong field count, skipped */
	int first_bad_line;	/* the file's line of the first, from 1; 0 when none */
	char *last_row;		/* the last row's text as read (a text cell's only copy), or NULL */
};

/*
 * Load PATH: lines starting with '#' are comments, the first other line is
 * the header, then one row per line. Returns 0, or -1 with ERR set.
 */
int csv_load(const char *path, struct csv *t, char *err, size_t errlen);
void csv_free(struct csv *t);
int csv_col(const struct csv *t, const char *name);
/* The text of column COL in the last row, into BUF ("" when there is none). */
const char *csv_last_text(const struct csv *t, int col, char *buf, size_t len);
/* The last finite value of COLUMN in the CSV file PATH, or NAN. */
double csv_last(const char *path, const char *column);
static inline double csv_at(const struct csv *t, int row, int col)
{
	return t->vals[(size_t)row * t->ncols + col];
}

#endif
