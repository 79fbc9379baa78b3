// SPDX-License-Identifier: GPL-2.0
/* Slurm's commands as processes, their output kept (cmd.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"

extern char **environ;

/* A growing NUL-terminated buffer. */
struct buf {
	char *p;
	size_t len, cap;
};

static int buf_read(struct buf *b, int fd)
{
	ssize_t got;

	if (b->cap - b->len < 4096) {
		size_t cap = b->cap ? b->cap * 2 : 8192;
		char *p = realloc(b->p, cap);

		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	do
		got = read(fd, b->p + b->len, b->cap - b->len - 1);
	while (got < 0 && errno == EINTR);
	if (got <= 0)
		return -1;	/* the end, or an error: either way done with it */
	b->len += (size_t)got;
	b->p[b->len] = 0;
	return 0;
}

static char *buf_take(struct buf *b)
{
	return b->p ? b->p : strdup("");
}

/* Read FDS[0] into OUT and FDS[1] into ERR until both are closed. */
static void drain(int fds[2], struct buf *out, struct buf *err)
{
	struct pollfd p[2] = { { fds[0], POLLIN, 0 }, { fds[1], POLLIN, 0 } };
	struct buf *into[2] = { out, err };
	int open = 2, i;

	while (open) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !p[i].revents)
				continue;
			if (buf_read(into[i], p[i].fd)) {
				close(p[i].fd);
				p[i].fd = -1;
				open--;
			}
		}
	}
	for (i = 0; i < 2; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
}

static int not_started(struct slurm_out *r, const char *name, int errnum)
{
	r->status = -1;
	r->out = strdup("");
	if (asprintf(&r->err, "%s: %s", name, errnum == ENOENT ?
		     "not found (is Slurm's client installed and on PATH?)" :
		     strerror(errnum)) < 0)
		r->err = NULL;
	return -1;
}

int slurm_cmd(char *const argv[], struct slurm_out *r)
{
	int outp[2], errp[2], fds[2], rc, wstatus;
	posix_spawn_file_actions_t fa;
	struct buf out = { 0 }, err = { 0 };
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (pipe2(outp, O_CLOEXEC))
		return not_started(r, argv[0], errno);
	if (pipe2(errp, O_CLOEXEC)) {
		rc = errno;
		close(outp[0]);
		close(outp[1]);
		return not_started(r, argv[0], rc);
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, outp[1], 1);
	posix_spawn_file_actions_adddup2(&fa, errp[1], 2);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(outp[1]);
	close(errp[1]);
	if (rc) {
		close(outp[0]);
		close(errp[0]);
		return not_started(r, argv[0], rc);
	}
	fds[0] = outp[0];
	fds[1] = errp[0];
	drain(fds, &out, &err);
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	r->out = buf_take(&out);
	r->err = buf_take(&err);
	r->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	return r->status;
}

void slurm_out_free(struct slurm_out *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

const char *slurm_oneline(const char *text, char *buf, size_t len)
{
	size_t o = 0;

	for (; text && *text && o + 3 < len; text++) {
		if (*text != '\n') {
			buf[o++] = *text;
		} else if (text[1] && text[1] != '\n' && o) {
			/* "a\nb" reads "a; b": one line for a message */
			buf[o++] = ';';
			buf[o++] = ' ';
		}
	}
	while (o && buf[o - 1] == ' ')
		o--;
	buf[o] = 0;
	return buf;
}
