// SPDX-License-Identifier: GPL-2.0
/* The hotcold workload's plan: options, checks, layout, access choice (workloads/hotcold_plan.c). */
#include <criterion/criterion.h>
#include <string.h>

#include "hotcold_plan.h"
#include "lib/err.h"

#define MIB (1ull << 20)

static char err[ERRLEN];

static int parse(struct hotcold_cfg *c, int argc, char **argv)
{
	int rc;

	hotcold_init(c);
	err[0] = '\0';
	cr_assert_eq(opt_defaults(hotcold_tool.opts, hotcold_tool.n, c, err, sizeof(err)), 0,
		     "%s", err);
	rc = opt_getopt(hotcold_tool.opts, hotcold_tool.n, argc, argv, c, false, err,
			sizeof(err));
	cr_assert(rc < 0 || rc == argc, "argument %d left over", rc);
	return rc < 0 ? rc : 0;
}

#define PARSE(c, ...) ({ char *argv_[] = { "hotcold", __VA_ARGS__, NULL }; \
	parse(c, (int)(sizeof(argv_) / sizeof(argv_[0])) - 1, argv_); })

/* The tiering guest: two nodes of one CPU and 256 MiB, one CXL node of 256 MiB. */
static struct wl_topo tiered(void)
{
	struct wl_topo t = { .nodes = 3, .total_cpus = 2 };

	for (int n = 0; n < 3; n++) {
		t.present[n] = true;
		t.mem[n] = 256 * MIB;
		t.cpus[n] = n < 2;
	}
	return t;
}

static void refused(struct hotcold_cfg *c, const struct wl_topo *t, const char *why)
{
	err[0] = '\0';
	cr_assert_eq(hotcold_resolve(c, t, err, sizeof(err)), -1, "accepted, want '%s'", why);
	cr_assert(strstr(err, why), "'%s' lacks '%s'", err, why);
}

Test(hotcold_plan, defaults_put_the_hot_set_on_the_cpu_less_node)
{
	struct hotcold_cfg c;
	struct wl_topo t = tiered();

	cr_assert_eq(PARSE(&c, "--hot-pct", "90"), 0, "%s", err);
	cr_assert_eq(hotcold_resolve(&c, &t, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(c.slow_node, 2);
	cr_expect_eq(c.slow_size, c.hot_size, "the whole hot set starts slow");
	cr_expect_eq(c.com.threads, 1, "every CPU of node 0");
	cr_expect_eq(hotcold_windows(&c), 8, "64M / 8M");
}

/* Without a CPU-less node the hot set starts remote: plain NUMA balancing's case. */
Test(hotcold_plan, without_slow_memory_the_hot_set_starts_on_the_next_node)
{
	struct hotcold_cfg c;
	struct wl_topo t = tiered();

	t.cpus[2] = 1;
	cr_assert_eq(PARSE(&c, "--node", "1"), 0, "%s", err);
	cr_assert_eq(hotcold_resolve(&c, &t, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(c.slow_node, 2);
	cr_assert_eq(PARSE(&c, "--node", "2"), 0, "%s", err);
	cr_assert_eq(hotcold_resolve(&c, &t, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(c.slow_node, 0);
}

Test(hotcold_plan, bad_layouts_name_the_option)
{
	struct hotcold_cfg c;
	struct wl_topo t = tiered(), flat = tiered();

	flat.cpus[2] = 1;
	cr_assert_eq(PARSE(&c, "--hot-size", "128M"), 0, "%s", err);
	refused(&c, &t, "--hot-size 128.0 MiB is larger than the working set");
	cr_assert_eq(PARSE(&c, "--size", "10000"), 0, "%s", err);
	refused(&c, &t, "--size 10000 is not a multiple of 4K");
	cr_assert_eq(PARSE(&c, "--slow-size", "65M"), 0, "%s", err);
	refused(&c, &t, "--slow-size 65.0 MiB is larger than the working set");
	cr_assert_eq(PARSE(&c, "--hot-size", "40M", "--move-s", "1"), 0, "%s", err);
	refused(&c, &t, "--move-s: the hot set (40.0 MiB) has nowhere to move");
	cr_assert_eq(PARSE(&c, "--size", "300M", "--hot-size", "8M"), 0, "%s", err);
	refused(&c, &t, "--size: 292.0 MiB of the working set go to node 0");
	cr_assert_eq(PARSE(&c, "--size", "600M", "--slow-size", "300M"), 0, "%s", err);
	refused(&c, &t, "--slow-size 300.0 MiB is more than slow node 2's 256.0 MiB");
	cr_assert_eq(PARSE(&c, "--slow-node", "0"), 0, "%s", err);
	refused(&c, &t, "--slow-node 0 is --node");
	cr_assert_eq(PARSE(&c, "--slow-node", "5"), 0, "%s", err);
	refused(&c, &t, "--slow-node 5: no such NUMA node");
	cr_assert_eq(PARSE(&c, "--node", "2"), 0, "%s", err);
	refused(&c, &t, "--node 2 has no CPUs");
	cr_assert_eq(PARSE(&c, "--threads", "2"), 0, "%s", err);
	refused(&c, &t, "--threads 2: node 0 has 1 CPUs");
	flat.nodes = 1;
	cr_assert_eq(PARSE(&c, "--hot-pct", "90"), 0, "%s", err);
	refused(&c, &flat, "needs a second node with memory");
	cr_assert_eq(PARSE(&c, "--hot-pct", "101"), -1);
}

Test(hotcold_plan, hot_share_of_the_picks_is_hot_pct)
{
	const uint64_t lines = 1024, hot_lines = 128, first = 256;
	uint64_t s = hotcold_seed(1, 0), thresh = hotcold_threshold(90), hot = 0;
	const int n = 200000;

	for (int i = 0; i < n; i++) {
		uint64_t off = hotcold_pick(hotcold_rand(&s), thresh, lines, first, hot_lines);
		uint64_t line = off / HOTCOLD_LINE;

		cr_assert_eq(off % HOTCOLD_LINE, 0);
		cr_assert_lt(line, lines);
		hot += line >= first && line < first + hot_lines;
	}
	cr_expect(hot > 0.89 * n && hot < 0.91 * n, "%llu of %d hot", (unsigned long long)hot, n);
}

Test(hotcold_plan, cold_picks_avoid_the_hot_window_and_reach_every_cold_line)
{
	const uint64_t lines = 64, hot_lines = 16, first = 48;
	uint64_t s = hotcold_seed(7, 3), seen[64] = { 0 };

	for (int i = 0; i < 100000; i++)
		seen[hotcold_pick(hotcold_rand(&s), 0, lines, first, hot_lines) / HOTCOLD_LINE]++;
	for (uint64_t l = 0; l < lines; l++) {
		bool in_hot = l >= first && l < first + hot_lines;

		cr_expect(in_hot ? !seen[l] : seen[l] > 0, "line %llu picked %llu times",
			  (unsigned long long)l, (unsigned long long)seen[l]);
	}
	s = hotcold_seed(7, 3);
	for (int i = 0; i < 1000; i++) {
		uint64_t l = hotcold_pick(hotcold_rand(&s), hotcold_threshold(100), lines,
					  first, hot_lines) / HOTCOLD_LINE;

		cr_assert(l >= first && l < first + hot_lines, "line %llu at 100%%",
			  (unsigned long long)l);
	}
}

Test(hotcold_plan, seeds_differ_by_thread_and_are_never_zero)
{
	cr_expect_neq(hotcold_seed(1, 0), hotcold_seed(1, 1));
	cr_expect_neq(hotcold_seed(1, 0), hotcold_seed(2, 0));
	cr_expect_neq(hotcold_seed(0, 0), 0);
}
