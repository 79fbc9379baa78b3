// SPDX-License-Identifier: GPL-2.0
/*
 * The time keeper on hand-made instruction streams.  A small model of
 * round-robin icount with the clock taken off the instruction count
 * (bench/qemu patch 0008) drives it the way QEMU does: a vCPU runs a turn
 * in batches, only the keeper's additions move the clock, and a turn ends
 * early when the keeper asks the vCPU to yield.  When every vCPU is idle
 * the clock jumps (icount's warp).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/timekeeper.h"

#define BATCH	1000

struct sim {
	struct bnb_timekeeper tk;
	uint64_t clock_ns;		/* QEMU's virtual clock */
	uint64_t turns_cut;		/* turns ended by a yield */
};

static struct sim s;

static void sim_init(unsigned int n, uint64_t insn_ps, uint64_t quantum_ps)
{
	struct bnb_tk_params p = {
		.n_vcpus = n, .insn_ps = insn_ps,
		.hw_insn_ps = BNB_TK_DEF_HW_INSN_PS, .quantum_ps = quantum_ps,
	};
	char err[256];

	cr_assert_eq(bnb_tk_check(&p, err, sizeof(err)), 0, "%s", err);
	memset(&s, 0, sizeof(s));
	bnb_tk_init(&s.tk, &p);
}

/* vCPU v runs up to budget instructions; returns how many it ran. */
static uint64_t sim_turn(unsigned int v, uint64_t budget)
{
	uint64_t done = 0;

	bnb_tk_resume(&s.tk, v);	/* a no-op unless v was idle */
	while (done < budget) {
		uint64_t b = budget - done < BATCH ? budget - done : BATCH;
		struct bnb_tk_action a;

		bnb_tk_insns(&s.tk, v, b);
		done += b;
		a = bnb_tk_sync(&s.tk, v);
		s.clock_ns += a.add_ns;
		if (a.yield) {
			s.turns_cut++;
			break;
		}
	}
	return done;
}

/* All of v's n instructions, in turns of at most slice. */
static void sim_run(unsigned int v, uint64_t n, uint64_t slice)
{
	while (n)
		n -= sim_turn(v, n < slice ? n : slice);
}

/* The first k vCPUs start together (at the clock), as a program's threads. */
static void sim_start(unsigned int k)
{
	for (unsigned int v = 0; v < k; v++)
		bnb_tk_resume(&s.tk, v);
}

/*
 * Round-robin over the first k vCPUs, started together, until each ran n
 * instructions.
 */
static void sim_rr(unsigned int k, uint64_t n, uint64_t slice)
{
	uint64_t left[BNB_SHM_MAX_VCPUS];
	bool more = true;

	sim_start(k);
	for (unsigned int v = 0; v < k; v++)
		left[v] = n;
	while (more) {
		more = false;
		for (unsigned int v = 0; v < k; v++) {
			if (!left[v])
				continue;
			left[v] -= sim_turn(v, left[v] < slice ? left[v] : slice);
			more |= left[v] != 0;
		}
	}
}

static uint64_t local_ns(unsigned int v)
{
	return bnb_tk_local_ps(&s.tk, v) / BNB_TK_PS_PER_NS;
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

TestSuite(plugin_timekeeper);

/*
 * The keeper owns the clock: any instruction time from the hardware's up
 * is honoured, whatever the vCPU count (before, at least vCPUs x 2^shift
 * ns: 2 ns for 2 vCPUs, 128 ns for 64).
 */
Test(plugin_timekeeper, instruction_time_is_free_of_the_vcpu_count)
{
	struct bnb_tk_params p = {
		.n_vcpus = 64, .insn_ps = 300, .hw_insn_ps = 300,
	};
	char err[256];

	cr_assert_eq(bnb_tk_check(&p, err, sizeof(err)), 0, "64 vCPUs at D = 1: %s", err);
	p.n_vcpus = BNB_SHM_MAX_VCPUS;
	cr_assert_eq(bnb_tk_check(&p, err, sizeof(err)), 0, "%s", err);
	p.n_vcpus = BNB_SHM_MAX_VCPUS + 1;
	cr_assert_eq(bnb_tk_check(&p, err, sizeof(err)), -1);
	cr_assert(strstr(err, "want 1..256"), "%s", err);
	p.n_vcpus = 2;
	p.insn_ps = 299;
	cr_assert_eq(bnb_tk_check(&p, err, sizeof(err)), -1, "faster than the hardware");
	cr_assert(strstr(err, "299 ps is below the hardware's, 300 ps: D = 0.997"), "%s", err);
	p.insn_ps = BNB_TK_MAX_INSN_PS + 1;
	cr_assert_eq(bnb_tk_check(&p, err, sizeof(err)), -1);
	p.insn_ps = 2000;
	p.hw_insn_ps = 0;
	cr_assert_eq(bnb_tk_check(&p, err, sizeof(err)), -1, "D needs a hardware time");
}

Test(plugin_timekeeper, dilation)
{
	struct bnb_tk_params p = { .insn_ps = 2000, .hw_insn_ps = 300 };

	cr_assert_eq(bnb_tk_dilation_milli(&p), 6667, "2 ns / 0.3 ns");
}

/* One thread on a 2-vCPU machine runs at the modelled instruction time. */
Test(plugin_timekeeper, one_busy_vcpu_runs_at_the_modelled_time)
{
	sim_init(2, 3000, 0);
	sim_run(0, 1000000, 50000);
	cr_assert_eq(s.clock_ns, 3000000, "1e6 instructions x 3 ns, got %llu",
		     (unsigned long long)s.clock_ns);
	cr_assert_eq(local_ns(0), s.clock_ns);
	cr_assert_eq(local_ns(1), 0, "the idle vCPU did nothing");
}

/* Two threads on two vCPUs take the time of one: they ran in parallel. */
Test(plugin_timekeeper, two_busy_vcpus_run_in_parallel)
{
	sim_init(2, 3000, 0);
	sim_rr(2, 1000000, 20000);
	cr_assert_leq(absdiff(s.clock_ns, 3000000), BATCH * 3,
		      "clock %llu ns, want 3e6 within a batch",
		      (unsigned long long)s.clock_ns);
	cr_assert_leq(absdiff(local_ns(0), local_ns(1)), BATCH * 3,
		      "same work, same local time, but for vCPU 1 starting a batch later");
}

/* Four vCPUs at the hardware's instruction time (D = 1). */
Test(plugin_timekeeper, four_vcpus_at_the_hardwares_instruction_time)
{
	sim_init(4, 300, 0);
	sim_rr(4, 250000, 10000);
	cr_assert_leq(absdiff(s.clock_ns, 250000ULL * 300 / 1000), 10000 * 300 / 1000,
		      "clock %llu ns, want 75 us within a slice",
		      (unsigned long long)s.clock_ns);
}

/*
 * One thread's time is the same on any number of vCPUs: the idle ones
 * move nothing (before, icount moved the clock by every vCPU's
 * instructions and D had to grow with the vCPU count).
 */
Test(plugin_timekeeper, one_thread_takes_the_same_time_on_any_vcpu_count)
{
	static const unsigned int counts[] = { 1, 2, 8, 64, BNB_SHM_MAX_VCPUS };

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		sim_init(counts[i], 300, 0);
		sim_run(0, 3000000, 400000);
		cr_assert_eq(s.clock_ns, 900000, "%u vCPUs: %llu ns, want 3e6 x 0.3 ns",
			     counts[i], (unsigned long long)s.clock_ns);
		cr_assert_eq(s.turns_cut, 0, "%u vCPUs: busy alone, it never yields", counts[i]);
	}
}

/*
 * The yield quantum and the spin step are instructions' time: the same
 * hardware time (and host work) at any D: 20 us and 1 us at 2 ns.
 */
Test(plugin_timekeeper, quantum_and_spin_step_follow_the_instruction_time)
{
	sim_init(2, 300, 0);
	cr_assert_eq(s.tk.p.quantum_ps, BNB_TK_QUANTUM_INSNS * 300ULL);
	cr_assert_eq(s.tk.spin_step_ps, BNB_TK_SPIN_STEP_INSNS * 300ULL);
	sim_init(2, 2000, 0);
	cr_assert_eq(s.tk.p.quantum_ps, 20000 * BNB_TK_PS_PER_NS, "20 us at 2 ns");
	cr_assert_eq(s.tk.spin_step_ps, 1000 * BNB_TK_PS_PER_NS, "1 us at 2 ns");
	sim_init(2, 2000, 7 * BNB_TK_PS_PER_NS);
	cr_assert_eq(s.tk.p.quantum_ps, 7 * BNB_TK_PS_PER_NS, "a quantum given stands");
}

Test(plugin_timekeeper, idle_vcpu_catches_up_when_it_resumes)
{
	sim_init(2, 2000, 0);
	sim_run(0, 500000, 50000);		/* vCPU 1 idle meanwhile */
	cr_assert_eq(s.clock_ns, 1000000);
	sim_turn(1, 1000);			/* vCPU 1 wakes up */
	sim_turn(0, 1000);
	sim_rr(2, 499000, 20000);
	cr_assert_eq(s.tk.v[1].catchups, 1);
	cr_assert_eq(s.tk.v[1].catchup_ps, 1000000 * BNB_TK_PS_PER_NS,
		     "it skipped the 1 ms it was idle");
	cr_assert_leq(absdiff(s.clock_ns, 2000000), 20000,
		      "then both ran 0.5e6 in parallel: clock %llu ns",
		      (unsigned long long)s.clock_ns);
	cr_assert_leq(absdiff(local_ns(0), local_ns(1)), 0, "%llu vs %llu",
		      (unsigned long long)local_ns(0), (unsigned long long)local_ns(1));
}

/*
 * A vCPU whose local time is the clock idles and resumes before the clock
 * moved: it skips nothing.  A vCPU behind the clock that idles resumes at
 * the clock: it halted at its own local time and woke at the clock's.
 */
Test(plugin_timekeeper, idle_skips_only_what_the_clock_moved)
{
	sim_init(2, 2000, 0);
	sim_run(0, 100000, 10000);
	cr_assert_eq(local_ns(0), s.clock_ns);
	bnb_tk_idle(&s.tk, 0);
	sim_turn(0, 1000);
	cr_assert_eq(s.tk.v[0].catchup_ps, 0, "vCPU 0 was not behind the clock");
	sim_turn(1, 1000);
	cr_assert_eq(s.tk.v[1].catchup_ps, 202000 * BNB_TK_PS_PER_NS,
		     "vCPU 1 slept from 0 to the clock");
	cr_assert_eq(local_ns(1), local_ns(0) + 2000, "woke after vCPU 0's batch, ran 1000");
	cr_assert_eq(s.clock_ns, local_ns(1));
}

/* Slices far from even (as round-robin gives them) leave an offset, not a drift. */
Test(plugin_timekeeper, uneven_slices_leave_a_bounded_offset)
{
	uint64_t left[2] = { 2000000, 2000000 }, rnd = 12345, max_slice = 60000;

	sim_init(2, 2000, 1ULL << 60);	/* no yields: only the offset */
	sim_start(2);
	while (left[0] || left[1])
		for (unsigned int v = 0; v < 2; v++) {
			uint64_t want;

			rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
			want = 1 + (rnd >> 33) % max_slice;
			if (v == 1)
				want = want * 7 % max_slice + 1;	/* a different rhythm */
			want = want < left[v] ? want : left[v];
			left[v] -= sim_turn(v, want);
		}
	cr_assert_leq(absdiff(s.clock_ns, 4000000), max_slice * 2,
		      "clock %llu ns, want 4e6 within one slice (2 ns an instruction)",
		      (unsigned long long)s.clock_ns);
}

Test(plugin_timekeeper, stall_delays_only_that_vcpu)
{
	sim_init(2, 2000, 1ULL << 60);
	sim_rr(2, 300000, 10000);
	bnb_tk_charge(&s.tk, 0, 1000000 * BNB_TK_PS_PER_NS);	/* 1 ms */
	sim_rr(2, 300000, 10000);
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), 600000 * 2000 + s.tk.v[1].catchup_ps,
		     "vCPU 1's local time is its instructions' (and its start)");
	cr_assert_eq(s.tk.v[1].stall_ps, 0);
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 0), 600000 * 2000 + 1000000 * BNB_TK_PS_PER_NS,
		     "vCPU 0 carries the stall");
	cr_assert_leq(absdiff(s.clock_ns, local_ns(0)), 10000,
		      "the clock follows the stalled vCPU: %llu vs %llu ns",
		      (unsigned long long)s.clock_ns, (unsigned long long)local_ns(0));
}

/* Stalls charged in pieces of any size add up to the nanosecond. */
Test(plugin_timekeeper, charges_are_exact_over_a_run)
{
	uint64_t charged = 0;

	sim_init(1, 2500, 0);
	for (int i = 0; i < 1000; i++) {
		bnb_tk_charge(&s.tk, 0, 333);
		charged += 333;
		sim_turn(0, 7);
	}
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 0), 7000 * 2500 + charged);
	cr_assert_eq(s.clock_ns, (7000 * 2500 + charged) / BNB_TK_PS_PER_NS,
		     "the clock holds every whole ns charged: %llu",
		     (unsigned long long)s.clock_ns);
}

/* An all-idle warp moves every local time alike: additions stay right. */
Test(plugin_timekeeper, idle_warp_does_not_disturb_additions)
{
	sim_init(2, 3000, 0);
	sim_run(0, 100000, 10000);
	bnb_tk_idle(&s.tk, 0);
	s.clock_ns += 5000000;			/* both idle: icount jumps 5 ms */
	sim_run(0, 100000, 10000);
	cr_assert_eq(s.clock_ns, 5000000 + 200000 * 3, "warp + 2e5 x 3 ns, got %llu",
		     (unsigned long long)s.clock_ns);
}

/*
 * A vCPU that moves the clock while another is busy yields: it leads
 * them all.  One that does not lead runs on, unless it leads the slowest
 * busy vCPU by more than a quantum.  Busy alone, nobody yields.
 */
Test(plugin_timekeeper, leader_yields_and_so_does_one_past_the_quantum)
{
	struct bnb_tk_action a;

	sim_init(4, 3000, 100000 * BNB_TK_PS_PER_NS);	/* 100 us */
	sim_start(3);					/* vCPU 3 stays idle */
	bnb_tk_insns(&s.tk, 0, 50000);			/* 150 us: the lead */
	a = bnb_tk_sync(&s.tk, 0);
	cr_assert(a.add_ns == 150000 && a.yield, "the leader moves the clock and yields");
	bnb_tk_insns(&s.tk, 1, 34000);			/* 102 us, behind vCPU 0 */
	a = bnb_tk_sync(&s.tk, 1);
	cr_assert(!a.add_ns && a.yield, "102 us ahead of vCPU 2: past the quantum");
	bnb_tk_insns(&s.tk, 2, 1000);
	cr_assert_not(bnb_tk_sync(&s.tk, 2).yield, "the laggard runs on");
	cr_assert_eq(s.tk.v[0].yields + s.tk.v[1].yields, 2);
	cr_assert_eq(s.tk.lag_max_ps, 150000 * BNB_TK_PS_PER_NS, "at vCPU 0's sync");
	bnb_tk_idle(&s.tk, 1);
	bnb_tk_idle(&s.tk, 2);
	bnb_tk_insns(&s.tk, 0, 1000);
	cr_assert_not(bnb_tk_sync(&s.tk, 0).yield, "nobody busy to wait for");
}

/* Round-robin with long slices: lag stays within a quantum and a batch. */
Test(plugin_timekeeper, lag_is_bounded_by_the_quantum)
{
	uint64_t quantum = 20000 * BNB_TK_PS_PER_NS;	/* 20 us */

	sim_init(2, 4000, quantum);
	sim_rr(2, 2000000, 1000000);
	cr_assert_leq(s.tk.lag_max_ps, quantum + BATCH * 4000,
		      "lag %llu ps, want at most a quantum and a batch",
		      (unsigned long long)s.tk.lag_max_ps);
	cr_assert_leq(absdiff(s.clock_ns, 2000000ULL * 4), 1000000,
		      "and the two still ran in parallel: %llu ns",
		      (unsigned long long)s.clock_ns);
}

/* A stall past the lead a quantum allows syncs at once, not at the batch's end. */
Test(plugin_timekeeper, stall_past_the_quantum_syncs_at_once)
{
	uint64_t us = 1000 * BNB_TK_PS_PER_NS, floor;
	struct bnb_tk_action a;

	sim_init(2, 2000, 100 * us);
	bnb_tk_resume(&s.tk, 0);
	bnb_tk_resume(&s.tk, 1);
	bnb_tk_insns(&s.tk, 0, 1000);
	bnb_tk_insns(&s.tk, 1, 1000);
	bnb_tk_sync(&s.tk, 1);
	cr_assert_not(bnb_tk_sync(&s.tk, 0).yield);
	cr_assert_not(bnb_tk_charge(&s.tk, 0, 60 * us), "60 us: within the quantum");
	cr_assert(bnb_tk_charge(&s.tk, 0, 50 * us),
		  "110 us ahead of vCPU 1 in one batch: sync before running further");
	a = bnb_tk_sync(&s.tk, 0);
	cr_assert(a.yield, "and the sync ends its turn");
	floor = 100 * us / BNB_TK_BUDGET_FLOOR;
	cr_assert_not(bnb_tk_charge(&s.tk, 0, floor - 1),
		      "the rest of the block it yields from does not sync again");
	cr_assert(bnb_tk_charge(&s.tk, 0, 1), "but only up to the floor");
	cr_assert(bnb_tk_sync(&s.tk, 0).yield);
	cr_assert_eq(s.tk.v[0].stall_ps, 110 * us + floor);
	cr_assert_not(bnb_tk_charge(&s.tk, 1, 99 * us), "the laggard may stall a quantum");
}

/*
 * Blocks of BLOCK instructions with one miss each (miss_ps[v], charged in
 * the block's access callback), a sync every BATCH instructions of a vCPU
 * at a block's entry, as timing.c does: vCPU v runs up to budget
 * instructions; returns how many it ran.
 */
#define BLOCK	100

static uint64_t miss_ps[BNB_SHM_MAX_VCPUS];
static uint64_t since_sync[BNB_SHM_MAX_VCPUS];

static bool block_sync(unsigned int v)
{
	struct bnb_tk_action a = bnb_tk_sync(&s.tk, v);

	since_sync[v] = 0;
	s.clock_ns += a.add_ns;
	return a.yield;
}

static uint64_t sim_turn_blocks(unsigned int v, uint64_t budget)
{
	uint64_t done = 0;

	bnb_tk_resume(&s.tk, v);
	while (done < budget) {
		uint64_t n = budget - done < BLOCK ? budget - done : BLOCK;
		bool cut = false;

		bnb_tk_insns(&s.tk, v, n);
		done += n;
		since_sync[v] += n;
		if (since_sync[v] >= BATCH)
			cut = block_sync(v);
		if (miss_ps[v] && bnb_tk_charge(&s.tk, v, miss_ps[v]))
			cut |= block_sync(v);
		if (cut) {
			s.turns_cut++;
			break;
		}
	}
	return done;
}

/*
 * vCPU 0 stalls 2 us in every block of 100 instructions (a quantum's
 * worth every batch), vCPU 1 never; round-robin slices of 5000
 * instructions (10 us of vCPU 1's time) until both reach 5 ms.  Synced
 * only at batch ends, vCPU 0 would gain a batch, 22 us, every turn
 * against vCPU 1's 10 us, and the lag would grow to milliseconds.  (A
 * turn runs at least one block: a vCPU whose one block costs more than
 * the others' slices still outruns them.)
 */
Test(plugin_timekeeper, stalling_vcpu_stays_within_a_quantum)
{
	uint64_t us = 1000 * BNB_TK_PS_PER_NS, quantum = 20 * us, end = 5000 * us;
	bool more = true;

	sim_init(2, 2000, quantum);
	memset(since_sync, 0, sizeof(since_sync));
	memset(miss_ps, 0, sizeof(miss_ps));
	miss_ps[0] = 2 * us;
	while (more) {
		more = false;
		for (unsigned int v = 0; v < 2; v++) {
			if (s.tk.v[v].idle && bnb_tk_local_ps(&s.tk, v) >= end)
				continue;
			sim_turn_blocks(v, 5000);
			if (bnb_tk_local_ps(&s.tk, v) >= end)
				bnb_tk_idle(&s.tk, v);
			else
				more = true;
		}
	}
	cr_assert_leq(s.tk.lag_max_ps, quantum + 2 * miss_ps[0] + BATCH * 2000,
		      "lag %llu ps, want at most a quantum, two misses and a batch",
		      (unsigned long long)s.tk.lag_max_ps);
	cr_assert_gt(s.tk.v[1].insns, 2000000, "vCPU 1 ran 5 ms of instructions: %llu",
		     (unsigned long long)s.tk.v[1].insns);
	cr_assert_leq(absdiff(s.clock_ns, 5000000), 100000,
		      "and the clock ended near both: %llu ns",
		      (unsigned long long)s.clock_ns);
}

/*
 * A wake-up: vCPU 0 wakes idle vCPU 1 at 200 us of its time and runs on
 * 80 us in the same turn (round-robin does not switch at the interrupt).
 * vCPU 1 goes on from 200 us, the waker's time at the wake, not from the
 * clock's 280 us.
 */
Test(plugin_timekeeper, woken_vcpu_resumes_at_the_wakers_time)
{
	uint64_t us = 1000 * BNB_TK_PS_PER_NS;

	sim_init(2, 2000, 100 * us);
	sim_run(0, 100000, 100000);
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, bnb_tk_local_ps(&s.tk, 0)), BNB_TK_IRQ_WAKES,
		     "vCPU 1 was idle");
	sim_run(0, 40000, 100000);
	cr_assert_eq(s.clock_ns, 280000);
	sim_turn(1, 1000);
	cr_assert_eq(s.tk.v[1].wakes, 1);
	cr_assert_eq(s.tk.v[1].catchup_ps, 200 * us, "slept from 0 to the wake: %llu ps",
		     (unsigned long long)s.tk.v[1].catchup_ps);
	cr_assert_eq(local_ns(1), 202000, "woke at 200 us, ran 1000 x 2 ns");
	cr_assert_geq(s.clock_ns, 280000, "the clock stays with vCPU 0, which leads");
}

/*
 * The earliest of several wakes counts; a wake before the woken vCPU's
 * own time leaves it there (time does not go back); a wake for a busy
 * vCPU or from a vCPU to itself is no wake-up; a wake is used once.
 */
Test(plugin_timekeeper, wake_rules)
{
	uint64_t us = 1000 * BNB_TK_PS_PER_NS;

	sim_init(3, 3000, 100 * us);
	sim_run(0, 100000, 100000);			/* vCPU 0 at 300 us */
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 250 * us), BNB_TK_IRQ_WAKES);
	cr_assert_eq(bnb_tk_wake(&s.tk, 2, 1, 120 * us), BNB_TK_IRQ_WAKES);
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 290 * us), BNB_TK_IRQ_WAKES);
	cr_assert_eq(bnb_tk_wake(&s.tk, 1, 1, 10 * us), BNB_TK_IRQ_TAKEN,
		     "a vCPU does not wake itself");
	bnb_tk_resume(&s.tk, 1);
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), 120 * us, "the earliest wake");
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 5 * us), BNB_TK_IRQ_TAKEN,
		     "vCPU 1 is busy past the arrival: no wake-up, no hold");
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), 120 * us);
	bnb_tk_insns(&s.tk, 1, 10000);			/* 150 us */
	bnb_tk_idle(&s.tk, 1);
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 100 * us), BNB_TK_IRQ_WAKES);
	bnb_tk_resume(&s.tk, 1);
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), 150 * us,
		     "a wake before it halted leaves it where it was");
	cr_assert_eq(s.tk.v[1].wakes, 2);
	bnb_tk_idle(&s.tk, 1);
	bnb_tk_resume(&s.tk, 1);
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), bnb_tk_clock_ps(&s.tk),
		     "no wake this time: its timer, at the clock");
	cr_assert_eq(s.tk.v[1].wakes, 2);
}

/*
 * With a delivery latency: vCPU 0 wakes idle vCPU 1 at 200 us of its
 * time; the interrupt arrives 13.34 us later (2 us of hardware at D =
 * 2000 / 300), and vCPU 1 goes on from 213.34 us.  Of two wakes the
 * earlier arrival counts.
 */
Test(plugin_timekeeper, woken_vcpu_goes_on_after_the_delivery_latency)
{
	uint64_t us = 1000 * BNB_TK_PS_PER_NS, ipi = 2000 * BNB_TK_PS_PER_NS * 2000 / 300;

	sim_init(2, 2000, 100 * us);
	s.tk.p.ipi_ps = ipi;
	cr_assert_eq(ipi, 13333333, "2 us x D: %llu ps", (unsigned long long)ipi);
	sim_run(0, 100000, 100000);
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 200 * us), BNB_TK_IRQ_WAKES);
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 210 * us), BNB_TK_IRQ_WAKES);
	sim_run(0, 40000, 100000);
	cr_assert_eq(bnb_tk_resume(&s.tk, 1), 213333333, "the earlier send, 200 us + 13.333333 us");
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), 213333333);
	cr_assert_eq(s.tk.v[1].catchup_ps, 213333333, "slept from 0 to the arrival");
	cr_assert_eq(bnb_tk_resume(&s.tk, 1), BNB_TK_NO_WAKE, "busy: no resume");
}

/*
 * An interrupt for a vCPU that spins with PAUSE: it takes it at its next
 * look, from the interrupt's arrival (the send plus the latency), even
 * when the sender (spinning itself, as it waits for the handler) is
 * behind that; a busy vCPU that does not spin keeps its own time, its
 * interrupts held until it reaches the arrival.
 */
Test(plugin_timekeeper, spinning_vcpu_takes_an_interrupt_at_its_arrival)
{
	uint64_t us = 1000 * BNB_TK_PS_PER_NS;

	sim_init(2, 2000, 100 * us);
	s.tk.p.ipi_ps = 5 * us;
	bnb_tk_resume(&s.tk, 0);
	bnb_tk_resume(&s.tk, 1);
	bnb_tk_insns(&s.tk, 0, 10000);			/* 20 us */
	bnb_tk_insns(&s.tk, 1, 9000);			/* 18 us */
	bnb_tk_pause(&s.tk, 1);
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 20 * us), BNB_TK_IRQ_TAKEN,
		     "vCPU 1 spins: no wake-up, no hold");
	bnb_tk_pause(&s.tk, 0);				/* waits for the handler */
	bnb_tk_sync(&s.tk, 1);
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), 25 * us, "20 us sent + 5 us delivery");
	cr_assert_eq(s.tk.v[1].spin_ps, 7 * us);
	bnb_tk_insns(&s.tk, 1, 500);			/* the handler: 1 us */
	bnb_tk_sync(&s.tk, 0);
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 0), 26 * us, "the sender sees it done at 26 us");

	bnb_tk_insns(&s.tk, 0, 5000);			/* 36 us; vCPU 1 at 26 */
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 36 * us), BNB_TK_IRQ_HOLD);
	cr_assert_not(bnb_tk_sync(&s.tk, 1).release, "at 26 us, before the arrival at 41");
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), 26 * us, "not spinning: its own time");
}

/*
 * Two threads that meet at a barrier after every phase of 10000
 * instructions (20 us), in round-robin turns of 50000: the last to arrive
 * wakes the other and goes on with its next phase in the same turn,
 * then waits at the next barrier.  Woken at the waker's time the phases
 * overlap: 200 phases take 4 ms.  Resumed at the clock, each woken
 * thread would start where the waker ended its next phase: 8 ms, serial.
 */
Test(plugin_timekeeper, barrier_phases_run_in_parallel)
{
	const uint64_t phase = 10000, phases = 200, slice = 50000;
	uint64_t left[2] = { phase, phase }, done[2] = { 0, 0 };
	bool waiting[2] = { false, false };

	sim_init(2, 2000, 0);
	while (done[0] < phases || done[1] < phases) {
		for (unsigned int v = 0; v < 2; v++) {
			uint64_t turn = slice;

			while (turn && !waiting[v] && done[v] < phases) {
				uint64_t ran = sim_turn(v, left[v] < turn ? left[v] : turn);

				turn = ran < turn ? 0 : turn - ran;	/* cut: turn over */
				left[v] -= ran;
				if (left[v])
					continue;
				done[v]++;
				left[v] = phase;
				if (waiting[!v]) {
					waiting[!v] = false;
					bnb_tk_wake(&s.tk, v, !v, bnb_tk_local_ps(&s.tk, v));
				} else if (done[v] < phases) {
					waiting[v] = true;
					bnb_tk_idle(&s.tk, v);
				}
			}
		}
	}
	cr_assert_gt(s.tk.v[0].wakes + s.tk.v[1].wakes, phases / 2);
	cr_assert_leq(s.clock_ns, phases * phase * 2 * 105 / 100,
		      "%llu ns, want 4 ms and at most 5 %% more",
		      (unsigned long long)s.clock_ns);
}

/*
 * A spin-wait: vCPU 1 executes PAUSE at 2 us, behind vCPU 0 at 20 us.
 * vCPU 0 runs on only a spin step past it, then syncs and yields.  When
 * vCPU 1 looks again (its next sync), what it waits for cannot have been
 * written before vCPU 0's time: it goes on from there, and stops
 * spinning.  Ahead of vCPU 0, it looks again at its own time.
 */
Test(plugin_timekeeper, spin_wait_hands_over)
{
	uint64_t us = 1000 * BNB_TK_PS_PER_NS;
	uint64_t step = BNB_TK_SPIN_STEP_INSNS;	/* instructions of a step */

	sim_init(2, 2000, 100 * us);
	bnb_tk_resume(&s.tk, 0);
	bnb_tk_resume(&s.tk, 1);
	bnb_tk_insns(&s.tk, 0, 10000);
	bnb_tk_insns(&s.tk, 1, 1000);
	cr_assert_eq(bnb_tk_insns_left(&s.tk, 0), UINT64_MAX, "nobody spins");
	bnb_tk_pause(&s.tk, 1);
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), 2 * us, "it has not looked again yet");
	cr_assert_eq(bnb_tk_insns_left(&s.tk, 0), 0, "vCPU 0 is past it: sync at once");
	cr_assert(bnb_tk_sync(&s.tk, 0).yield, "and let it look again");
	bnb_tk_sync(&s.tk, 1);
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), 20 * us, "it looked again at vCPU 0's time");
	cr_assert_eq(s.tk.v[1].spin_ps, 18 * us);
	cr_assert_eq(bnb_tk_insns_left(&s.tk, 0), UINT64_MAX, "its sync ended the spin");

	bnb_tk_insns(&s.tk, 1, 5000);			/* 30 us against 20 */
	bnb_tk_pause(&s.tk, 1);
	cr_assert_eq(bnb_tk_insns_left(&s.tk, 0), 5000 + step);
	bnb_tk_insns(&s.tk, 0, 5000 + step - 1);
	cr_assert_eq(bnb_tk_insns_left(&s.tk, 0), 1, "an instruction short of a step past it");
	bnb_tk_insns(&s.tk, 0, 1);
	cr_assert_eq(bnb_tk_insns_left(&s.tk, 0), 0);
	cr_assert(bnb_tk_sync(&s.tk, 0).yield, "a step past it: let it look again");
	bnb_tk_sync(&s.tk, 1);
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), bnb_tk_local_ps(&s.tk, 0),
		     "vCPU 0's time, a step past where it paused");
	cr_assert_eq(s.tk.v[1].spin_ps, 18 * us + BNB_TK_SPIN_STEP_INSNS * 2000);
	cr_assert_eq(s.tk.v[1].pauses, 2);
}

/*
 * Two vCPUs hand a turn back and forth by spinning: each writes the
 * turn after 100 instructions of its own, then PAUSEs in a loop of 10
 * instructions until the turn comes back; a PAUSE ends the turn.  Each
 * sees the other's write no earlier than it was made: a round trip takes
 * at least both sides' 100 instructions, where taking the time at the
 * PAUSE let each see the other's write from its future.
 */
Test(plugin_timekeeper, spun_on_hand_over_respects_causality)
{
	const uint64_t work = 100, loop = 10, rounds = 1000;
	uint64_t written_ps[2] = { 0, 0 }, seen = 0;
	unsigned int turn = 0;
	bool wrote[2] = { false, false };

	sim_init(2, 2000, 0);
	bnb_tk_resume(&s.tk, 0);
	bnb_tk_resume(&s.tk, 1);
	bnb_tk_pause(&s.tk, 1);				/* waits for its turn */
	while (seen < 2 * rounds) {
		for (unsigned int v = 0; v < 2; v++) {
			if (s.tk.v[v].spinning)
				bnb_tk_sync(&s.tk, v);		/* its next block */
			bnb_tk_insns(&s.tk, v, loop);		/* looks at the turn */
			if (turn == v && wrote[!v]) {
				cr_assert_geq(bnb_tk_local_ps(&s.tk, v), written_ps[!v],
					      "vCPU %u saw a write from its future", v);
				wrote[!v] = false;
				seen++;
			}
			if (turn == v) {
				bnb_tk_insns(&s.tk, v, work);
				written_ps[v] = bnb_tk_local_ps(&s.tk, v);
				wrote[v] = true;
				turn = !v;
			}
			bnb_tk_pause(&s.tk, v);
		}
	}
	cr_assert_geq(bnb_tk_local_ps(&s.tk, 0), rounds * 2 * work * 2000,
		      "%llu ps for %llu round trips of 2 x %llu instructions",
		      (unsigned long long)bnb_tk_local_ps(&s.tk, 0),
		      (unsigned long long)rounds, (unsigned long long)work);
}

/*
 * Two busy vCPUs at 2 ns an instruction, 5 us of delivery: vCPU 0 at
 * 40 us, vCPU 1 after insns1 instructions.
 */
static void lagging_pair(uint64_t insns1)
{
	sim_init(2, 2000, 100 * 1000 * BNB_TK_PS_PER_NS);
	s.tk.p.ipi_ps = 5 * 1000 * BNB_TK_PS_PER_NS;
	bnb_tk_resume(&s.tk, 0);
	bnb_tk_resume(&s.tk, 1);
	bnb_tk_insns(&s.tk, 0, 20000);
	bnb_tk_insns(&s.tk, 1, insns1);
}

/*
 * An interrupt for a busy vCPU that lags: vCPU 0 at 40 us sends one to
 * vCPU 1 at 10 us, which arrives at 45 us (5 us of delivery).  vCPU 1's
 * interrupts are held: it may run 35 us (17500 instructions at 2 ns)
 * before it syncs, and that sync, at 45 us, releases them.  Taken at its
 * own 10 us, it would have answered from the sender's past.
 */
Test(plugin_timekeeper, busy_vcpu_takes_an_interrupt_at_its_arrival)
{
	uint64_t us = 1000 * BNB_TK_PS_PER_NS;

	lagging_pair(5000);			/* vCPU 1 at 10 us */
	cr_assert_eq(bnb_tk_insns_left(&s.tk, 1), UINT64_MAX, "nothing held yet");
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 40 * us), BNB_TK_IRQ_HOLD);
	cr_assert_eq(s.tk.v[1].irq_ps, 45 * us);
	cr_assert_eq(bnb_tk_insns_left(&s.tk, 1), 17500, "35 us at 2 ns");
	bnb_tk_insns(&s.tk, 1, 17499);
	cr_assert_not(bnb_tk_sync(&s.tk, 1).release, "2 ns before the arrival");
	cr_assert_eq(bnb_tk_insns_left(&s.tk, 1), 1);
	bnb_tk_insns(&s.tk, 1, 1);
	cr_assert(bnb_tk_sync(&s.tk, 1).release, "at 45 us");
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), 45 * us, "its own time, not moved");
	cr_assert_eq(s.tk.v[1].catchup_ps + s.tk.v[1].spin_ps, 0);
	cr_assert_not(s.tk.v[1].held);
	cr_assert_eq(bnb_tk_insns_left(&s.tk, 1), UINT64_MAX, "released");
	cr_assert_not(bnb_tk_sync(&s.tk, 1).release, "released once");
	cr_assert_eq(s.tk.v[1].holds, 1);
}

/*
 * A busy vCPU already past the arrival takes the interrupt at once, in
 * its own time: vCPU 1 at 50 us, the send at 40 us arrives at 45.
 */
Test(plugin_timekeeper, busy_vcpu_past_the_arrival_is_not_held)
{
	uint64_t us = 1000 * BNB_TK_PS_PER_NS;

	lagging_pair(25000);			/* vCPU 1 at 50 us */
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 40 * us), BNB_TK_IRQ_TAKEN);
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 45 * us), BNB_TK_IRQ_TAKEN,
		     "arriving at 50 us, its time: taken now");
	cr_assert_not(s.tk.v[1].held);
	cr_assert_eq(bnb_tk_insns_left(&s.tk, 1), UINT64_MAX);
	cr_assert_eq(s.tk.v[1].holds, 0);
}

/*
 * The sender waits for the answer, spinning (smp_call_function() with
 * wait): vCPU 0 sends at 40 us to vCPU 1 at 10 us and spins; vCPU 1,
 * held, runs on in spin steps until the arrival at 45 us, takes the
 * interrupt and runs the handler (500 instructions, 1 us), which writes
 * the answer at 46 us.  vCPU 0 sees it at 46 us: the delivery and the
 * handler, 6 us, where taken in vCPU 1's own time it cost nothing.
 */
Test(plugin_timekeeper, waiting_sender_sees_the_answer_after_the_delivery)
{
	uint64_t us = 1000 * BNB_TK_PS_PER_NS, handler = 500, answer = 0;
	bool released = false;
	int turns = 0;

	lagging_pair(5000);			/* vCPU 1 at 10 us */
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 40 * us), BNB_TK_IRQ_HOLD);
	bnb_tk_pause(&s.tk, 0);
	while (!answer || bnb_tk_local_ps(&s.tk, 0) < answer) {
		uint64_t n = bnb_tk_insns_left(&s.tk, 1);

		cr_assert_lt(++turns, 100, "the hand-over ends");
		if (released)
			n = n < handler ? n : handler;
		cr_assert_lt(n, UINT64_MAX);
		bnb_tk_insns(&s.tk, 1, n);
		if (released)
			handler -= n;
		if (bnb_tk_sync(&s.tk, 1).release) {
			cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), 45 * us, "released at the arrival");
			released = true;
		}
		if (released && !handler && !answer)
			answer = bnb_tk_local_ps(&s.tk, 1);
		bnb_tk_sync(&s.tk, 0);				/* vCPU 0 looks again */
		if (!answer || bnb_tk_local_ps(&s.tk, 0) < answer)
			bnb_tk_pause(&s.tk, 0);
	}
	cr_assert_eq(answer, 46 * us, "the handler ran from 45 to 46 us");
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 0), 46 * us,
		     "the sender saw it at 46 us: %llu ps",
		     (unsigned long long)bnb_tk_local_ps(&s.tk, 0));
}

/*
 * Stalls count toward the arrival: held vCPU 1 at 10 us, arrival at 45,
 * syncs as soon as its stalls take it there (bnb_tk_charge() says when),
 * not at its next batch.
 */
Test(plugin_timekeeper, held_vcpu_that_stalls_syncs_at_the_arrival)
{
	uint64_t us = 1000 * BNB_TK_PS_PER_NS;

	lagging_pair(5000);			/* vCPU 1 at 10 us */
	bnb_tk_sync(&s.tk, 1);				/* a budget of a quantum or so */
	cr_assert_gt(s.tk.v[1].budget_ps, 35 * us);
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 40 * us), BNB_TK_IRQ_HOLD);
	cr_assert_not(bnb_tk_charge(&s.tk, 1, 34 * us), "at 44 us");
	cr_assert(bnb_tk_charge(&s.tk, 1, 2 * us), "at 46 us: past the arrival, sync now");
	cr_assert(bnb_tk_sync(&s.tk, 1).release);
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), 46 * us);
}

/*
 * A held vCPU that halts: the pending interrupt wakes it at once, so it
 * stays busy and goes on from the arrival (35 us), not from the clock;
 * one that spins goes on from the arrival at its next look.  Of two
 * interrupts the earlier arrival releases both (QEMU holds them
 * together).
 */
Test(plugin_timekeeper, held_vcpu_that_halts_or_spins_goes_on_from_the_arrival)
{
	uint64_t us = 1000 * BNB_TK_PS_PER_NS;

	sim_init(3, 3000, 100 * us);
	s.tk.p.ipi_ps = 5 * us;
	for (unsigned int v = 0; v < 3; v++)
		bnb_tk_resume(&s.tk, v);
	bnb_tk_insns(&s.tk, 0, 20000);			/* 60 us */
	bnb_tk_insns(&s.tk, 2, 10000);			/* 30 us */
	bnb_tk_insns(&s.tk, 1, 3000);			/* 9 us */
	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 60 * us), BNB_TK_IRQ_HOLD);
	cr_assert_eq(bnb_tk_wake(&s.tk, 2, 1, 30 * us), BNB_TK_IRQ_HOLD, "held already");
	cr_assert_eq(s.tk.v[1].irq_ps, 35 * us, "the earlier arrival");
	bnb_tk_insns(&s.tk, 1, 1000);			/* 12 us */
	cr_assert(bnb_tk_idle(&s.tk, 1), "it was held: release it");
	cr_assert_not(s.tk.v[1].idle, "woken at once by what it held: busy");
	cr_assert_eq(bnb_tk_resume(&s.tk, 1), BNB_TK_NO_WAKE, "no resume: it never idled");
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), 35 * us);
	cr_assert_eq(s.tk.v[1].wakes, 1);
	cr_assert_not(s.tk.v[1].held);
	bnb_tk_insns(&s.tk, 0, 1000);
	cr_assert(bnb_tk_sync(&s.tk, 0).yield, "the leader yields to it");

	cr_assert_eq(bnb_tk_wake(&s.tk, 0, 1, 60 * us), BNB_TK_IRQ_HOLD);
	bnb_tk_pause(&s.tk, 1);
	cr_assert(bnb_tk_sync(&s.tk, 1).release, "its next look: at the arrival");
	cr_assert_eq(bnb_tk_local_ps(&s.tk, 1), 65 * us);
	cr_assert_eq(s.tk.v[1].holds, 3);
	cr_assert_not(bnb_tk_idle(&s.tk, 1), "nothing held");
}

/*
 * A vCPU that spins with no other busy waits for time alone (a delay
 * loop): each look takes it a spin step on, so that a 100 us delay is
 * 100 looks at 2 ns, not one every loop of 15 instructions (6,700), each
 * a turn of QEMU's round-robin.
 */
Test(plugin_timekeeper, lone_spinner_goes_on_a_spin_step_a_look)
{
	uint64_t us = 1000 * BNB_TK_PS_PER_NS, target, looks = 0;

	sim_init(4, 2000, 0);
	bnb_tk_resume(&s.tk, 2);			/* the others stay idle */
	bnb_tk_insns(&s.tk, 2, 1000);
	target = bnb_tk_local_ps(&s.tk, 2) + 100 * us;
	while (bnb_tk_local_ps(&s.tk, 2) < target) {
		bnb_tk_insns(&s.tk, 2, 15);		/* rdtsc, compare, PAUSE */
		bnb_tk_pause(&s.tk, 2);
		s.clock_ns += bnb_tk_sync(&s.tk, 2).add_ns;
		looks++;
	}
	cr_assert_leq(looks, 100, "%llu looks for 100 us", (unsigned long long)looks);
	cr_assert_geq(looks, 98, "a step a look, no more: %llu", (unsigned long long)looks);
	cr_assert_eq(s.clock_ns, local_ns(2), "the clock follows it");
	cr_assert_eq(s.tk.v[2].spin_ps, looks * BNB_TK_SPIN_STEP_INSNS * 2000);
}

/*
 * A lock's holder and its waiters: vCPU 0 holds the lock and works;
 * vCPUs 1..7 spin on it.  A waiter that looks again goes on from the
 * holder's time, not from another waiter's (as far behind as itself), so
 * the group keeps up with the holder, a spin step a round of turns.
 */
Test(plugin_timekeeper, lock_waiters_keep_up_with_the_holder)
{
	uint64_t us = 1000 * BNB_TK_PS_PER_NS, rounds = 0;

	sim_init(8, 2000, 0);
	sim_start(8);
	for (unsigned int v = 1; v < 8; v++) {
		bnb_tk_insns(&s.tk, v, 100 + v);
		bnb_tk_pause(&s.tk, v);
	}
	while (bnb_tk_local_ps(&s.tk, 0) < 100 * us) {
		uint64_t left = bnb_tk_insns_left(&s.tk, 0);

		bnb_tk_insns(&s.tk, 0, left ? left : 1);	/* until a step past them */
		cr_assert(bnb_tk_sync(&s.tk, 0).yield);
		for (unsigned int v = 1; v < 8; v++) {		/* each looks, spins on */
			bnb_tk_sync(&s.tk, v);
			cr_assert_geq(bnb_tk_local_ps(&s.tk, v), bnb_tk_local_ps(&s.tk, 0),
				      "waiter %u went on from the holder's time", v);
			bnb_tk_insns(&s.tk, v, 15);
			bnb_tk_pause(&s.tk, v);
		}
		rounds++;
	}
	cr_assert_leq(rounds, 101, "100 us in %llu rounds: a spin step a round",
		      (unsigned long long)rounds);
}
