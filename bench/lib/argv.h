/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A growable, NULL-terminated argument vector for execv(): every string is
 * owned by it. Running out of memory aborts (a launcher that cannot build
 * its command line has nothing sensible left to do).
 */
#ifndef BNB_LIB_ARGV_H
#define BNB_LIB_ARGV_H

#include "util.h"

struct argv {
	char **v;	/* v[n] is NULL once anything was added */
	int n, cap;
};

/* Append one formatted argument. */
void argv_add(struct argv *a, const char *fmt, ...) __printf(2, 3);
/* Append S, which the vector now owns (from malloc). */
void argv_take(struct argv *a, char *s);
void argv_free(struct argv *a);

/*
 * S as one shell word in BUF: as it is when it is made only of characters
 * the shell leaves alone, else in single quotes. Returns BUF; a BUF too
 * short cuts the word (still quoted).
 */
const char *shell_quote(const char *s, char *buf, size_t len);

#endif
