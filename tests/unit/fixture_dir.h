/* SPDX-License-Identifier: GPL-2.0 */
/* Where a unit test's fixtures are: ROOT/build/tests/NAME -> ROOT/tests/unit/fixtures/SUB. */
#ifndef BNB_TEST_FIXTURE_DIR_H
#define BNB_TEST_FIXTURE_DIR_H

#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static inline void fixture_dir(char *buf, size_t len, const char *sub)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int i;

	cr_assert_gt(n, 0);
	exe[n] = 0;
	for (i = 0; i < 3; i++)
		*strrchr(exe, '/') = 0;
	snprintf(buf, len, "%s/tests/unit/fixtures/%s", exe, sub);
}

#endif
