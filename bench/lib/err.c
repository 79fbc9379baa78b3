// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

int errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int errf_prefix(char *err, size_t errlen, const char *fmt, ...)
{
	char old[ERRLEN];
	size_t used;
	va_list ap;

	if (!err || !errlen)
		return -1;
	snprintf(old, sizeof(old), "%s", err);
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	used = strlen(err);
	snprintf(err + used, errlen - used, "%s%s", used ? ": " : "", old);
	return -1;
}

int errf_append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	if (!buf || !len)
		return -1;
	used = strlen(buf);
	if (used && used + 2 < len) {
		strcpy(buf + used, "; ");
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	return -1;
}

const char *printable(const char *text, char *buf, size_t len)
{
	size_t used = 0;
	const unsigned char *p;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (p = (const unsigned char *)text; *p && used + 5 < len; p++)
		used += (size_t)snprintf(buf + used, len - used,
					 *p >= ' ' && *p < 0x7f ? "%c" : "\\x%02x", *p);
	if (*p && len > 4)
		strcpy(buf + (used < len - 4 ? used : len - 4), "...");
	return buf;
}

void prog_error(const char *fmt, ...)
{
	char msg[ERRLEN * 2], shown[ERRLEN * 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* messages quote what users typed and guests printed */
	fprintf(stderr, "%s: %s\n", program_invocation_short_name,
		printable(msg, shown, sizeof(shown)));
}
