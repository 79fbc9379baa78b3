// SPDX-License-Identifier: GPL-2.0
/*
 * The plugin's address map against QEMU's memory map (bench/vm/layout.c),
 * on "info mtree -f" as the project's QEMU 10 printed it for bnb-vm's q35
 * guests (fixtures/vm: 4 x 1 GiB, 2 x 8 GiB; the nodes' memdevs, a
 * virtio-serial device).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_dir.h"
#include "../../bench/plugin/addrmap.h"
#include "../../bench/vm/vm.h"

#define GiB (1ULL << 30)

static char *fixture(const char *name)
{
	char dir[PATH_MAX + 64], path[PATH_MAX + 128], *text;
	FILE *f;
	long n;

	fixture_dir(dir, sizeof(dir), "vm");
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc(1, n + 1);
	cr_assert_eq(fread(text, 1, n, f), (size_t)n);
	fclose(f);
	return text;
}

static int check(const char *file, unsigned int nodes, const uint64_t *sizes,
		 uint64_t below_4g, char *err, size_t errlen)
{
	struct bnb_addrmap m;
	char *mtree = fixture(file);
	int rc;

	bnb_addrmap_build(&m, BNB_MAP_LINEAR, nodes, sizes, below_4g);
	err[0] = '\0';
	rc = layout_check(mtree, &m, nodes, err, errlen);
	free(mtree);
	return rc;
}

static const uint64_t four[] = { GiB, GiB, GiB, GiB };
static const uint64_t two[] = { 8 * GiB, 8 * GiB };

Test(vm_layout, q35_split_matches_qemu)
{
	char err[512];

	cr_assert_eq(check("mtree-4x1g.txt", 4, four, bnb_q35_below_4g(4 * GiB), err,
			   sizeof(err)), 0, "%s", err);
	cr_assert_eq(check("mtree-2x8g.txt", 2, two, bnb_q35_below_4g(16 * GiB), err,
			   sizeof(err)), 0, "%s", err);
}

/* main's map: every node back to back from 0, as if there were no hole */
Test(vm_layout, map_without_the_hole_is_refused)
{
	char err[512];

	cr_assert_eq(check("mtree-4x1g.txt", 4, four, 4 * GiB, err, sizeof(err)), -1);
	cr_assert(strstr(err, "node 2's RAM (mem2) at guest-physical 0x100000000-0x13fffffff"),
		  "%s", err);
	cr_assert(strstr(err, "puts 0x100000000 on no node"), "%s", err);
}

/* A split in the wrong place, which the guest's 2 MiB per node can miss. */
Test(vm_layout, split_in_the_wrong_place_is_refused)
{
	char err[512];

	cr_assert_eq(check("mtree-2x8g.txt", 2, two, 3 * GiB, err, sizeof(err)), -1);
	cr_assert(strstr(err, "node 0's RAM (mem0) at guest-physical 0x100000000-0x27fffffff"),
		  "%s", err);
	cr_assert(strstr(err, "puts 0x27fffffff on node 1"), "%s", err);
	cr_assert_eq(check("mtree-2x8g.txt", 2, two, 2 * GiB - (1ULL << 20), err,
			   sizeof(err)), -1);
	cr_assert(strstr(err, "puts 0x7fffffff on no node"), "%s", err);
}

Test(vm_layout, node_count_must_match)
{
	char err[512];

	cr_assert_eq(check("mtree-4x1g.txt", 2, four, 2 * GiB, err, sizeof(err)), -1);
	cr_assert(strstr(err, "RAM of mem2; the guest has 2 nodes"), "%s", err);
	cr_assert_eq(check("mtree-2x8g.txt", 3, (uint64_t[]){ 8 * GiB, 8 * GiB, GiB },
			   2 * GiB, err, sizeof(err)), -1);
	cr_assert(strstr(err, "no RAM of node 2 (mem2)"), "%s", err);
}

Test(vm_layout, garbage_is_refused)
{
	struct bnb_addrmap m;
	char err[512];

	bnb_addrmap_build(&m, BNB_MAP_LINEAR, 1, four, GiB);
	cr_assert_eq(layout_check("", &m, 1, err, sizeof(err)), -1);
	cr_assert(strstr(err, "no flat view"), "%s", err);
	cr_assert_eq(layout_check("FlatView #0\n AS \"memory\", root: system\n"
				  "  0000000000000000-000000003fffffff (prio 0, ram): memory0\n"
				  "  zzzz (prio 0, ram): mem0\n\n"
				  "  0000000000000000-000000003fffffff (prio 0, ram): mem0\n",
				  &m, 1, err, sizeof(err)), -1,
		     "memory0 is not mem0, and the view ends at its blank line");
	cr_assert(strstr(err, "no RAM of node 0"), "%s", err);
}
