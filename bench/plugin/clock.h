/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.h - host time for the injected delay, without syscalls.
 *
 * On x86-64 with an invariant TSC the delay spins on rdtsc (a few ns per
 * read); elsewhere on clock_gettime(CLOCK_MONOTONIC), which the vDSO
 * serves without entering the kernel.  No pause instruction in the spin:
 * on recent cores one pause lasts ~40 ns, too coarse for 100 ns delays.
 */
#ifndef BNB_PLUGIN_CLOCK_H
#define BNB_PLUGIN_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t bnb_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

#if defined(__x86_64__)
static inline uint64_t bnb_ticks(void)
{
	return __builtin_ia32_rdtsc();
}
#else
static inline uint64_t bnb_ticks(void)
{
	return bnb_mono_ns();
}
#endif

/* bnb_ticks() per nanosecond, measured against CLOCK_MONOTONIC. */
double bnb_ticks_per_ns(void);

/*
 * Ticks between two back-to-back bnb_ticks() reads: the part of a spin its
 * own clock reads do not see.  The least of several batches' means, so a
 * preemption while measuring does not count.
 */
uint64_t bnb_ticks_read_cost(void);

#endif /* BNB_PLUGIN_CLOCK_H */
