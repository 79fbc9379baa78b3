// SPDX-License-Identifier: GPL-2.0
/*
 * --wait: follow a submitted array through squeue until no task of it is
 * pending or running, a line as each task ends, then the account: every
 * run that did not end ok, with what its status file says, or, for one
 * that never started, what Slurm and the task script's exit status say.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/util.h"
#include "queue.h"
#include "report/results.h"
#include "runner.h"
#include "slurm.h"

#define POLL_MIN_S 2		/* after a change; then a second longer a poll */
#define POLL_MAX_S 15
#define UNREACHABLE_S 300	/* squeue failing this long: stop following */

/* slurm/task.sh's own exit statuses: what this node could not see. */
static const struct {
	int code;
	const char *what;
} unseen[] = {
	{ 3, "the tree (bnb-run)" },
	{ 4, "the results folder's task list" },
	{ 5, "the build cache" },
};

/* One array task of the batch: its run, and what Slurm last said of it. */
struct followed {
	const struct slurm_part *part;
	int id;			/* the job of the folder's jobs.tsv */
	struct slurm_task last;	/* state "" until squeue names it */
	bool ended;
};

static struct followed *follow_list(const struct slurm_batch *b, int *n)
{
	struct followed *f;
	int all = 0, offset = 0, i = 0;

	for (int p = 0; p < b->n; p++)
		all += b->parts[p].n;
	f = calloc((size_t)all + 1, sizeof(*f));
	if (!f)
		abort();
	for (int p = 0; p < b->n; p++) {
		for (int j = 0; j < b->parts[p].n; j++, i++) {
			f[i].part = &b->parts[p];
			f[i].id = b->parts[p].ids[j];
			f[i].last.k = offset + f[i].id;
		}
		offset += b->parts[p].total;
	}
	*n = all;
	return f;
}

/* "on rep 2", after the folder's name when the batch has several. */
static const char *label(const struct slurm_batch *b, const struct followed *f, char *buf,
			 size_t len)
{
	const char *base = strrchr(f->part->dir, '/');
	struct job j;

	if (jobs_read(f->part->dir, f->id, &j)) {
		snprintf(j.variant, sizeof(j.variant), "job %d", f->id);
		j.rep = 0;
	}
	snprintf(buf, len, "%.64s%s%s rep %d", b->n > 1 ? (base ? base + 1 : f->part->dir) : "",
		 b->n > 1 ? " " : "", j.variant, j.rep);
	return buf;
}

/* The run's status= and reason= (its status file); "" state: none. */
static void run_status(const struct followed *f, char *state, size_t slen, char *reason,
		       size_t rlen)
{
	char path[PATH_MAX * 2];
	struct job j;

	state[0] = reason[0] = 0;
	if (jobs_read(f->part->dir, f->id, &j))
		return;
	snprintf(path, sizeof(path), "%s/runs/%s/rep%d/status", f->part->dir, j.variant, j.rep);
	if (results_kv_get(path, "status", state, slen))
		state[0] = 0;
	if (results_kv_get(path, "reason", reason, rlen))
		reason[0] = 0;
}

/* What Slurm said of the task, for a run that did not end ok. */
static void task_words(const struct slurm_batch *b, const struct followed *f, char *buf,
		       size_t len)
{
	const struct slurm_task *t = &f->last;
	int code = (t->wstatus >> 8) & 0xff, sig = t->wstatus & 0x7f;
	char log[PATH_MAX + 64];
	bool no_log;

	snprintf(log, sizeof(log), "%s/task-%ld_%d.log", b->workdir, b->job, t->k);
	no_log = access(log, F_OK) != 0;
	if (!t->state[0]) {
		snprintf(buf, len, "Slurm no longer knows task %ld_%d; its log: %s%s", b->job,
			 t->k, log, no_log ? " (none)" : "");
		return;
	}
	/*
	 * slurmstepd opens the log in the results folder before the task
	 * starts: a node that lacks the folder fails the task right there,
	 * and the folder this host sees never gets the log.
	 */
	if (no_log && strcmp(t->state, "CANCELLED")) {
		snprintf(buf, len, "node %s does not see the results folder at this host's path: "
			 "its task (%s) could not write %s", t->node[0] ? t->node : "?", t->state,
			 log);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(unseen); i++)
		if (code == unseen[i].code && !sig) {
			snprintf(buf, len, "node %s does not see %s at this host's path (task "
				 "exit %d): the tree, the results folder and the build cache must "
				 "be on paths every node sees", t->node, unseen[i].what, code);
			return;
		}
	snprintf(buf, len, "task %ld_%d %s on %s (exit %d%s%.0d); its log: %s%s", b->job, t->k,
		 t->state, t->node[0] ? t->node : "no node", code, sig ? ", signal " : "", sig,
		 log, no_log ? " (none)" : "");
}

/* The runs that did not end ok, each with why; 0 when there is none. */
static int account(const struct slurm_batch *b, const struct followed *f, int n)
{
	char state[32], reason[512], name[384], words[PATH_MAX + 256];
	int bad = 0;

	for (int i = 0; i < n; i++) {
		run_status(&f[i], state, sizeof(state), reason, sizeof(reason));
		if (!strcmp(state, "ok"))
			continue;
		if (!bad++)
			printf("bnb-run: Slurm job %ld: runs that did not end ok:\n", b->job);
		task_words(b, &f[i], words, sizeof(words));
		if (state[0])
			printf("  %s: %s%s%s (%s)\n", label(b, &f[i], name, sizeof(name)), state,
			       reason[0] ? ": " : "", reason, words);
		else
			printf("  %s: never started: %s\n", label(b, &f[i], name, sizeof(name)),
			       words);
	}
	if (bad)
		printf("bnb-run: %d of %d runs not ok: `bnb-run --resume FOLDER --slurm` submits "
		       "them again (the reference suite: `bnb-run reference --out DIR --slurm`)\n",
		       bad, n);
	fflush(stdout);
	return bad ? 1 : 0;
}

/* Take in squeue's word on the tasks; a line for each that ended. */
static bool update(const struct slurm_batch *b, struct followed *f, int n,
		   const struct slurm_task *t, int nt)
{
	char state[32], reason[512], name[384];
	bool changed = false;

	for (int i = 0; i < nt; i++)
		for (int j = 0; j < n; j++) {
			if (f[j].last.k != t[i].k)
				continue;
			changed |= strcmp(f[j].last.state, t[i].state) != 0;
			f[j].last = t[i];
			if (f[j].ended || slurm_state_active(t[i].state))
				break;
			f[j].ended = true;
			run_status(&f[j], state, sizeof(state), reason, sizeof(reason));
			printf("bnb-run: task %ld_%d (%s) %s on %s: run %s\n", b->job, t[i].k,
			       label(b, &f[j], name, sizeof(name)), t[i].state,
			       t[i].node[0] ? t[i].node : "no node", state[0] ? state : "not started");
			break;
		}
	return changed;
}

static void progress(const struct slurm_batch *b, const struct followed *f, int n)
{
	int pending = 0, running = 0, ended = 0;

	for (int i = 0; i < n; i++) {
		if (f[i].ended)
			ended++;
		else if (!strcmp(f[i].last.state, "RUNNING"))
			running++;
		else
			pending++;
	}
	printf("bnb-run: Slurm job %ld: %d pending, %d running, %d ended\n", b->job, pending,
	       running, ended);
	fflush(stdout);
}

static void pause_s(int s)
{
	struct timespec ts = { .tv_sec = s };

	nanosleep(&ts, NULL);	/* an interrupt ends it early */
}

/*
 * One look at the queue: 1 while a task may still run, 0 when none can,
 * -1 when Slurm has not answered for UNREACHABLE_S (*SINCE: since when).
 * *POLL_S: how long until the next look, short after a change.
 */
static int look(const struct slurm_batch *b, const struct slurm_record *r,
		struct followed *f, int n, time_t *since, int *poll_s)
{
	struct slurm_task *t;
	char err[ERRLEN];
	int nt, rc, running, active;

	rc = slurm_query(r, &t, &nt, err, sizeof(err));
	if (rc == SLURM_Q_GONE)
		return 0;	/* slurmctld has forgotten it: every task ended */
	if (rc < 0 && !*since) {
		fprintf(stderr, "bnb-run: %s; asking again\n", err);
		*since = time(NULL);
	}
	if (rc < 0 && time(NULL) - *since > UNREACHABLE_S) {
		fprintf(stderr, "bnb-run: Slurm did not answer for %d s: stopped following job "
			"%ld, which may still run; `bnb-run report FOLDER` names what is not "
			"finished\n", UNREACHABLE_S, b->job);
		return -1;
	}
	if (rc < 0)
		return 1;
	*since = 0;
	if (update(b, f, n, t, nt)) {
		progress(b, f, n);
		*poll_s = POLL_MIN_S;
	} else if (*poll_s < POLL_MAX_S) {
		(*poll_s)++;
	}
	active = slurm_active(t, nt, &running);
	free(t);
	return active > 0;
}

int slurm_wait(const struct slurm_batch *b, volatile sig_atomic_t *stop)
{
	struct slurm_record r = { .job = b->job };
	int n, rc, poll_s = POLL_MIN_S;
	time_t since = 0;
	struct followed *f;

	snprintf(r.cluster, sizeof(r.cluster), "%s", b->cluster);
	snprintf(r.workdir, sizeof(r.workdir), "%s", b->workdir);
	f = follow_list(b, &n);
	while ((rc = look(b, &r, f, n, &since, &poll_s)) > 0 && !*stop)
		pause_s(poll_s);
	if (*stop)
		printf("bnb-run: stopped waiting; Slurm job %ld goes on (scancel %ld stops it); "
		       "`bnb-run report FOLDER` at any time\n", b->job, b->job);
	rc = *stop ? 130 : rc < 0 ? 1 : account(b, f, n);
	free(f);
	return rc;
}
