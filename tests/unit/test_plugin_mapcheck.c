// SPDX-License-Identifier: GPL-2.0
/* Map check verdicts: the 99 % rule, missing phases, protocol errors. */
#include <criterion/criterion.h>
#include <string.h>

#include "../../bench/plugin/mapcheck.h"

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
