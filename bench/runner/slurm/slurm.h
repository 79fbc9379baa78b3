/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bnb-run --slurm: the runs of one results folder, or of every folder of
 * the reference suite, as one Slurm job array whose tasks each run one
 * run (`bnb-run job FOLDER N`, through slurm/task.sh). The submitter
 * prepares and checks everything first (the run path's pre-flight);
 * the nodes need the tree, the results folder and the build cache at the
 * submitter's paths. FOLDER/slurm.jobs records each submission (record.h)
 * and TOP/slurm/ holds its task lists and the tasks' logs.
 */
#ifndef BNB_RUNNER_SLURM_H
#define BNB_RUNNER_SLURM_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>

/* What was asked of Slurm on the command line. */
struct slurm_opts {
	bool wait;		/* --wait: until the array ends, then the report */
	char **sbatch;		/* after --: sbatch's own options, given as they are */
	int n_sbatch;
};

/* One results folder's share of a submission: jobs IDS of its jobs.tsv. */
struct slurm_part {
	char dir[PATH_MAX];
	int *ids;
	int n;
	int total;		/* jobs in its jobs.tsv */
};

/* What one submission runs, folder by folder. */
struct slurm_batch {
	struct slurm_part *parts;
	int n;
	int cpus;		/* host CPUs a task's guest keeps busy: --cpus-per-task */
	char name[64];		/* the job's name */
	long job;		/* once submitted */
	char cluster[64];
	char workdir[PATH_MAX];	/* TOP/slurm */
	char list[PATH_MAX + 32];	/* the task list */
};

/*
 * ARGV[0..ARGC)'s words after "--" are sbatch's options, into O; returns
 * the count of the words before it, bnb-run's own.
 */
int slurm_opts_split(struct slurm_opts *o, int argc, char **argv);

/*
 * Before anything is built or written: sbatch can be run, and O's sbatch
 * options leave the array to bnb-run. 0, or -1 having said why on stderr.
 */
int slurm_check(const struct slurm_opts *o);

/* Add jobs IDS[0..N) of DIR (IDS NULL: 1..TOTAL) whose guests keep CPUS busy. */
void slurm_batch_add(struct slurm_batch *b, const char *dir, const int *ids, int n,
		     int total, int cpus);
void slurm_batch_free(struct slurm_batch *b);

/*
 * Submit B as one `sbatch --array` from TOP (TOP/slurm/ gets its task
 * list and logs), print its job id and record it in each folder. 0, or 2
 * when sbatch refused the job or was not there (its message on stderr;
 * the folders keep their job lists, nothing ran).
 */
int slurm_submit(struct slurm_batch *b, const char *top, const struct slurm_opts *o);

/*
 * Follow B's tasks until none is pending or running, a line as each ends,
 * then name every run that did not end ok and why. 0 when every run ended
 * ok, 1 when not, 130 when *STOP was set (the array goes on).
 */
int slurm_wait(const struct slurm_batch *b, volatile sig_atomic_t *stop);

/*
 * Whether the newest job recorded in DIR may still run tasks of it (said
 * on stderr with what to do): a --resume must not move or rerun what a
 * pending task will run. A job Slurm no longer knows is over.
 */
bool slurm_folder_busy(const char *dir);

/*
 * For `bnb-run report DIR`, after the runs not finished: a line when DIR's
 * newest Slurm job still has tasks queued (true), or when Slurm cannot say.
 */
bool slurm_folder_note(const char *dir);

#endif
