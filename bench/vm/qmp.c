// SPDX-License-Identifier: GPL-2.0
/* QMP over a unix socket: one JSON object per line, events between replies. */
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "qmp.h"

#define QMP_REPLY_MS 2000

/*
 * One line into buf (without the newline); -1 on timeout, EOF or overflow.
 * Peeks at what arrived and takes it up to the newline, so that a long
 * reply (info mtree) costs a few reads, not one a byte.
 */
static int read_line(int fd, char *buf, size_t len)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t used = 0;

	while (used < len - 1) {
		ssize_t n, take;
		char *nl;

		if (poll(&p, 1, QMP_REPLY_MS) <= 0)
			return -1;
		n = recv(fd, buf + used, len - 1 - used, MSG_PEEK);
		if (n <= 0)
			return -1;
		nl = memchr(buf + used, '\n', n);
		take = nl ? nl - (buf + used) + 1 : n;
		if (recv(fd, buf + used, take, 0) != take)
			return -1;
		used += take;
		if (nl) {
			buf[used - 1] = '\0';
			return 0;
		}
	}
	return -1;
}

int qmp_exec(int fd, const char *cmd, char *buf, size_t len)
{
	size_t n = strlen(cmd);

	if (write(fd, cmd, n) != (ssize_t)n || write(fd, "\n", 1) != 1)
		return -1;
	while (!read_line(fd, buf, len)) {
		if (strstr(buf, "\"return\""))
			return 0;
		if (strstr(buf, "\"error\""))
			return -1;
		/* an event: keep reading */
	}
	return -1;
}

int qmp_open(const char *run_dir, int wait_ms)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char buf[4096];
	int fd, waited;

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/qmp.sock", run_dir);
	for (waited = 0;; waited += 20) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		if (!connect(fd, (struct sockaddr *)&addr, sizeof(addr)))
			break;
		close(fd);
		if (waited >= wait_ms)
			return -1;
		usleep(20 * 1000);
	}
	/* the greeting, then capabilities negotiation */
	if (read_line(fd, buf, sizeof(buf)) ||
	    qmp_exec(fd, "{\"execute\":\"qmp_capabilities\"}", buf, sizeof(buf))) {
		close(fd);
		return -1;
	}
	return fd;
}
