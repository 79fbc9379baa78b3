/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot_gp.h - what the plot files share (plot_gp.c): the context, element
 * lists, gnuplot quoting and the script output. A leaf: plot.c draws the
 * on/off plots and calls the others (plot_parts.h), which use this alone.
 */
#ifndef BNB_PLOT_GP_H
#define BNB_PLOT_GP_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "report/results.h"

struct plot_ctx {
	const struct results *r;
	char dir[PATH_MAX + 16];	/* DIR/plots */
	int made;
	int failed;
};

/* A list of plot elements, joined into one gnuplot `plot` command. */
struct gp_elems {
	char *buf;
	size_t len;
	FILE *f;
	int n;
};

/*
 * TEXT as the inside of a gnuplot single-quoted string, in BUF: gnuplot
 * reads '' there as one ', and a line break would end the command (it
 * becomes a space). Every name, key, path and label written between
 * single quotes goes through here. Returns BUF (TEXT cut to fit).
 */
const char *gp_str(char *buf, size_t len, const char *text);
/* A buffer for gp_str(), for the names and labels the plots write. */
#define GP_STR_MAX 1024

void gp_elems_open(struct gp_elems *e);
void gp_elem(struct gp_elems *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *gp_elems_close(struct gp_elems *e);

/*
 * Close F, written to PATH: true when every byte reached the file; else
 * says which disk filled (or why), counts a failed plot and returns false.
 * A file cut short is never drawn from.
 */
bool plot_file_done(struct plot_ctx *p, FILE *f, const char *path);
/* The same for a write to PATH that failed with ERRNUM. */
void plot_write_failed(struct plot_ctx *p, const char *path, int errnum);

/* Write NAME.gp drawing BODY (freed) as PNG and SVG, and run gnuplot. */
int gp_emit(struct plot_ctx *p, const char *name, char *body, int height);

/* The colour of VARIANT in every plot of R. */
const char *plot_color(const struct results *r, const char *variant);
bool plot_data_has(const struct plot_ctx *p, const char *rel, int col);

#endif
