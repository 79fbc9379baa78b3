// SPDX-License-Identifier: GPL-2.0
/*
 * The packages' archives in the cache: CACHE/packages/KEY/, KEY a hash
 * of the recipe and each package's name, version and architecture. The
 * folder holds packages.cpio, packages.list (its commands), info
 * (key=value: what it holds) and manifest (size, mtime and path of every
 * host file it was made from). A folder whose manifest no longer matches
 * the host (a library upgraded, the packages' versions the same) is made
 * again; builders wait for each other on CACHE/packages/lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/path.h"
#include "pkg.h"

/*
 * What this code does to an archive that its inputs do not show; a new
 * recipe is a new key for every archive. 1: the first; 2: the loader executable.
 */
#define PKG_RECIPE 2

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static int by_pkg_name(const void *a, const void *b)
{
	return strcmp(((const struct pkg_ref *)a)->name, ((const struct pkg_ref *)b)->name);
}

/* The key of P's resolved packages, in any order they were named. */
static void archive_key(struct pkg_plan *p, char key[17])
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char line[PKG_NAME_MAX * 3];
	int i;

	qsort(p->pkg, p->n_pkg, sizeof(p->pkg[0]), by_pkg_name);
	snprintf(line, sizeof(line), "recipe=%d\n", PKG_RECIPE);
	h = fnv(h, line);
	for (i = 0; i < p->n_pkg; i++) {
		snprintf(line, sizeof(line), "%s %s %s\n", p->pkg[i].name, p->pkg[i].version,
			 p->pkg[i].arch);
		h = fnv(h, line);
	}
	snprintf(key, 17, "%016llx", (unsigned long long)h);
}

static void manifest_line(char *buf, size_t len, const struct stat *st, const char *path)
{
	snprintf(buf, len, "%lld %lld.%09ld %s\n", (long long)st->st_size,
		 (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec, path);
}

/* Does every host file of DIR's manifest still have its size and mtime? */
static bool manifest_holds(const char *dir)
{
	char path[PATH_MAX], line[PATH_MAX + 64], now[PATH_MAX + 64], *name;
	bool holds = true;
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "%s/packages.cpio", dir);
	if (access(path, R_OK))
		return false;
	snprintf(path, sizeof(path), "%s/manifest", dir);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (holds && fgets(line, sizeof(line), f)) {
		name = strchr(line, ' ');
		name = name ? strchr(name + 1, ' ') : NULL;
		if (!name)
			holds = false;
		else if (name[strlen(name) - 1] == '\n')
			name[strlen(name) - 1] = 0;
		if (holds && stat(name + 1, &st))
			holds = false;
		if (holds) {
			manifest_line(now, sizeof(now), &st, name + 1);
			now[strlen(now) - 1] = 0;
			holds = !strcmp(line, now);
		}
	}
	fclose(f);
	return holds;
}

static int write_text(const char *dir, const char *name, const char *text, char *err,
		      size_t errlen)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.tmp", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		return errf(err, errlen, "cannot write %s: %m", path);
	return 0;
}

/* DIR/NAME.tmp becomes DIR/NAME. */
static int publish(const char *dir, const char *name, char *err, size_t errlen)
{
	char from[PATH_MAX], to[PATH_MAX];

	snprintf(from, sizeof(from), "%s/%s.tmp", dir, name);
	snprintf(to, sizeof(to), "%s/%s", dir, name);
	if (rename(from, to))
		return errf(err, errlen, "cannot rename %s: %m", from);
	return 0;
}

/* The texts beside the archive: commands, manifest, info. */
static int write_texts(const struct pkg_plan *p, const char *dir, const char *key,
		       char *err, size_t errlen)
{
	char *man = NULL, *list = NULL, *info = NULL, line[PATH_MAX + 64];
	size_t ml = 0, ll = 0, il = 0;
	FILE *fm = open_memstream(&man, &ml), *fl = open_memstream(&list, &ll);
	FILE *fi = open_memstream(&info, &il);
	struct stat st;
	int i, files = 0, rc = 0;

	if (!fm || !fl || !fi)
		return errf(err, errlen, "out of memory");
	for (i = 0; i < p->n; i++) {
		if (p->e[i].kind != PKG_FILE)
			continue;
		files++;
		if (stat(p->e[i].src, &st)) {
			rc = errf(err, errlen, "%s: %m", p->e[i].src);
			break;
		}
		manifest_line(line, sizeof(line), &st, p->e[i].src);
		fputs(line, fm);
	}
	for (i = 0; i < p->commands.n; i++)
		fprintf(fl, "%s\n", p->commands.v[i]);
	fprintf(fi, "key=%s\nrecipe=%d\npackages=", key, PKG_RECIPE);
	for (i = 0; i < p->n_pkg; i++)
		fprintf(fi, "%s%s=%s", i ? " " : "", p->pkg[i].name, p->pkg[i].version);
	fprintf(fi, "\nfiles=%d\nentries=%d\n", files, p->n);
	fclose(fm);
	fclose(fl);
	fclose(fi);
	if (!rc)
		rc = write_text(dir, "packages.list", list, err, errlen) ||
		     write_text(dir, "info", info, err, errlen) ||
		     write_text(dir, "manifest", man, err, errlen) ? -1 : 0;
	free(man);
	free(list);
	free(info);
	return rc;
}

static int build(const char *admin, struct pkg_plan *p, struct pkg_archive *a, char *err,
		 size_t errlen)
{
	char tmp[PATH_MAX + 8];

	if (pkg_plan_files(admin, p, err, errlen))
		return -1;
	if (mkdir_p(a->dir, 0755))
		return errf(err, errlen, "cannot make %s: %m", a->dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", a->cpio);
	if (pkg_write_cpio(p, tmp, err, errlen) || write_texts(p, a->dir, a->key, err, errlen))
		return -1;
	/* the manifest last: it is what says the folder is whole */
	if (publish(a->dir, "packages.cpio", err, errlen) ||
	    publish(a->dir, "packages.list", err, errlen) ||
	    publish(a->dir, "info", err, errlen) || publish(a->dir, "manifest", err, errlen))
		return -1;
	a->built = true;
	return 0;
}

int pkg_archive_get(const char *cache, const char *admin, const char *names,
		    struct pkg_archive *a, char *err, size_t errlen)
{
	struct pkg_plan p;
	char lock[PATH_MAX];
	struct stat st;
	int fd = -1, rc;

	memset(a, 0, sizeof(*a));
	if (pkg_resolve(admin, names, &p, err, errlen)) {
		pkg_plan_free(&p);
		return -1;
	}
	archive_key(&p, a->key);
	if (snprintf(a->dir, sizeof(a->dir), "%s/packages/%s", cache, a->key) >=
	    (int)sizeof(a->dir) - 32) {
		pkg_plan_free(&p);
		return errf(err, errlen, "cache path %s is too long", cache);
	}
	/* the cache's folder is shorter than PATH_MAX - 32: these fit */
	rc = path_join(a->cpio, sizeof(a->cpio), a->dir, "packages.cpio") ||
	     path_join(a->list, sizeof(a->list), a->dir, "packages.list");
	if (!manifest_holds(a->dir)) {
		snprintf(lock, sizeof(lock), "%s/packages", cache);
		if (mkdir_p(lock, 0755))
			rc = errf(err, errlen, "cannot make %s: %m", lock);
		snprintf(lock, sizeof(lock), "%s/packages/lock", cache);
		fd = rc ? -1 : open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (!rc && (fd < 0 || flock(fd, LOCK_EX)))
			rc = errf(err, errlen, "cannot lock %s: %m", lock);
		/* another builder may have made it meanwhile */
		if (!rc && !manifest_holds(a->dir))
			rc = build(admin, &p, a, err, errlen);
	}
	if (fd >= 0)
		close(fd);
	pkg_plan_free(&p);
	if (!rc && stat(a->cpio, &st))
		rc = errf(err, errlen, "%s: %m", a->cpio);
	if (!rc)
		a->bytes = st.st_size;
	return rc;
}
