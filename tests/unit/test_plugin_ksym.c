// SPDX-License-Identifier: GPL-2.0
/*
 * The balancer's work by kernel function (bench/plugin/ksym.h): a made-up
 * System.map read into ranges, blocks attributed to the kind that began
 * them until a function that ends it, stalls charged to the current kind,
 * and maps that are not a kernel's refused.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugin/ksym.h"

#define TEXT 0xffffffff81000000ULL

static const char map[] =
	"0000000000000000 D __per_cpu_start\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81001000 t change_protection\n"
	"ffffffff81002000 T task_numa_work\n"
	"ffffffff81002400 T numa_migrate_prep\n"
	"ffffffff81002800 T task_numa_fault\n"
	"ffffffff81003000 T __schedule\n"
	"ffffffff81003800 T do_idle\n"
	"ffffffff81004000 T migrate_misplaced_page\n"
	"ffffffff81004100 T migrate_pages\n"
	"ffffffff81004200 T copy_page\n"
	"ffffffff81005000 T syscall_exit_to_user_mode\n"
	"ffffffff81005100 T mprotect_fixup\n"
	"ffffffff81006000 T _etext\n"
	"ffffffff82000000 D jiffies\n";

static struct bnb_ksym k;

static char *write_map(const char *text)
{
	static char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/bnb-test-ksym-XXXXXX");
	f = fdopen(mkstemp(path), "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void load(void)
{
	char err[512], *path = write_map(map);

	cr_assert_eq(bnb_ksym_load(&k, path, err, sizeof(err)), 0, "%s", err);
	unlink(path);
}

static void unload(void)
{
	bnb_ksym_free(&k);
}

TestSuite(ksym, .init = load, .fini = unload);

Test(ksym, functions_begin_end_or_inherit)
{
	cr_assert_eq(k.found, 6);
	cr_assert_eq(bnb_ksym_action(&k, TEXT + 0x2000), BNB_KSYM_SCAN);
	cr_assert_eq(bnb_ksym_action(&k, TEXT + 0x23ff), BNB_KSYM_SCAN, "inside task_numa_work");
	cr_assert_eq(bnb_ksym_action(&k, TEXT + 0x2400), BNB_KSYM_FAULT);
	cr_assert_eq(bnb_ksym_action(&k, TEXT + 0x4010), BNB_KSYM_MIGRATE);
	cr_assert_eq(bnb_ksym_action(&k, TEXT + 0x3000), BNB_KSYM_NONE, "__schedule ends it");
	cr_assert_eq(bnb_ksym_action(&k, TEXT + 0x1010), BNB_KSYM_INHERIT, "change_protection");
	cr_assert_eq(bnb_ksym_action(&k, TEXT + 0x4200), BNB_KSYM_INHERIT, "copy_page");
	cr_assert_eq(bnb_ksym_action(&k, TEXT + 0x5100), BNB_KSYM_INHERIT, "mprotect_fixup");
	cr_assert_eq(bnb_ksym_action(&k, TEXT - 1), BNB_KSYM_INHERIT, "below _stext");
	cr_assert_eq(bnb_ksym_action(&k, TEXT + 0x6000), BNB_KSYM_INHERIT, "from _etext on");
	cr_assert_eq(bnb_ksym_action(&k, 0x401000), BNB_KSYM_INHERIT, "user code");
}

/* Run blocks (address, instructions) on one vCPU. */
static void run(struct bnb_ksym_vcpu *v, const uint64_t (*blocks)[2], size_t n)
{
	for (size_t i = 0; i < n; i++)
		bnb_ksym_block(v, bnb_ksym_action(&k, blocks[i][0]), blocks[i][1]);
}

Test(ksym, a_scan_counts_its_callees_until_the_return_to_user_mode)
{
	static const uint64_t blocks[][2] = {
		{ TEXT + 0x2000, 5 },	/* task_numa_work */
		{ TEXT + 0x1000, 100 },	/* change_protection, on its behalf */
		{ TEXT + 0x2010, 4 },	/* back in task_numa_work */
		{ TEXT + 0x5000, 3 },	/* the return to user mode */
		{ TEXT + 0x5100, 7 },	/* later: mprotect */
		{ TEXT + 0x1000, 50 },	/* change_protection for it */
	};
	struct bnb_ksym_vcpu v = { 0 };

	run(&v, blocks, 6);
	cr_assert_eq(v.insns[BNB_KSYM_SCAN], 109);
	cr_assert_eq(v.insns[BNB_KSYM_NONE], 60);
	cr_assert_eq(v.insns[BNB_KSYM_FAULT] + v.insns[BNB_KSYM_MIGRATE], 0);
}

Test(ksym, a_fault_with_a_migration_and_a_reschedule)
{
	static const uint64_t blocks[][2] = {
		{ TEXT + 0x2400, 10 },	/* numa_migrate_prep */
		{ TEXT + 0x4000, 20 },	/* migrate_misplaced_page */
		{ TEXT + 0x4200, 512 },	/* copy_page */
		{ TEXT + 0x2800, 30 },	/* task_numa_fault */
		{ TEXT + 0x3000, 40 },	/* __schedule: another task */
		{ TEXT + 0x3800, 1000 },	/* do_idle */
	};
	struct bnb_ksym_vcpu v = { 0 };

	run(&v, blocks, 6);
	cr_assert_eq(v.insns[BNB_KSYM_FAULT], 40);
	cr_assert_eq(v.insns[BNB_KSYM_MIGRATE], 532);
	cr_assert_eq(v.insns[BNB_KSYM_NONE], 1040);
	cr_assert_eq(v.kind, BNB_KSYM_NONE);
}

Test(ksym, stalls_go_to_the_current_kind)
{
	struct bnb_ksym_vcpu v = { 0 };

	bnb_ksym_stall(&v, 7);
	bnb_ksym_block(&v, bnb_ksym_action(&k, TEXT + 0x4000), 1);
	bnb_ksym_stall(&v, 1000);
	bnb_ksym_block(&v, bnb_ksym_action(&k, TEXT + 0x4200), 1);
	bnb_ksym_stall(&v, 500);
	cr_assert_eq(v.stall_ps[BNB_KSYM_MIGRATE], 1500);
	cr_assert_eq(v.stall_ps[BNB_KSYM_NONE], 7);
}

static const char *load_error(const char *text)
{
	static char err[512];
	struct bnb_ksym bad;
	char *path = write_map(text);
	int rc = bnb_ksym_load(&bad, path, err, sizeof(err));

	unlink(path);
	bnb_ksym_free(&bad);
	cr_assert_eq(rc, -1, "loaded '%s'", text);
	return err;
}

Test(ksym, not_a_kernel_map_is_refused)
{
	cr_assert(strstr(load_error("ffffffff81002000 T task_numa_work\n"), "_stext"));
	cr_assert(strstr(load_error("ffffffff81000000 T _stext\nffffffff81000100 T foo\n"
				    "ffffffff81006000 T _etext\n"), "NUMA functions"));
	cr_assert(strstr(load_error("hello world\n"), ":1: not a System.map line"));
	cr_assert(strstr(load_error(""), "not the guest kernel's"));
}
