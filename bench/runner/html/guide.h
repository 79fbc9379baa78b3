/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guide.h - what each plot shows and what to look for in it: one table,
 * which the README's "Reading the plots" prints (between its markers) and
 * summary.html shows under each plot.
 */
#ifndef BNB_HTML_GUIDE_H
#define BNB_HTML_GUIDE_H

#include <stdio.h>

struct plot_guide {
	const char *name;	/* the file's name, or its start when `part` is set */
	const char *part;	/* what follows the start ("VARIANT", "*"), or NULL */
	const char *shows;
	const char *look_for;
};

/* The guide's row for plot file NAME (without .svg), or NULL. */
const struct plot_guide *guide_find(const char *name);

/* Where NAME's row stands in the table: plots are shown in that order,
 * those without a row after them. */
int guide_rank(const char *name);

/* The table as the README's Markdown (tests/unit/test_runner_html.c). */
void guide_markdown(FILE *f);

#endif
