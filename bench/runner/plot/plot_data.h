/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot_data.h - series for the plots (plot_data.c): a run's collector
 * series with its counters turned into rates, and the median of runs on a
 * common time grid. A leaf: the plots of other rooms read it too.
 */
#ifndef BNB_PLOT_DATA_H
#define BNB_PLOT_DATA_H

/*
 * Collector series per run, derived for plotting: counters become rates.
 * Column order of the .ts.dat files.
 */
enum ts_col { TS_CONV, TS_COST_CUM, TS_COST_RATE, TS_LOCAL_PS, TS_REMOTE_PS,
	      TS_MIGRATED_PS, TS_TRUE_LOC, TS_CONV_PAGES, N_TS };

struct series {
	int n;
	double *t;
	double *c[N_TS];
};

/* Read RUN_DIR/timeseries.csv into S (rates from counter differences). */
int series_load(const char *run_dir, struct series *s);
void series_free(struct series *s);
/* Median over N series on a common time grid, into OUT. */
void series_median(const struct series *in, int n, struct series *out);
int series_write(const char *path, const struct series *s);

#endif
