// SPDX-License-Identifier: GPL-2.0
/* timekeeper.c - parallel vCPUs under icount; see timekeeper.h. */
#include <stdio.h>
#include <string.h>

#include "timekeeper.h"

int bnb_tk_check(const struct bnb_tk_params *p, char *err, size_t errlen)
{
	if (p->n_vcpus < 1 || p->n_vcpus > BNB_SHM_MAX_VCPUS)
		return snprintf(err, errlen, "time keeper: %u vCPUs; want 1..%d",
				p->n_vcpus, BNB_SHM_MAX_VCPUS), -1;
	if (!p->hw_insn_ps)
		return snprintf(err, errlen, "time keeper: hardware instruction time must be above 0"), -1;
	if (p->insn_ps < p->hw_insn_ps)
		return snprintf(err, errlen,
			"time keeper: modelled instruction time %llu ps is below the hardware's, %llu ps: D = %.3f, where the keeper runs the modelled machine at its own speed at the fastest (D = 1; the model's stalls and the classes' figures are that machine's)",
			(unsigned long long)p->insn_ps, (unsigned long long)p->hw_insn_ps,
			(double)p->insn_ps / p->hw_insn_ps), -1;
	if (p->insn_ps > BNB_TK_MAX_INSN_PS)
		return snprintf(err, errlen,
			"time keeper: modelled instruction time %llu ps is above %d ps",
			(unsigned long long)p->insn_ps, BNB_TK_MAX_INSN_PS), -1;
	return 0;
}

void bnb_tk_init(struct bnb_timekeeper *tk, const struct bnb_tk_params *p)
{
	memset(tk, 0, sizeof(*tk));
	tk->p = *p;
	if (!tk->p.quantum_ps)
		tk->p.quantum_ps = BNB_TK_QUANTUM_INSNS * p->insn_ps;
	tk->spin_step_ps = BNB_TK_SPIN_STEP_INSNS * p->insn_ps;
	for (unsigned int i = 0; i < p->n_vcpus; i++) {
		tk->v[i].idle = true;
		tk->v[i].wake_ps = BNB_TK_NO_WAKE;
		tk->v[i].irq_ps = BNB_TK_NO_WAKE;
	}
}

/* v leaves or joins the busy list. */
static void set_idle(struct bnb_timekeeper *tk, unsigned int v, bool idle)
{
	unsigned int at = tk->busy_at[v], last;

	if (tk->v[v].idle == idle)
		return;
	tk->v[v].idle = idle;
	if (!idle) {
		tk->busy_at[v] = tk->n_busy;
		tk->busy[tk->n_busy++] = v;
		return;
	}
	last = tk->busy[--tk->n_busy];
	tk->busy[at] = last;
	tk->busy_at[last] = at;
}

/*
 * An interrupt still pending when v halts wakes it at once in QEMU: it
 * goes on from that interrupt's arrival.
 */
bool bnb_tk_idle(struct bnb_timekeeper *tk, unsigned int v)
{
	struct bnb_tk_vcpu *c = &tk->v[v];
	uint64_t local = bnb_tk_local_ps(tk, v);

	c->spinning = false;
	if (c->held) {
		/*
		 * Its interrupt wakes it at once in QEMU: it stays busy, from
		 * the arrival.  Marked idle, the others ran on without yielding
		 * to it (busy alone) until their turns ended, up to 1 ms.
		 */
		if (c->irq_ps > local)
			c->catchup_ps += c->irq_ps - local;
		c->held = false;
		c->irq_ps = BNB_TK_NO_WAKE;
		c->wakes++;
		return true;
	}
	if (local > tk->idle_lead_ps)
		tk->idle_lead_ps = local;
	set_idle(tk, v, true);
	c->wake_ps = c->irq_ps;
	c->irq_ps = BNB_TK_NO_WAKE;
	return false;
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
	set_idle(tk, v, false);
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

/*
 * The busy vCPUs but v: the least local time of all, of those that work
 * (do not spin) and of those that spin; the greatest.  One pass a sync,
 * over the busy vCPUs only: only their local times move.
 */
struct others {
	uint64_t busy, working, spinning;	/* UINT64_MAX: none */
	uint64_t most;				/* 0: none */
};

static inline uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static struct others scan(const struct bnb_timekeeper *tk, unsigned int v)
{
	struct others o = { UINT64_MAX, UINT64_MAX, UINT64_MAX, 0 };

	for (unsigned int k = 0; k < tk->n_busy; k++) {
		unsigned int i = tk->busy[k];
		uint64_t l;

		if (i == v)
			continue;
		l = bnb_tk_local_ps(tk, i);
		o.busy = min64(o.busy, l);
		if (tk->v[i].spinning)
			o.spinning = min64(o.spinning, l);
		else
			o.working = min64(o.working, l);
		o.most = l > o.most ? l : o.most;
	}
	return o;
}

/*
 * The spread of busy vCPUs' local times (the others' and v's, local), for
 * the lag report; the most advanced local time of all, for the clock (an
 * idle vCPU's has not moved since it halted).
 */
static uint64_t note_lag(struct bnb_timekeeper *tk, unsigned int v, uint64_t local,
			 const struct others *o)
{
	uint64_t lo = o->busy, hi = o->most, lag;

	if (!tk->v[v].idle) {
		lo = min64(lo, local);
		hi = local > hi ? local : hi;
	}
	lag = lo != UINT64_MAX && hi > lo ? hi - lo : 0;
	tk->lag_sum_ps += lag;
	if (lag > tk->lag_max_ps)
		tk->lag_max_ps = lag;
	return hi > tk->idle_lead_ps ? hi : tk->idle_lead_ps;
}

void bnb_tk_pause(struct bnb_timekeeper *tk, unsigned int v)
{
	tk->v[v].pauses++;
	tk->v[v].spinning = true;
}

/*
 * Spinning v looks again, after the others ran: whatever it waits for
 * was not written before the slowest other busy vCPU's time, so it goes
 * on from no earlier than that, counting only the vCPUs that work (do
 * not spin themselves) when there are any: spinners write nothing while
 * they spin.  Counting them, a lock's 63 waiters on 64 vCPUs each went on
 * from another waiter's time, as far behind as itself, and the holder,
 * held to a spin step past the slowest of them, advanced 30 ns a round
 * of 64 turns.  An interrupt sent to it meanwhile ends the spin instead:
 * it goes on from the interrupt's arrival.  With no other vCPU busy it
 * can only wait for time to pass (a delay loop, a timer): it goes on a
 * spin step later.  Each look is a turn of QEMU's round-robin; a 10 ms
 * delay loop looked every 15 instructions, 330,000 turns at 2 ns an
 * instruction.
 */
static void look_again(struct bnb_timekeeper *tk, unsigned int v, const struct others *o)
{
	struct bnb_tk_vcpu *c = &tk->v[v];
	uint64_t local = bnb_tk_local_ps(tk, v);
	uint64_t from = o->working != UINT64_MAX ? o->working : o->busy;

	c->spinning = false;
	if (c->irq_ps != BNB_TK_NO_WAKE)
		from = c->irq_ps;
	else if (from == UINT64_MAX)
		from = local + tk->spin_step_ps;
	if (!c->held)		/* a held one's goes at the release */
		c->irq_ps = BNB_TK_NO_WAKE;
	if (from != UINT64_MAX && from > local)
		c->spin_ps += from - local;
}

/* Instructions from v's time until it reaches until_ps (0: there). */
static uint64_t insns_until(const struct bnb_timekeeper *tk, unsigned int v, uint64_t until_ps)
{
	uint64_t local = bnb_tk_local_ps(tk, v);

	if (local >= until_ps)
		return 0;
	return (until_ps - local + tk->p.insn_ps - 1) / tk->p.insn_ps;
}

/* Until v is a spin step past spinner_ps, a spinner's time; UINT64_MAX: none. */
static uint64_t spin_insns_left(const struct bnb_timekeeper *tk, unsigned int v,
				uint64_t spinner_ps)
{
	if (spinner_ps == UINT64_MAX)
		return UINT64_MAX;
	return insns_until(tk, v, spinner_ps + tk->spin_step_ps);
}

uint64_t bnb_tk_insns_past(const struct bnb_timekeeper *tk, unsigned int u, unsigned int v)
{
	return spin_insns_left(tk, u, bnb_tk_local_ps(tk, v));
}

uint64_t bnb_tk_insns_left(const struct bnb_timekeeper *tk, unsigned int v)
{
	uint64_t left = spin_insns_left(tk, v, scan(tk, v).spinning), held;

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
static uint64_t stall_budget(const struct bnb_timekeeper *tk, uint64_t local, uint64_t behind)
{
	uint64_t q = tk->p.quantum_ps, floor = q / BNB_TK_BUDGET_FLOOR;
	uint64_t limit = behind == UINT64_MAX ? local + q : behind + q;
	uint64_t budget = limit > local ? limit - local : 0;

	return budget > floor ? budget : floor;
}

struct bnb_tk_action bnb_tk_sync(struct bnb_timekeeper *tk, unsigned int v)
{
	struct bnb_tk_action act = { 0 };
	struct others o = scan(tk, v);		/* their times do not move here */
	uint64_t clock = bnb_tk_clock_ps(tk), lead, local;

	if (tk->v[v].spinning)
		look_again(tk, v, &o);
	local = bnb_tk_local_ps(tk, v);
	tk->syncs++;
	lead = note_lag(tk, v, local, &o);
	if (lead > clock) {
		act.add_ns = (lead - clock) / BNB_TK_PS_PER_NS;
		tk->added_ps += act.add_ns * BNB_TK_PS_PER_NS;
		tk->adds += act.add_ns != 0;
	}
	act.release = release(&tk->v[v], local);
	tk->v[v].budget_ps = stall_budget(tk, local, o.busy);
	hold_budget(tk, v);
	/*
	 * v moved the clock (it leads) while others are busy, leads the
	 * slowest other busy vCPU by more than a quantum, or a spinning one
	 * by a spin step: let them run.  Busy alone it runs on.
	 */
	if (!tk->v[v].idle && ((o.busy != UINT64_MAX &&
				(lead > clock || local > o.busy + tk->p.quantum_ps)) ||
			       !spin_insns_left(tk, v, o.spinning))) {
		act.yield = true;
		tk->v[v].yields++;
	}
	return act;
}
