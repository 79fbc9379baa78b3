/* SPDX-License-Identifier: GPL-2.0 */
/* account_plot.h - the account plot of a results folder (account_plot.c). */
#ifndef BNB_ACCOUNT_PLOT_H
#define BNB_ACCOUNT_PLOT_H

#include "plot/plot_gp.h"

/* plots/account.{gp,png,svg}, when some run has an account.csv. */
void plot_account(struct plot_ctx *p);

#endif
