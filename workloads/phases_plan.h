/* SPDX-License-Identifier: GPL-2.0 */
/*
 * phases: threads that move to another node every phase while their
 * memory stays, so that every phase but the first starts all remote and
 * NUMA balancing has to bring the pages after them. This file is the
 * program as data and arithmetic: the options, their checks (with and
 * without a topology), which node a thread runs on in which phase, and
 * the buffer's update and check. phases.c runs it; the unit tests hold
 * this part without a NUMA machine.
 *
 * Thread t starts on nodes[t % N] of the --nodes list (N entries) and
 * first touches its private buffer there; in phase p it runs on
 * nodes[(t + p) % N]. Phase 0 is therefore all local and every later one
 * starts all remote (N >= 2).
 *
 * Each pass reads and writes every 8-byte word of the buffer (x = K - x),
 * so after u updates a word holds its first value (u even) or K minus it
 * (u odd): the buffer can be checked exactly whatever the number of
 * passes, even when a phase ended in the middle of one.
 */
#ifndef WL_PHASES_PLAN_H
#define WL_PHASES_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opts.h"

/* An ordered list of nodes; n == 0: not given. */
struct wl_nodelist {
	int n;
	int node[WL_MAX_NODES];
};

struct phases_cfg {
	struct wl_common com;		/* size (per thread), threads (0: one per
					 * listed node), locality_every, samples */
	unsigned int interval_ms;
	int phases;
	double phase_s;			/* seconds per phase, 0: not given */
	int phase_passes;		/* passes per phase, 0: not given */
	struct wl_nodelist nodes;	/* rotation order; empty: every node */
};

/* The command line: the options of struct phases_cfg, --help, --help=markdown. */
extern const struct opt_tool phases_tool;

/* Bytes a word update moves: one read and one write of 8 bytes. */
#define PHASES_BYTES_PER_WORD 16

/* "0,2,1" or ranges "0-3": nodes in the order given, no repeats. */
int phases_parse_nodes(const char *text, struct wl_nodelist *list, char *err, size_t errlen);

/* "0,1,2" */
void phases_format_nodes(const struct wl_nodelist *list, char *buf, size_t len);

/* The checks that need no topology: what a host can say about argv. */
int phases_check(const struct phases_cfg *c, char *err, size_t errlen);

/*
 * Against @topo: fill the node list (every node with memory and CPUs)
 * and the thread count (one per listed node) when not given, and check
 * that each listed node exists with CPUs and memory, that no node runs
 * more threads than it has CPUs, and that each holds its threads' buffers.
 */
int phases_resolve(struct phases_cfg *c, const struct wl_topo *topo, char *err, size_t errlen);

/* The node thread @t runs on in phase @p. */
int phases_node(const struct phases_cfg *c, unsigned int t, unsigned int p);

/* The buffer's first contents, different for every thread. */
void phases_fill(uint64_t *x, size_t n, unsigned int t);

/* One update of words [from, to). */
void phases_update(uint64_t *x, size_t from, size_t to);

/*
 * Words of thread @t's buffer of @n words that do not hold what
 * @updates word updates in order (pass after pass from word 0) leave.
 */
size_t phases_wrong(const uint64_t *x, size_t n, unsigned int t, uint64_t updates);

#endif
