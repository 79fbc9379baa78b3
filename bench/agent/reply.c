// SPDX-License-Identifier: GPL-2.0
/* Formatting of one reply into a fixed buffer. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "agent.h"

void reply_reset(struct reply *r)
{
	r->len = 0;
	r->overflow = false;
}

/*
 * Append one line.  The last sizeof(BNB_WIRE_END) bytes stay reserved so
 * that the terminator always fits: a reply cut short by a too small buffer
 * is still a well-formed (if partial) reply rather than garbage.
 */
void reply_add(struct reply *r, const char *fmt, ...)
{
	size_t room = sizeof(r->buf) - r->len - sizeof(BNB_WIRE_END);
	va_list ap;
	int n;

	if (r->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(r->buf + r->len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		r->overflow = true;
		return;
	}
	r->len += n;
}

void reply_add_raw(struct reply *r, const char *s, size_t n)
{
	if (r->overflow || n >= sizeof(r->buf) - r->len - sizeof(BNB_WIRE_END)) {
		r->overflow = true;
		return;
	}
	memcpy(r->buf + r->len, s, n);
	r->len += n;
}

void reply_finish(struct reply *r)
{
	memcpy(r->buf + r->len, BNB_WIRE_END, strlen(BNB_WIRE_END));
	r->len += strlen(BNB_WIRE_END);
}

bool scan_u64(const char *s, const char **end, unsigned long long *val)
{
	unsigned long long v = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = *p - '0';

		if (v > (~0ULL - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*val = v;
	*end = p;
	return true;
}
