// SPDX-License-Identifier: GPL-2.0
/*
 * The packages' archive as a newc cpio, written here rather than by the
 * cpio tool so that nothing of the builder's machine reaches it: under
 * deterministic timing the guest kernel parses every header field as it
 * unpacks, and a field's digits decide its instructions
 * (bench/guest/mkinitramfs.sh says what moved). Every entry is dated
 * PKG_ARCHIVE_EPOCH and owned by root, inodes count up in archive order,
 * device numbers are 0, modes are 0755 or 0644; files of the same bytes
 * (redis-tools' redis-check-aof and redis-check-rdb) are hard links, the
 * data stored once, with the last of them as newc wants it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "pkg.h"

#define COPY_BUF (1 << 16)

/* One entry of the archive: a folder, or the plan's entry E. */
struct item {
	char *name;		/* without the leading '/' */
	const struct pkg_entry *e;	/* NULL: a folder */
	off_t size;
	int group;		/* files of the same bytes share it */
	unsigned ino, nlink;
	bool data;		/* this entry carries the group's bytes */
};

struct items {
	struct item *v;
	int n, cap;
};

static void item_add(struct items *it, const char *name, const struct pkg_entry *e)
{
	if (it->n == it->cap) {
		it->cap = it->cap ? it->cap * 2 : 512;
		it->v = realloc(it->v, it->cap * sizeof(*it->v));
		if (!it->v)
			abort();
	}
	it->v[it->n++] = (struct item) { .name = strdup(name), .e = e, .group = -1 };
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct item *)a)->name, ((const struct item *)b)->name);
}

/* Every entry and every folder above one, sorted, each once. */
static void collect(const struct pkg_plan *p, struct items *it)
{
	char buf[PATH_MAX], *slash;
	int i, k;

	for (i = 0; i < p->n; i++) {
		snprintf(buf, sizeof(buf), "%s", p->e[i].path + 1);
		item_add(it, buf, &p->e[i]);
		for (slash = strchr(buf, '/'); slash; slash = strchr(slash + 1, '/')) {
			*slash = 0;
			item_add(it, buf, NULL);
			*slash = '/';
		}
	}
	qsort(it->v, it->n, sizeof(*it->v), by_name);
	for (i = k = 0; i < it->n; i++) {
		if (k && !strcmp(it->v[k - 1].name, it->v[i].name)) {
			/* a folder listed again, or a file that is also a folder's name */
			if (!it->v[k - 1].e)
				it->v[k - 1].e = it->v[i].e;
			free(it->v[i].name);
			continue;
		}
		it->v[k++] = it->v[i];
	}
	it->n = k;
}

static bool same_bytes(const char *a, const char *b, off_t size)
{
	char *x = malloc(COPY_BUF), *y = malloc(COPY_BUF);
	int fa = open(a, O_RDONLY | O_CLOEXEC), fb = open(b, O_RDONLY | O_CLOEXEC);
	bool same = x && y && fa >= 0 && fb >= 0;
	off_t done = 0;
	ssize_t n;

	while (same && done < size) {
		n = read(fa, x, COPY_BUF);
		same = n > 0 && read(fb, y, n) == n && !memcmp(x, y, n);
		done += n > 0 ? n : 0;
	}
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	free(x);
	free(y);
	return same;
}

/* Sizes, groups of identical files, inodes and link counts. */
static int number(struct items *it, char *err, size_t errlen)
{
	struct stat st;
	int i, k, groups = 0;
	unsigned ino = 0;

	for (i = 0; i < it->n; i++) {
		struct item *x = &it->v[i];

		x->ino = ++ino;
		x->nlink = 1;
		if (!x->e || x->e->kind != PKG_FILE)
			continue;
		if (stat(x->e->src, &st))
			return errf(err, errlen, "%s: %m", x->e->src);
		x->size = st.st_size;
		for (k = 0; k < i && x->group < 0; k++)
			if (it->v[k].group >= 0 && it->v[k].size == x->size &&
			    it->v[k].e->exec == x->e->exec &&
			    same_bytes(it->v[k].e->src, x->e->src, x->size))
				x->group = it->v[k].group;
		if (x->group < 0)
			x->group = groups++;
	}
	/* the group's first entry names the inode, its last carries the data */
	for (i = 0; i < it->n; i++) {
		int last = i, count = 0;

		if (it->v[i].group < 0 || it->v[i].nlink > 1 || it->v[i].data)
			continue;
		for (k = i; k < it->n; k++)
			if (it->v[k].group == it->v[i].group) {
				it->v[k].ino = it->v[i].ino;
				last = k;
				count++;
			}
		for (k = i; k <= last; k++)
			if (it->v[k].group == it->v[i].group)
				it->v[k].nlink = count;
		it->v[last].data = true;
	}
	return 0;
}

static void header(FILE *f, const struct item *x, unsigned mode, off_t size)
{
	size_t namesize = strlen(x->name) + 1;

	fprintf(f, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		x->ino, mode, 0, 0, x->nlink, PKG_ARCHIVE_EPOCH, (unsigned)size, 0, 0, 0, 0,
		(unsigned)namesize, 0);
	fwrite(x->name, 1, namesize, f);
	fwrite("\0\0\0", 1, (4 - (110 + namesize) % 4) % 4, f);
}

static int copy_data(FILE *f, const char *src, off_t size, char *err, size_t errlen)
{
	char *buf = malloc(COPY_BUF);
	int fd = open(src, O_RDONLY | O_CLOEXEC);
	off_t done = 0;
	ssize_t n = 0;

	while (buf && fd >= 0 && done < size && (n = read(fd, buf, COPY_BUF)) > 0) {
		if (n > size - done)
			n = size - done;
		fwrite(buf, 1, n, f);
		done += n;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	if (done != size)
		return errf(err, errlen, "%s: read %lld of %lld bytes (changed while packing?)",
			    src, (long long)done, (long long)size);
	fwrite("\0\0\0", 1, (4 - size % 4) % 4, f);
	return 0;
}

static int write_item(FILE *f, const struct item *x, char *err, size_t errlen)
{
	const struct pkg_entry *e = x->e;
	size_t len;

	if (!e) {
		header(f, x, S_IFDIR | 0755, 0);
		return 0;
	}
	if (e->kind == PKG_LINK) {
		len = strlen(e->target);
		header(f, x, S_IFLNK | 0777, len);
		fwrite(e->target, 1, len, f);
		fwrite("\0\0\0", 1, (4 - len % 4) % 4, f);
		return 0;
	}
	header(f, x, S_IFREG | (e->exec ? 0755 : 0644), x->data ? x->size : 0);
	return x->data ? copy_data(f, e->src, x->size, err, errlen) : 0;
}

int pkg_write_cpio(const struct pkg_plan *p, const char *out, char *err, size_t errlen)
{
	struct items it = { 0 };
	struct item trailer = { .name = "TRAILER!!!" };
	int i, rc;
	FILE *f;

	collect(p, &it);
	rc = number(&it, err, errlen);
	f = rc ? NULL : fopen(out, "w");
	if (!rc && !f)
		rc = errf(err, errlen, "cannot write %s: %m", out);
	for (i = 0; f && !rc && i < it.n; i++)
		rc = write_item(f, &it.v[i], err, errlen);
	if (f) {
		header(f, &trailer, 0, 0);
		if (fclose(f) && !rc)
			rc = errf(err, errlen, "writing %s: %m", out);
	}
	for (i = 0; i < it.n; i++)
		free(it.v[i].name);
	free(it.v);
	return rc;
}
