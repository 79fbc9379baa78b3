/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hotcold: random accesses to a working set of which a hot set takes most
 * of them, pmbench-style, laid out so that the hot set starts in slow
 * (CPU-less, CXL) memory: what memory tiering has to promote. This file
 * is the program as data and arithmetic: the options, their checks with
 * and without a topology, the layout and the choice of each access;
 * hotcold.c runs it, the unit tests hold this part without a NUMA machine.
 *
 * The working set is --size bytes; the hot set is the window of
 * --hot-size bytes at window w (bytes [w * hot, (w + 1) * hot)), w = 0 at
 * the start and w + 1 (wrapping) after every --move-s seconds. Bytes
 * [0, --slow-size) are first touched on the slow node, the rest on the
 * workers' node; by default --slow-size is the hot set, so the whole hot
 * set starts in slow memory and every cold page in fast memory.
 */
#ifndef WL_HOTCOLD_PLAN_H
#define WL_HOTCOLD_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opts.h"

#define HOTCOLD_LINE		64
/* --slow-size not given: the hot set's size */
#define HOTCOLD_SLOW_DERIVED	UINT64_MAX

struct hotcold_cfg {
	struct wl_common com;		/* size, threads, node, iterations,
					 * locality_every, samples */
	uint64_t hot_size;
	uint64_t slow_size;		/* HOTCOLD_SLOW_DERIVED: hot_size */
	int hot_pct;			/* accesses that go to the hot set, % */
	int slow_node;			/* -1: the first node with memory and no CPUs */
	double move_s;			/* 0: the hot set never moves */
	unsigned int interval_ms;
	int seed;
	bool thp;			/* leave transparent huge pages on */
};

/* The command line: the options of struct hotcold_cfg, --help, --help=markdown. */
extern const struct opt_tool hotcold_tool;

/* Set the fields whose default is derived, before the option rows' defaults. */
void hotcold_init(struct hotcold_cfg *c);

/* The checks that need no topology. */
int hotcold_check(const struct hotcold_cfg *c, char *err, size_t errlen);

/*
 * Against @topo: derive the slow node, --slow-size and the thread count
 * (every CPU of --node) and check that --node has CPUs, that the slow
 * node has memory and no CPUs, and that each holds its share of the
 * working set.
 */
int hotcold_resolve(struct hotcold_cfg *c, const struct wl_topo *topo, char *err,
		    size_t errlen);

/* Windows of the hot set's size in the working set: where it can move. */
uint64_t hotcold_windows(const struct hotcold_cfg *c);

/* One thread's random numbers: xorshift64*, never 0. */
static inline uint64_t hotcold_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* Thread @t's first state: different for every thread and seed, never 0. */
uint64_t hotcold_seed(int seed, unsigned int t);

/*
 * The access of random number @r: a byte offset into the working set of
 * @lines lines, in the hot window [@hot_first, @hot_first + @hot_lines)
 * with probability @hot_thresh / 2^32, else in a line outside it.
 */
static inline uint64_t hotcold_pick(uint64_t r, uint64_t hot_thresh, uint64_t lines,
				    uint64_t hot_first, uint64_t hot_lines)
{
	uint64_t high = r >> 32, idx;

	if ((r & 0xffffffffull) < hot_thresh || hot_lines == lines)
		idx = hot_first + ((high * hot_lines) >> 32);
	else
		idx = (hot_first + hot_lines + ((high * (lines - hot_lines)) >> 32)) % lines;
	return idx * HOTCOLD_LINE;
}

/* The threshold of hotcold_pick() for --hot-pct @pct. */
uint64_t hotcold_threshold(int pct);

#endif
