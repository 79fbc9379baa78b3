// SPDX-License-Identifier: GPL-2.0
/* The phases workload's plan: options, checks, schedule, buffer check (workloads/phases_plan.c). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "phases_plan.h"

#define MIB (1ull << 20)

static char err[ERRLEN];

/* Parse a command line into @c, defaults first: 0, or -1 with err. */
static int parse(struct phases_cfg *c, int argc, char **argv)
{
	int rc;

	memset(c, 0, sizeof(*c));
	err[0] = '\0';
	cr_assert_eq(opt_defaults(phases_tool.opts, phases_tool.n, c, err, sizeof(err)), 0,
		     "%s", err);
	rc = opt_getopt(phases_tool.opts, phases_tool.n, argc, argv, c, false, err, sizeof(err));
	cr_assert(rc < 0 || rc == argc, "argument %d left over", rc);
	return rc < 0 ? rc : 0;
}

#define PARSE(c, ...) ({ char *argv_[] = { "phases", __VA_ARGS__, NULL }; \
	parse(c, (int)(sizeof(argv_) / sizeof(argv_[0])) - 1, argv_); })

/* Two nodes of one CPU and 512 MiB each: the test guest's shape. */
static struct wl_topo two_nodes(void)
{
	struct wl_topo t = { .nodes = 2, .total_cpus = 2 };

	for (int n = 0; n < 2; n++) {
		t.present[n] = true;
		t.mem[n] = 512 * MIB;
		t.cpus[n] = 1;
	}
	return t;
}

static void nodes_are(const struct wl_nodelist *l, int n, const int *want)
{
	cr_assert_eq(l->n, n, "%d nodes, want %d", l->n, n);
	for (int i = 0; i < n; i++)
		cr_assert_eq(l->node[i], want[i], "entry %d: %d, want %d", i, l->node[i], want[i]);
}

Test(phases_nodes, lists_and_ranges_keep_their_order)
{
	struct wl_nodelist l;

	cr_assert_eq(phases_parse_nodes("2,0", &l, err, sizeof(err)), 0, "%s", err);
	nodes_are(&l, 2, (int[]){ 2, 0 });
	cr_assert_eq(phases_parse_nodes("3,0-2", &l, err, sizeof(err)), 0, "%s", err);
	nodes_are(&l, 4, (int[]){ 3, 0, 1, 2 });
	cr_assert_eq(phases_parse_nodes("5", &l, err, sizeof(err)), 0, "%s", err);
	nodes_are(&l, 1, (int[]){ 5 });
}

Test(phases_nodes, bad_lists_say_what)
{
	static const struct { const char *text, *why; } bad[] = {
		{ "", "separated by commas" }, { "0,,1", "separated by commas" },
		{ "0,1,0", "node 0 listed twice" }, { "1,0-2", "node 1 listed twice" },
		{ "3-1", "range 3-1 runs backwards" }, { "x", "'x'" }, { "-1", "'-1'" },
		{ "64", "'64'" }, { "0-", "''" },
	};
	struct wl_nodelist l;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		cr_assert_eq(phases_parse_nodes(bad[i].text, &l, err, sizeof(err)), -1,
			     "'%s' accepted", bad[i].text);
		cr_assert(strstr(err, bad[i].why), "'%s': '%s' lacks '%s'", bad[i].text, err,
			  bad[i].why);
	}
}

Test(phases_opts, defaults_and_values)
{
	struct phases_cfg c;

	cr_assert_eq(PARSE(&c, "--phase-s", "0.5"), 0, "%s", err);
	cr_assert_eq(c.com.size, 16 * MIB);
	cr_assert_eq(c.com.threads, 0);
	cr_assert_eq(c.phases, 4);
	cr_assert_float_eq(c.phase_s, 0.5, 1e-12);
	cr_assert_eq(c.phase_passes, 0);
	cr_assert_eq(c.nodes.n, 0);
	cr_assert_eq(c.interval_ms, 100);
	cr_assert_eq(c.com.locality_every, 1);
	cr_assert_eq(c.com.samples, 256);
	cr_assert_eq(PARSE(&c, "--phase-passes=3", "--nodes", "1,0", "--size", "1M",
			   "--phases", "6", "--threads", "4"), 0, "%s", err);
	cr_assert_eq(c.phase_passes, 3);
	nodes_are(&c.nodes, 2, (int[]){ 1, 0 });
	cr_assert_eq(c.com.size, MIB);
	cr_assert_eq(c.phases, 6);
	cr_assert_eq(c.com.threads, 4);
}

Test(phases_opts, bounds_refused_by_name)
{
	static const struct { const char *opt, *val; } bad[] = {
		{ "--phase-s", "0" }, { "--phase-s", "-1" }, { "--phase-passes", "0" },
		{ "--phases", "0" }, { "--size", "1K" }, { "--threads", "-1" },
		{ "--nodes", "0,0" }, { "--interval-ms", "0" },
	};
	struct phases_cfg c;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(PARSE(&c, (char *)bad[i].opt, (char *)bad[i].val), -1,
			     "%s %s accepted", bad[i].opt, bad[i].val);
		cr_assert(!strncmp(err, bad[i].opt, strlen(bad[i].opt)),
			  "%s %s: '%s' does not name the option", bad[i].opt, bad[i].val, err);
	}
}

Test(phases_check, exactly_one_phase_length)
{
	struct phases_cfg c;

	PARSE(&c, "--size", "1M");
	cr_assert_eq(phases_check(&c, err, sizeof(err)), -1);
	cr_assert(strstr(err, "exactly one of --phase-s and --phase-passes"), "%s", err);
	PARSE(&c, "--phase-s", "1", "--phase-passes", "2");
	cr_assert_eq(phases_check(&c, err, sizeof(err)), -1);
	PARSE(&c, "--phase-passes", "2");
	cr_assert_eq(phases_check(&c, err, sizeof(err)), 0, "%s", err);
	PARSE(&c, "--phase-passes", "2", "--nodes", "1");
	cr_assert_eq(phases_check(&c, err, sizeof(err)), -1);
	cr_assert(strstr(err, "at least two nodes"), "%s", err);
	PARSE(&c, "--phase-passes", "2", "--samples", "0");
	cr_assert_eq(phases_check(&c, err, sizeof(err)), -1);
	cr_assert(strstr(err, "--samples must be greater than 0"), "%s", err);
}

Test(phases_resolve, fills_nodes_and_threads)
{
	struct wl_topo t = two_nodes();
	struct phases_cfg c;

	PARSE(&c, "--phase-s", "1");
	cr_assert_eq(phases_resolve(&c, &t, err, sizeof(err)), 0, "%s", err);
	nodes_are(&c.nodes, 2, (int[]){ 0, 1 });
	cr_assert_eq(c.com.threads, 2);
	/* a node without CPUs (memory only) is not in the default rotation */
	t.nodes = 3;
	t.present[2] = true;
	t.mem[2] = 512 * MIB;
	PARSE(&c, "--phase-s", "1");
	cr_assert_eq(phases_resolve(&c, &t, err, sizeof(err)), 0, "%s", err);
	nodes_are(&c.nodes, 2, (int[]){ 0, 1 });
}

Test(phases_resolve, refuses_what_the_machine_cannot_hold)
{
	static const struct { const char *opt, *val, *why; } bad[] = {
		{ "--threads", "3", "--threads 3 puts 2 threads on node 0, which has 1 CPUs" },
		{ "--nodes", "0,2", "node 2: no such NUMA node with memory (nodes are 0-1)" },
		{ "--size", "600M", "1 buffers of 600.0 MiB on node 0 are more than its 512.0 MiB" },
	};
	struct wl_topo t = two_nodes(), one = two_nodes();
	struct phases_cfg c;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		PARSE(&c, "--phase-s", "1", (char *)bad[i].opt, (char *)bad[i].val);
		cr_assert_eq(phases_resolve(&c, &t, err, sizeof(err)), -1, "%s %s accepted",
			     bad[i].opt, bad[i].val);
		cr_assert(strstr(err, bad[i].why), "'%s' lacks '%s'", err, bad[i].why);
	}
	one.nodes = 1;
	PARSE(&c, "--phase-s", "1");
	cr_assert_eq(phases_resolve(&c, &one, err, sizeof(err)), -1);
	cr_assert(strstr(err, "this system has 1"), "%s", err);
}

Test(phases_node, every_phase_after_the_first_starts_remote)
{
	struct phases_cfg c = { .nodes = { 3, { 2, 0, 1 } }, .com.threads = 5 };
	unsigned int t, p;

	cr_assert_eq(phases_node(&c, 0, 0), 2);
	cr_assert_eq(phases_node(&c, 1, 1), 1);
	cr_assert_eq(phases_node(&c, 4, 0), 0);	/* wraps: thread 4 starts on entry 1 */
	cr_assert_eq(phases_node(&c, 0, 3), 2);
	for (t = 0; t < 5; t++)
		for (p = 1; p < 9; p++)
			cr_assert_neq(phases_node(&c, t, p), phases_node(&c, t, p - 1),
				      "thread %u stays on node %d into phase %u", t,
				      phases_node(&c, t, p), p);
}

Test(phases_buffer, a_partial_pass_checks_exactly)
{
	enum { N = 1000 };
	uint64_t x[N], updates = 0;
	size_t pos = 0, to, chunk;

	phases_fill(x, N, 3);
	cr_assert_eq(phases_wrong(x, N, 3, 0), 0);
	/* uneven chunks over several passes, stopping in the middle of one */
	for (chunk = 7; updates < 4 * N + 321; chunk = chunk * 3 % 101 + 1) {
		to = pos + chunk < N ? pos + chunk : N;
		if (updates + (to - pos) > 4 * N + 321)
			to = pos + (size_t)(4 * N + 321 - updates);
		phases_update(x, pos, to);
		updates += to - pos;
		pos = to == N ? 0 : to;
	}
	cr_assert_eq(phases_wrong(x, N, 3, updates), 0);
	cr_assert_neq(phases_wrong(x, N, 3, updates + 1), 0, "one update too many passes");
	cr_assert_eq(phases_wrong(x, N, 2, updates), N, "another thread's values pass");
	x[500] ^= 1;
	cr_assert_eq(phases_wrong(x, N, 3, updates), 1);
}
