// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <numaif.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "locality.h"

int wl_sample_init(struct wl_sample *s, unsigned int cap, pid_t pid)
{
	memset(s, 0, sizeof(*s));
	s->pages = calloc(cap, sizeof(*s->pages));
	s->status = calloc(cap, sizeof(*s->status));
	s->owner = calloc(cap, sizeof(*s->owner));
	if (!s->pages || !s->status || !s->owner) {
		wl_sample_free(s);
		return -1;
	}
	s->cap = cap;
	s->pid = pid;
	return 0;
}

void wl_sample_free(struct wl_sample *s)
{
	free(s->pages);
	free(s->status);
	free(s->owner);
	memset(s, 0, sizeof(*s));
}

unsigned int wl_sample_add(struct wl_sample *s, const void *base, size_t len,
			   unsigned int n, unsigned int first_owner, unsigned int owners)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t npages = len / page, i, idx;
	unsigned int added = 0;

	if (n > npages)
		n = (unsigned int)npages;
	if (n > s->cap - s->n)
		n = s->cap - s->n;
	if (!owners)
		owners = 1;
	for (i = 0; i < n; i++) {
		/* the middle of each of n equal stretches of the region */
		idx = (2 * i + 1) * npages / (2 * (size_t)n);
		s->pages[s->n] = (char *)base + idx * page;
		s->owner[s->n] = first_owner + (unsigned int)(idx * owners / npages);
		s->status[s->n] = -ENOENT;
		s->n++;
		added++;
	}
	return added;
}

int wl_sample_query(struct wl_sample *s)
{
	if (!s->n)
		return 0;
	if (move_pages(s->pid, s->n, s->pages, NULL, s->status, 0) < 0) {
		fprintf(stderr, "move_pages: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

void wl_sample_count(const struct wl_sample *s, const int *owner_node,
		     unsigned int *local, unsigned int *present)
{
	unsigned int i;
	int want;

	for (i = 0; i < s->n; i++) {
		if (s->status[i] < 0)
			continue;
		(*present)++;
		want = owner_node[s->owner[i]];
		*local += want < 0 || s->status[i] == want;
	}
}

double wl_sample_locality(const struct wl_sample *s, const int *owner_node)
{
	unsigned int present = 0, local = 0;

	wl_sample_count(s, owner_node, &local, &present);
	return present ? (double)local / present : NAN;
}

unsigned int wl_sample_moved(const struct wl_sample *s, const int *before)
{
	unsigned int i, moved = 0;

	for (i = 0; i < s->n; i++)
		moved += before[i] >= 0 && s->status[i] >= 0 && before[i] != s->status[i];
	return moved;
}
