// SPDX-License-Identifier: GPL-2.0
/* Files of the run path; where the tree is, is lib/path.h's bnb_root(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

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
