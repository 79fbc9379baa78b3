// SPDX-License-Identifier: GPL-2.0
/*
 * The guest packages' archive builder (bench/guest/packages): the ldd
 * closure of real programs of this host, a program whose library is
 * missing (built here, its library then removed), a package with no
 * program and one with nothing to pack, a package not installed, and the
 * archive itself as GNU cpio reads it back: folders before their
 * contents, identical files stored once, the same bytes every time, and
 * the cache made again when a file it was made from changed. Packages of
 * this host come from dpkg's own database; the made-up ones from a dpkg
 * database in a scratch folder.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest/packages/pkg.h"
#include "lib/err.h"
#include "scratch.h"

static char dir[PATH_MAX], admin[PATH_MAX + 16], err[ERRLEN];

static void setup(void)
{
	scratch_make(dir, sizeof(dir), "packages");
	snprintf(admin, sizeof(admin), "%s/dpkg", dir);
	err[0] = 0;
}

static void teardown(void)
{
	scratch_remove(dir);
}

TestSuite(packages, .init = setup, .fini = teardown);

/* A made-up dpkg database: one stanza per package, and their file lists. */
static void fake_package(const char *name, const char *status, const char *files)
{
	char stanza[512], list[256], path[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/status", admin);
	scratch_parents(path, strlen(dir) + 1);
	f = fopen(path, "a");
	cr_assert_not_null(f);
	snprintf(stanza, sizeof(stanza), "Package: %s\nStatus: %s\nArchitecture: amd64\n"
		 "Version: 1.0-1\n\n", name, status);
	fputs(stanza, f);
	fclose(f);
	snprintf(list, sizeof(list), "dpkg/info/%s.list", name);
	scratch_write(dir, list, files);
}

static bool has_lib(const struct argv *libs, const char *base)
{
	for (int i = 0; i < libs->n; i++) {
		const char *b = strrchr(libs->v[i], '/');

		if (b && !strcmp(b + 1, base))
			return true;
	}
	return false;
}

Test(packages, ldd_closure_of_a_real_program)
{
	struct argv libs = { 0 };

	cr_assert_eq(pkg_ldd("/usr/bin/numactl", &libs, err, sizeof(err)), 0, "%s", err);
	cr_assert(has_lib(&libs, "libnuma.so.1"), "numactl's closure lacks libnuma");
	cr_assert(has_lib(&libs, "libc.so.6"));
	cr_assert(has_lib(&libs, "ld-linux-x86-64.so.2"), "the loader is part of it");
	for (int i = 0; i < libs.n; i++) {
		cr_assert_eq(libs.v[i][0], '/', "%s is not a path", libs.v[i]);
		cr_assert_null(strstr(libs.v[i], "vdso"), "the kernel's vDSO is no file");
	}
	argv_free(&libs);
	/* a static program loads nothing */
	cr_assert_eq(pkg_ldd("/bin/busybox", &libs, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(libs.n, 0);
	cr_assert_eq(pkg_elf_kind("/usr/bin/numactl"), PKG_ELF_EXEC);
	cr_assert_eq(pkg_elf_kind("/bin/busybox"), PKG_ELF_EXEC);
	cr_assert_eq(pkg_elf_kind("/etc/passwd"), PKG_NOT_ELF);
}

Test(packages, program_whose_library_is_missing)
{
	char cmd[PATH_MAX * 4], prog[PATH_MAX + 16];
	struct argv libs = { 0 };

	scratch_write(dir, "gone.c", "int gone(void) { return 1; }\n");
	scratch_write(dir, "prog.c", "int gone(void);\nint main(void) { return gone(); }\n");
	snprintf(cmd, sizeof(cmd), "cd %s && cc -shared -fPIC -o libbnbgone.so gone.c && "
		 "cc -o prog prog.c -L. -lbnbgone && rm libbnbgone.so", dir);
	cr_assert_eq(system(cmd), 0, "building the test program failed: %s", cmd);
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	cr_assert_eq(pkg_ldd(prog, &libs, err, sizeof(err)), -1, "a missing library passed");
	cr_assert(strstr(err, "libbnbgone.so") && strstr(err, "not found") &&
		  strstr(err, prog), "the error names neither the program nor its library: %s",
		  err);
	argv_free(&libs);
}

Test(packages, closure_of_a_real_package)
{
	struct pkg_plan p;
	const struct pkg_entry *e;

	cr_assert_eq(pkg_resolve(PKG_DPKG_ADMIN, "numactl", &p, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(pkg_plan_files(PKG_DPKG_ADMIN, &p, err, sizeof(err)), 0, "%s", err);
	e = pkg_plan_find(&p, "/usr/bin/numactl");
	cr_assert(e && e->kind == PKG_FILE && e->exec, "numactl itself is not packed");
	cr_assert_not_null(pkg_plan_find(&p, "/lib64/ld-linux-x86-64.so.2"));
	cr_assert_null(pkg_plan_find(&p, "/usr/share/man/man8/numactl.8.gz"),
		       "a manual page was packed");
	bool listed = false;
	for (int i = 0; i < p.commands.n; i++)
		listed |= !strcmp(p.commands.v[i], "numactl");
	cr_assert(listed, "numactl is not among the archive's commands");
	pkg_plan_free(&p);
}

Test(packages, package_without_programs)
{
	struct pkg_plan p;
	char data[PATH_MAX + 32], files[PATH_MAX * 2];
	const char *path = scratch_write(dir, "share/bnb-data/table.txt", "1 2 3\n");

	snprintf(data, sizeof(data), "%s", path);
	snprintf(files, sizeof(files), "/.\n%s\n/usr/share/doc/bnb-data/copyright\n", data);
	fake_package("bnb-data", "install ok installed", files);
	cr_assert_eq(pkg_resolve(admin, "bnb-data", &p, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(pkg_plan_files(admin, &p, err, sizeof(err)), 0, "%s", err);
	cr_assert_not_null(pkg_plan_find(&p, data), "its data file is not packed");
	cr_assert_eq(p.commands.n, 0, "a package without programs put %s on the PATH",
		     p.commands.n ? p.commands.v[0] : "");
	pkg_plan_free(&p);

	/* a metapackage: documentation only */
	fake_package("bnb-meta", "install ok installed", "/usr/share/doc/bnb-meta/copyright\n");
	cr_assert_eq(pkg_resolve(admin, "bnb-meta", &p, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(pkg_plan_files(admin, &p, err, sizeof(err)), -1, "a metapackage packed");
	cr_assert(strstr(err, "bnb-meta") && strstr(err, "nothing to pack"), "%s", err);
	pkg_plan_free(&p);
}

Test(packages, package_not_installed)
{
	struct pkg_ref r;

	fake_package("bnb-removed", "deinstall ok config-files", "");
	cr_assert_eq(pkg_lookup(admin, "bnb-removed", &r, err, sizeof(err)), -1);
	cr_assert(strstr(err, "'bnb-removed' is not installed"), "%s", err);
	cr_assert_eq(pkg_lookup(admin, "bnb-never-heard-of", &r, err, sizeof(err)), -1);
	cr_assert(strstr(err, "not installed"), "%s", err);
	cr_assert_eq(pkg_lookup(admin, "Bad_Name", &r, err, sizeof(err)), -1);
	cr_assert(strstr(err, "not a Debian package name"), "%s", err);
	/* one that apt can install: the error says how */
	cr_assert_eq(pkg_lookup(PKG_DPKG_ADMIN, "hello", &r, err, sizeof(err)), -1,
		     "hello is installed here: the test needs a package that is not");
	cr_assert(strstr(err, "apt-get install -y --no-install-recommends hello"), "%s", err);
}

/* The archive read back by GNU cpio: LISTING gets `cpio -itv`. */
static void cpio_list(const char *archive, char *listing, size_t len)
{
	char cmd[PATH_MAX * 2];
	FILE *f;
	size_t n;

	snprintf(cmd, sizeof(cmd), "cpio --quiet -itv < %s", archive);
	f = popen(cmd, "r");
	cr_assert_not_null(f);
	n = fread(listing, 1, len - 1, f);
	listing[n] = 0;
	cr_assert_eq(pclose(f), 0, "cpio cannot read %s", archive);
}

Test(packages, archive_as_cpio_reads_it)
{
	struct pkg_plan p = { 0 };
	char a[PATH_MAX + 16], b[PATH_MAX + 16], cmd[PATH_MAX * 3], *listing;
	const char *one = strdup(scratch_write(dir, "src/one", "same bytes\n"));
	const char *two = strdup(scratch_write(dir, "src/two", "same bytes\n"));
	const char *other = strdup(scratch_write(dir, "src/three", "other\n"));
	struct pkg_entry e[] = {
		{ .path = "/usr/bin/b-copy", .src = (char *)two, .kind = PKG_FILE, .exec = true },
		{ .path = "/usr/bin/a-copy", .src = (char *)one, .kind = PKG_FILE, .exec = true },
		{ .path = "/usr/share/x/data", .src = (char *)other, .kind = PKG_FILE },
		{ .path = "/usr/local/bin/a", .target = "/usr/bin/a-copy", .kind = PKG_LINK },
	};

	p.e = e;
	p.n = p.cap = 4;
	snprintf(a, sizeof(a), "%s/a.cpio", dir);
	snprintf(b, sizeof(b), "%s/b.cpio", dir);
	cr_assert_eq(pkg_write_cpio(&p, a, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(pkg_write_cpio(&p, b, err, sizeof(err)), 0, "%s", err);
	snprintf(cmd, sizeof(cmd), "cmp -s %s %s", a, b);
	cr_assert_eq(system(cmd), 0, "two archives of the same plan differ");

	listing = malloc(1 << 16);
	cpio_list(a, listing, 1 << 16);
	/* folders first, byte order, root's, the archive's date, hard links of 2 */
	cr_assert(strstr(listing, "drwxr-xr-x   1 root     root            0 Jan  1  2024 usr\n"),
		  "%s", listing);
	cr_assert(strstr(listing, "-rwxr-xr-x   2 root     root            0 Jan  1  2024 "
			 "usr/bin/a-copy\n"), "%s", listing);
	cr_assert(strstr(listing, "-rwxr-xr-x   2 root     root           11 Jan  1  2024 "
			 "usr/bin/b-copy\n"), "the data is not with the last link: %s", listing);
	cr_assert(strstr(listing, "usr/local/bin/a -> /usr/bin/a-copy\n"), "%s", listing);
	cr_assert(strstr(listing, "-rw-r--r--   1 root     root            6 Jan  1  2024 "
			 "usr/share/x/data\n"), "%s", listing);
	cr_assert_lt(strstr(listing, " usr\n"), strstr(listing, " usr/bin\n"));
	cr_assert_lt(strstr(listing, " usr/bin\n"), strstr(listing, " usr/bin/a-copy\n"));
	free(listing);

	/* unpacked, both copies hold the bytes */
	cr_assert_lt(snprintf(cmd, sizeof(cmd), "mkdir %s/out && cd %s/out && cpio --quiet -id "
			      "< %s && cmp -s usr/bin/a-copy %s && cmp -s usr/bin/b-copy %s", dir,
			      dir, a, one, one), (int)sizeof(cmd));
	cr_assert_eq(system(cmd), 0, "unpacking: %s", cmd);
}

Test(packages, cache_made_once_and_again_when_a_file_changed)
{
	struct pkg_archive a, b;
	char cache[PATH_MAX + 16], files[PATH_MAX + 32];
	const char *data = strdup(scratch_write(dir, "share/bnb-data/table.txt", "1 2 3\n"));
	struct timespec later[2] = { { 0, UTIME_OMIT }, { 2000000000, 0 } };

	snprintf(files, sizeof(files), "%s\n", data);
	fake_package("bnb-data", "install ok installed", files);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	cr_assert_eq(pkg_archive_get(cache, admin, "bnb-data", &a, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert(a.built && a.bytes > 0);
	cr_assert_eq(pkg_archive_get(cache, admin, "bnb-data", &b, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_not(b.built, "an archive in the cache was made again");
	cr_assert_str_eq(a.cpio, b.cpio);
	/* a file it was made from changed, the package's version the same */
	cr_assert_eq(utimensat(AT_FDCWD, data, later, 0), 0);
	cr_assert_eq(pkg_archive_get(cache, admin, "bnb-data", &b, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert(b.built, "a stale archive was taken from the cache");
	cr_assert_str_eq(a.key, b.key);
}
