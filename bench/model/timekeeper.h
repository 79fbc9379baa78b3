/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timekeeper.h - parallel vCPUs under deterministic (icount) time.
 *
 * Under icount QEMU runs the vCPUs one after another on one host thread.
 * Stock icount moves the one virtual clock by 2^shift ns for every
 * instruction any of them executes, which makes a guest of n vCPUs a
 * time-sliced 1-CPU machine whose CPUs each run n times slower.  The
 * time keeper turns it back into a parallel one, and owns the clock to
 * do so: the plugin takes it off the instruction count at start
 * (qemu_plugin_take_virtual_clock(), bench/qemu patch 0008), so that
 * only the keeper's additions move it (and icount's warp over periods
 * when every vCPU is idle).  Each vCPU v has a local time
 *
 *	L_v = insns_v * insn_ps + stall_v + catchup_v
 *
 * (its own instructions at the modelled instruction time, the time other
 * parts of the plugin charge to it, and the idle time it skipped), and
 * the guest's clock is kept at the most advanced local time: after every
 * batch of instructions the plugin adds max_v L_v - G to the clock with
 * qemu_plugin_add_ns(), G being the keeper's view of the clock, the time
 * added so far.  So insn_ps is free, whatever the vCPU count: the machine
 * runs as hardware with instruction time hw_insn_ps slowed by the factor
 * D = insn_ps / hw_insn_ps, which the machine class chooses
 * (bench/model/README.md), down to the hardware's own (D = 1).  Before
 * the keeper owned the clock, icount moved it by every vCPU's
 * instructions and the keeper could only add, so insn_ps had to be at
 * least n_vcpus * 2^shift ns and D grew with the vCPU count.
 *
 * Between two syncs the clock stands: a guest reads it in steps of a
 * batch's time at most, and a timer fires at the first sync past it
 * (QEMU runs it then, at its own time).
 *
 * Idle time is the guest's own: when every vCPU halts, icount jumps the
 * clock to the next timer, outside G; the jump moves every local time
 * alike, so the keeper's relative additions stay right.  A vCPU that
 * resumes from idle catches up: L_v = max(L_v, G), the clock its timer
 * or a device's interrupt fired at.
 *
 * Wake-ups: a vCPU that another one woke (an IPI: a futex wake's
 * reschedule, a TLB shootdown, a function call) goes on from the
 * waker's local time at the wake instead, L_v = max(L_v, W), W being the
 * earliest wake since it halted (bnb_tk_wake()).  Round-robin lets the
 * waker run on before the woken vCPU gets its turn, and the clock is the
 * most advanced local time: catching up to G charged every wake-up the
 * time the waker (or the leader) ran on meanwhile, up to a quantum, where
 * hardware charges microseconds.  With the machine model the interrupt
 * also takes its class's delivery latency (ipi_ps, the hardware figure
 * times D): the woken vCPU goes on from W plus that.  A vCPU that spins
 * (below) when an interrupt is sent to it takes it at its next look, no
 * earlier than the send plus that latency.
 *
 * Interrupts for a busy vCPU: on hardware an interrupt sent to a running
 * CPU reaches it at the send plus the delivery (in the sender's time),
 * and it takes it at the first instruction boundary after that; a sender
 * that waits for the answer (smp_call_function() with wait, a TLB
 * shootdown) sees it only after that.  Round-robin TCG would have the
 * target take it at its next block, at its own local time, which is up
 * to a quantum before the send when it lags: the answer came back from
 * the past, with no delivery charged.  So when the target's local time
 * is before the arrival A, QEMU holds its interrupts (bench/qemu patch
 * 0007): it runs on, and its syncs are armed to come when its local time
 * reaches A (bnb_tk_insns_left(), and its stall budget), where
 * bnb_tk_sync() releases them and it takes the interrupt at
 * max(L_v, A).  A target already past A takes it at once, in its own
 * time.  A held vCPU that halts goes on from A instead, busy: the pending
 * interrupt wakes it at once (bnb_tk_idle()); one that spins goes on from
 * A at its next look.
 *
 * Spin-waits: a vCPU that executes PAUSE is waiting for another one (a
 * lock, an IPI's acknowledgement, a flag).  QEMU ends its turn there, but
 * the others' turns are long: a busy vCPU ran a whole batch (tens of us)
 * before the spinner looked again, and ran on past it, so the spinner
 * both fell behind without bound and saw the awaited write late on the
 * clock.  So after a PAUSE (bnb_tk_pause()) every other busy vCPU runs
 * only until it is a spin step (BNB_TK_SPIN_STEP_INSNS' time) past the
 * spinner, then syncs and yields, and the spinner syncs at its next
 * block, where it looks again: there it goes on from no earlier than the
 * slowest other busy vCPU (whatever it waits for was not written before
 * that vCPU's local time), and stops spinning.  Taking that time at the
 * PAUSE instead, before the others ran on, let the spinner see a write
 * from up to a step in its future: a spun-on hand-over between two vCPUs
 * came out at 15 instructions a round trip.  A vCPU that spins while no
 * other is busy waits for time alone (a delay loop, a timer): each look
 * takes it a spin step on, as the others' would.
 *
 * Lag: round-robin TCG lets a vCPU run a whole slice before the next one
 * gets its turn (an addition to the clock does not end it), so local
 * times would drift apart by up to a slice, and what one vCPU does would
 * reach the others in their past (a futex wake-up found its target still
 * in the idle loop, before its HLT, and it went on from its own earlier
 * time).  So bnb_tk_sync() asks the vCPU that just ran to yield (end its
 * turn) when it moved the clock, leading them all, while another vCPU is
 * busy, and when it leads the slowest busy vCPU by more than quantum_ps;
 * the lag is about a batch, at most a quantum and a batch, and the lag
 * seen at every sync is reported.  The quantum and the spin step are
 * counted in instructions' time (BNB_TK_QUANTUM_INSNS,
 * BNB_TK_SPIN_STEP_INSNS), so that they stand for the same hardware time
 * and the same host work whatever the instruction time.  A vCPU busy
 * alone never yields: idle vCPUs cost it no turn switches.
 * Stalls can be larger than a batch's instructions (a miss costs ~100
 * instructions' time): a vCPU syncs as soon as its stalls since its last
 * sync take it past a quantum's lead (bnb_tk_charge() says when), so that
 * a leader that stalls stops within a turn, not at its batch's end.
 *
 * Exactness: every quantity is an integer in picoseconds; the clock is
 * moved in whole nanoseconds and the remainder carried, so the time added
 * over a run equals max L - G to the nanosecond.  Charges are plain adds.
 *
 * No QEMU calls and no locking: under icount all vCPUs run on one host
 * thread, which is the only caller.  Unit-tested on hand-made instruction
 * streams (tests/unit/test_model_timekeeper.c).
 */
#ifndef BNB_MODEL_TIMEKEEPER_H
#define BNB_MODEL_TIMEKEEPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bnb_plugin_shm.h"

#define BNB_TK_PS_PER_NS	1000ULL
#define BNB_TK_MAX_SHIFT	10		/* icount's own limit */
#define BNB_TK_DEF_HW_INSN_PS	300		/* 0.3 ns: ~3.3 GHz at one instruction per cycle */
#define BNB_TK_MAX_INSN_PS	1000000		/* 1 us: D over 3000 */
/*
 * The lead over the slowest busy vCPU that makes a vCPU yield, in
 * instructions' time: 20 us at 2 ns.  The leader yields anyway (above);
 * the quantum bounds the others.  Without the leader's yield, at 100 us,
 * a lock handed between 64 vCPUs charged its waiters the holder's lead at
 * each hand-over: a single STREAM thread lost 37 ms in one convoy on the
 * guest kernel's SLOB lock (work_s 1.021 against 0.984 at 20 us).
 */
#define BNB_TK_QUANTUM_INSNS	10000
/*
 * A leader's stall budget after a sync is at least quantum / this, so
 * that the misses left in the block it yields from don't each sync again;
 * it still advances by at most that (and a batch) per turn.
 */
#define BNB_TK_BUDGET_FLOOR	8
/*
 * How far past a spinning vCPU the others run before they sync and let it
 * look again, in instructions' time: the granularity of a spin-wait's end
 * (1 us at 2 ns), against a turn switch every step while someone spins.
 */
#define BNB_TK_SPIN_STEP_INSNS	500

struct bnb_tk_params {
	unsigned int n_vcpus;
	uint64_t insn_ps;		/* modelled instruction time */
	uint64_t hw_insn_ps;		/* hardware instruction time, for D */
	uint64_t quantum_ps;		/* lead that makes a vCPU yield; 0: BNB_TK_QUANTUM_INSNS' */
	uint64_t ipi_ps;		/* an interrupt's delivery to another vCPU */
};

struct bnb_tk_vcpu {
	uint64_t insns;			/* instructions executed */
	uint64_t stall_ps;		/* charged with bnb_tk_charge() */
	uint64_t catchup_ps;		/* skipped when resuming from idle */
	uint64_t catchups;		/* resumes that had to catch up */
	uint64_t yields;		/* turns ended for leading too far */
	uint64_t budget_ps;		/* stall it may take before it must sync */
	uint64_t wake_ps;		/* earliest wake since it halted; BNB_TK_NO_WAKE */
	uint64_t irq_ps;		/* spinning or held: earliest interrupt's arrival, or that */
	uint64_t holds;			/* interrupts held for it until their arrival */
	uint64_t wakes;			/* resumes at a waker's time */
	uint64_t spin_ps;		/* skipped spinning behind the others, or alone */
	uint64_t pauses;		/* PAUSEs executed */
	bool idle;
	bool spinning;			/* paused since its last sync */
	bool held;			/* QEMU holds its interrupts until irq_ps */
};

#define BNB_TK_NO_WAKE		UINT64_MAX

struct bnb_timekeeper {
	struct bnb_tk_params p;		/* the quantum resolved */
	uint64_t spin_step_ps;		/* BNB_TK_SPIN_STEP_INSNS' time */
	uint64_t insns;			/* all vCPUs */
	uint64_t added_ps;		/* added to the clock, whole ns */
	uint64_t adds;			/* add requests made */
	uint64_t syncs;
	uint64_t lag_max_ps;		/* largest lag between busy vCPUs seen */
	uint64_t lag_sum_ps;		/* over syncs, for the mean */
	uint64_t idle_lead_ps;		/* the most advanced local time a vCPU halted at */
	/*
	 * The busy vCPUs, in no order: only their local times move, so the
	 * loops of a sync walk them alone (a guest of 64 vCPUs running one
	 * thread spent a quarter of its host time walking the idle ones).
	 */
	unsigned int busy[BNB_SHM_MAX_VCPUS];
	unsigned int busy_at[BNB_SHM_MAX_VCPUS];	/* v's index in busy[] */
	unsigned int n_busy;
	struct bnb_tk_vcpu v[BNB_SHM_MAX_VCPUS];
};

/* What bnb_tk_sync() asks of QEMU. */
struct bnb_tk_action {
	uint64_t add_ns;		/* qemu_plugin_add_ns() this much (0: none) */
	bool yield;			/* end this vCPU's turn (qemu_plugin_vcpu_yield()) */
	bool release;			/* release this vCPU's held interrupts */
};

/* What an interrupt one vCPU sends another asks of QEMU (bnb_tk_wake()). */
enum bnb_tk_irq {
	BNB_TK_IRQ_TAKEN,		/* nothing: it takes it in its own time */
	BNB_TK_IRQ_WAKES,		/* it was idle: the sender ends its turn */
	BNB_TK_IRQ_HOLD,		/* hold its interrupts until a sync releases them */
};

/* 0, or -1 with the reason in err: refuse before anything runs. */
int bnb_tk_check(const struct bnb_tk_params *p, char *err, size_t errlen);

/* Every vCPU starts idle: it catches up when it first runs. */
void bnb_tk_init(struct bnb_timekeeper *tk, const struct bnb_tk_params *p);

/* vCPU v executed n more instructions. */
static inline void bnb_tk_insns(struct bnb_timekeeper *tk, unsigned int v, uint64_t n)
{
	tk->v[v].insns += n;
	tk->insns += n;
}

/*
 * Charge ps of modelled time (a stall) to vCPU v's local time only.  True
 * when v must sync now (bnb_tk_sync()), not at its batch's end: its
 * stalls since its last sync took it past the lead a quantum allows (or
 * past a floor of a quantum / BNB_TK_BUDGET_FLOOR).  A vCPU that stalls
 * for a whole quantum within one batch would otherwise run ahead of the
 * others by that stall in every turn, faster than they catch up.
 */
static inline bool bnb_tk_charge(struct bnb_timekeeper *tk, unsigned int v, uint64_t ps)
{
	struct bnb_tk_vcpu *c = &tk->v[v];

	c->stall_ps += ps;
	if (ps < c->budget_ps) {
		c->budget_ps -= ps;
		return false;
	}
	c->budget_ps = 0;
	return true;
}

/*
 * v halts.  True when its interrupts were held: release them; the one
 * pending wakes it at once, so it stays busy and goes on from its arrival.
 */
bool bnb_tk_idle(struct bnb_timekeeper *tk, unsigned int v);
/*
 * v runs again.  The time another vCPU's wake-up started it from (the
 * earliest wake's send plus the delivery latency), or BNB_TK_NO_WAKE when
 * it was not idle or woke on its own (at the clock).
 */
uint64_t bnb_tk_resume(struct bnb_timekeeper *tk, unsigned int v);

/*
 * vCPU from, at its local time at_ps, raised an interrupt for vCPU to,
 * which arrives ipi_ps later.  BNB_TK_IRQ_WAKES when to is idle: it then
 * resumes at the earliest such arrival, not at the clock.  A spinning
 * vCPU takes it at its next look, no earlier than it arrives.  A busy one
 * whose local time is before the arrival: BNB_TK_IRQ_HOLD, QEMU holds its
 * interrupts until its sync at the earliest arrival releases them.
 * Otherwise (a busy vCPU past the arrival, or from == to)
 * BNB_TK_IRQ_TAKEN: it takes it in its own time.
 */
enum bnb_tk_irq bnb_tk_wake(struct bnb_timekeeper *tk, unsigned int from, unsigned int to,
			    uint64_t at_ps);

/*
 * vCPU v executed PAUSE: it spins, waiting for another vCPU, until its
 * next bnb_tk_sync(), where it looks again.
 */
void bnb_tk_pause(struct bnb_timekeeper *tk, unsigned int v);

/*
 * Instructions busy vCPU v may run before it must sync: until it is a spin
 * step past the least advanced spinning vCPU, or, held, until it reaches
 * its interrupt's arrival (0: at once); UINT64_MAX when neither.  The
 * QEMU side arms v's next sync with it after a PAUSE (for every other
 * vCPU), after a hold and after each of v's syncs.
 */
uint64_t bnb_tk_insns_left(const struct bnb_timekeeper *tk, unsigned int v);

/*
 * Instructions busy u may run before it is a spin step past v, which has
 * just executed PAUSE (0: at once): what arms the others' syncs then, in
 * one pass over them (any earlier spinner armed them already).
 */
uint64_t bnb_tk_insns_past(const struct bnb_timekeeper *tk, unsigned int u, unsigned int v);

/* After vCPU v's batch: what to add to the clock, whether to yield. */
struct bnb_tk_action bnb_tk_sync(struct bnb_timekeeper *tk, unsigned int v);

/* v's local time; inline: the machine model asks for it on every miss */
static inline uint64_t bnb_tk_local_ps(const struct bnb_timekeeper *tk, unsigned int v)
{
	const struct bnb_tk_vcpu *c = &tk->v[v];

	return c->insns * tk->p.insn_ps + c->stall_ps + c->catchup_ps + c->spin_ps;
}

/* The keeper's view of the clock, idle warps left out: what it added. */
static inline uint64_t bnb_tk_clock_ps(const struct bnb_timekeeper *tk)
{
	return tk->added_ps;
}

/* D = modelled / hardware instruction time, in thousandths. */
static inline uint64_t bnb_tk_dilation_milli(const struct bnb_tk_params *p)
{
	return (p->insn_ps * 1000 + p->hw_insn_ps / 2) / p->hw_insn_ps;
}

#endif /* BNB_MODEL_TIMEKEEPER_H */
