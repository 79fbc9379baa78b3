/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a bisection says: the first bad commit with its subject and the
 * metric on each side of it, then a table of the ends and every step
 * (commit, subject, metric, verdict, build and run time), then each
 * skipped commit with its log's end. The same text goes to the console
 * and to DIR/bisect.md.
 */
#ifndef BNB_BISECT_OUTPUT_H
#define BNB_BISECT_OUTPUT_H

#include <stdio.h>

#include "state.h"

void bisect_markdown(FILE *f, const struct bisection *b);

/* Write DIR/bisect.md; 0, or -1 having said why on stderr. */
int bisect_write_md(const struct bisection *b);

/* "4 min 05 s", "35 s", "1.2 s", "-" for NAN; returns BUF. */
const char *fmt_secs(double s, char *buf, size_t len);

#endif
