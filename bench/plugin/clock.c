// SPDX-License-Identifier: GPL-2.0
/* clock.c - measure the tick rate once, when the plugin loads. */
#include "clock.h"

#define CALIBRATE_NS 20000000ULL	/* 20 ms: rate within ~0.01 % */

double bnb_ticks_per_ns(void)
{
	uint64_t ns0 = bnb_mono_ns(), t0 = bnb_ticks(), ns1, t1;

	do {
		ns1 = bnb_mono_ns();
		t1 = bnb_ticks();
	} while (ns1 - ns0 < CALIBRATE_NS);
	return (double)(t1 - t0) / (double)(ns1 - ns0);
}

#define READ_BATCHES	32
#define READS_PER_BATCH	1024

uint64_t bnb_ticks_read_cost(void)
{
	uint64_t best = UINT64_MAX;

	for (int b = 0; b < READ_BATCHES; b++) {
		uint64_t t0 = bnb_ticks(), t = t0;

		for (int i = 0; i < READS_PER_BATCH; i++)
			t = bnb_ticks();
		if ((t - t0) / READS_PER_BATCH < best)
			best = (t - t0) / READS_PER_BATCH;
	}
	return best;
}
