/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slurm's commands (sbatch, squeue, sinfo) as processes: an argv, never a
 * shell line, so no folder name or sbatch option is ever parsed by a
 * shell; what they print is kept, stdout and stderr apart.
 */
#ifndef BNB_RUNNER_SLURM_CMD_H
#define BNB_RUNNER_SLURM_CMD_H

#include <stddef.h>

/* What ran and what it said: OUT and ERR are NUL-terminated (malloc). */
struct slurm_out {
	int status;	/* its exit status; -1 when it could not be started */
	char *out;
	char *err;	/* stderr, or why it could not be started */
};

/*
 * Run ARGV (ARGV[0] looked up in PATH) with stdin from /dev/null and wait
 * for it. Returns its exit status (the signal's number + 128 when killed),
 * or -1 when it could not be started (ERR says why: "sbatch: not found
 * ..."). R is filled either way; slurm_out_free() releases it.
 */
int slurm_cmd(char *const argv[], struct slurm_out *r);
void slurm_out_free(struct slurm_out *r);

/* TEXT on one line in BUF (its newlines as "; ", no trailing space). */
const char *slurm_oneline(const char *text, char *buf, size_t len);

#endif
