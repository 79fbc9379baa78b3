/* SPDX-License-Identifier: GPL-2.0 */
/* plot_parts.h - the plots plot_all() draws from files of their own. */
#ifndef BNB_PLOT_PARTS_H
#define BNB_PLOT_PARTS_H

#include "plot_gp.h"

/* Workload time, cost and convergence against each swept value (plot_sweep.c). */
void plot_sweeps(struct plot_ctx *p);
/* The in-guest monitors over time, when runs have them (plot_monitors.c). */
void plot_monitors(struct plot_ctx *p);
/* Promotion and demotion over time, when some run tiers (plot_tiering.c). */
void plot_tiering(struct plot_ctx *p);

#endif
