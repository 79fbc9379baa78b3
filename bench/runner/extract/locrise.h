/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rise of a run's true locality: where the workload's accesses went
 * (the TCG plugin's local and remote counts, the collector's acc_local_d
 * and acc_remote_d columns), from the start of its work to its best, and
 * when 90 % of that rise was reached.
 *
 * The hint-fault convergence (the collector's convergence column) says
 * how the kernel saw its own faults, and can read "never" while every
 * page moved: with huge pages a run takes a few hundred hint faults, and
 * faults on pages that every thread shares (libraries, stacks, a buffer
 * the threads split unevenly) are remote for all but one node however
 * well the balancer did.  The accesses themselves have neither problem.
 */
#ifndef BNB_LOCRISE_H
#define BNB_LOCRISE_H

#include <stdbool.h>

struct csv;

/* Below this rise the locality did not rise: balancing off, bound runs. */
#define LOCRISE_MIN_GAIN	0.10
/* The windows the locality is taken over: a twentieth of the work. */
#define LOCRISE_SPAN		0.05

struct loc_rise {
	double start;		/* true locality over the work's first window */
	double peak;		/* and its best window */
	double to90_s;		/* from the work's start to the end of the first
				 * window at start + 0.9 (peak - start); NAN: flat */
	bool flat;		/* peak - start < LOCRISE_MIN_GAIN */
};

/*
 * From N intervals of the work, the I-th ending at T[I] (s, increasing)
 * with LOCAL[I] and REMOTE[I] accesses, the work having started at T0.
 * 0, or -1 when there is nothing to say: fewer than 3 intervals, or no
 * access in the first window.
 */
int loc_rise(const double *t, const double *local, const double *remote, int n, double t0,
	     struct loc_rise *out);

/*
 * The same from a run's timeseries table: the intervals after the one in
 * which the work began at T0 and before the one in which it ended at T1
 * (NAN: to the last).  -1 also when the table has no plugin columns.
 */
int loc_rise_table(const struct csv *tab, double t0, double t1, struct loc_rise *out);

#endif
