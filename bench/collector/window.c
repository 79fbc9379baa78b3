// SPDX-License-Identifier: GPL-2.0
/* Sliding window of hinting faults; see window.h. */
#include <stdlib.h>

#include "window.h"

#define WINDOW_FIRST_CAP	64

int window_init(struct conv_window *w, unsigned long long min_hints, double span_s)
{
	*w = (struct conv_window) { .min_hints = min_hints, .span_s = span_s };
	if (min_hints == 0 || !(span_s >= 0))
		return -1;
	w->cap = WINDOW_FIRST_CAP;
	w->ring = calloc(w->cap, sizeof(*w->ring));
	return w->ring ? 0 : -1;
}

void window_free(struct conv_window *w)
{
	free(w->ring);
	w->ring = NULL;
}

static struct window_entry *entry(const struct conv_window *w, unsigned i)
{
	return &w->ring[(w->head + i) % w->cap];
}

/* Double the ring, oldest first; false when it may not or cannot grow. */
static bool grow(struct conv_window *w)
{
	unsigned cap = w->cap * 2 < WINDOW_MAX_ENTRIES ? w->cap * 2 : WINDOW_MAX_ENTRIES;
	struct window_entry *ring;

	if (cap <= w->cap)
		return false;
	ring = malloc(cap * sizeof(*ring));
	if (!ring)
		return false;
	for (unsigned i = 0; i < w->count; i++)
		ring[i] = *entry(w, i);
	free(w->ring);
	w->ring = ring;
	w->cap = cap;
	w->head = 0;
	return true;
}

static void drop_oldest(struct conv_window *w)
{
	struct window_entry *old = entry(w, 0);

	w->hints -= old->hints;
	w->local -= old->local;
	w->nr_old--;		/* only old entries are dropped */
	w->old_hints -= old->hints;
	w->head = (w->head + 1) % w->cap;
	w->count--;
}

/*
 * Full ring at its largest: fold the oldest entry into the next one, which
 * keeps its own (newer) time.
 */
static void merge_oldest(struct conv_window *w)
{
	struct window_entry *old = entry(w, 0), *next = entry(w, 1);

	next->hints += old->hints;
	next->local += old->local;
	if (w->nr_old == 1)
		w->old_hints -= old->hints;	/* now part of a recent entry */
	if (w->nr_old)
		w->nr_old--;
	w->head = (w->head + 1) % w->cap;
	w->count--;
}

static void append(struct conv_window *w, double t_s, unsigned long long hints,
		   unsigned long long local)
{
	if (w->count == w->cap && !grow(w))
		merge_oldest(w);
	*entry(w, w->count) = (struct window_entry) { t_s, hints, local };
	w->count++;
	w->hints += hints;
	w->local += local;
}

void window_add(struct conv_window *w, double t_s, unsigned long long hints,
		unsigned long long local)
{
	if (hints)
		append(w, t_s, hints, local);
	/* Entries that left the last span_s seconds count only for min_hints. */
	while (w->nr_old < w->count && entry(w, w->nr_old)->t_s <= t_s - w->span_s) {
		w->old_hints += entry(w, w->nr_old)->hints;
		w->nr_old++;
	}
	/*
	 * Drop whole old samples that lie entirely beyond the last N hints:
	 * N >= min_hints, and N never reaches back into old entries beyond
	 * what min_hints needs, since the recent ones hold the rest of it.
	 */
	while (w->count > 1 && w->nr_old && w->hints - entry(w, 0)->hints >= w->min_hints)
		drop_oldest(w);
}

unsigned long long window_n(const struct conv_window *w)
{
	unsigned long long recent = w->hints - w->old_hints;

	return recent > w->min_hints ? recent : w->min_hints;
}

bool window_value(const struct conv_window *w, double *conv)
{
	unsigned long long n = window_n(w);
	const struct window_entry *old;
	double keep;

	if (w->hints == 0)
		return false;
	if (w->hints <= n) {
		*conv = (double)w->local / w->hints;
		return true;
	}
	/* Only the newest (n - rest) hints of the oldest sample count. */
	old = entry(w, 0);
	keep = (double)(n - (w->hints - old->hints)) / old->hints;
	*conv = ((double)(w->local - old->local) + old->local * keep) / n;
	return true;
}

unsigned long long window_hints(const struct conv_window *w)
{
	unsigned long long n = window_n(w);

	return w->hints < n ? w->hints : n;
}
