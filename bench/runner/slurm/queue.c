// SPDX-License-Identifier: GPL-2.0
/* squeue's view of an array, task by task (queue.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "lib/argv.h"
#include "lib/err.h"
#include "lib/util.h"
#include "queue.h"

/* The states in which a task is over (squeue --states=all names them). */
static const char *const ended[] = {
	"COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
	"BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", "REVOKED",
};

bool slurm_state_active(const char *state)
{
	for (size_t i = 0; i < ARRAY_SIZE(ended); i++)
		if (!strcmp(state, ended[i]))
			return false;
	return true;
}

int slurm_active(const struct slurm_task *t, int n, int *running)
{
	int active = 0;

	*running = 0;
	for (int i = 0; i < n; i++) {
		if (!slurm_state_active(t[i].state))
			continue;
		active++;
		*running += !strcmp(t[i].state, "RUNNING") || !strcmp(t[i].state, "COMPLETING");
	}
	return active;
}

/* K|STATE|NODE|REASON|STATUS|WORKDIR: the fields asked for below. */
#define FORMAT "ArrayTaskID:|,State:|,NodeList:|,Reason:|,exit_code:|,WorkDir:"

/* One line of squeue's into T; 1 when it is another folder's job, -1 not a line. */
static int parse_task(char *line, const char *workdir, struct slurm_task *t)
{
	char *f[6], *p = line, *end;
	int i;

	for (i = 0; i < 5; i++) {
		f[i] = p;
		p = strchr(p, '|');
		if (!p)
			return -1;
		*p++ = 0;
	}
	f[5] = p;		/* the folder last: it may hold a '|' */
	memset(t, 0, sizeof(*t));
	t->k = (int)strtol(f[0], &end, 10);
	if (*end || end == f[0])
		return -1;
	snprintf(t->state, sizeof(t->state), "%s", f[1]);
	snprintf(t->node, sizeof(t->node), "%s", f[2]);
	snprintf(t->reason, sizeof(t->reason), "%s", f[3]);
	t->wstatus = atoi(f[4]);
	return strcmp(f[5], workdir) ? 1 : 0;
}

int slurm_parse_tasks(char *out, const char *workdir, struct slurm_task **t, int *n)
{
	char *line, *save = NULL;
	int cap = 0, rc;

	*t = NULL;
	*n = 0;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (*n == cap) {
			struct slurm_task *more;

			cap = cap ? cap * 2 : 64;
			more = realloc(*t, (size_t)cap * sizeof(**t));
			if (!more)
				return -1;
			*t = more;
		}
		rc = parse_task(line, workdir, &(*t)[*n]);
		if (rc > 0)
			return SLURM_Q_GONE;	/* the id is another job's now */
		*n += !rc;
	}
	return *n ? 0 : SLURM_Q_GONE;
}

int slurm_query(const struct slurm_record *r, struct slurm_task **t, int *n, char *err,
		size_t errlen)
{
	struct argv a = { 0 };
	struct slurm_out o;
	char line[512];
	int rc;

	*t = NULL;
	*n = 0;
	argv_add(&a, "squeue");
	argv_add(&a, "--noheader");
	argv_add(&a, "--array");
	argv_add(&a, "--states=all");
	argv_add(&a, "--jobs=%ld", r->job);
	if (r->cluster[0])
		argv_add(&a, "--clusters=%s", r->cluster);
	argv_add(&a, "--Format=" FORMAT);
	rc = slurm_cmd(a.v, &o);
	argv_free(&a);
	/* an id slurmctld has forgotten: "Invalid job id specified" */
	if (rc == 1 && strstr(o.err, "Invalid job id"))
		rc = SLURM_Q_GONE;
	else if (rc)
		rc = errf(err, errlen, "squeue (job %ld) %s%s", r->job, rc < 0 ? "" : "failed: ",
			  slurm_oneline(o.err, line, sizeof(line)));
	else
		rc = slurm_parse_tasks(o.out, r->workdir, t, n);
	slurm_out_free(&o);
	if (rc) {
		free(*t);
		*t = NULL;
		*n = 0;
	}
	return rc;
}
