// SPDX-License-Identifier: GPL-2.0
/* CSV writer; see csv.h. */
#include <math.h>
#include <stdarg.h>

#include "csv.h"

void csv_init(struct csv *c, FILE *f)
{
	*c = (struct csv) { .f = f };
}

void csv_comment(struct csv *c, const char *fmt, ...)
{
	va_list ap;

	fputs("# ", c->f);
	va_start(ap, fmt);
	vfprintf(c->f, fmt, ap);
	va_end(ap);
	fputc('\n', c->f);
}

static void sep(struct csv *c)
{
	if (c->field++)
		fputc(',', c->f);
}

void csv_str(struct csv *c, const char *s)
{
	sep(c);
	fputs(s, c->f);
}

void csv_u64(struct csv *c, unsigned long long v)
{
	sep(c);
	fprintf(c->f, "%llu", v);
}

/* Not-a-number and infinities are not data: they become empty cells. */
void csv_double(struct csv *c, double v)
{
	sep(c);
	if (isfinite(v))
		fprintf(c->f, "%.10g", v);
}

void csv_empty(struct csv *c)
{
	sep(c);
}

void csv_end_row(struct csv *c)
{
	if (!c->columns)
		c->columns = c->field;
	while (c->field < c->columns)
		sep(c);
	fputc('\n', c->f);
	c->field = 0;
	if (fflush(c->f) || ferror(c->f))
		c->error = true;
}
