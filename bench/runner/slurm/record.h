/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which Slurm jobs hold runs of a results folder: FOLDER/slurm.jobs, one
 * line a submission, so that a later --resume, report or submission can
 * ask Slurm whether they still run, wherever it is started from.
 */
#ifndef BNB_RUNNER_SLURM_RECORD_H
#define BNB_RUNNER_SLURM_RECORD_H

#include <limits.h>
#include <stddef.h>

#define SLURM_RECORD_FILE "slurm.jobs"

struct slurm_record {
	long job;		/* the array's job id */
	char cluster[64];	/* sbatch --parsable's ";CLUSTER", or "" */
	char workdir[PATH_MAX];	/* the tasks' folder (TOP/slurm): lists and logs */
	char list[PATH_MAX + 32];	/* its task list, K FOLDER N a line */
};

/* Append R to DIR's record; 0, or -1 with ERR. */
int slurm_record_add(const char *dir, const struct slurm_record *r, char *err, size_t errlen);

/*
 * The newest submission holding runs of DIR into R: 0, 1 when DIR has no
 * record (never submitted), -1 with ERR when the record is damaged.
 */
int slurm_record_last(const char *dir, struct slurm_record *r, char *err, size_t errlen);

#endif
