/* SPDX-License-Identifier: GPL-2.0 */
/*
 * delay.h - how long a remote miss waits.
 *
 * A remote miss from node c to node m must cost distance(c, m) / 10 times
 * what a local miss costs the guest.  Under TCG the local cost is not a
 * constant: it is the emulator's own time per access, which grows several
 * times over with the working set (softmmu TLB refills, host cache
 * misses).  So by default the base is measured as the vCPU runs: an
 * exponentially weighted mean (weight 1/16) of the host time between the
 * starts of two consecutive access callbacks, minus the delay injected in
 * between, clamped to cap so that halts and host preemption do not leak
 * in.  A remote miss then waits base * (distance - 10) / 10.  For a
 * pointer chase, where each hop is one access, base is the local hop
 * time, so remote / local = distance / 10 at any working-set size.
 * A fixed base (base_ns=N) is available for experiments that want one.
 *
 * Spinning overshoots: the last clock read lands after the deadline, and
 * the reads themselves cost time the guest also sees (the plugin adds one
 * read's cost, measured at load, to what each spin measured).  So each
 * vCPU keeps the difference between the delay it owed and the delay it
 * waited, and the next spin settles it: injected time tracks owed time
 * over a run, not just on average per miss.  Credit is capped at one miss's delay so
 * that a host preemption in a spin does not cancel later delays.
 */
#ifndef BNB_PLUGIN_DELAY_H
#define BNB_PLUGIN_DELAY_H

#include <stdint.h>

#define BNB_DELAY_EWMA_SHIFT	4	/* weight 1/16: settles in ~50 accesses */
#define BNB_DELAY_MULT_SHIFT	8	/* mult is (distance - 10) / 10 in 1/256ths */

struct bnb_delay {
	uint64_t last;		/* start of the previous callback plus its delay */
	uint64_t ewma;		/* mean interval << EWMA_SHIFT, ticks */
	uint64_t cap;		/* longest interval believed, ticks */
	uint64_t fixed;		/* fixed base in ticks; 0 = measured */
	const uint32_t *mult;	/* per memory node, from this vCPU's node */
	int64_t debt;		/* owed minus waited so far, ticks */
};

/* (distance - 10) / 10 in 1/256ths */
static inline uint32_t bnb_delay_mult(unsigned int distance)
{
	return ((distance - 10) << BNB_DELAY_MULT_SHIFT) / 10;
}

/* Account the interval that ended at now (start of this access's callback). */
static inline void bnb_delay_observe(struct bnb_delay *d, uint64_t now)
{
	uint64_t iv = now - d->last;

	if (iv > d->cap)
		iv = d->cap;	/* also catches now < last after a TSC hiccup */
	d->ewma += iv - (d->ewma >> BNB_DELAY_EWMA_SHIFT);
	d->last = now;
}

static inline uint64_t bnb_delay_base(const struct bnb_delay *d)
{
	return d->fixed ? d->fixed : d->ewma >> BNB_DELAY_EWMA_SHIFT;
}

/* Ticks a miss to memory node must wait. */
static inline uint64_t bnb_delay_ticks(const struct bnb_delay *d, int node)
{
	return bnb_delay_base(d) * d->mult[node] >> BNB_DELAY_MULT_SHIFT;
}

/* Ticks to spin now for a miss that owes want. */
static inline uint64_t bnb_delay_owed(const struct bnb_delay *d, uint64_t want)
{
	int64_t owed = d->debt + (int64_t)want;

	return owed > 0 ? (uint64_t)owed : 0;
}

/* Settle a miss that owed want and spun for waited. */
static inline void bnb_delay_paid(struct bnb_delay *d, uint64_t want, uint64_t waited)
{
	int64_t debt = d->debt + (int64_t)want - (int64_t)waited;

	d->debt = debt < -(int64_t)want ? -(int64_t)want : debt;
}

#endif /* BNB_PLUGIN_DELAY_H */
