/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bisection's child processes, run from an argument vector (never a
 * shell line), each in its own process group so that a Ctrl-C reaches
 * the runner alone, which then stops them itself: a short one whose
 * output is read whole (git), and a long one whose output goes to a log
 * and, line by line, to the terminal (the kernel build).
 */
#ifndef BNB_BISECT_PROC_H
#define BNB_BISECT_PROC_H

/* What a command said: its exit status and its output, whole. */
struct proc_out {
	int status;		/* exit status; -1 when it could not run or was killed */
	char *out;		/* stdout, NUL-terminated (never NULL after proc_capture) */
	char *err;		/* stderr, the same */
};
void proc_out_free(struct proc_out *p);

/*
 * Run ARGV (argv[0] looked up in PATH) with LC_ALL=C and collect both
 * streams. Returns its exit status, -1 when it did not run or was killed.
 */
int proc_capture(const char *const argv[], struct proc_out *p);

/*
 * Run ARGV with stdout and stderr appended to LOG and copied to our
 * stdout, each line after PREFIX. An interrupt (runner_interrupted)
 * stops its process group. Returns its exit status, -1 when it did not
 * run or was killed, 130 when it was stopped by an interrupt.
 */
int proc_tee(const char *const argv[], const char *log, const char *prefix);

#endif
