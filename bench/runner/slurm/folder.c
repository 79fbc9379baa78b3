// SPDX-License-Identifier: GPL-2.0
/*
 * A results folder's Slurm jobs, asked before it is touched again: a
 * --resume must not move aside or rerun a run that a pending task will
 * start later, and a report names the tasks still queued.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lib/err.h"
#include "queue.h"
#include "slurm.h"

bool slurm_folder_busy(const char *dir)
{
	struct slurm_record r;
	struct slurm_task *t;
	char err[ERRLEN];
	int n, rc, active, running;

	rc = slurm_record_last(dir, &r, err, sizeof(err));
	if (rc > 0)
		return false;	/* never submitted */
	if (rc < 0) {
		fprintf(stderr, "bnb-run: %s: %s\n", dir, err);
		return true;
	}
	rc = slurm_query(&r, &t, &n, err, sizeof(err));
	if (rc == SLURM_Q_GONE) {
		printf("bnb-run: %s: Slurm job %ld is over (Slurm no longer knows it)\n", dir,
		       r.job);
		return false;
	}
	if (rc < 0) {
		fprintf(stderr, "bnb-run: %s: cannot ask Slurm whether job %ld still runs tasks "
			"of it: %s; when it surely does not, move %s/" SLURM_RECORD_FILE " aside\n",
			dir, r.job, err, dir);
		return true;
	}
	active = slurm_active(t, n, &running);
	free(t);
	if (!active)
		return false;
	fprintf(stderr, "bnb-run: %s: Slurm job %ld still has %d task(s) pending or running "
		"(%d running): wait for it (`bnb-run report %s` names what is not finished) or "
		"stop it (scancel %ld) first\n", dir, r.job, active, running, dir, r.job);
	return true;
}

bool slurm_folder_note(const char *dir)
{
	struct slurm_record r;
	struct slurm_task *t;
	char err[ERRLEN];
	int n, rc, active, running;

	rc = slurm_record_last(dir, &r, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "bnb-run: %s: %s\n", dir, err);	/* damaged: said */
	if (rc)
		return false;
	rc = slurm_query(&r, &t, &n, err, sizeof(err));
	if (rc < 0)
		printf("bnb-run: cannot ask Slurm about job %ld: %s\n", r.job, err);
	if (rc)
		return rc < 0;
	active = slurm_active(t, n, &running);
	free(t);
	if (active)
		printf("bnb-run: Slurm job %ld: %d task(s) still queued (%d running, %d pending); "
		       "`bnb-run report %s` again when they end\n", r.job, active, running,
		       active - running, dir);
	return active > 0;
}
