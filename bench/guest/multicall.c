// SPDX-License-Identifier: GPL-2.0
/*
 * The guest programs as one static binary: the program is the one its
 * argv[0] names (build/guest/bin/NAME and the guest's /opt/bnb/bin/NAME
 * are links to this binary), or its first argument when it is run by its
 * own name.
 *
 * Each guest program linked statically carried its own copy of libc and
 * libnuma, most of its megabyte; the guest unpacks the base initramfs into
 * memory at every boot, and under TCG that copy is a good part of the
 * boot. Linked together they share one copy. Each program's own objects
 * keep only their main global, renamed (the Makefile's $(GPROG) rule), so
 * that programs built from one source (numa01, numa02) do not clash.
 *
 * BNB_PROGS, from the Makefile, is a list of X(function, "name").
 */
#include <stdio.h>
#include <string.h>

#define X(fn, name) int fn(int argc, char **argv);
BNB_PROGS
#undef X

struct prog {
	const char *name;
	int (*main)(int argc, char **argv);
};

static const struct prog progs[] = {
#define X(fn, name) { name, fn },
	BNB_PROGS
#undef X
};

#define SELF "multicall"

static const struct prog *find_prog(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t i;

	base = base ? base + 1 : path;
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++)
		if (!strcmp(progs[i].name, base))
			return &progs[i];
	return NULL;
}

static int usage(const char *name)
{
	size_t i;

	if (name)
		fprintf(stderr, SELF ": no program named '%s'\n", name);
	fprintf(stderr, "usage: " SELF " PROGRAM [ARG...], or run it as PROGRAM; the programs:");
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++)
		fprintf(stderr, " %s", progs[i].name);
	fputc('\n', stderr);
	return 127;
}

int main(int argc, char **argv)
{
	const struct prog *p = argc ? find_prog(argv[0]) : NULL;

	if (p)
		return p->main(argc, argv);
	if (argc < 2)
		return usage(NULL);
	p = find_prog(argv[1]);
	if (!p)
		return usage(argv[1]);
	return p->main(argc - 1, argv + 1);
}
