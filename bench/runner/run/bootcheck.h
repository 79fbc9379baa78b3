/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bootcheck.h - which kernel a run asked for and which one the guest
 * booted.
 *
 * An x86 bzImage carries its version string in the setup header (the
 * boot protocol's kernel_version field): "RELEASE (USER@HOST) UTS_VERSION",
 * the same release and version the booted kernel's uname -r and -v report.
 * kernel/build.sh puts the build's cache key in UTS_VERSION ("#KEY SMP
 * ..."), so that two builds of one release (patched and debian-6.1) are
 * told apart too. The runner records the image's figures in the run's
 * provenance before the boot and fails a run whose guest reports others.
 */
#ifndef BNB_BOOTCHECK_H
#define BNB_BOOTCHECK_H

#include <json-c/json.h>
#include <stddef.h>

#define KIDENT_LEN 65		/* __NEW_UTS_LEN + 1 */

struct kernel_ident {
	char release[KIDENT_LEN];	/* uname -r */
	char version[KIDENT_LEN];	/* uname -v, "" when the string has none */
};

/*
 * Whether PATH can boot at all: a regular file with the boot protocol's
 * header, as long as its setup sectors and protected-mode code say
 * (setup_sects, syssize). -1 with WHY: a folder, /etc/passwd, a copy cut
 * short, which QEMU would refuse only as "linux kernel too old to load a
 * ram disk" or boot into nothing.
 */
int bzimage_check(const char *path, char *why, size_t whylen);

/* The version string of the bzImage PATH; -1 with WHY when it has none. */
int bzimage_ident(const char *path, struct kernel_ident *id, char *why, size_t whylen);

/* The same, from the text of a kernel_version string. */
int kernel_ident_parse(const char *text, struct kernel_ident *id);

/*
 * Whether the guest of a finished run booted the kernel its provenance
 * PROV says it asked for (kernel_release/kernel_version against
 * guest.uname_r/guest.uname_v): 0 when it did or when either side is
 * unknown (nothing to compare), -1 with WHY naming both when not.
 */
int boot_check(struct json_object *prov, char *why, size_t whylen);

#endif
