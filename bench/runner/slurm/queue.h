/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What Slurm says of a submitted array, task by task (squeue; no
 * accounting needed: slurmctld keeps an ended job MinJobAge seconds,
 * 300 by default, after which the job is gone).
 */
#ifndef BNB_RUNNER_SLURM_QUEUE_H
#define BNB_RUNNER_SLURM_QUEUE_H

#include <stdbool.h>
#include <stddef.h>

#include "record.h"

struct slurm_task {
	int k;			/* the array index */
	char state[24];		/* PENDING, RUNNING, COMPLETED, CANCELLED, FAILED, ... */
	char node[64];
	char reason[64];
	int wstatus;		/* the batch script's, as wait() has it */
};

#define SLURM_Q_GONE 1

/*
 * R's tasks into *T (malloc), *N of them: 0; SLURM_Q_GONE when Slurm no
 * longer knows the job (or the id is another job's now: its folder is not
 * R's); -1 with ERR when Slurm cannot be asked (its message).
 */
int slurm_query(const struct slurm_record *r, struct slurm_task **t, int *n, char *err,
		size_t errlen);

/*
 * squeue's lines (FORMAT in queue.c) into *T, *N of them: 0;
 * SLURM_Q_GONE when none is there, or one is another folder's (WORKDIR
 * not R's: the id was given to another job since); -1 out of memory.
 * OUT is cut up.
 */
int slurm_parse_tasks(char *out, const char *workdir, struct slurm_task **t, int *n);

/* Whether a task in STATE may still run (pending, running, requeued...). */
bool slurm_state_active(const char *state);

/* The tasks of T[0..N) that may still run, and of those, the ones running. */
int slurm_active(const struct slurm_task *t, int n, int *running);

#endif
