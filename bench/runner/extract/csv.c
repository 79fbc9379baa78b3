// SPDX-License-Identifier: GPL-2.0
/*
 * A small CSV reader for the numeric tables the collector and the
 * workloads write. The data comes from the guest, so every cell is checked:
 * a cell that is not a finite number becomes NAN, a row with the wrong
 * number of fields is skipped and counted, and sizes are bounded.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = 0;
}

static double cell_value(const char *s)
{
	char *end;
	double v;

	while (*s == ' ')
		s++;
	if (!*s)
		return NAN;
	errno = 0;
	v = strtod(s, &end);
	while (*end == ' ')
		end++;
	if (errno || *end || !isfinite(v))
		return NAN;
	return v;
}

/* Split LINE in place at commas; returns the field count. */
static int split(char *line, char **fields, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		if (n == max)
			return max + 1;
		fields[n++] = p;
		p = strchr(p, ',');
		if (!p)
			return n;
		*p++ = 0;
	}
}

static int parse_header(struct csv *t, char *line, char *err, size_t errlen)
{
	char *fields[CSV_MAX_COLS];
	int n = split(line, fields, CSV_MAX_COLS), i;

	if (n > CSV_MAX_COLS) {
		snprintf(err, errlen, "more than %d columns", CSV_MAX_COLS);
		return -1;
	}
	for (i = 0; i < n; i++)
		t->names[i] = strdup(fields[i]);
	t->ncols = n;
	return 0;
}

/* A copy of LINE as the last row read; -1 out of memory. */
static int keep_last(struct csv *t, const char *line)
{
	char *copy = strdup(line);

	if (!copy)
		return -1;
	free(t->last_row);
	t->last_row = copy;
	return 0;
}

static int add_row(struct csv *t, char *line, int line_no, size_t *cap)
{
	char *fields[CSV_MAX_COLS];
	int n, i;
	double *row;

	if (keep_last(t, line))
		return -1;
	n = split(line, fields, CSV_MAX_COLS);

	if (n != t->ncols) {
		if (!t->bad_rows++)
			t->first_bad_line = line_no;
		return 0;
	}
	if ((size_t)t->nrows == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		row = realloc(t->vals, *cap * t->ncols * sizeof(double));
		if (!row)
			return -1;
		t->vals = row;
	}
	row = &t->vals[(size_t)t->nrows++ * t->ncols];
	for (i = 0; i < n; i++)
		row[i] = cell_value(fields[i]);
	return 0;
}

int csv_load(const char *path, struct csv *t, char *err, size_t errlen)
{
	char line[65536];
	size_t cap = 0;
	FILE *f;
	int rc = 0, line_no = 0;

	memset(t, 0, sizeof(*t));
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %m", path);
		return -1;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		line_no++;
		chomp(line);
		if (line[0] == '#' || !line[0])
			continue;
		if (!t->ncols)
			rc = parse_header(t, line, err, errlen);
		else if (t->nrows < CSV_MAX_ROWS)
			rc = add_row(t, line, line_no, &cap);
	}
	fclose(f);
	if (!rc && !t->ncols) {
		snprintf(err, errlen, "%s: no header line", path);
		rc = -1;
	}
	if (rc)
		csv_free(t);
	return rc;
}

void csv_free(struct csv *t)
{
	int i;

	for (i = 0; i < t->ncols; i++)
		free(t->names[i]);
	free(t->vals);
	free(t->last_row);
	memset(t, 0, sizeof(*t));
}

const char *csv_last_text(const struct csv *t, int col, char *buf, size_t len)
{
	const char *p = t->last_row;
	size_t n;

	*buf = 0;
	for (; p && col > 0; col--) {
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	if (!p || col < 0)
		return buf;
	n = strcspn(p, ",");
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), p);
	return buf;
}

int csv_col(const struct csv *t, const char *name)
{
	int i;

	for (i = 0; i < t->ncols; i++)
		if (!strcmp(t->names[i], name))
			return i;
	return -1;
}

double csv_last(const char *path, const char *column)
{
	char err[256];
	struct csv t;
	double v = NAN;
	int col, i;

	if (csv_load(path, &t, err, sizeof(err)))
		return NAN;
	col = csv_col(&t, column);
	for (i = t.nrows - 1; col >= 0 && i >= 0 && isnan(v); i--)
		v = csv_at(&t, i, col);
	csv_free(&t);
	return v;
}
