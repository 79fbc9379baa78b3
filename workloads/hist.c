// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "hist.h"

unsigned int wl_hist_bucket(uint64_t ns)
{
	unsigned int octave, sub;

	if (ns < 16)
		return (unsigned int)ns;
	octave = 63 - (unsigned int)__builtin_clzll(ns);	/* >= 4 */
	sub = (unsigned int)(ns >> (octave - 3)) & 7;
	return 16 + (octave - 4) * 8 + sub;
}

uint64_t wl_hist_floor(unsigned int bucket)
{
	unsigned int octave, sub;

	if (bucket < 16)
		return bucket;
	octave = (bucket - 16) / 8 + 4;
	sub = (bucket - 16) % 8;
	return (uint64_t)(8 + sub) << (octave - 3);
}

uint64_t wl_hist_percentile(const uint64_t *hist, double pct)
{
	uint64_t total = 0, seen = 0, rank;
	unsigned int b;

	for (b = 0; b < WL_HIST_BUCKETS; b++)
		total += hist[b];
	if (!total)
		return 0;
	rank = (uint64_t)ceil(pct / 100.0 * (double)total);
	if (rank < 1)
		rank = 1;
	for (b = 0; b < WL_HIST_BUCKETS; b++) {
		seen += hist[b];
		if (seen >= rank)
			return wl_hist_floor(b);
	}
	return wl_hist_floor(WL_HIST_BUCKETS - 1);
}
