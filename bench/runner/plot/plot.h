/* SPDX-License-Identifier: GPL-2.0 */
/* gnuplot plots of a results folder: data files, scripts, PNG and SVG. */
#ifndef BNB_PLOT_H
#define BNB_PLOT_H

#include "plot_data.h"
#include "report/results.h"

/* Write DIR/plots/ (data, .gp scripts, .png, .svg) and copy the images
 * to ROOT/plots/<folder name>/. */
int plot_all(const struct results *r);

#endif
