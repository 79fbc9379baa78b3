// SPDX-License-Identifier: GPL-2.0
/* Reply framing and parsing, including hostile input. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "reply.h"

static struct bnb_reply r;
static char err[256];

static int parse(const char *s)
{
	err[0] = '\0';
	return reply_parse(s, strlen(s), &r, err, sizeof(err));
}

static void rejects(const char *s, const char *why)
{
	cr_expect_eq(parse(s), -1, "accepted: %s", s);
	cr_expect(strstr(err, why), "error '%s' does not mention '%s'", err, why);
}

Test(reply, full_reply)
{
	unsigned long long v;

	cr_assert_eq(parse("bnb 1 42 123456789\n"
			   "c numa_hint_faults 833\n"
			   "c numa_hint_faults_local 610\n"
			   "n 0 524288 1000\n"
			   "n 1 524288 2000\n"
			   "w 2\n"
			   "m 1 32768\n"
			   "x maps\n"
			   "end\n"), 0, "%s", err);
	cr_expect_eq(r.seq, 42);
	cr_expect_eq(r.guest_ns, 123456789);
	cr_expect_eq(r.nr_counters, 2);
	cr_expect(reply_counter(&r, "numa_hint_faults", &v));
	cr_expect_eq(v, 833);
	cr_expect(reply_counter(&r, "numa_hint_faults_local", &v));
	cr_expect_eq(v, 610);
	cr_expect_eq(r.nodes, 3);
	cr_expect_eq(r.mem_total_kb[1], 524288);
	cr_expect_eq(r.mem_used_kb[1], 2000);
	cr_expect(r.has_maps);
	cr_expect_eq(r.pids_walked, 2);
	cr_expect_eq(r.page_nodes, 2);
	cr_expect_eq(r.node_pages[1], 32768);
	cr_expect_eq(r.missing, MISSING_MAPS);
}

Test(reply, absent_counter_is_absent_not_zero)
{
	unsigned long long v = 7;

	cr_assert_eq(parse("bnb 1 1 1\nc pgfault 0\nend\n"), 0, "%s", err);
	cr_expect_not(reply_counter(&r, "numa_hint_faults", &v));
	cr_expect_eq(v, 7);
	cr_expect(reply_counter(&r, "pgfault", &v));
	cr_expect_eq(v, 0);
}

Test(reply, max_u64_and_unknown_lines)
{
	unsigned long long v;

	cr_assert_eq(parse("bnb 1 1 1\nc a 18446744073709551615\nzz future 1 2\nend\n"),
		     0, "%s", err);
	cr_expect(reply_counter(&r, "a", &v));
	cr_expect_eq(v, 18446744073709551615ULL);
	cr_expect_eq(r.unknown_lines, 1);
}

Test(reply, hostile)
{
	rejects("", "end");
	rejects("end\n", "no header");
	rejects("hello\nend\n", "header");
	rejects("bnb 2 1 1\nend\n", "version 2");
	rejects("bnb 1 1\nend\n", "header needs");
	rejects("bnb 1 -1 1\nend\n", "header needs");
	rejects("bnb 1 1 1\nc pgfault 1\n", "end");
	rejects("bnb 1 1 1\nend\nc x 1\n", "end");
	rejects("bnb 1 1 1\nc a 18446744073709551616\nend\n", "counter");
	rejects("bnb 1 1 1\nc a 1x\nend\n", "counter");
	rejects("bnb 1 1 1\nc A 1\nend\n", "counter");
	rejects("bnb 1 1 1\nc ../../etc 1\nend\n", "counter");
	rejects("bnb 1 1 1\nc a 1 2\nend\n", "counter");
	rejects("bnb 1 1 1\nc a 1\nc a 2\nend\n", "duplicate counter a");
	rejects("bnb 1 1 1\nc a\t1\nend\n", "0x09");
	rejects("bnb 1 1 1\nc a\0 1\nend\n", "end");	/* strlen stops at NUL */
	rejects("bnb 1 1 1\n\nend\n", "empty line");
	rejects("bnb 1 1 1\nn 64 1 1\nend\n", "node number");
	rejects("bnb 1 1 1\nn 0 1 1\nn 0 1 1\nend\n", "duplicate node 0");
	rejects("bnb 1 1 1\nn 0 10 11\nend\n", "more memory");
	rejects("bnb 1 1 1\nm 0 5\nend\n", "before the 'w'");
	rejects("bnb 1 1 1\nw 1\nw 1\nend\n", "duplicate 'w'");
	rejects("bnb 1 1 1\nx\nend\n", "'x'");
	rejects("bnb 1 1 1\nc a 1\nbnb 1 2 2\nc b 1\nend\n", "second header");
}

Test(reply, nul_byte_is_rejected)
{
	static const char s[] = "bnb 1 1 1\nc a\0 1\nend\n";

	cr_expect_eq(reply_parse(s, sizeof(s) - 1, &r, err, sizeof(err)), -1);
	cr_expect(strstr(err, "0x00"), "%s", err);
}

Test(reply, long_line)
{
	char s[512];

	snprintf(s, sizeof(s), "bnb 1 1 1\nc a %0200d\nend\n", 1);
	rejects(s, "longer than");
}

Test(reply, too_many_counters)
{
	static char s[BNB_WIRE_MAX_REPLY];
	size_t len = snprintf(s, sizeof(s), "bnb 1 1 1\n");

	for (int i = 0; i <= BNB_WIRE_MAX_COUNTERS; i++)
		len += snprintf(s + len, sizeof(s) - len, "c c%d %d\n", i, i);
	snprintf(s + len, sizeof(s) - len, "end\n");
	rejects(s, "more than 96 counters");
}

Test(reply, oversized)
{
	static char s[BNB_WIRE_MAX_REPLY + 64];
	size_t len = snprintf(s, sizeof(s), "bnb 1 1 1\n");

	while (len < BNB_WIRE_MAX_REPLY)
		len += snprintf(s + len, sizeof(s) - len, "zz padding padding\n");
	snprintf(s + len, sizeof(s) - len, "end\n");
	rejects(s, "exceeds");
}

Test(reply, error_names_the_line)
{
	rejects("bnb 1 1 1\nc a 1\nc b x\nend\n", "(line 3)");
}

Test(frame, finds_terminator_at_line_start_only)
{
	cr_expect_eq(reply_frame("bnb 1 1 1\nc a 1\n", 16), 0);
	cr_expect_eq(reply_frame("bnb 1 1 1\nc xend\n", 17), 0);
	cr_expect_eq(reply_frame("end\n", 4), 4);
	cr_expect_eq(reply_frame("bnb 1 1 1\nend\nbnb 1 2 2\nend\n", 28), 14);
	cr_expect_eq(reply_frame("bnb 1 1 1\nend", 13), 0);
}
