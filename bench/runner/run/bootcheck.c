// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel a run asked for against the one its guest booted
 * (bootcheck.h). The boot protocol is Documentation/x86/boot.rst: the
 * setup header starts at 0x1f1, "HdrS" at 0x202, the 16-bit
 * kernel_version pointer at 0x20e counts from 0x200.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bootcheck.h"
#include "lib/err.h"

#define HDR_MAGIC_OFF	0x202
#define HDR_VERSION_OFF	0x20e
#define HDR_BASE	0x200
#define SETUP_MAX	(HDR_BASE + 0x10000)	/* the pointer's reach */

static int read_at(FILE *f, long off, void *buf, size_t len)
{
	return fseek(f, off, SEEK_SET) || fread(buf, 1, len, f) != len ? -1 : 0;
}

/* One word of at most KIDENT_LEN - 1 printable characters into OUT. */
static int copy_field(const char *from, size_t n, char *out)
{
	size_t i;

	if (n >= KIDENT_LEN)
		return -1;
	for (i = 0; i < n; i++)
		if (!isprint((unsigned char)from[i]))
			return -1;
	memcpy(out, from, n);
	out[n] = 0;
	return 0;
}

int kernel_ident_parse(const char *text, struct kernel_ident *id)
{
	const char *space = strchr(text, ' '), *hash;

	memset(id, 0, sizeof(*id));
	if (!space || space == text || copy_field(text, space - text, id->release))
		return -1;
	/* UTS_VERSION follows the "(user@host) " of the compile */
	hash = strstr(space, ") #");
	if (hash && copy_field(hash + 2, strlen(hash + 2), id->version))
		return -1;
	return 0;
}

#define HDR_SETUP_SECTS_OFF	0x1f1
#define HDR_SYSSIZE_OFF		0x1f4

int bzimage_check(const char *path, char *why, size_t whylen)
{
	unsigned char magic[4] = { 0 }, sects = 0, sys[4] = { 0 };
	long long want;
	struct stat st;
	FILE *f;
	int rc;

	if (stat(path, &st))
		return errf(why, whylen, "kernel %s: %m", path);
	if (!S_ISREG(st.st_mode))
		return errf(why, whylen, "kernel %s is not a file (a bzImage)", path);
	f = fopen(path, "rb");
	if (!f)
		return errf(why, whylen, "cannot read the kernel %s: %m", path);
	rc = read_at(f, HDR_MAGIC_OFF, magic, sizeof(magic)) || memcmp(magic, "HdrS", 4) ||
	     read_at(f, HDR_SETUP_SECTS_OFF, &sects, 1) ||
	     read_at(f, HDR_SYSSIZE_OFF, sys, sizeof(sys));
	fclose(f);
	if (rc)
		return errf(why, whylen, "kernel %s is not a bzImage (no boot protocol header)",
			    path);
	/* setup_sects 0 means 4; syssize counts 16-byte paragraphs */
	want = ((long long)(sects ? sects : 4) + 1) * 512 +
	       16LL * (sys[0] | sys[1] << 8 | sys[2] << 16 | (long long)sys[3] << 24);
	if (st.st_size < want)
		return errf(why, whylen, "kernel %s is cut short: %lld bytes of the %lld its "
			    "setup header gives", path, (long long)st.st_size, want);
	return 0;
}

int bzimage_ident(const char *path, struct kernel_ident *id, char *why, size_t whylen)
{
	unsigned char magic[4] = { 0 }, ptr[2] = { 0 };
	char text[256];
	FILE *f = fopen(path, "rb");
	long off;
	int rc;

	if (!f)
		return errf(why, whylen, "cannot read the kernel %s: %m", path);
	rc = read_at(f, HDR_MAGIC_OFF, magic, sizeof(magic)) ||
	     memcmp(magic, "HdrS", 4) || read_at(f, HDR_VERSION_OFF, ptr, sizeof(ptr));
	off = HDR_BASE + (ptr[0] | ptr[1] << 8);
	memset(text, 0, sizeof(text));
	if (!rc && (off == HDR_BASE || off >= SETUP_MAX ||
		    fseek(f, off, SEEK_SET) || !fread(text, 1, sizeof(text) - 1, f)))
		rc = 1;
	fclose(f);
	if (rc)
		return errf(why, whylen, "%s is not a bzImage with a version string", path);
	if (kernel_ident_parse(text, id))
		return errf(why, whylen, "%s: unreadable version string", path);
	return 0;
}

static const char *str_of(struct json_object *o, const char *key)
{
	struct json_object *v;
	const char *s;

	if (!json_object_object_get_ex(o, key, &v))
		return NULL;
	s = json_object_get_string(v);
	return s && *s && strcmp(s, "unknown") ? s : NULL;
}

int boot_check(struct json_object *prov, char *why, size_t whylen)
{
	const char *want_r = str_of(prov, "kernel_release");
	const char *want_v = str_of(prov, "kernel_version");
	const char *got_r = str_of(prov, "guest.uname_r");
	const char *got_v = str_of(prov, "guest.uname_v");

	if (!want_r || !got_r)
		return 0;
	if (!strcmp(want_r, got_r) && (!want_v || !got_v || !strcmp(want_v, got_v)))
		return 0;
	return errf(why, whylen, "the guest booted another kernel than its variant asked for: "
		    "it reports %s %s, the image %s is %s %s", got_r, got_v ? got_v : "",
		    str_of(prov, "kernel") ?: "?", want_r, want_v ? want_v : "");
}
