/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fmt.h - how numbers read in the reports' tables and verdicts: one place,
 * so summary.md, a sweep's table and compare's print a figure alike.
 */
#ifndef BNB_FMT_H
#define BNB_FMT_H

#include <stddef.h>

/* A figure for a table, into BUF: "-" for NAN, 4 significant digits. */
const char *fmt_num(double v, char *buf, size_t len);
/* A p-value for a table: "< 0.001" below that, else as fmt_num(). */
const char *fmt_p(double p, char *buf, size_t len);

#endif
