// SPDX-License-Identifier: GPL-2.0
/* FOLDER/slurm.jobs: JOB<TAB>CLUSTER<TAB>WORKDIR<TAB>LIST a line (record.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "record.h"
#include "run/fsio.h"

int slurm_record_add(const char *dir, const struct slurm_record *r, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], why[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/" SLURM_RECORD_FILE, dir);
	f = fopen(path, "a");
	if (f) {
		fprintf(f, "%ld\t%s\t%s\t%s\n", r->job, r->cluster[0] ? r->cluster : "-",
			r->workdir, r->list);
		if (!fclose_checked(f))
			return 0;
	}
	return errf(err, errlen, "cannot record Slurm job %ld in %s: %s", r->job, path,
		    write_errstr(path, errno, why, sizeof(why)));
}

/* One line of the record into R; -1 when it is not one. */
static int parse_line(char *line, struct slurm_record *r)
{
	char *f[4], *end, *save = NULL;
	int i;

	line[strcspn(line, "\n")] = 0;
	for (i = 0; i < 4; i++)
		if (!(f[i] = strtok_r(i ? NULL : line, "\t", &save)))
			return -1;
	r->job = strtol(f[0], &end, 10);
	if (*end || r->job <= 0 || f[2][0] != '/' || f[3][0] != '/')
		return -1;
	snprintf(r->cluster, sizeof(r->cluster), "%s", strcmp(f[1], "-") ? f[1] : "");
	snprintf(r->workdir, sizeof(r->workdir), "%s", f[2]);
	snprintf(r->list, sizeof(r->list), "%s", f[3]);
	return 0;
}

int slurm_record_last(const char *dir, struct slurm_record *r, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], line[PATH_MAX * 2 + 128];
	int n = 0, bad = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/" SLURM_RECORD_FILE, dir);
	f = fopen(path, "r");
	if (!f && errno == ENOENT)
		return 1;
	if (!f)
		return errf(err, errlen, "cannot read %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (parse_line(line, r))
			bad = n;
	}
	fclose(f);
	if (bad || !n)
		return errf(err, errlen, "%s is damaged (line %d is not JOB CLUSTER WORKDIR "
			    "LIST)", path, bad ? bad : 1);
	return 0;
}
