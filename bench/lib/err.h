/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One error convention for the whole tree.
 *
 * A function that can fail on its input takes (char *err, size_t errlen)
 * last, returns 0 or -1, and on failure writes one line into err: what was
 * wrong, with the offending text quoted, no program name, no newline
 * ("'512': a size needs a unit, did you mean 512M?"). Callers add context
 * in front with errf_prefix() (the option, or file:line:key) and the
 * program prints it with prog_error(), which adds "PROGRAM: ". err may be
 * NULL when the caller only wants the verdict.
 */
#ifndef BNB_LIB_ERR_H
#define BNB_LIB_ERR_H

#include <stddef.h>

#include "util.h"

#define ERRLEN 512	/* enough for any message in the tree */

/* Format the reason into err; returns -1, for `return errf(...)`. */
int errf(char *err, size_t errlen, const char *fmt, ...) __printf(3, 4);

/* Put "CONTEXT: " in front of the message in err; returns -1. */
int errf_prefix(char *err, size_t errlen, const char *fmt, ...) __printf(3, 4);

/* Add one more message to those in buf, "; "-separated; returns -1. */
int errf_append(char *buf, size_t len, const char *fmt, ...) __printf(3, 4);

/*
 * TEXT as it may be quoted in a message: every byte that is not printable
 * ASCII (a terminal escape, a newline, UTF-8) as \xNN, cut with "..."
 * when it does not fit. Returns buf. Quote anything a user or a guest
 * wrote through this: the error must not become a terminal command.
 */
const char *printable(const char *text, char *buf, size_t len);

/* "PROGRAM: message\n" on stderr, the message through printable(). */
void prog_error(const char *fmt, ...) __printf(1, 2);

#endif
