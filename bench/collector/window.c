// SPDX-License-Identifier: GPL-2.0
/* Sliding window of hinting faults; see window.h. */
#include <stdlib.h>

#include "window.h"

int window_init(struct conv_window *w, unsigned long long size)
{
	*w = (struct conv_window) { .size = size };
	if (size == 0)
		return -1;
	/*
	 * Each entry holds at least one hint, so after window_add() drops
	 * what lies beyond the window at most N entries remain, and the
	 * sample being added needs one more: N + 1 entries never merge.
	 */
	w->cap = size < WINDOW_MAX_ENTRIES ? size + 1 : WINDOW_MAX_ENTRIES;
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

static void drop_oldest(struct conv_window *w)
{
	struct window_entry *old = entry(w, 0);

	w->hints -= old->hints;
	w->local -= old->local;
	w->head = (w->head + 1) % w->cap;
	w->count--;
}

/* Full ring: fold the oldest entry into the next one. */
static void merge_oldest(struct conv_window *w)
{
	struct window_entry *old = entry(w, 0), *next = entry(w, 1);

	next->hints += old->hints;
	next->local += old->local;
	w->head = (w->head + 1) % w->cap;
	w->count--;
}

void window_add(struct conv_window *w, unsigned long long hints,
		unsigned long long local)
{
	if (hints == 0)
		return;
	if (w->count == w->cap) {
		if (w->cap == 1)
			drop_oldest(w);
		else
			merge_oldest(w);
	}
	*entry(w, w->count) = (struct window_entry) { hints, local };
	w->count++;
	w->hints += hints;
	w->local += local;
	/* Drop whole samples that lie entirely beyond the last N hints. */
	while (w->count > 1 && w->hints - entry(w, 0)->hints >= w->size)
		drop_oldest(w);
}

bool window_value(const struct conv_window *w, double *conv)
{
	const struct window_entry *old;
	double keep;

	if (w->hints == 0)
		return false;
	if (w->hints <= w->size) {
		*conv = (double)w->local / w->hints;
		return true;
	}
	/* Only the newest (size - rest) hints of the oldest sample count. */
	old = entry(w, 0);
	keep = (double)(w->size - (w->hints - old->hints)) / old->hints;
	*conv = ((double)(w->local - old->local) + old->local * keep) / w->size;
	return true;
}

unsigned long long window_hints(const struct conv_window *w)
{
	return w->hints < w->size ? w->hints : w->size;
}
