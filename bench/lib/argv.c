// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argv.h"

static void out_of_memory(void)
{
	fputs("out of memory building a command line\n", stderr);
	abort();
}

void argv_take(struct argv *a, char *s)
{
	if (!s)
		out_of_memory();
	if (a->n + 2 > a->cap) {
		int cap = a->cap ? a->cap * 2 : 32;
		char **v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			out_of_memory();
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void argv_add(struct argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	argv_take(a, s);
}

void argv_free(struct argv *a)
{
	int i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

const char *shell_quote(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (*s && !s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				"0123456789_./=,:+@%-")]) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	if (len < 3)
		return "''";
	buf[o++] = '\'';
	for (; *s && o + 5 < len; s++) {
		if (*s == '\'') {
			memcpy(buf + o, "'\\''", 4);
			o += 4;
		} else {
			buf[o++] = *s;
		}
	}
	buf[o++] = '\'';
	buf[o] = 0;
	return buf;
}
