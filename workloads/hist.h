/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A latency histogram with buckets of 1/8 octave: exact below 16 ns, then
 * eight buckets per power of two, so percentiles are within 12.5 %.
 */
#ifndef WL_HIST_H
#define WL_HIST_H

#include <stdint.h>

#define WL_HIST_BUCKETS 496

unsigned int wl_hist_bucket(uint64_t ns);
/* The smallest value that falls in @bucket. */
uint64_t wl_hist_floor(unsigned int bucket);
/*
 * The @pct percentile (0 < pct <= 100) of the counts in @hist, as the
 * floor of its bucket; 0 when the histogram is empty.
 */
uint64_t wl_hist_percentile(const uint64_t *hist, double pct);

#endif
