// SPDX-License-Identifier: GPL-2.0
/*
 * The runner's children (runner.h): each in its own process group, so that
 * a Ctrl-C reaches the runner alone and is handled once; a wait that stops
 * the group at a deadline, on an interrupt or when the results' disk
 * fills, with a progress line every PROGRESS_EVERY_S.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "extract/csv.h"
#include "fsio.h"
#include "lib/signals.h"
#include "runner.h"

#define PROGRESS_EVERY_S 10

volatile sig_atomic_t runner_interrupted;

void runner_catch_signals(void)
{
	catch_stop_signals(&runner_interrupted);
}

double runner_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

pid_t runner_spawn(char *const argv[], const char *log)
{
	pid_t parent = getpid(), pid = fork();
	int fd;

	if (pid)
		return pid;
	/* the runner may already be gone by the time the signal is armed */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
		_exit(127);
	setpgid(0, 0);
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execv(argv[0], argv);
	fprintf(stderr, "bnb-run: cannot run %s: %m\n", argv[0]);
	_exit(127);
}

/* The last defined convergence the collector wrote so far, or NAN. */
static double current_convergence(const char *rundir)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/timeseries.csv", rundir);
	return csv_last(path, "convergence");
}

static void progress(const struct job *j, const char *rundir, double elapsed, const char *what)
{
	double conv = current_convergence(rundir);

	if (isnan(conv))
		printf("[%d/%d] %s rep %d: %s %.0f s, convergence -\n", j->id, j->total,
		       j->variant, j->rep, what, elapsed);
	else
		printf("[%d/%d] %s rep %d: %s %.0f s, convergence %.2f\n", j->id, j->total,
		       j->variant, j->rep, what, elapsed, conv);
	fflush(stdout);
}

/* Whether RUNDIR's filesystem is (nearly) full: nothing more can be recorded. */
static bool disk_full(const char *rundir)
{
	long long left = rundir ? space_free(rundir) : -1;

	return left >= 0 && left < SPACE_LOW_WATER;
}

int runner_wait(pid_t pid, double start, double deadline, const struct job *j,
		const char *rundir, enum stop_cause *stopped)
{
	double next_progress = start + PROGRESS_EVERY_S, stop_at = 0;
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		double t = runner_now();

		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		if (!stop_at && !*stopped && disk_full(rundir))
			*stopped = STOP_DISK_FULL;
		if (!stop_at && !*stopped && (runner_interrupted || t > deadline))
			*stopped = STOP_DEADLINE;
		if (!stop_at && *stopped) {
			kill(-pid, SIGTERM);	/* the launcher quits QEMU via QMP */
			stop_at = t + 10;
		}
		if (stop_at && t > stop_at)
			kill(-pid, SIGKILL);
		if (j && t >= next_progress) {
			progress(j, rundir, t - start, "running");
			next_progress += PROGRESS_EVERY_S;
		}
		usleep(200 * 1000);
	}
}
