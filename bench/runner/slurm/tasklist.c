// SPDX-License-Identifier: GPL-2.0
/*
 * A submission's task list, TOP/slurm/tasks-S.tsv (tasklist.h): array
 * index K runs job N of FOLDER, K counting on from the folders before it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "run/fsio.h"
#include "tasklist.h"

char *slurm_array_spec(const int *k, int n)
{
	size_t len = 0, cap = (size_t)n * 24 + 1;
	char *spec = malloc(cap);
	int i = 0, j;

	if (!spec)
		abort();
	spec[0] = 0;
	while (i < n) {
		for (j = i; j + 1 < n && k[j + 1] == k[j] + 1; j++)
			;
		len += (size_t)snprintf(spec + len, cap - len, "%s%d", len ? "," : "", k[i]);
		if (j > i)
			len += (size_t)snprintf(spec + len, cap - len, "-%d", k[j]);
		i = j + 1;
	}
	return spec;
}

/* TOP/slurm/tasks-S.tsv for the first S not taken, opened; B's list and K's. */
static FILE *new_list(struct slurm_batch *b, char *err, size_t errlen)
{
	char why[256];
	int fd = -1;

	for (int s = 1; s < 10000 && fd < 0; s++) {
		snprintf(b->list, sizeof(b->list), "%s/tasks-%d.tsv", b->workdir, s);
		fd = open(b->list, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd >= 0)
		return fdopen(fd, "w");
	errf(err, errlen, "cannot write a task list in %s: %s", b->workdir,
	     write_errstr(b->workdir, errno, why, sizeof(why)));
	return NULL;
}

int slurm_list_write(struct slurm_batch *b, int **k, int *nk, char *err, size_t errlen)
{
	int offset = 0, n = 0, all = 0, bad;
	char why[256];
	FILE *f;

	for (int i = 0; i < b->n; i++) {
		all += b->parts[i].n;
		if (strpbrk(b->parts[i].dir, "\t\n"))
			return errf(err, errlen, "the folder '%s' has a tab or a newline in its "
				    "path, which a task list cannot hold", b->parts[i].dir);
	}
	*k = calloc((size_t)all + 1, sizeof(**k));
	f = *k ? new_list(b, err, errlen) : NULL;
	if (!f)
		return -1;
	for (int i = 0; i < b->n; i++) {
		const struct slurm_part *p = &b->parts[i];

		for (int j = 0; j < p->n; j++) {
			(*k)[n++] = offset + p->ids[j];
			fprintf(f, "%d\t%s\t%d\n", offset + p->ids[j], p->dir, p->ids[j]);
		}
		offset += p->total;
	}
	*nk = n;
	bad = fclose_checked(f);
	if (!bad)
		return 0;
	return errf(err, errlen, "cannot write %s: %s", b->list,
		    write_errstr(b->list, errno, why, sizeof(why)));
}

