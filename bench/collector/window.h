/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Convergence over the last N NUMA hinting faults:
 *
 *	convergence = numa_hint_faults_local / numa_hint_faults
 *
 * counted over a sliding window of the most recent N hints, fed with the
 * per-sample deltas.  A sample's hints are only known as a (hints, local)
 * pair, so when the window boundary falls inside the oldest sample, that
 * sample contributes its local share pro rata.  Until the first hint the
 * value is undefined: never a made-up 0 or 1.
 */
#ifndef BNB_COLLECTOR_WINDOW_H
#define BNB_COLLECTOR_WINDOW_H

#include <stdbool.h>

/*
 * Bounded memory: a ring of N + 1 entries, exact; for N at or beyond this
 * the ring stops growing and the two oldest samples are merged, so the
 * oldest one's pro rata share becomes approximate.
 */
#define WINDOW_MAX_ENTRIES	65536

struct window_entry {
	unsigned long long hints;
	unsigned long long local;
};

struct conv_window {
	unsigned long long size;	/* N */
	struct window_entry *ring;
	unsigned cap, head, count;	/* head = oldest entry */
	unsigned long long hints, local;	/* sums over the ring */
};

int window_init(struct conv_window *w, unsigned long long size);
void window_free(struct conv_window *w);

/* Feed one sample's deltas; local is clamped to hints by the caller. */
void window_add(struct conv_window *w, unsigned long long hints,
		unsigned long long local);

/* The convergence over the window; false while it is undefined. */
bool window_value(const struct conv_window *w, double *conv);

/* Hints the value is computed over: min(N, hints seen). */
unsigned long long window_hints(const struct conv_window *w);

#endif /* BNB_COLLECTOR_WINDOW_H */
