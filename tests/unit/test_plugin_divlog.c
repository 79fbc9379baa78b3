// SPDX-License-Identifier: GPL-2.0
/*
 * The divergence log: two runs that execute the same blocks and switch
 * vCPUs at the same points write the same log; a run that switches one
 * block later, or runs one other block, differs at the first turn after.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/plugin/divlog.h"

struct step {
	unsigned int v;
	uint64_t pc;
	unsigned int n;
};

/* The log of a block sequence, as one string (caller frees). */
static char *log_of(const struct step *s, size_t n_steps)
{
	struct bnb_divlog d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	bnb_divlog_init(&d, f, 2);
	for (size_t i = 0; i < n_steps; i++)
		bnb_divlog_block(&d, s[i].v, s[i].pc, s[i].n);
	bnb_divlog_event(&d, 0, "add", 5);
	fclose(f);
	return buf;
}

static const struct step base[] = {
	{ 0, 0x1000, 4 }, { 0, 0x1010, 3 }, { 1, 0x2000, 5 }, { 0, 0x1020, 2 }, { 1, 0x2010, 1 },
};

Test(divlog, same_run_same_log)
{
	char *a = log_of(base, 5), *b = log_of(base, 5);

	cr_assert_str_eq(a, b);
	free(a);
	free(b);
}

Test(divlog, a_turn_line_per_switch_with_counts)
{
	char *a = log_of(base, 5);
	char want[80];

	cr_assert_eq(strncmp(a, "turn 1 v0 insns=7 ", 18), 0, "got: %s", a);
	snprintf(want, sizeof(want), "-> v1 insns=0\nturn 2 v1 insns=5 ");
	cr_assert_not_null(strstr(a, want), "got: %s", a);
	cr_assert_not_null(strstr(a, "turn 3 v0 insns=9 "), "got: %s", a);
	cr_assert_not_null(strstr(a, "\nadd v0 insns=9 "), "got: %s", a);
	cr_assert_null(strstr(a, "turn 4"), "got: %s", a);
	free(a);
}

Test(divlog, a_later_switch_differs_in_its_turn_line)
{
	const struct step later[] = {
		{ 0, 0x1000, 4 }, { 0, 0x1010, 3 }, { 0, 0x1020, 2 }, { 1, 0x2000, 5 }, { 1, 0x2010, 1 },
	};
	char *a = log_of(base, 5), *b = log_of(later, 5);

	cr_assert_not_null(strstr(b, "turn 1 v0 insns=9 "), "got: %s", b);
	cr_assert_str_neq(a, b);
	free(a);
	free(b);
}

Test(divlog, other_code_same_count_differs_in_its_hash)
{
	struct step other[5];
	char *a, *b, *nl;

	memcpy(other, base, sizeof(other));
	other[1].pc = 0x1018;
	a = log_of(base, 5);
	b = log_of(other, 5);
	nl = strchr(a, '\n');
	cr_assert_neq(strncmp(a, b, nl - a), 0, "first turns equal: %s", b);
	cr_assert_eq(strncmp(a, b, strlen("turn 1 v0 insns=7 hash=")), 0);
	free(a);
	free(b);
}

Test(divlog, vcpus_beyond_the_machine_are_ignored)
{
	const struct step s[] = { { 0, 0x1000, 4 }, { 7, 0x9000, 9 }, { 0, 0x1010, 1 } };
	char *a = log_of(s, 3);

	cr_assert_null(strstr(a, "turn"), "got: %s", a);
	free(a);
}
