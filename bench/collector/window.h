/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Convergence over the last N NUMA hinting faults, the seed's definition:
 *
 *	convergence = numa_hint_faults_local / numa_hint_faults
 *
 * counted over a sliding window of the most recent N hints, fed with the
 * per-sample deltas.  A sample's hints are only known as a (hints, local)
 * pair, so when the window boundary falls inside the oldest sample, that
 * sample contributes its local share pro rata.  Until the first hint the
 * value is undefined: never a made-up 0 or 1.
 *
 * N is sized to the run: the hints of the last span_s seconds (guest time),
 * but at least min_hints, so that the value says where the run is now
 * whatever its hint rate.  A fixed N (the seed's literal window, 10,000
 * hints in earlier versions) is span_s = 0 and min_hints = N; in a run
 * with fewer hints than that it is the cumulative share since the start
 * and lags the truth by the whole run.
 */
#ifndef BNB_COLLECTOR_WINDOW_H
#define BNB_COLLECTOR_WINDOW_H

#include <stdbool.h>

/*
 * Bounded memory: the ring grows as needed up to this many samples with
 * hints; beyond that the two oldest are merged, which only coarsens the
 * pro rata step at the boundary (and the age of the merged sample).
 */
#define WINDOW_MAX_ENTRIES	65536

struct window_entry {
	double t_s;			/* end of the sample's interval */
	unsigned long long hints;
	unsigned long long local;
};

struct conv_window {
	unsigned long long min_hints;	/* N is at least this */
	double span_s;			/* N covers this much time; 0: N = min_hints */
	struct window_entry *ring;
	unsigned cap, head, count;	/* head = oldest entry */
	unsigned nr_old;		/* oldest entries beyond span_s, kept for min_hints */
	unsigned long long hints, local;	/* sums over the ring */
	unsigned long long old_hints;	/* sum over the nr_old oldest */
};

/* -1 when min_hints is 0, span_s negative, or out of memory. */
int window_init(struct conv_window *w, unsigned long long min_hints, double span_s);
void window_free(struct conv_window *w);

/*
 * Feed one sample ending at T_S (seconds, non-decreasing) with its deltas;
 * local is clamped to hints by the caller.  Call it for every sample, with
 * 0 hints too: time passing shrinks N.
 */
void window_add(struct conv_window *w, double t_s, unsigned long long hints,
		unsigned long long local);

/* The convergence over the window; false while it is undefined. */
bool window_value(const struct conv_window *w, double *conv);

/* N now: max(min_hints, hints of the last span_s seconds). */
unsigned long long window_n(const struct conv_window *w);

/* Hints the value is computed over: min(N, hints still held). */
unsigned long long window_hints(const struct conv_window *w);

#endif /* BNB_COLLECTOR_WINDOW_H */
