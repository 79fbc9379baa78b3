// SPDX-License-Identifier: GPL-2.0
/*
 * Where the repository is. run.sh sets BNB_ROOT; without it the binary
 * finds the tree from its own location (ROOT/build/bin/bnb-run), so it also
 * works when called directly, from GNU parallel or from a Slurm job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

const char *bnb_root(void)
{
	static char root[PATH_MAX];
	char exe[PATH_MAX];
	const char *env = getenv("BNB_ROOT");
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
	exe[n] = 0;
	for (i = 0; i < 3; i++) {	/* strip bnb-run, bin, build */
		char *slash = strrchr(exe, '/');

		if (slash && slash != exe)
			*slash = 0;
	}
	snprintf(root, sizeof(root), "%s", exe);
	return root;
}

const char *root_path(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", bnb_root(), rel);
	return buf;
}

int copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "r"), *out;
	size_t n;
	int rc = 0;

	if (!in)
		return -1;
	out = fopen(to, "w");
	if (!out) {
		fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)))
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	fclose(in);
	return fclose(out) || rc ? -1 : 0;
}
