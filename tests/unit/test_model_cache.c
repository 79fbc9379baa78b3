// SPDX-License-Identifier: GPL-2.0
/* The per-vCPU model cache: hits, LRU eviction, geometry checks. */
#include <criterion/criterion.h>

#include "model/cache.h"

static struct bnb_cache c;

static void fini(void)
{
	bnb_cache_free(&c);
}

Test(plugin_cache, rejects_bad_geometry)
{
	cr_assert_eq(bnb_cache_init(&c, 3 * 64 * 8, 8), -1, "3 sets is not a power of two");
	cr_assert_eq(bnb_cache_init(&c, 1000, 8), -1, "not whole lines");
	cr_assert_eq(bnb_cache_init(&c, 4096, 0), -1, "zero ways");
	cr_assert_eq(bnb_cache_init(&c, 0, 8), -1, "empty cache");
}

Test(plugin_cache, same_line_hits, .fini = fini)
{
	cr_assert_eq(bnb_cache_init(&c, 64 << 10, 8), 0);
	cr_assert_not(bnb_cache_access(&c, 0x1000));
	cr_assert(bnb_cache_access(&c, 0x1000));
	cr_assert(bnb_cache_access(&c, 0x103f), "same 64-byte line");
	cr_assert_not(bnb_cache_access(&c, 0x1040), "next line");
	cr_assert_not(bnb_cache_access(&c, 0), "address 0 is not a preloaded line");
	cr_assert(bnb_cache_access(&c, 0));
}

Test(plugin_cache, lru_within_a_set, .fini = fini)
{
	/* 4 sets x 2 ways: lines 0, 4, 8 share set 0 */
	const uint64_t a = 0 * 64, b = 4 * 64, d = 8 * 64;

	cr_assert_eq(bnb_cache_init(&c, 4 * 2 * 64, 2), 0);
	cr_assert_not(bnb_cache_access(&c, a));
	cr_assert_not(bnb_cache_access(&c, b));
	cr_assert(bnb_cache_access(&c, a), "a is now most recent");
	cr_assert_not(bnb_cache_access(&c, d), "evicts b, the least recent");
	cr_assert(bnb_cache_access(&c, a));
	cr_assert(bnb_cache_access(&c, d));
	cr_assert_not(bnb_cache_access(&c, b), "b was evicted");
	cr_assert_not(bnb_cache_access(&c, 64), "other set unaffected, cold");
}

/* A working set that fits never misses after the first pass; one twice the size always misses. */
static unsigned int misses_in_pass(uint64_t ws_bytes, int passes)
{
	unsigned int misses = 0;

	for (int p = 0; p < passes; p++) {
		misses = 0;
		for (uint64_t a = 0; a < ws_bytes; a += 64)
			misses += !bnb_cache_access(&c, a * 7919 % (64ULL << 30) & ~63ULL);
	}
	return misses;
}

Test(plugin_cache, resident_vs_streaming, .fini = fini)
{
	cr_assert_eq(bnb_cache_init(&c, 1 << 20, 8), 0);
	cr_assert_eq(misses_in_pass(512 << 10, 3), 0, "half-size working set is resident");
	bnb_cache_free(&c);
	cr_assert_eq(bnb_cache_init(&c, 1 << 20, 8), 0);
	cr_assert_eq(misses_in_pass(4 << 20, 3), (4 << 20) / 64, "LRU thrashes on 4x working set");
}

typedef bool (*access_fn)(struct bnb_cache *c, uint64_t addr);

/* Hits and the LRU order against a plain list, MRU first, for a geometry. */
static void matches_reference_lru(access_fn access, unsigned int sets, unsigned int ways)
{
	uint64_t ref[4][16], x = 88172645463325252ULL;
	unsigned int n[4] = { 0 };

	cr_assert_eq(bnb_cache_init(&c, (uint64_t)sets * ways * 64, ways), 0);
	for (int i = 0; i < 100000; i++) {
		uint64_t line, *r;
		unsigned int s, w;
		bool hit;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		line = x % (3 * ways * sets);	/* a working set of 3 x the cache */
		s = line % sets;
		r = ref[s];
		for (w = 0; w < n[s] && r[w] != line; w++)
			;
		hit = w < n[s];
		if (!hit)
			w = n[s] < ways ? n[s]++ : ways - 1;
		for (; w > 0; w--)
			r[w] = r[w - 1];
		r[0] = line;
		cr_assert_eq(access(&c, line * 64), hit, "access %d, line %llu", i,
			     (unsigned long long)line);
		for (w = 0; w < n[s]; w++)
			cr_assert_eq(c.tags[s * ways + w], r[w], "access %d, way %u", i, w);
	}
	bnb_cache_free(&c);
}

static const unsigned int way_counts[] = { 1, 2, 3, 7, 8, 16 };

/* every way count keeps true LRU */
Test(plugin_cache, lru_matches_a_reference_at_every_way_count)
{
	for (size_t i = 0; i < sizeof(way_counts) / sizeof(way_counts[0]); i++)
		matches_reference_lru(bnb_cache_access, 4, way_counts[i]);
}

/* the model's unrolled lookup keeps the same LRU, 8 ways included */
Test(plugin_cache, unrolled_lookup_matches_the_reference)
{
	for (size_t i = 0; i < sizeof(way_counts) / sizeof(way_counts[0]); i++)
		matches_reference_lru(bnb_cache_access_unrolled, 4, way_counts[i]);
}
