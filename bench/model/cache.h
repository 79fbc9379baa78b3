/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cache.h - a per-vCPU model cache deciding which accesses reach memory.
 *
 * Set-associative, 64-byte lines, true LRU kept by ordering each set's
 * tags most recent first.  Eight ways of 8-byte tags fill one host cache
 * line, so a lookup touches one line.  Only misses pay the remote delay:
 * a working set that fits stays free of emulated latency, as it would in
 * a real cache.
 */
#ifndef BNB_MODEL_CACHE_H
#define BNB_MODEL_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#define BNB_CACHE_LINE_SHIFT	6
#define BNB_CACHE_EMPTY		UINT64_MAX

struct bnb_cache {
	uint64_t *tags;		/* sets * ways line numbers, MRU first */
	uint64_t set_mask;
	unsigned int ways;
};

/* bytes / 64 / ways must be a power of two; returns -1 otherwise or on ENOMEM. */
int bnb_cache_init(struct bnb_cache *c, uint64_t bytes, unsigned int ways);
void bnb_cache_free(struct bnb_cache *c);

/*
 * Make line the most recent of set, whose first way is not it; true if
 * it was in the set (a hit), else the least recent line is evicted.
 */
static inline bool bnb_cache_set_touch(uint64_t *set, unsigned int ways, uint64_t line)
{
	unsigned int w;

	for (w = 1; w < ways; w++)
		if (set[w] == line)
			break;
	bool hit = w < ways;

	if (!hit)
		w = ways - 1;	/* evict the least recent */
	for (; w > 0; w--)
		set[w] = set[w - 1];
	set[0] = line;
	return hit;
}

/* Look addr up and make its line the most recent; true on a hit. */
static inline bool bnb_cache_access(struct bnb_cache *c, uint64_t addr)
{
	uint64_t line = addr >> BNB_CACHE_LINE_SHIFT;
	uint64_t *set = c->tags + (line & c->set_mask) * c->ways;

	if (set[0] == line)
		return true;
	return bnb_cache_set_touch(set, c->ways, line);
}

/*
 * The same lookup, with the default 8 ways' compares and LRU shift of a
 * miss written out: straight-line code instead of two loops over a count
 * read from memory (a loop with a constant count, or memmove(), became a
 * call to libc's memmove, slower).  Hits other than the first way and
 * other way counts take the loops.  Only the model's path uses it: see
 * access_line() in plugin.c for why wall timing keeps the loops.
 */
static inline bool bnb_cache_access_unrolled(struct bnb_cache *c, uint64_t addr)
{
	uint64_t line = addr >> BNB_CACHE_LINE_SHIFT;
	uint64_t *set = c->tags + (line & c->set_mask) * c->ways;

	if (set[0] == line)
		return true;
	if (c->ways != 8 || set[1] == line || set[2] == line || set[3] == line ||
	    set[4] == line || set[5] == line || set[6] == line || set[7] == line)
		return bnb_cache_set_touch(set, c->ways, line);
	set[7] = set[6];
	set[6] = set[5];
	set[5] = set[4];
	set[4] = set[3];
	set[3] = set[2];
	set[2] = set[1];
	set[1] = set[0];
	set[0] = line;
	return false;
}

#endif /* BNB_MODEL_CACHE_H */
