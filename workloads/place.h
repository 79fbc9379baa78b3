/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Carrying out a placement scenario: where each worker group runs, where
 * it first touches its memory, and the memory policy of its region.
 */
#ifndef WL_PLACE_H
#define WL_PLACE_H

#include <stdbool.h>
#include <stddef.h>

#include "topo.h"

struct wl_where {
	int run;	/* node the group's workers run on, -1: anywhere */
	int mem;	/* node the group's memory should end up on, -1: none */
	int touch;	/* node to run on while first touching, -1: anywhere */
};

void wl_where(const struct wl_common *c, const struct wl_topo *topo,
	      unsigned int group, struct wl_where *w);

/* Anonymous memory, private or shared between processes; NULL on failure. */
void *wl_map(size_t bytes, bool shared);
void wl_unmap(void *p, size_t bytes);

/*
 * Give [p, p + bytes) the memory policy of the scenario before anything
 * touches it: bound to @mem_node for local and remote, interleaved over
 * all nodes for interleave, left alone for misplaced and free.
 */
int wl_bind_memory(void *p, size_t bytes, int placement, int mem_node,
		   const struct wl_topo *topo);

/* Run the calling thread on the CPUs of @node; -1 allows every CPU. */
int wl_run_on(int node);

/* Node of the CPU the calling thread is on now. */
int wl_current_node(void);

#endif
