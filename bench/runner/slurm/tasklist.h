/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A submission's task list: TOP/slurm/tasks-S.tsv, "K<TAB>FOLDER<TAB>N" a
 * line, array index K running job N of FOLDER's jobs.tsv. K is N plus
 * the jobs of the folders before FOLDER in the batch: for one folder, the
 * task's index is the run's job id.
 */
#ifndef BNB_RUNNER_SLURM_TASKLIST_H
#define BNB_RUNNER_SLURM_TASKLIST_H

#include <stddef.h>

#include "slurm.h"

/* The sorted indexes K[0..N) as sbatch's --array wants them: "1-3,7" (malloc). */
char *slurm_array_spec(const int *k, int n);

/*
 * Write B's task list into B->workdir as the first tasks-S.tsv not there
 * yet (B->list gets its path); *K (malloc) gets the array's indexes in
 * order, *NK their number. 0, or -1 with ERR.
 */
int slurm_list_write(struct slurm_batch *b, int **k, int *nk, char *err, size_t errlen);

#endif
