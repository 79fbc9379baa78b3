// SPDX-License-Identifier: GPL-2.0
/* bnb-vm --tools auto: which guest commands get the tools archive. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../bench/vm/vm.h"

static char list[] = "/tmp/test_vm_tools.XXXXXX";

/* The list as mkinitramfs.sh writes it: ls of the archive's bin dir. */
static void write_list(void)
{
	int fd = mkstemp(list);
	FILE *f = fdopen(fd, "w");

	cr_assert_not_null(f);
	fputs("lstopo\nlstopo-no-graphics\nnumactl\nperf\nstress-ng\n", f);
	fclose(f);
}

static void remove_list(void)
{
	unlink(list);
}

TestSuite(tools, .init = write_list, .fini = remove_list);

Test(tools, a_named_tool_is_found_as_a_word)
{
	cr_assert_eq(cmd_names_tool("perf stat -e cycles stream", list), 1);
	cr_assert_eq(cmd_names_tool("numactl -H; grep numa_ /proc/vmstat", list), 1);
	cr_assert_eq(cmd_names_tool("stress-ng --vm 2 --timeout 5", list), 1);
	cr_assert_eq(cmd_names_tool("x=$(lstopo-no-graphics --of console)", list), 1);
	cr_assert_eq(cmd_names_tool("/opt/bnb/bin/perf record -a", list), 1);
	cr_assert_eq(cmd_names_tool("true && lstopo", list), 1);
}

Test(tools, parts_of_other_words_are_not_tools)
{
	cr_assert_eq(cmd_names_tool("stream --placement misplaced", list), 0);
	cr_assert_eq(cmd_names_tool("perfect --numactlish", list), 0);
	cr_assert_eq(cmd_names_tool("stress --mode x_perf", list), 0);
	cr_assert_eq(cmd_names_tool("echo superf", list), 0);
	cr_assert_eq(cmd_names_tool("", list), 0);
}

Test(tools, an_unreadable_list_says_so)
{
	cr_assert_eq(cmd_names_tool("perf", "/nonexistent/tools.list"), -1);
}
