// SPDX-License-Identifier: GPL-2.0
/*
 * Map check verdicts: the 99 % rule, missing phases, protocol errors; and
 * the marker instructions that drive it, decoded from real code bytes.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "../../bench/plugin/mapcheck.h"
#include "bnb_marker.h"

static struct bnb_mapcheck mc;

static void run_phase(uint64_t total, uint64_t on)
{
	int node = bnb_mapcheck_begin(&mc);

	bnb_mapcheck_end(&mc, node, total, on);
}

Test(plugin_mapcheck, unchecked_until_started)
{
	bnb_mapcheck_init(&mc, 2, 99);
	cr_assert_eq(mc.status, BNB_MAP_UNCHECKED);
	bnb_mapcheck_start(&mc);
	cr_assert_eq(mc.status, BNB_MAP_CHECKING);
}

Test(plugin_mapcheck, passes_at_99_percent)
{
	bnb_mapcheck_init(&mc, 2, 99);
	bnb_mapcheck_start(&mc);
	run_phase(100000, 99000);
	run_phase(100000, 100000);
	cr_assert_eq(bnb_mapcheck_done(&mc), BNB_MAP_OK, "%s", mc.msg);
	cr_assert_eq(mc.res[0].on_node, 99000);
	cr_assert_eq(mc.res[1].total, 100000);
}

Test(plugin_mapcheck, fails_just_below_99_percent)
{
	bnb_mapcheck_init(&mc, 2, 99);
	bnb_mapcheck_start(&mc);
	run_phase(100000, 100000);
	run_phase(100000, 98999);
	cr_assert_eq(mc.status, BNB_MAP_FAILED);
	cr_assert(strstr(mc.msg, "node 1"), "%s", mc.msg);
	cr_assert(strstr(mc.msg, "98.99%"), "%s", mc.msg);
	cr_assert_eq(bnb_mapcheck_done(&mc), BNB_MAP_FAILED, "done cannot clear a failure");
}

Test(plugin_mapcheck, wrong_map_reports_first_failing_node)
{
	bnb_mapcheck_init(&mc, 3, 99);
	bnb_mapcheck_start(&mc);
	run_phase(50000, 50000);
	run_phase(50000, 0);
	run_phase(50000, 10);
	cr_assert_eq(mc.status, BNB_MAP_FAILED);
	cr_assert(strstr(mc.msg, "node 1: 0.00%"), "%s", mc.msg);
}

Test(plugin_mapcheck, too_few_accesses)
{
	bnb_mapcheck_init(&mc, 1, 99);
	bnb_mapcheck_start(&mc);
	run_phase(BNB_MAPCHECK_MIN_ACCESSES - 1, BNB_MAPCHECK_MIN_ACCESSES - 1);
	cr_assert_eq(mc.status, BNB_MAP_FAILED);
	cr_assert(strstr(mc.msg, "only"), "%s", mc.msg);
}

Test(plugin_mapcheck, missing_node)
{
	bnb_mapcheck_init(&mc, 3, 99);
	bnb_mapcheck_start(&mc);
	run_phase(100000, 100000);
	run_phase(100000, 100000);
	cr_assert_eq(bnb_mapcheck_done(&mc), BNB_MAP_FAILED);
	cr_assert(strstr(mc.msg, "2 of 3 nodes"), "%s", mc.msg);
}

Test(plugin_mapcheck, protocol_errors)
{
	bnb_mapcheck_init(&mc, 1, 99);
	cr_assert_eq(bnb_mapcheck_begin(&mc), -1, "begin before start");
	cr_assert_eq(mc.status, BNB_MAP_FAILED);

	bnb_mapcheck_start(&mc);
	cr_assert_eq(mc.status, BNB_MAP_CHECKING, "start clears an old failure");
	run_phase(100000, 100000);
	cr_assert_eq(bnb_mapcheck_begin(&mc), -1, "more phases than nodes");
	cr_assert_eq(mc.status, BNB_MAP_FAILED);

	bnb_mapcheck_init(&mc, 1, 99);
	bnb_mapcheck_start(&mc);
	cr_assert_eq(bnb_mapcheck_end(&mc, -1, 5, 5), BNB_MAP_FAILED, "end without begin");
}

/* The bytes bnb_mark_*() emit, read back from this binary's own code. */
static void __attribute__((noinline)) emit_work(void) { bnb_mark_work(); }
static void __attribute__((noinline)) emit_work_end(void) { bnb_mark_work_end(); }

Test(plugin_marker, decodes_every_op_and_nothing_else)
{
	uint8_t insn[BNB_MARKER_LEN] = { 0x0f, 0x1f, 0x80, 0x42, 0x4e, 0x50, 0 };
	const uint8_t *code = (const uint8_t *)emit_work;
	int op, found = 0;

	for (op = 0; op <= 7; op++) {
		insn[6] = (uint8_t)op;
		cr_expect_eq(bnb_marker_op(insn, sizeof(insn)),
			     op >= BNB_MARK_START && op <= BNB_MARK_WORK_END ? op : 0, "op %d", op);
	}
	insn[6] = BNB_MARK_WORK;
	cr_expect_eq(bnb_marker_op(insn, sizeof(insn) - 1), 0, "short instruction");
	insn[3] = 0;			/* the padding nopl compilers emit */
	cr_expect_eq(bnb_marker_op(insn, sizeof(insn)), 0);
	for (int i = 0; i < 64 && !found; i++)
		found = bnb_marker_op(code + i, BNB_MARKER_LEN) == BNB_MARK_WORK;
	cr_expect(found, "bnb_mark_work() emitted no WORK marker");
	code = (const uint8_t *)emit_work_end;
	found = 0;
	for (int i = 0; i < 64 && !found; i++)
		found = bnb_marker_op(code + i, BNB_MARKER_LEN) == BNB_MARK_WORK_END;
	cr_expect(found, "bnb_mark_work_end() emitted no WORK_END marker");
}
