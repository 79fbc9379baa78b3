// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdarg.h>

#include "common.h"
#include "csvout.h"

void wl_out_begin(struct wl_out *o, FILE *f, const char *unit,
		  const char *const *columns)
{
	o->f = f;
	o->extra = 0;
	o->rows = 0;
	o->rate_sum = 0;
	o->loc_start = o->loc_end = NAN;
	o->interrupted = false;
	fprintf(f, "# unit rate=%s\nt_s,rate,locality", unit);
	while (columns && columns[o->extra])
		fprintf(f, ",%s", columns[o->extra++]);
	fputc('\n', f);
	fflush(f);
}

/* Locality has 4 decimals; other values keep 12 significant digits. */
static void cell(FILE *f, double v, bool is_fraction)
{
	fputc(',', f);
	if (isnan(v))
		return;
	if (is_fraction)
		fprintf(f, "%.4f", v);
	else
		fprintf(f, "%.12g", v);
}

void wl_out_row(struct wl_out *o, double t_s, double rate, double locality,
		const double *values)
{
	unsigned int i;

	fprintf(o->f, "%.6f,%.3f", t_s, rate);
	cell(o->f, locality, true);
	for (i = 0; i < o->extra; i++)
		cell(o->f, values[i], false);
	fputc('\n', o->f);
	fflush(o->f);
	o->rows++;
	o->rate_sum += rate;
	if (!isnan(locality))
		o->loc_end = locality;
}

void wl_out_start_locality(struct wl_out *o, double locality)
{
	o->loc_start = locality;
	if (!isnan(locality))
		wl_out_comment(o, "locality_start=%.4f", locality);
}

/* The caller's text, if any, after @sep; then the end of the line. */
static void finish_line(struct wl_out *o, const char *sep, const char *fmt, va_list ap)
{
	if (fmt) {
		fputs(sep, o->f);
		vfprintf(o->f, fmt, ap);
	}
	fputc('\n', o->f);
	fflush(o->f);
}

void wl_out_comment(struct wl_out *o, const char *fmt, ...)
{
	va_list ap;

	fputc('#', o->f);
	va_start(ap, fmt);
	finish_line(o, " ", fmt, ap);
	va_end(ap);
}

void wl_out_summary(struct wl_out *o, bool ok, double work_s, const char *fmt, ...)
{
	va_list ap;

	wl_work_end();		/* if the workload has not said so itself */
	fprintf(o->f, "# summary status=%s work_s=%.6f rate_mean=%.3f",
		ok && !o->interrupted ? "ok" : "failed", work_s,
		o->rows ? o->rate_sum / o->rows : 0.0);
	if (o->interrupted)
		fputs(" interrupted=yes", o->f);
	if (!isnan(o->loc_start))
		fprintf(o->f, " locality_start=%.4f", o->loc_start);
	if (!isnan(o->loc_end))
		fprintf(o->f, " locality_end=%.4f", o->loc_end);
	va_start(ap, fmt);
	finish_line(o, " ", fmt, ap);
	va_end(ap);
}
