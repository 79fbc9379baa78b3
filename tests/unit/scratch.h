/* SPDX-License-Identifier: GPL-2.0 */
/* A unit test's scratch folder under /tmp: made, written into, removed without a shell. */
#ifndef BNB_TEST_SCRATCH_H
#define BNB_TEST_SCRATCH_H

#include <criterion/criterion.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Make a new folder /tmp/bnb-test-NAME-XXXXXX; its path goes to DIR (LEN bytes). */
static inline void scratch_make(char *dir, size_t len, const char *name)
{
	int n = snprintf(dir, len, "/tmp/bnb-test-%s-XXXXXX", name);

	cr_assert(n > 0 && (size_t)n < len, "a scratch folder for %s: name too long", name);
	cr_assert_not_null(mkdtemp(dir), "mkdtemp %s: %s", dir, strerror(errno));
}

static inline int scratch_remove_one(const char *path, const struct stat *st, int type,
				     struct FTW *ftw)
{
	cr_assert_eq(remove(path), 0, "remove %s: %s", path, strerror(errno));
	return 0;
}

/* Remove DIR and all below it; links are removed, never followed. */
static inline void scratch_remove(const char *dir)
{
	cr_assert_eq(nftw(dir, scratch_remove_one, 16, FTW_DEPTH | FTW_PHYS), 0,
		     "removing %s: %s", dir, strerror(errno));
}

/* Make the folders above the file PATH that are below its first FROM bytes. */
static inline void scratch_parents(char *path, size_t from)
{
	char *slash;

	for (slash = strchr(path + from, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		cr_assert(!mkdir(path, 0755) || errno == EEXIST, "mkdir %s: %s", path,
			  strerror(errno));
		*slash = '/';
	}
}

/*
 * Write TEXT into the file NAME (it may name subfolders, made as needed)
 * below DIR: its path, valid until the next call.
 */
static inline const char *scratch_write(const char *dir, const char *name, const char *text)
{
	static char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f;

	cr_assert(n > 0 && (size_t)n < sizeof(path), "%s/%s: path too long", dir, name);
	scratch_parents(path, strlen(dir) + 1);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	cr_assert_geq(fputs(text, f), 0, "writing %s", path);
	cr_assert_eq(fclose(f), 0, "closing %s: %s", path, strerror(errno));
	return path;
}

#endif
