// SPDX-License-Identifier: GPL-2.0
/*
 * `bnb-run --resume DIR`: finish an interrupted results folder. Every job
 * of DIR/jobs.tsv whose run did not end "ok" (never started, failed,
 * incomplete after a Ctrl-C, or left "running" by a killed runner) runs
 * again, with the experiment file as DIR keeps it; the earlier attempt is
 * kept beside as runs/VARIANT/repN.prev-K, where reports do not look.
 * Then the summary and plots are rewritten.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsio.h"
#include "lib/err.h"
#include "plot/plot.h"
#include "report/report.h"
#include "report/results.h"
#include "runner.h"

/* Whether job J's run ended ok. */
static bool finished(const char *dir, const struct job *j)
{
	char path[PATH_MAX * 2], state[32];

	snprintf(path, sizeof(path), "%s/runs/%s/rep%d/status", dir, j->variant, j->rep);
	return !results_kv_get(path, "status", state, sizeof(state)) && !strcmp(state, "ok");
}

/*
 * Whether J's run is in progress elsewhere (a job line of DIR started by
 * hand or by a cluster): its run folder's lock is held. Says so.
 */
static bool in_use(const char *dir, const struct job *j)
{
	char path[PATH_MAX * 2];
	long pid;

	snprintf(path, sizeof(path), "%s/runs/%s/rep%d/" LOCK_FILE, dir, j->variant, j->rep);
	pid = lock_holder(path);
	if (!pid)
		return false;
	if (pid > 0)
		fprintf(stderr, "bnb-run: --resume %s: runs/%s/rep%d is being run by pid %ld "
			"(lock %s)\n", dir, j->variant, j->rep, pid, path);
	else
		fprintf(stderr, "bnb-run: --resume %s: runs/%s/rep%d is being run by another "
			"process (lock %s)\n", dir, j->variant, j->rep, path);
	return true;
}

/* Move an earlier attempt of J aside; 0 when there was none or it moved. */
static int set_aside(const char *dir, const struct job *j)
{
	char run[PATH_MAX * 2];

	snprintf(run, sizeof(run), "%s/runs/%s/rep%d", dir, j->variant, j->rep);
	return move_aside(run);
}

/* Whether a job of DIR is being run by another process (said on stderr). */
static bool any_in_use(const char *dir)
{
	struct job j;
	bool busy = false;
	int id;

	if (jobs_read(dir, 1, &j))
		return false;
	for (id = 1; id <= j.total; id++)
		if (!jobs_read(dir, id, &j) && !finished(dir, &j))
			busy |= in_use(dir, &j);
	return busy;
}

/* The jobs to run again, by id; their lines of jobs.txt into jobs-resume.txt. */
static int pending_jobs(const char *dir, int **ids, int *n_ids)
{
	char path[PATH_MAX + 32], line[PATH_MAX * 2];
	struct job j;
	FILE *in, *out;
	int id, n = 0;

	snprintf(path, sizeof(path), "%s/jobs.txt", dir);
	in = fopen(path, "r");
	snprintf(path, sizeof(path), "%s/jobs-resume.txt", dir);
	out = fopen(path, "w");
	if (!in || !out || jobs_read(dir, 1, &j)) {
		if (in)
			fclose(in);
		if (out)
			fclose(out);
		return -1;
	}
	*ids = calloc((size_t)j.total, sizeof(**ids));
	for (id = 1; id <= j.total && fgets(line, sizeof(line), in); id++) {
		if (jobs_read(dir, id, &j) || finished(dir, &j))
			continue;
		if (set_aside(dir, &j)) {
			fprintf(stderr, "bnb-run: cannot move runs/%s/rep%d aside: %s\n", j.variant,
				j.rep, strerror(errno));
			continue;
		}
		(*ids)[n++] = id;
		fputs(line, out);
	}
	fclose(in);
	*n_ids = n;
	return fclose(out);
}

int cmd_resume(const struct run_opts *o)
{
	char basedir[PATH_MAX], err[1024];
	const char *dir = o->resume;
	struct experiment exp;
	int *ids = NULL, n = 0, rc = 0, rrc, jobs;
	struct job j;
	bool written;

	if (o->slurm && !o->batch && slurm_check(&o->sl))
		return 2;
	if (results_experiment(dir, false, &exp, basedir, sizeof(basedir), err, sizeof(err))) {
		prog_error("--resume %s: %s", dir, err);
		return 2;
	}
	/*
	 * A live runner's folder is left alone, and so is one whose Slurm
	 * array may still start runs: nothing moved, nothing booted.
	 */
	if (folder_lock(dir) < 0 || any_in_use(dir) || slurm_folder_busy(dir)) {
		experiment_free(&exp);
		return 2;
	}
	if (pending_jobs(dir, &ids, &n) || jobs_read(dir, 1, &j)) {
		fprintf(stderr, "bnb-run: --resume %s: no job list (jobs.tsv, jobs.txt)\n", dir);
		experiment_free(&exp);
		return 2;
	}
	jobs = jobs_for(&exp, o->jobs);
	printf("bnb-run: resuming %s: %d runs to do again\n", dir, n);
	fflush(stdout);
	if (n && o->slurm) {
		rc = slurm_runs(dir, ids, n, j.total, &exp, o);
		free(ids);
		experiment_free(&exp);
		return rc;
	}
	if (o->batch) {
		free(ids);
		experiment_free(&exp);
		return 0;
	}
	runner_catch_signals();
	if (n && jobs > 1)
		rc = run_parallel(dir, "jobs-resume.txt", jobs);
	else if (n)
		rc = run_sequential(dir, &exp, basedir, ids, n);
	free(ids);
	experiment_free(&exp);
	rrc = report_folder(dir, !o->no_plots, &written);
	report_where(dir, written, "");
	return rc ? rc : rrc ? 1 : 0;
}
