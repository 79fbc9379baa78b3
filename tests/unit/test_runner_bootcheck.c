// SPDX-License-Identifier: GPL-2.0
/*
 * Which kernel a run asked for against the one its guest booted
 * (bench/runner/run/bootcheck.c): the version string read from a bzImage's
 * setup header, and a run whose guest reports another kernel refused.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/bootcheck.h"

static char image[64];

static void setup(void)
{
	int fd;

	snprintf(image, sizeof(image), "/tmp/bnb-test-bzimage-XXXXXX");
	fd = mkstemp(image);
	cr_assert_geq(fd, 0);
	close(fd);
}

static void teardown(void)
{
	unlink(image);
}

TestSuite(bootcheck, .init = setup, .fini = teardown);

/* A setup header: "HdrS" at 0x202, the version at 0x200 + PTR. */
static void write_image(const char *magic, unsigned int ptr, const char *version)
{
	static unsigned char buf[0x3000];
	FILE *f = fopen(image, "wb");

	memset(buf, 0, sizeof(buf));
	memcpy(buf + 0x202, magic, 4);
	buf[0x20e] = ptr & 0xff;
	buf[0x20f] = ptr >> 8;
	if (version)
		memcpy(buf + 0x200 + ptr, version, strlen(version) + 1);
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(buf, 1, sizeof(buf), f), sizeof(buf));
	fclose(f);
}

Test(bootcheck, reads_the_release_and_version_of_a_bzimage)
{
	struct kernel_ident id;
	char why[256];

	write_image("HdrS", 0x1000, "6.1.192+ (bnb@bnb) #46a10bb8599e551b SMP 2026-01-01 00:00 UTC");
	cr_assert_eq(bzimage_ident(image, &id, why, sizeof(why)), 0, "%s", why);
	cr_assert_str_eq(id.release, "6.1.192+");
	cr_assert_str_eq(id.version, "#46a10bb8599e551b SMP 2026-01-01 00:00 UTC");
}

Test(bootcheck, refuses_a_file_that_is_no_bzimage)
{
	struct kernel_ident id;
	char why[256];

	write_image("ELF\0", 0x1000, "6.1.192+ (bnb@bnb) #1 SMP");
	cr_assert_eq(bzimage_ident(image, &id, why, sizeof(why)), -1);
	cr_assert(strstr(why, "not a bzImage"), "%s", why);
	write_image("HdrS", 0, NULL);
	cr_assert_eq(bzimage_ident(image, &id, why, sizeof(why)), -1, "no version pointer");
	write_image("HdrS", 0x1000, "6.1\x01 (x) #1");
	cr_assert_eq(bzimage_ident(image, &id, why, sizeof(why)), -1, "unprintable");
	cr_assert_eq(bzimage_ident("/nonexistent/bzImage", &id, why, sizeof(why)), -1);
}

Test(bootcheck, an_overlong_release_is_refused)
{
	struct kernel_ident id;
	char text[200];

	memset(text, 'a', 100);
	strcpy(text + 100, " (x@y) #1 SMP");
	cr_assert_eq(kernel_ident_parse(text, &id), -1);
}

static struct json_object *prov(const char *want_r, const char *want_v, const char *got_r,
				const char *got_v)
{
	struct json_object *p = json_object_new_object();

	json_object_object_add(p, "kernel", json_object_new_string("/cache/kernels/K/bzImage"));
	json_object_object_add(p, "kernel_release", json_object_new_string(want_r));
	json_object_object_add(p, "kernel_version", json_object_new_string(want_v));
	json_object_object_add(p, "guest.uname_r", json_object_new_string(got_r));
	json_object_object_add(p, "guest.uname_v", json_object_new_string(got_v));
	return p;
}

Test(bootcheck, the_kernel_asked_for_passes)
{
	struct json_object *p = prov("6.1.192+", "#k1 SMP", "6.1.192+", "#k1 SMP");
	char why[512] = "";

	cr_assert_eq(boot_check(p, why, sizeof(why)), 0, "%s", why);
	json_object_put(p);
}

Test(bootcheck, another_release_fails_naming_both)
{
	struct json_object *p = prov("6.1.192+", "#k1 SMP", "6.12.118+", "#k2 SMP");
	char why[512];

	cr_assert_eq(boot_check(p, why, sizeof(why)), -1);
	cr_assert(strstr(why, "6.12.118+ #k2 SMP") && strstr(why, "6.1.192+ #k1 SMP"), "%s", why);
	cr_assert(strstr(why, "/cache/kernels/K/bzImage"), "%s", why);
	json_object_put(p);
}

Test(bootcheck, another_build_of_the_same_release_fails)
{
	struct json_object *p = prov("6.1.192+", "#patched SMP", "6.1.192+", "#debian SMP");
	char why[512];

	cr_assert_eq(boot_check(p, why, sizeof(why)), -1);
	json_object_put(p);
}

Test(bootcheck, nothing_to_compare_is_no_failure)
{
	struct json_object *p = prov("6.1.192+", "#k1 SMP", "unknown", "unknown");
	char why[512];

	cr_assert_eq(boot_check(p, why, sizeof(why)), 0, "a guest that said nothing");
	json_object_put(p);
}
