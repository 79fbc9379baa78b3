// SPDX-License-Identifier: GPL-2.0
/* timekeeper.c - parallel vCPUs under icount; see timekeeper.h. */
#include <stdio.h>
#include <string.h>

#include "timekeeper.h"

int bnb_tk_check(const struct bnb_tk_params *p, char *err, size_t errlen)
{
	uint64_t least;

	if (p->n_vcpus < 1 || p->n_vcpus > BNB_SHM_MAX_VCPUS)
		return snprintf(err, errlen, "time keeper: %u vCPUs; want 1..%d",
				p->n_vcpus, BNB_SHM_MAX_VCPUS), -1;
	if (p->shift > BNB_TK_MAX_SHIFT)
		return snprintf(err, errlen, "time keeper: icount shift %u; want 0..%d",
				p->shift, BNB_TK_MAX_SHIFT), -1;
	least = (uint64_t)p->n_vcpus * (BNB_TK_PS_PER_NS << p->shift);
	if (p->insn_ps < least)
		return snprintf(err, errlen,
			"time keeper: modelled instruction time %llu ps is below what %u vCPUs allow under icount shift %u: at least %u x 2^%u ns = %llu ps (the clock cannot go back)",
			(unsigned long long)p->insn_ps, p->n_vcpus, p->shift,
			p->n_vcpus, p->shift, (unsigned long long)least), -1;
	if (!p->hw_insn_ps)
		return snprintf(err, errlen, "time keeper: hardware instruction time must be above 0"), -1;
	if (!p->quantum_ps)
		return snprintf(err, errlen, "time keeper: quantum must be above 0"), -1;
	return 0;
}

void bnb_tk_init(struct bnb_timekeeper *tk, const struct bnb_tk_params *p)
{
	memset(tk, 0, sizeof(*tk));
	tk->p = *p;
	tk->icount_ps = BNB_TK_PS_PER_NS << p->shift;
	for (unsigned int i = 0; i < p->n_vcpus; i++) {
		tk->v[i].idle = true;
		tk->v[i].wake_ps = BNB_TK_NO_WAKE;
		tk->v[i].irq_ps = BNB_TK_NO_WAKE;
	}
}

/*
 * An interrupt still pending when v halts wakes it at once in QEMU: it
 * goes on from that interrupt's arrival.
 */
bool bnb_tk_idle(struct bnb_timekeeper *tk, unsigned int v)
{
	struct bnb_tk_vcpu *c = &tk->v[v];
	bool held = c->held;

	c->idle = true;
	c->spinning = false;
	c->held = false;
	c->wake_ps = c->irq_ps;
	c->irq_ps = BNB_TK_NO_WAKE;
	return held;
}

/* Held v: a stall that takes it to its interrupt's arrival syncs there. */
static void hold_budget(struct bnb_timekeeper *tk, unsigned int v)
{
	struct bnb_tk_vcpu *c = &tk->v[v];
	uint64_t local = bnb_tk_local_ps(tk, v);
	uint64_t left = c->irq_ps > local ? c->irq_ps - local : 0;

	if (c->held && left < c->budget_ps)
		c->budget_ps = left;
}

enum bnb_tk_irq bnb_tk_wake(struct bnb_timekeeper *tk, unsigned int from, unsigned int to,
			    uint64_t at_ps)
{
	struct bnb_tk_vcpu *c = &tk->v[to];
	uint64_t arrives = at_ps + tk->p.ipi_ps;

	if (from == to)
		return BNB_TK_IRQ_TAKEN;
	if (c->idle) {
		if (arrives < c->wake_ps)
			c->wake_ps = arrives;
		return BNB_TK_IRQ_WAKES;
	}
	if (c->spinning) {
		if (arrives < c->irq_ps)
			c->irq_ps = arrives;
		return BNB_TK_IRQ_TAKEN;
	}
	if (!c->held && arrives <= bnb_tk_local_ps(tk, to))
		return BNB_TK_IRQ_TAKEN;
	/* held already: QEMU holds them all until the earliest arrival */
	if (arrives < c->irq_ps)
		c->irq_ps = arrives;
	c->held = true;
	c->holds++;
	hold_budget(tk, to);
	return BNB_TK_IRQ_HOLD;
}

/*
 * Idle time passed at the clock's pace: start again from the time of the
 * wake-up, a waker's local time if another vCPU woke v, else the clock
 * (v's timer, a device's interrupt).
 */
uint64_t bnb_tk_resume(struct bnb_timekeeper *tk, unsigned int v)
{
	struct bnb_tk_vcpu *c = &tk->v[v];
	uint64_t from = bnb_tk_clock_ps(tk), woken = c->wake_ps, local;

	if (!c->idle)
		return BNB_TK_NO_WAKE;
	c->idle = false;
	if (woken != BNB_TK_NO_WAKE) {
		from = woken;
		c->wake_ps = BNB_TK_NO_WAKE;
		c->wakes++;
	}
	local = bnb_tk_local_ps(tk, v);
	if (local < from) {
		c->catchup_ps += from - local;
		c->catchups++;
	}
	return woken;
}

/* The spread of busy vCPUs' local times, for the lag report. */
static void note_lag(struct bnb_timekeeper *tk)
{
	uint64_t lo = UINT64_MAX, hi = 0, lag;

	for (unsigned int i = 0; i < tk->p.n_vcpus; i++) {
		uint64_t l = bnb_tk_local_ps(tk, i);

		if (tk->v[i].idle)
			continue;
		lo = l < lo ? l : lo;
		hi = l > hi ? l : hi;
	}
	lag = hi > lo ? hi - lo : 0;
	tk->lag_sum_ps += lag;
	if (lag > tk->lag_max_ps)
		tk->lag_max_ps = lag;
}

/* The slowest busy vCPU's local time, v left out; UINT64_MAX if none. */
static uint64_t slowest_other(const struct bnb_timekeeper *tk, unsigned int v)
{
	uint64_t slowest = UINT64_MAX;

	for (unsigned int i = 0; i < tk->p.n_vcpus; i++) {
		uint64_t l = bnb_tk_local_ps(tk, i);

		if (i != v && !tk->v[i].idle && l < slowest)
			slowest = l;
	}
	return slowest;
}

void bnb_tk_pause(struct bnb_timekeeper *tk, unsigned int v)
{
	tk->v[v].pauses++;
	tk->v[v].spinning = true;
}

/*
 * Spinning v looks again, after the others ran: whatever it waits for
 * was not written before the slowest other busy vCPU's time, so it goes
 * on from no earlier than that.  An interrupt sent to it meanwhile ends
 * the spin instead: it goes on from the interrupt's arrival.
 */
static void look_again(struct bnb_timekeeper *tk, unsigned int v)
{
	struct bnb_tk_vcpu *c = &tk->v[v];
	uint64_t local = bnb_tk_local_ps(tk, v), from = slowest_other(tk, v);

	c->spinning = false;
	if (c->irq_ps != BNB_TK_NO_WAKE)
		from = c->irq_ps;
	if (!c->held)		/* a held one's goes at the release */
		c->irq_ps = BNB_TK_NO_WAKE;
	if (from != UINT64_MAX && from > local)
		c->spin_ps += from - local;
}

/* The least advanced spinning vCPU's local time, v left out; UINT64_MAX if none. */
static uint64_t slowest_spinner(const struct bnb_timekeeper *tk, unsigned int v)
{
	uint64_t slowest = UINT64_MAX;

	for (unsigned int i = 0; i < tk->p.n_vcpus; i++) {
		uint64_t l = bnb_tk_local_ps(tk, i);

		if (i != v && tk->v[i].spinning && l < slowest)
			slowest = l;
	}
	return slowest;
}

/* Instructions from v's time until it reaches until_ps (0: there). */
static uint64_t insns_until(const struct bnb_timekeeper *tk, unsigned int v, uint64_t until_ps)
{
	uint64_t local = bnb_tk_local_ps(tk, v);

	if (local >= until_ps)
		return 0;
	return (until_ps - local + tk->p.insn_ps - 1) / tk->p.insn_ps;
}

/* Until v is a spin step past the least advanced spinner; UINT64_MAX: none. */
static uint64_t spin_insns_left(const struct bnb_timekeeper *tk, unsigned int v)
{
	uint64_t spinner = slowest_spinner(tk, v);

	if (spinner == UINT64_MAX)
		return UINT64_MAX;
	return insns_until(tk, v, spinner + BNB_TK_SPIN_STEP_PS);
}

uint64_t bnb_tk_insns_left(const struct bnb_timekeeper *tk, unsigned int v)
{
	uint64_t left = spin_insns_left(tk, v), held;

	if (!tk->v[v].held)
		return left;
	held = insns_until(tk, v, tk->v[v].irq_ps);
	return held < left ? held : left;
}

/* Held v reached its interrupt's arrival: QEMU may deliver it. */
static bool release(struct bnb_tk_vcpu *c, uint64_t local)
{
	if (!c->held || local < c->irq_ps)
		return false;
	c->held = false;
	c->irq_ps = BNB_TK_NO_WAKE;
	return true;
}

/*
 * The stall v may take before it syncs again: what keeps it within a
 * quantum of the slowest (others only move on meanwhile, so it is never
 * too much), at least the floor.
 */
static uint64_t stall_budget(const struct bnb_timekeeper *tk, uint64_t local, uint64_t slowest)
{
	uint64_t q = tk->p.quantum_ps, floor = q / BNB_TK_BUDGET_FLOOR;
	uint64_t limit = slowest == UINT64_MAX ? local + q : slowest + q;
	uint64_t budget = limit > local ? limit - local : 0;

	return budget > floor ? budget : floor;
}

struct bnb_tk_action bnb_tk_sync(struct bnb_timekeeper *tk, unsigned int v)
{
	struct bnb_tk_action act = { 0 };
	uint64_t clock = bnb_tk_clock_ps(tk), lead = 0, local, slowest;

	if (tk->v[v].spinning)
		look_again(tk, v);
	local = bnb_tk_local_ps(tk, v);
	slowest = slowest_other(tk, v);
	for (unsigned int i = 0; i < tk->p.n_vcpus; i++) {
		uint64_t l = bnb_tk_local_ps(tk, i);

		lead = l > lead ? l : lead;
	}
	tk->syncs++;
	note_lag(tk);
	if (lead > clock) {
		act.add_ns = (lead - clock) / BNB_TK_PS_PER_NS;
		tk->added_ps += act.add_ns * BNB_TK_PS_PER_NS;
		tk->adds += act.add_ns != 0;
	}
	act.release = release(&tk->v[v], local);
	tk->v[v].budget_ps = stall_budget(tk, local, slowest);
	hold_budget(tk, v);
	/*
	 * v leads the slowest other busy vCPU by more than a quantum, or a
	 * spinning one by a spin step: let them run
	 */
	if (!tk->v[v].idle && ((slowest != UINT64_MAX && local > slowest + tk->p.quantum_ps) ||
			       !spin_insns_left(tk, v))) {
		act.yield = true;
		tk->v[v].yields++;
	}
	return act;
}
