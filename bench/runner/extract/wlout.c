// SPDX-License-Identifier: GPL-2.0
/*
 * Reading what a workload printed. The guest output file mixes the
 * workload's CSV with comment lines (its own and the runner's), and it comes
 * from the guest, so nothing is trusted: values are parsed strictly and
 * strings are bounded and reduced to printable characters.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wlout.h"

static void copy_printable(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i] && src[i] != '\n'; i++)
		dst[i] = isprint((unsigned char)src[i]) && src[i] != '|' ? src[i] : '?';
	dst[i] = 0;
}

/* KEY's number in LINE: NAN when absent, or when malformed with *BAD saying so. */
static double field_value(const char *line, const char *key, char *bad, size_t badlen)
{
	char pat[64], *end, text[32];
	const char *p, *v;
	double value;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return NAN;
	v = p + strlen(pat);
	errno = 0;
	value = strtod(v, &end);
	if (!errno && end != v && (!*end || isspace((unsigned char)*end)) && isfinite(value))
		return value;
	if (bad && !bad[0]) {
		copy_printable(text, sizeof(text), v);
		text[strcspn(text, " \t")] = 0;
		snprintf(bad, badlen, "%s='%s' is not a finite number", key, text);
	}
	return NAN;
}

static void parse_summary(const char *line, struct wl_summary *s)
{
	const char *st = strstr(line, " status=");

	s->found = true;
	s->ok = st && !strncmp(st + 8, "ok", 2) && (!st[10] || isspace((unsigned char)st[10]));
	s->work_s = field_value(line, "work_s", s->bad, sizeof(s->bad));
	s->rate_mean = field_value(line, "rate_mean", s->bad, sizeof(s->bad));
	s->threads = field_value(line, "threads", s->bad, sizeof(s->bad));
}

double wl_thread_rate(const struct wl_summary *s)
{
	if (isfinite(s->threads) && s->threads >= 1)
		return s->rate_mean / s->threads;
	return s->rate_mean;
}

static void parse_unit(const char *line, struct wl_summary *s)
{
	const char *p = strstr(line, "rate=");
	char unit[32];
	size_t n;

	if (!p || s->unit[0])
		return;
	copy_printable(unit, sizeof(unit), p + 5);
	n = strcspn(unit, " \t\r");
	unit[n] = 0;
	snprintf(s->unit, sizeof(s->unit), "%s", unit);
}

int wl_scan(const char *path, struct wl_summary *s)
{
	char line[4096];
	FILE *f;
	int n;

	memset(s, 0, sizeof(*s));
	s->work_s = s->rate_mean = s->threads = NAN;
	f = fopen(path, "r");
	if (!f)
		return -1;
	for (n = 1; fgets(line, sizeof(line), f); n++) {
		line[strcspn(line, "\r\n")] = 0;
		if (!strncmp(line, "# summary ", 10)) {
			if (s->n_lines < 2)
				s->line[s->n_lines] = n;
			if (!s->n_lines++)
				parse_summary(line + 9, s);
		}
		else if (!strncmp(line, "# unit ", 7))
			parse_unit(line, s);
		else if (!strncmp(line, WL_SCALE_MARK, strlen(WL_SCALE_MARK)))
			s->scan_milli = strtol(line + strlen(WL_SCALE_MARK), NULL, 10);
		else if (!strncmp(line, WL_SYSCTL_MARK, strlen(WL_SYSCTL_MARK)) &&
			 !s->sysctl_error[0])
			copy_printable(s->sysctl_error, sizeof(s->sysctl_error),
				       line + strlen(WL_SYSCTL_MARK));
	}
	fclose(f);
	return 0;
}

double wl_line_value(const char *path, const char *prefix, const char *key)
{
	char line[4096];
	double v = NAN;
	FILE *f = fopen(path, "r");

	if (!f)
		return NAN;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, prefix, strlen(prefix))) {
			line[strcspn(line, "\r\n")] = 0;
			v = field_value(line, key, NULL, 0);
			break;
		}
	fclose(f);
	return v;
}

int wl_extract_csv(const char *in, const char *out)
{
	char line[65536];
	FILE *f, *o = NULL;

	f = fopen(in, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n' || !strchr(line, ','))
			continue;
		/* from the contract's header on; other commands' output is not ours */
		if (!o && !strncmp(line, WL_CSV_HEADER, strlen(WL_CSV_HEADER)))
			o = fopen(out, "w");
		if (o)
			fputs(line, o);
	}
	fclose(f);
	return o ? fclose(o) : 0;
}
