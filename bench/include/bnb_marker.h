/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bnb_marker.h - how guest code signals the plugin without a device or syscall.
 *
 * A marker is the 7-byte no-op "nopl disp32(%rax)" (0f 1f 80 + disp32)
 * whose displacement reads "BNP" then an opcode.  The CPU ignores it; the
 * plugin recognises its bytes when it translates the block and runs a
 * callback each time the vCPU executes it.  Compilers pad with disp32 0,
 * never with these bytes.  Shared by the plugin and guest programs.
 * Without the plugin a marker costs one no-op instruction.
 */
#ifndef BNB_PLUGIN_MARKER_H
#define BNB_PLUGIN_MARKER_H

#include <stddef.h>
#include <stdint.h>

#define BNB_MARKER_LEN 7

/*
 * START..DONE: the map-check protocol, one vCPU, nodes in order 0..N-1.
 * WORK: a workload's measured phase starts (its memory is allocated and
 * placed); the plugin counts these in the counters file (work_marks) so
 * the collector knows where "before balancing" begins.  WORK_END: it
 * ended (work_ends); what the guest does after it (the workload's exit,
 * the shell, the agent) is not the workload's placement.
 */
enum bnb_marker_op {
	BNB_MARK_START = 1,	/* forget earlier checks */
	BNB_MARK_BEGIN = 2,	/* next node's phase starts: count my accesses */
	BNB_MARK_END = 3,	/* phase ends: judge that node */
	BNB_MARK_DONE = 4,	/* all nodes done: judge the whole map */
	BNB_MARK_WORK = 5,	/* measured work starts */
	BNB_MARK_WORK_END = 6,	/* measured work ends */
};

/* Emit a marker; op must be a literal digit 1..6. */
#define BNB_MARK(op) \
	__asm__ __volatile__(".byte 0x0f,0x1f,0x80,0x42,0x4e,0x50," #op ::: "memory")

static inline void bnb_mark_start(void) { BNB_MARK(1); }
static inline void bnb_mark_begin(void) { BNB_MARK(2); }
static inline void bnb_mark_end(void) { BNB_MARK(3); }
static inline void bnb_mark_done(void) { BNB_MARK(4); }
static inline void bnb_mark_work(void) { BNB_MARK(5); }
static inline void bnb_mark_work_end(void) { BNB_MARK(6); }

/* The op of a marker instruction, or 0 when the bytes are not one. */
static inline int bnb_marker_op(const uint8_t *insn, size_t len)
{
	static const uint8_t prefix[] = { 0x0f, 0x1f, 0x80, 0x42, 0x4e, 0x50 };

	if (len != BNB_MARKER_LEN)
		return 0;
	for (size_t i = 0; i < sizeof(prefix); i++)
		if (insn[i] != prefix[i])
			return 0;
	if (insn[6] < BNB_MARK_START || insn[6] > BNB_MARK_WORK_END)
		return 0;
	return insn[6];
}

#endif /* BNB_PLUGIN_MARKER_H */
