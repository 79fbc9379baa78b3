// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "path.h"

int path_resolve(const char *path, char *out, size_t len)
{
	char head[PATH_MAX], *abs, *slash;
	const char *rest;
	int n;

	if (snprintf(head, sizeof(head), "%s", path) >= (int)sizeof(head))
		return -1;
	/* cut components off the end until what is left exists */
	while (!(abs = realpath(*head ? head : path[0] == '/' ? "/" : ".", NULL)) && *head) {
		slash = strrchr(head, '/');
		*(slash ? slash : head) = 0;
	}
	if (!abs)
		return -1;
	for (rest = path + strlen(head); *rest == '/'; rest++)
		;
	n = snprintf(out, len, "%s%s%s", abs, *rest && strcmp(abs, "/") ? "/" : "", rest);
	free(abs);
	return n < (int)len ? 0 : -1;
}

bool path_inside(const char *path, const char *folder)
{
	size_t n = strlen(folder);

	return !strncmp(path, folder, n) && (path[n] == '/' || !path[n]);
}

int path_join(char *buf, size_t len, const char *dir, const char *name)
{
	size_t dl = strlen(dir);
	int n;

	if (name[0] == '/' || !dl)
		n = snprintf(buf, len, "%s", name);
	else
		n = snprintf(buf, len, "%s%s%s", dir, dir[dl - 1] == '/' ? "" : "/", name);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

static int mkdir_one(const char *path, mode_t mode)
{
	struct stat st;

	if (!mkdir(path, mode))
		return 0;
	if (errno != EEXIST)
		return -1;
	if (stat(path, &st))
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

int mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (p = buf + 1; *p; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		*p = '\0';
		if (mkdir_one(buf, mode))
			return -1;
		*p = '/';
	}
	return mkdir_one(buf, mode);
}

const char *bnb_root(void)
{
	static char root[PATH_MAX];
	const char *env = getenv("BNB_ROOT");
	char exe[PATH_MAX];
	ssize_t n;
	int i;

	if (root[0])
		return root;
	if (env && *env) {
		snprintf(root, sizeof(root), "%s", env);
		return root;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(root, sizeof(root), ".");
		return root;
	}
	exe[n] = '\0';
	for (i = 0; i < 3; i++) {	/* strip TOOL, bin, build */
		char *slash = strrchr(exe, '/');

		if (slash && slash != exe)
			*slash = '\0';
	}
	snprintf(root, sizeof(root), "%s", exe);
	return root;
}

const char *root_path(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", bnb_root(), rel);
	return buf;
}

const char *cache_root(char *buf, size_t len)
{
	const char *c = getenv("BNB_CACHE"), *x = getenv("XDG_CACHE_HOME");

	if (c && *c)
		snprintf(buf, len, "%s", c);
	else if (x && *x)
		snprintf(buf, len, "%s/balancenuma-bench", x);
	else
		snprintf(buf, len, "%s/.cache/balancenuma-bench", getenv("HOME") ?: "");
	return buf;
}
