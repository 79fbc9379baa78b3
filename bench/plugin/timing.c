// SPDX-License-Identifier: GPL-2.0
/*
 * timing.c - the time keeper's QEMU side; see timing.h and timekeeper.h.
 *
 * Every translation block adds its instruction count to its vCPU's slot
 * of a scoreboard (an inline add, no call) and, when the slot reaches a
 * batch, calls on_batch() (an inline compare, a call once per batch).
 * on_batch() hands every vCPU's new instructions to the keeper and does
 * what it asks: add time to the clock, or end the vCPU's turn.  A vCPU
 * whose stalls take it a quantum ahead syncs at once, from the access
 * callback that charged the stall (bnb_tk_charge() says when).
 *
 * Halts: round-robin TCG fires no plugin idle/resume callbacks, so the
 * plugin watches the instructions that halt an x86 CPU (hlt, mwait,
 * mwaitx).  A vCPU executing one is idle; its slot is then pushed to a
 * full batch, so that the first block it runs after waking calls
 * on_batch(), which lets it catch up with the clock.
 *
 * The clock is the keeper's: the plugin takes it off icount's
 * instruction count before the vCPUs run (qemu_plugin_take_virtual_clock(),
 * bench/qemu patch 0008).  An addition then moves it at once, inside the
 * block, and leaves the vCPU's turn running, unless a timer falls due on
 * the way (QEMU then queues it, ends the turn and runs the timer at its
 * own time).  A yield ends only the calling vCPU's turn
 * (qemu_plugin_vcpu_yield()).
 *
 * Wake-ups: QEMU (bench/qemu patch 0006) says when an executing vCPU
 * raises an interrupt for another.  If that one is idle, the keeper
 * notes the sender's local time as its wake time, and the sender ends its
 * turn, so that the woken vCPU runs next instead of after the sender's
 * turn (under round-robin QEMU does not end it: every vCPU shares one
 * thread, so the interrupt looks like the sender's own).  With the
 * machine model the interrupt arrives its class's delivery latency later
 * (ipi_latency_ns, scaled by D): the keeper adds it to the wake time.
 * For a busy vCPU whose local time is before the arrival, QEMU holds its
 * interrupts (bench/qemu patch 0007) and its next sync is armed for when
 * it reaches the arrival, where the keeper releases them: it takes the
 * interrupt then, not in the sender's past.  A held vCPU that halts is
 * released at once (the interrupt wakes it, at its arrival).
 */
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "divlog.h"
#include "ksym_qemu.h"
#include "timing.h"
#include "model/machine.h"
#include "model/model.h"

static struct bnb_timekeeper tk;
static const void *time_handle;
static struct qemu_plugin_scoreboard *board;
static qemu_plugin_u64 slot;		/* per vCPU: instructions since its batch */
static uint64_t *slot_at[BNB_SHM_MAX_VCPUS];	/* where QEMU keeps it, once known */
static uint64_t pulled[BNB_SHM_MAX_VCPUS];	/* part of slot already counted */
static uint64_t carry[BNB_SHM_MAX_VCPUS];	/* of a miss's stall scaling */
static struct bnb_divisor by_insn_ps, by_hw_insn_ps;
static uint64_t batch;
static struct bnb_shm_header *shm;
static struct bnb_model *model;		/* NULL: model=off */
static struct bnb_divlog divlog;	/* trace=: the divergence log */
static unsigned int icount_shift;	/* QEMU's, for the counters file */
static bool tracing;

/* A block's address and size in one word: x86-64 addresses use 48 bits. */
#define TRACE_PC_BITS	48

static struct bnb_shm_vcpu *shm_vcpu(unsigned int v)
{
	return (struct bnb_shm_vcpu *)((char *)shm + shm->header_size +
				       (size_t)v * shm->vcpu_stride);
}

/* The model's figures: at each sync of their vCPU, not per miss; every vCPU's at exit. */
static void publish_model(struct bnb_shm_vcpu *c, unsigned int v)
{
	const struct bnb_model_vcpu *m;

	if (!model || v >= model->n_vcpus)
		return;
	m = &model->v[v];
	c->model_misses = m->misses;
	c->model_seq_misses = m->seq_misses;
	c->model_lat_ps = m->lat_ps;
	c->model_bw_ps = m->bw_ps;
	memcpy(c->model_node_ps, m->node_ps, model->p.n_nodes * sizeof(m->node_ps[0]));
}

static void publish_vcpu(unsigned int i)
{
	struct bnb_shm_vcpu *c = shm_vcpu(i);

	publish_model(c, i);
	c->tk_insns = tk.v[i].insns;
	c->tk_local_ps = bnb_tk_local_ps(&tk, i);
	c->tk_stall_ps = tk.v[i].stall_ps;
	c->tk_catchup_ps = tk.v[i].catchup_ps + tk.v[i].spin_ps;
	c->tk_yields = tk.v[i].yields;
	c->tk_wakes = tk.v[i].wakes;
	c->tk_pauses = tk.v[i].pauses;
	c->tk_spin_ps = tk.v[i].spin_ps;
	c->tk_holds = tk.v[i].holds;
}

static void publish_clock(void)
{
	shm->tk_insns = tk.insns;
	shm->tk_clock_ps = bnb_tk_clock_ps(&tk);
	shm->tk_added_ns = tk.added_ps / BNB_TK_PS_PER_NS;
	shm->tk_adds = tk.adds;
	shm->tk_syncs = tk.syncs;
	shm->tk_lag_max_ps = tk.lag_max_ps;
	shm->tk_lag_sum_ps = tk.lag_sum_ps;
}

void bnb_timing_publish(void)
{
	if (!shm)
		return;
	for (unsigned int i = 0; i < tk.p.n_vcpus; i++)
		publish_vcpu(i);
	publish_clock();
}

/*
 * vCPU u's slot, read straight from the scoreboard once its address is
 * known: the machine model asks on every miss, and QEMU's getter is four
 * calls deep.
 */
static inline uint64_t slot_get(unsigned int u)
{
	return slot_at[u] ? *slot_at[u] : qemu_plugin_u64_get(slot, u);
}

/*
 * QEMU grows its scoreboards only when it initialises a vCPU, with every
 * vCPU stopped, before the new vCPU's init callbacks: the slots of vCPUs
 * 0..v stay where they are now until the next vCPU's.
 */
void bnb_timing_vcpu_init(unsigned int v)
{
	if (!time_handle)
		return;
	for (unsigned int u = 0; u <= v && u < tk.p.n_vcpus; u++)
		slot_at[u] = (uint64_t *)((char *)qemu_plugin_scoreboard_find(board, u) +
					  slot.offset);
	/* it starts idle: its first block resumes it, at the clock of then */
	if (v < tk.p.n_vcpus) {
		qemu_plugin_u64_set(slot, v, batch);
		pulled[v] = batch;
	}
}

/* Hand vCPU u's instructions since the last look to the keeper. */
static void pull(unsigned int u)
{
	uint64_t now = slot_get(u);

	bnb_tk_insns(&tk, u, now - pulled[u]);
	pulled[u] = now;
}

/*
 * Bring u's next sync forward to left instructions from now: its slot
 * then reaches a batch after that many.  Never later than it was.
 */
static void arm_in(unsigned int u, uint64_t left)
{
	uint64_t now;

	if (left >= batch || tk.v[u].idle)
		return;
	pull(u);
	now = pulled[u];
	if (now >= batch || batch - now <= left)
		return;
	pulled[u] = batch - left;
	qemu_plugin_u64_set(slot, u, pulled[u]);
}

/* Bring u's next sync forward to when the keeper wants it (a spinner waits for it). */
static void arm(unsigned int u)
{
	arm_in(u, bnb_tk_insns_left(&tk, u));
}

/* v's held interrupts reached their arrival: QEMU takes them now. */
static void release(unsigned int v)
{
	qemu_plugin_vcpu_hold_interrupts(time_handle, v, false);
	if (tracing)
		bnb_divlog_event(&divlog, v, "release", bnb_tk_local_ps(&tk, v) / BNB_TK_PS_PER_NS);
}

/*
 * Hand the busy vCPUs' instructions to the keeper (an idle vCPU's slot
 * has nothing new: on_halt() pulled it).
 */
static void pull_busy(void)
{
	for (unsigned int k = 0; k < tk.n_busy; k++)
		pull(tk.busy[k]);
}

/* Hand every vCPU's instructions to the keeper; do what it asks of v. */
static void sync_vcpu(unsigned int v)
{
	struct bnb_tk_action act;

	pull_busy();
	pull(v);
	qemu_plugin_u64_set(slot, v, 0);
	pulled[v] = 0;
	act = bnb_tk_sync(&tk, v);
	arm(v);
	if (act.release)
		release(v);
	if (act.add_ns)
		qemu_plugin_add_ns(time_handle, act.add_ns);
	if (act.yield)
		qemu_plugin_vcpu_yield(time_handle);
	if (tracing && act.add_ns)
		bnb_divlog_event(&divlog, v, "add", act.add_ns);
	if (tracing && act.yield)
		bnb_divlog_event(&divlog, v, "yield", 0);
	if (shm) {		/* all of them at exit */
		publish_vcpu(v);
		publish_clock();
	}
}

static void on_batch(unsigned int v, void *udata)
{
	uint64_t woken;

	if (v >= tk.p.n_vcpus)
		return;
	woken = bnb_tk_resume(&tk, v);
	if (tracing && woken != BNB_TK_NO_WAKE)
		bnb_divlog_event(&divlog, v, "woken", woken / BNB_TK_PS_PER_NS);
	sync_vcpu(v);
}

/*
 * from raised an interrupt for to (an IPI), from within its block: if it
 * wakes to, to goes on from from's time now, and from yields; if to runs
 * behind the arrival, QEMU holds to's interrupts until its sync there.
 */
static void on_interrupt(qemu_plugin_id_t id, unsigned int from, unsigned int to)
{
	uint64_t at;

	if (from >= tk.p.n_vcpus || to >= tk.p.n_vcpus)
		return;
	pull(from);
	pull(to);
	at = bnb_tk_local_ps(&tk, from);
	switch (bnb_tk_wake(&tk, from, to, at)) {
	case BNB_TK_IRQ_WAKES:
		if (tracing) {
			bnb_divlog_event(&divlog, from, "wake", to);
			bnb_divlog_event(&divlog, to, "wake_at", at / BNB_TK_PS_PER_NS);
		}
		qemu_plugin_vcpu_yield(time_handle);
		break;
	case BNB_TK_IRQ_HOLD:
		if (tracing) {
			bnb_divlog_event(&divlog, from, "hold", to);
			bnb_divlog_event(&divlog, to, "hold_at", at / BNB_TK_PS_PER_NS);
		}
		qemu_plugin_vcpu_hold_interrupts(time_handle, to, true);
		arm(to);
		break;
	case BNB_TK_IRQ_TAKEN:
		break;
	}
}

void bnb_timing_register(qemu_plugin_id_t id)
{
	if (time_handle)
		qemu_plugin_register_vcpu_interrupt_cb(id, on_interrupt);
}

/*
 * v executed PAUSE, which ends its turn: it spins.  The others run only a
 * step past it; v's next block syncs, where it looks again.
 */
static void on_pause(unsigned int v, void *udata)
{
	if (v >= tk.p.n_vcpus)
		return;
	pull_busy();
	pull(v);
	bnb_tk_pause(&tk, v);
	for (unsigned int k = 0; k < tk.n_busy; k++)
		if (tk.busy[k] != v)
			arm_in(tk.busy[k], bnb_tk_insns_past(&tk, tk.busy[k], v));
	qemu_plugin_u64_set(slot, v, pulled[v] + batch);
	pulled[v] += batch;
}

static void on_halt(unsigned int v, void *udata)
{
	if (v >= tk.p.n_vcpus)
		return;
	pull(v);
	if (tracing)
		bnb_divlog_event(&divlog, v, "halt", 0);
	/* what it held wakes it at once: it goes on, busy, from the arrival */
	if (bnb_tk_idle(&tk, v)) {
		qemu_plugin_vcpu_hold_interrupts(time_handle, v, false);
		if (tracing)
			bnb_divlog_event(&divlog, v, "woken", bnb_tk_local_ps(&tk, v) / BNB_TK_PS_PER_NS);
	}
	/* the first block after the wake-up runs on_batch() */
	qemu_plugin_u64_set(slot, v, pulled[v] + batch);
	pulled[v] += batch;
}

void bnb_timing_flush(void)
{
	if (tracing)
		fflush(divlog.out);
}

/*
 * From v's access callback, within a block: a request made there ends
 * v's turn after the block, so a stalling leader stops there.
 */
static inline void charge(unsigned int v, uint64_t ps)
{
	bnb_ksym_charge(v, ps);		/* to the NUMA work running, if any */
	if (bnb_tk_charge(&tk, v, ps))
		sync_vcpu(v);
}

/* v's local time / D, counting the instructions of its current batch. */
static inline uint64_t hw_now_ps(unsigned int v)
{
	uint64_t unpulled = slot_get(v) - pulled[v];
	uint64_t local = bnb_tk_local_ps(&tk, v) + unpulled * tk.p.insn_ps;

	return bnb_model_mul_div(local, tk.p.hw_insn_ps, &by_insn_ps);
}

/*
 * A stall of 0 scales to 0 and leaves the carry: it charges nothing, and
 * syncs only when v's budget is spent (before its first sync).
 */
void bnb_timing_model_miss(unsigned int v, unsigned int mem, uint64_t line)
{
	uint64_t hw_ps;

	if (!model || v >= tk.p.n_vcpus)
		return;
	hw_ps = bnb_model_miss(model, v, mem, line, hw_now_ps(v));
	if (!hw_ps && tk.v[v].budget_ps)
		return;
	charge(v, bnb_model_scale(&carry[v], hw_ps, tk.p.insn_ps, &by_hw_insn_ps));
}

/* hlt, mwait, mwaitx: the instructions that halt an x86 CPU. */
static bool halts(struct qemu_plugin_insn *insn)
{
	static const uint8_t mwait[3] = { 0x0f, 0x01, 0xc9 };
	static const uint8_t mwaitx[3] = { 0x0f, 0x01, 0xfb };
	uint8_t b[3];
	size_t n = bnb_insn_bytes(insn, b, sizeof(b));

	if (n == 1)
		return b[0] == 0xf4;
	return n == 3 && (!memcmp(b, mwait, 3) || !memcmp(b, mwaitx, 3));
}

/* PAUSE (rep nop), the spin-wait hint. */
static bool pauses(struct qemu_plugin_insn *insn)
{
	uint8_t b[3];

	return bnb_insn_bytes(insn, b, sizeof(b)) == 2 && b[0] == 0xf3 && b[1] == 0x90;
}

static void on_block_traced(unsigned int v, void *udata)
{
	uint64_t w = (uintptr_t)udata;

	bnb_divlog_block(&divlog, v, w & ((1ULL << TRACE_PC_BITS) - 1), w >> TRACE_PC_BITS);
}

static void trace_translate(struct qemu_plugin_tb *tb, size_t n)
{
	uint64_t pc = qemu_plugin_tb_vaddr(tb) & ((1ULL << TRACE_PC_BITS) - 1);

	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block_traced, QEMU_PLUGIN_CB_NO_REGS,
		(void *)(uintptr_t)(pc | (uint64_t)n << TRACE_PC_BITS));
}

void bnb_timing_translate(struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	if (tracing)
		trace_translate(tb, n);
	if (!time_handle)
		return;
	qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb,
		QEMU_PLUGIN_INLINE_ADD_U64, slot, n);
	qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, on_batch,
		QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_COND_GE, slot, batch, NULL);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (halts(insn))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_halt,
				QEMU_PLUGIN_CB_NO_REGS, NULL);
		else if (pauses(insn))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_pause,
				QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
}

static void publish_params(void)
{
	shm->flags |= BNB_SHM_F_TIMEKEEPER;
	shm->icount_shift = icount_shift;
	shm->tk_batch = batch;
	shm->insn_ps = tk.p.insn_ps;
	shm->hw_insn_ps = tk.p.hw_insn_ps;
	shm->dilation_milli = bnb_tk_dilation_milli(&tk.p);
	shm->tk_quantum_ps = tk.p.quantum_ps;
	shm->tk_ipi_ps = tk.p.ipi_ps;
}

/*
 * trace_clock=: the guest clock read straight from QEMU's TimersState
 * (QEMU 10.0, include/system/cpu-timers-internal.h), a diagnostic only:
 * with the clock taken off the instruction count (patch 0008) it is the
 * bias alone.  The shift field checks the address.
 */
#define TS_SHIFT_OFF	26	/* int16_t icount_time_shift */
#define TS_BIAS_OFF	40	/* int64_t qemu_icount_bias */

static const char *timers_state;

static uint64_t qemu_clock_now_ns(void)
{
	return *(const volatile int64_t *)(timers_state + TS_BIAS_OFF);
}

/* The first object dl_iterate_phdr() reports is the program: QEMU. */
static int program_base(struct dl_phdr_info *info, size_t size, void *data)
{
	*(uintptr_t *)data = info->dlpi_addr;
	return 1;
}

static int find_clock(const struct bnb_plugin_args *a, char *err, size_t errlen)
{
	uintptr_t base = 0;
	int16_t shift;

	dl_iterate_phdr(program_base, &base);
	timers_state = (const char *)(base + a->trace_clock);
	shift = *(const int16_t *)(timers_state + TS_SHIFT_OFF);
	if (!a->have_icount || shift != (int16_t)a->icount_shift)
		return snprintf(err, errlen,
			"bnb-plugin: trace_clock=%lx: not QEMU's timers_state (icount shift there %d, want %lu under icount)",
			a->trace_clock, shift, a->icount_shift), -1;
	divlog.clock_ns = qemu_clock_now_ns;
	return 0;
}

static int open_trace(const struct bnb_plugin_args *a, unsigned int n_vcpus, char *err, size_t errlen)
{
	const char *path = a->trace_path;
	FILE *f = fopen(path, "w");

	if (!f)
		return snprintf(err, errlen, "bnb-plugin: trace=%s: %s", path, strerror(errno)), -1;
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	bnb_divlog_init(&divlog, f, n_vcpus);
	tracing = true;
	return a->trace_clock ? find_clock(a, err, errlen) : 0;
}

int bnb_timing_setup(const struct bnb_plugin_args *a, unsigned int n_vcpus,
		     struct bnb_shm_header *counters, struct bnb_model *m,
		     char *err, size_t errlen)
{
	struct bnb_tk_params p = {
		.n_vcpus = n_vcpus,
		.insn_ps = a->insn_ps ? a->insn_ps : bnb_machine_insn_ps(&a->machine),
		.hw_insn_ps = a->hw_insn_ps,
		.quantum_ps = a->tk_quantum_ns * BNB_TK_PS_PER_NS,
	};

	if (*a->trace_path && open_trace(a, n_vcpus, err, errlen))
		return -1;
	if (!a->timekeeper)
		return 0;
	/* the model's hardware delivery latency, in guest time */
	if (m)
		p.ipi_ps = m->p.ipi_ps * p.insn_ps / p.hw_insn_ps;
	if (bnb_tk_check(&p, err, errlen))
		return -1;
	time_handle = qemu_plugin_request_time_control();
	if (!time_handle)
		return snprintf(err, errlen,
			"bnb-plugin: time keeper: QEMU refused time control (another plugin holds it)"), -1;
	if (!qemu_plugin_take_virtual_clock(time_handle))
		return snprintf(err, errlen,
			"bnb-plugin: time keeper: QEMU kept the virtual clock on the instruction count (it needs -icount shift=N without record/replay)"), -1;
	icount_shift = a->icount_shift;
	bnb_tk_init(&tk, &p);
	bnb_divisor_init(&by_insn_ps, tk.p.insn_ps);
	bnb_divisor_init(&by_hw_insn_ps, tk.p.hw_insn_ps);
	batch = a->tk_batch;
	board = qemu_plugin_scoreboard_new(sizeof(uint64_t));
	slot = qemu_plugin_scoreboard_u64(board);
	shm = counters;
	model = m;
	if (shm)
		publish_params();
	return 0;
}
