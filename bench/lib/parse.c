// SPDX-License-Identifier: GPL-2.0
/* The grammar is in parse.h; every message quotes the text it refuses. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "parse.h"

static const char units[] = "KMGT";

/* Digits only, optionally after a '-' when NEG is allowed. */
static bool plain_decimal(const char *s, bool neg)
{
	if (neg && *s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int parse_ll(const char *s, long long min, long long max, long long *out,
	     char *err, size_t errlen)
{
	long long v;

	errno = 0;
	if (!plain_decimal(s, min < 0) || (v = strtoll(s, NULL, 10), errno) ||
	    v < min || v > max)
		return errf(err, errlen, "'%s' is not an integer from %lld to %lld", s, min, max);
	*out = v;
	return 0;
}

int parse_int(const char *s, int min, int max, int *out, char *err, size_t errlen)
{
	long long v;

	if (parse_ll(s, min, max, &v, err, errlen))
		return -1;
	*out = (int)v;
	return 0;
}

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
	      char *err, size_t errlen)
{
	unsigned long long v;

	errno = 0;
	if (!plain_decimal(s, false) || (v = strtoull(s, NULL, 10), errno) ||
	    v < min || v > max)
		return errf(err, errlen, "'%s' is not an integer from %" PRIu64 " to %" PRIu64,
			    s, min, max);
	*out = v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out,
		 char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v < min || v > max ||
	    isspace((unsigned char)*s) || strpbrk(s, "xX"))
		return errf(err, errlen, "'%s' is not a number from %g to %g", s, min, max);
	*out = v;
	return 0;
}

/* The unit at *p ("M", "MiB", "mb", "B", ...) as a shift; -1 if none fits. */
static int unit_shift(const char *p)
{
	const char *u;

	if (!*p || ((*p & ~0x20) == 'B' && !p[1]))
		return 0;
	u = strchr(units, *p & ~0x20);
	if (!u || !*u)
		return -1;
	p++;
	if ((p[0] & ~0x20) == 'I' && (p[1] & ~0x20) == 'B')
		p += 2;
	else if ((*p & ~0x20) == 'B')
		p++;
	return *p ? -1 : 10 * (int)(u - units + 1);
}

static int size_range_error(const char *s, uint64_t min, uint64_t max, bool bare,
			    char *err, size_t errlen)
{
	char lo[32], hi[32];

	format_size(min, lo, sizeof(lo));
	format_size(max, hi, sizeof(hi));
	if (bare && strtoull(s, NULL, 10) < min &&
	    strtoull(s, NULL, 10) <= max >> 20 && strtoull(s, NULL, 10) << 20 >= min)
		return errf(err, errlen, "'%s': a size needs a unit, did you mean %sM?", s, s);
	return errf(err, errlen, "'%s' is not a size from %s to %s (bytes, or K, M, G, T)",
		    s, lo, hi);
}

int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *bytes,
	       char *err, size_t errlen)
{
	unsigned long long v;
	const char *p = s;
	int shift;

	while (*p >= '0' && *p <= '9')
		p++;
	shift = unit_shift(p);
	errno = 0;
	if (p == s || shift < 0 || (v = strtoull(s, NULL, 10), errno) ||
	    (shift && v > UINT64_MAX >> shift))
		return errf(err, errlen, "'%s' is not a size like 512M or 1G "
			    "(bytes, or K, M, G, T: binary)", s);
	v <<= shift;
	if (v < min || v > max)
		return size_range_error(s, min, max, !*p, err, errlen);
	*bytes = v;
	return 0;
}

int parse_bool(const char *s, bool *out, char *err, size_t errlen)
{
	static const char *const yes[] = { "on", "yes", "true", "1" };
	static const char *const no[] = { "off", "no", "false", "0" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcmp(s, yes[i]))
			return *out = true, 0;
		if (!strcmp(s, no[i]))
			return *out = false, 0;
	}
	return errf(err, errlen, "'%s' is not on or off", s);
}

int parse_choice(const char *s, const char *choices, char *err, size_t errlen)
{
	size_t len = strlen(s);
	const char *p = choices;
	int i = 0;

	while (p && len) {
		if (!strncmp(p, s, len) && (p[len] == '|' || !p[len]))
			return i;
		p = strchr(p, '|');
		p = p ? p + 1 : NULL;
		i++;
	}
	return errf(err, errlen, "'%s' is not one of %s", s, choices);
}

void format_size(uint64_t bytes, char *buf, size_t len)
{
	size_t i = 0;

	while (bytes && i < strlen(units) && !(bytes & 1023)) {
		bytes >>= 10;
		i++;
	}
	if (i)
		snprintf(buf, len, "%" PRIu64 "%c", bytes, units[i - 1]);
	else
		snprintf(buf, len, "%" PRIu64, bytes);
}

int split_list(char *s, char sep, char **items, int max)
{
	int n = 0;

	for (;;) {
		char *end = strchr(s, sep);

		if (n == max || s == end || !*s)
			return -1;
		items[n++] = s;
		if (!end)
			return n;
		*end = '\0';
		s = end + 1;
	}
}

bool user_name_ok(const char *s)
{
	if (!*s || strlen(s) > 32 || !(islower((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && !strchr("_-", *s))
			return false;
	return true;
}
