// SPDX-License-Identifier: GPL-2.0
/*
 * The bisection's children (proc.h): fork, exec with an argument vector;
 * output read through poll() so that no pipe fills while another is
 * waited on, and so that an interrupt is noticed within 200 ms.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "runner.h"

void proc_out_free(struct proc_out *p)
{
	free(p->out);
	free(p->err);
	p->out = p->err = NULL;
}

struct buf {
	char *p;
	size_t n, cap;
};

/* Read what FD has into B; 0 at its end, 1 when there may be more. */
static int take(int fd, struct buf *b)
{
	char chunk[65536];
	ssize_t n = read(fd, chunk, sizeof(chunk));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (!n)
		return 0;
	if (b->n + n + 1 > b->cap) {
		size_t cap = (b->n + n + 1) * 2;
		char *p = realloc(b->p, cap);

		if (!p)
			abort();	/* as lib/argv does: nothing sensible is left */
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, chunk, n);
	b->n += n;
	b->p[b->n] = 0;
	return 1;
}

/* Fork ARGV with stdout on OUT and stderr on ERR; the child's pid or -1. */
static pid_t start(const char *const argv[], int out, int err)
{
	pid_t parent = getpid(), pid = fork();

	if (pid)
		return pid;
	/* the runner may already be gone by the time the signal is armed */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
		_exit(127);
	setpgid(0, 0);
	dup2(out, 1);
	dup2(err, 2);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	setenv("LC_ALL", "C", 1);
	setenv("GIT_TERMINAL_PROMPT", "0", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
	execvp(argv[0], (char *const *)argv);
	fprintf(stderr, "cannot run %s: %m\n", argv[0]);
	_exit(127);
}

static int reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int proc_capture(const char *const argv[], struct proc_out *p)
{
	struct buf o = { 0 }, e = { 0 };
	struct pollfd fds[2];
	int po[2], pe[2];
	pid_t pid;

	p->status = -1;
	p->out = p->err = NULL;
	if (pipe2(po, O_CLOEXEC))
		return -1;
	if (pipe2(pe, O_CLOEXEC)) {
		close(po[0]);
		close(po[1]);
		return -1;
	}
	pid = start(argv, po[1], pe[1]);
	close(po[1]);
	close(pe[1]);
	fds[0] = (struct pollfd){ .fd = po[0], .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = pe[0], .events = POLLIN };
	while (pid > 0 && (fds[0].fd >= 0 || fds[1].fd >= 0)) {
		if (poll(fds, 2, -1) < 0 && errno != EINTR)
			break;
		if (fds[0].revents && !take(po[0], &o))
			fds[0].fd = -1;
		if (fds[1].revents && !take(pe[0], &e))
			fds[1].fd = -1;
	}
	close(po[0]);
	close(pe[0]);
	p->out = o.p ? o.p : strdup("");
	p->err = e.p ? e.p : strdup("");
	if (pid < 0)
		return -1;
	p->status = reap(pid);
	return p->status;
}

/* Write B's whole lines to LOG and, after PREFIX, to stdout; keep the rest. */
static void pass_lines(struct buf *b, FILE *log, const char *prefix)
{
	char *line = b->p, *nl;

	while (b->n && (nl = memchr(line, '\n', b->n - (line - b->p)))) {
		fprintf(log, "%.*s\n", (int)(nl - line), line);
		printf("%s%.*s\n", prefix, (int)(nl - line), line);
		line = nl + 1;
	}
	b->n -= line - b->p;
	memmove(b->p, line, b->n);
	if (b->p)
		b->p[b->n] = 0;
	fflush(log);
	fflush(stdout);
}

int proc_tee(const char *const argv[], const char *log, const char *prefix)
{
	struct buf b = { 0 };
	struct pollfd fd;
	double stopped = 0;	/* when we stopped it */
	int pp[2], rc;
	FILE *f = fopen(log, "a");
	pid_t pid;

	if (!f)
		return -1;
	if (pipe2(pp, O_CLOEXEC)) {
		fclose(f);
		return -1;
	}
	pid = start(argv, pp[1], pp[1]);
	close(pp[1]);
	fd = (struct pollfd){ .fd = pp[0], .events = POLLIN };
	while (pid > 0) {
		int n = poll(&fd, 1, 200);

		if (runner_interrupted && !stopped) {
			kill(-pid, SIGTERM);
			stopped = runner_now();
		}
		/* what ignores the request for 10 s is killed */
		if (stopped && runner_now() > stopped + 10)
			kill(-pid, SIGKILL);
		if (n > 0 && !take(pp[0], &b))
			break;
		pass_lines(&b, f, prefix);
	}
	if (b.n) {
		b.p[b.n] = '\n';
		b.n++;
		pass_lines(&b, f, prefix);
	}
	close(pp[0]);
	free(b.p);
	fclose(f);
	if (pid < 0)
		return -1;
	rc = reap(pid);
	return stopped ? 130 : rc;
}
