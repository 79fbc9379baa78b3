// SPDX-License-Identifier: GPL-2.0
/*
 * What the archive of some packages holds: each package's files but what
 * no program in the guest reads (the table below), the shared libraries
 * every program and plugin among them loads, and a link in PKG_LINK_DIR
 * for each program outside the guest's PATH (PostgreSQL's are in
 * /usr/lib/postgresql/15/bin). Every megabyte is copied into the guest's
 * tmpfs at each boot, on the guest's clock under deterministic timing.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/util.h"
#include "pkg.h"

/* Paths never packed, whichever package has them, and why. */
static const struct { const char *pkg, *path, *why; } skipped[] = {
	{ "*", "/usr/share/doc/*", "documentation" },
	{ "*", "/usr/share/doc-base/*", "documentation" },
	{ "*", "/usr/share/man/*", "manual pages" },
	{ "*", "*/man/man[1-9]/*", "manual pages" },
	{ "*", "/usr/share/info/*", "documentation" },
	{ "*", "/usr/share/locale/*", "translations: the guest speaks C" },
	{ "*", "/usr/share/lintian/*", "package checks" },
	{ "*", "/usr/share/bug/*", "bug reporting" },
	{ "*", "/usr/share/bash-completion/*", "no interactive shell" },
	{ "*", "/usr/include/*", "headers" },
	{ "*", "*/pkgconfig/*", "build files" },
	{ "*", "*.a", "static libraries" },
	{ "*", "/etc/init.d/*", "init scripts: the guest has no init system" },
	{ "*", "/etc/logrotate.d/*", "log rotation" },
	{ "*", "/etc/default/*", "init script settings" },
	{ "*", "/lib/systemd/*", "systemd units" },
	{ "*", "/usr/lib/systemd/*", "systemd units" },
	{ "*", "/usr/lib/tmpfiles.d/*", "systemd units" },
	{ "*", "/usr/lib/sysusers.d/*", "systemd units" },
	/* the JIT provider loads libLLVM (100 MB); jit = off in the guest */
	{ "postgresql-*", "/usr/lib/postgresql/*/lib/bitcode/*", "LLVM bitcode for the JIT" },
	{ "postgresql-*", "/usr/lib/postgresql/*/lib/llvmjit*", "the JIT and its libLLVM" },
	{ "postgresql-*", "/usr/lib/postgresql/*/lib/pgxs/*", "extension build files" },
};

/* What glibc loads itself, at run time, from the folder of libc.so.6. */
static const struct { const char *lib, *loads; } dlopened[] = {
	/* pthread_exit() and pthread_cancel() unwind with it */
	{ "libc.so.6", "libgcc_s.so.1" },
};

static const char *const path_dirs[] = { "/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/",
					 PKG_LINK_DIR "/" };

static bool is_skipped(const char *pkg, const char *path)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(skipped); i++)
		if (!fnmatch(skipped[i].pkg, pkg, 0) && !fnmatch(skipped[i].path, path, 0))
			return true;
	return false;
}

static bool on_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t i;

	for (i = 0; slash && i < ARRAY_SIZE(path_dirs); i++)
		if ((size_t)(slash + 1 - path) == strlen(path_dirs[i]) &&
		    !strncmp(path, path_dirs[i], strlen(path_dirs[i])))
			return true;
	return false;
}

const struct pkg_entry *pkg_plan_find(const struct pkg_plan *p, const char *path)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->e[i].path, path))
			return &p->e[i];
	return NULL;
}

static struct pkg_entry *add(struct pkg_plan *p, const char *path)
{
	struct pkg_entry *e;

	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 256;
		p->e = realloc(p->e, p->cap * sizeof(*p->e));
		if (!p->e)
			abort();
	}
	e = &p->e[p->n++];
	memset(e, 0, sizeof(*e));
	e->path = strdup(path);
	return e;
}

static void add_command(struct pkg_plan *p, const char *name)
{
	int i;

	for (i = 0; i < p->commands.n; i++)
		if (!strcmp(p->commands.v[i], name))
			return;
	argv_add(&p->commands, "%s", name);
}

/* The mode a library keeps: the loader itself must be executable. */
static bool executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && (st.st_mode & 0111);
}

static int add_file(struct pkg_plan *p, const char *path, const char *src, bool exec)
{
	struct pkg_entry *e;

	if (pkg_plan_find(p, path))
		return 0;
	e = add(p, path);
	e->kind = PKG_FILE;
	e->src = strdup(src);
	e->exec = exec;
	return 1;
}

/* The libraries ELF file PATH loads, each packed where ldd found it. */
static int add_closure(struct pkg_plan *p, const char *path, char *err, size_t errlen)
{
	struct argv libs = { 0 };
	char dir[PATH_MAX], more[PATH_MAX];
	int i, rc;
	size_t k;

	rc = pkg_ldd(path, &libs, err, errlen);
	for (i = 0; !rc && i < libs.n; i++) {
		add_file(p, libs.v[i], libs.v[i], executable(libs.v[i]));
		for (k = 0; k < ARRAY_SIZE(dlopened); k++) {
			const char *base = strrchr(libs.v[i], '/') + 1;

			if (strcmp(base, dlopened[k].lib))
				continue;
			snprintf(dir, sizeof(dir), "%.*s", (int)(base - libs.v[i]), libs.v[i]);
			if (snprintf(more, sizeof(more), "%s%s", dir, dlopened[k].loads) <
			    (int)sizeof(more) && !access(more, R_OK) && add_file(p, more, more, executable(more)))
				rc = add_closure(p, more, err, errlen);
		}
	}
	argv_free(&libs);
	return rc;
}

/*
 * A link of the package: packed as it is, and its target too when that
 * is no file of the named packages (redis-server's /usr/bin/redis-server
 * is a link to redis-tools' redis-check-rdb).
 */
static int add_link(struct pkg_plan *p, const char *path, char *err, size_t errlen)
{
	char target[PATH_MAX], real[PATH_MAX];
	struct pkg_entry *e;
	ssize_t n;

	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return errf(err, errlen, "cannot read the link %s: %m", path);
	target[n] = 0;
	e = add(p, path);
	e->kind = PKG_LINK;
	e->target = strdup(target);
	if (!realpath(path, real))
		return 0;	/* a dangling link stays one */
	if (on_path(path) && !access(real, X_OK))
		add_command(p, strrchr(path, '/') + 1);
	return 0;
}

/* One path of package PKG's list. */
static int add_path(struct pkg_plan *p, const char *pkg, const char *path, int *packed,
		    char *err, size_t errlen)
{
	enum pkg_elf kind;
	struct stat st, to;

	if (is_skipped(pkg, path) || lstat(path, &st) || S_ISDIR(st.st_mode))
		return 0;
	/* a folder dpkg lists that this host has made a link (merged /usr: /lib) */
	if (S_ISLNK(st.st_mode) && !stat(path, &to) && S_ISDIR(to.st_mode))
		return 0;
	if (S_ISLNK(st.st_mode)) {
		(*packed)++;
		return pkg_plan_find(p, path) ? 0 : add_link(p, path, err, errlen);
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	(*packed)++;
	kind = pkg_elf_kind(path);
	if (!add_file(p, path, path, kind == PKG_ELF_EXEC || (st.st_mode & 0111)))
		return 0;
	if (kind == PKG_NOT_ELF)
		return 0;
	if (kind == PKG_ELF_EXEC && on_path(path))
		add_command(p, strrchr(path, '/') + 1);
	return add_closure(p, path, err, errlen);
}

/* The files links point to, when no named package packed them. */
static int add_link_targets(struct pkg_plan *p, char *err, size_t errlen)
{
	char real[PATH_MAX];
	struct stat st;
	int i, n = p->n;

	for (i = 0; i < n; i++) {
		if (p->e[i].kind != PKG_LINK || !realpath(p->e[i].path, real) ||
		    pkg_plan_find(p, real) || stat(real, &st) || !S_ISREG(st.st_mode))
			continue;
		if (add_file(p, real, real, st.st_mode & 0111) &&
		    pkg_elf_kind(real) != PKG_NOT_ELF && add_closure(p, real, err, errlen))
			return -1;
	}
	return 0;
}

/*
 * Programs outside the guest's PATH, each linked from PKG_LINK_DIR unless
 * a program of that name is on it already.
 */
static void add_path_links(struct pkg_plan *p)
{
	char link[PATH_MAX];
	struct pkg_entry *e;
	const char *name;
	int i, n = p->n;

	for (i = 0; i < n; i++) {
		if (p->e[i].kind != PKG_FILE || !p->e[i].exec || on_path(p->e[i].path) ||
		    pkg_elf_kind(p->e[i].src) != PKG_ELF_EXEC || !strstr(p->e[i].path, "/bin/"))
			continue;
		name = strrchr(p->e[i].path, '/') + 1;
		snprintf(link, sizeof(link), PKG_LINK_DIR "/%s", name);
		if (pkg_plan_find(p, link))
			continue;
		add_command(p, name);
		e = add(p, link);	/* p->e may move */
		e->kind = PKG_LINK;
		e->target = strdup(p->e[i].path);
	}
}

int pkg_resolve(const char *admin, const char *names, struct pkg_plan *p, char *err,
		size_t errlen)
{
	char *copy = strdup(names), *w, *save = NULL;
	int rc = 0, i;

	memset(p, 0, sizeof(*p));
	if (!copy)
		return errf(err, errlen, "out of memory");
	for (w = strtok_r(copy, " \t,", &save); w && !rc; w = strtok_r(NULL, " \t,", &save)) {
		for (i = 0; i < p->n_pkg && strcmp(p->pkg[i].name, w); i++)
			;
		if (i < p->n_pkg)
			continue;	/* named twice */
		if (p->n_pkg == PKG_MAX)
			rc = errf(err, errlen, "more than %d packages", PKG_MAX);
		else
			rc = pkg_lookup(admin, w, &p->pkg[p->n_pkg++], err, errlen);
	}
	free(copy);
	if (!rc && !p->n_pkg)
		rc = errf(err, errlen, "no package named");
	return rc;
}

int pkg_plan_files(const char *admin, struct pkg_plan *p, char *err, size_t errlen)
{
	struct argv paths;
	int i, k, packed, rc = 0;

	for (k = 0; k < p->n_pkg && !rc; k++) {
		paths = (struct argv) { 0 };
		packed = 0;
		rc = pkg_files(admin, &p->pkg[k], &paths, err, errlen);
		for (i = 0; !rc && i < paths.n; i++)
			rc = add_path(p, p->pkg[k].name, paths.v[i], &packed, err, errlen);
		argv_free(&paths);
		if (!rc && !packed)
			rc = errf(err, errlen, "nothing to pack (no program, library or "
				  "data file but documentation: a metapackage? name the packages "
				  "it depends on)");
		if (rc)
			errf_prefix(err, errlen, "package '%s'", p->pkg[k].name);
	}
	if (!rc)
		rc = add_link_targets(p, err, errlen);
	if (!rc)
		add_path_links(p);
	return rc;
}

void pkg_plan_free(struct pkg_plan *p)
{
	int i;

	for (i = 0; i < p->n; i++) {
		free(p->e[i].path);
		free(p->e[i].src);
		free(p->e[i].target);
	}
	free(p->e);
	argv_free(&p->commands);
	memset(p, 0, sizeof(*p));
}
