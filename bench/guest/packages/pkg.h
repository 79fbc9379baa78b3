/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest packages: Debian packages installed on the host, packed for the
 * guest as one cpio archive booted beside the base one (bnb-vm
 * --packages, the experiment key `packages`). The archive holds the
 * packages' files but what no guest program reads (documentation,
 * manuals, translations, headers, init scripts: the table in plan.c),
 * every shared library their programs and plugins load (the ldd closure,
 * at the paths ldd names, as the tools archive has them), and a link in
 * /usr/local/bin for each program outside the guest's PATH. It is cached
 * by the packages' names and versions and rebuilt when a file it was
 * made from changed (a library upgraded under the same package
 * versions); the same inputs give the same bytes.
 */
#ifndef BNB_PKG_H
#define BNB_PKG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lib/argv.h"

#define PKG_NAME_MAX	128
#define PKG_MAX		32	/* packages one archive holds */
#define PKG_DPKG_ADMIN	"/var/lib/dpkg"
/* Where programs outside the guest's PATH get their links. */
#define PKG_LINK_DIR	"/usr/local/bin"

/* An installed package, as dpkg's status file has it. */
struct pkg_ref {
	char name[PKG_NAME_MAX];
	char version[PKG_NAME_MAX];
	char arch[32];
};

/*
 * Look NAME up in dpkg's database under ADMIN (PKG_DPKG_ADMIN): 0 when
 * it is installed; -1 with ERR saying it is not, or is not a package
 * name at all.
 */
int pkg_lookup(const char *admin, const char *name, struct pkg_ref *r, char *err,
	       size_t errlen);

/*
 * The paths dpkg lists for R (its info/NAME[:ARCH].list), one by one;
 * -1 with ERR when the list cannot be read.
 */
int pkg_files(const char *admin, const struct pkg_ref *r, struct argv *paths, char *err,
	      size_t errlen);

/* PATH's kind, from its ELF header: not ELF, an executable, a shared object. */
enum pkg_elf { PKG_NOT_ELF, PKG_ELF_EXEC, PKG_ELF_SHARED };
enum pkg_elf pkg_elf_kind(const char *path);

/*
 * The shared libraries PATH loads, as ldd names them (the dynamic loader
 * among them), appended to LIBS; none for a static binary. -1 with ERR
 * when one is not found on this host or ldd cannot run.
 */
int pkg_ldd(const char *path, struct argv *libs, char *err, size_t errlen);

enum pkg_kind {
	PKG_FILE,	/* a host file's bytes, at the same path */
	PKG_LINK,	/* a symbolic link */
};

struct pkg_entry {
	char *path;		/* in the guest, absolute */
	char *src;		/* PKG_FILE: the host file read (links followed) */
	char *target;		/* PKG_LINK: the link's text */
	enum pkg_kind kind;
	bool exec;		/* mode 0755, else 0644 */
};

/* What an archive of some packages holds. */
struct pkg_plan {
	struct pkg_ref pkg[PKG_MAX];
	int n_pkg;
	struct pkg_entry *e;
	int n, cap;
	struct argv commands;	/* the names it puts on the guest's PATH */
};

/*
 * The packages named in NAMES (blank or comma separated), each looked
 * up; -1 with ERR for a bad list or a package not installed.
 */
int pkg_resolve(const char *admin, const char *names, struct pkg_plan *p, char *err,
		size_t errlen);

/*
 * Fill P (resolved) with every file, library and link: -1 with ERR when
 * a program's library is missing or a package has nothing to pack.
 */
int pkg_plan_files(const char *admin, struct pkg_plan *p, char *err, size_t errlen);
void pkg_plan_free(struct pkg_plan *p);

/* The entry for guest path PATH, or NULL. */
const struct pkg_entry *pkg_plan_find(const struct pkg_plan *p, const char *path);

/*
 * Write P as a newc cpio archive to OUT: entries in byte order of their
 * paths, every parent folder first, dated ARCHIVE_EPOCH, owned by root,
 * inodes numbered in archive order, identical files stored once (hard
 * links); -1 with ERR.
 */
#define PKG_ARCHIVE_EPOCH 1704067200	/* mkinitramfs.sh's ARCHIVE_EPOCH */
int pkg_write_cpio(const struct pkg_plan *p, const char *out, char *err, size_t errlen);

/* An archive in the cache. */
struct pkg_archive {
	char key[17];
	char dir[PATH_MAX];
	char cpio[PATH_MAX];	/* DIR/packages.cpio */
	char list[PATH_MAX];	/* DIR/packages.list: its commands, one a line */
	long long bytes;
	bool built;		/* made now, not found */
};


/*
 * The archive of NAMES from the cache under CACHE (packages/KEY/), made
 * when missing or stale (a file it was made from changed), under the
 * cache's lock; -1 with ERR.
 */
int pkg_archive_get(const char *cache, const char *admin, const char *names,
		    struct pkg_archive *a, char *err, size_t errlen);

#endif
