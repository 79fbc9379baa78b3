// SPDX-License-Identifier: GPL-2.0
/* Agent socket I/O; see conn.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "conn.h"

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int try_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, O_NONBLOCK);
	return fd;
}

int conn_open(struct conn *c, const char *path, unsigned timeout_ms,
	      volatile sig_atomic_t *stop)
{
	uint64_t give_up = now_ns() + (uint64_t)timeout_ms * 1000000;
	struct timespec pause = { 0, 50 * 1000000 };

	c->len = 0;
	c->resync = false;
	if (strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (;;) {
		c->fd = try_connect(path);
		if (c->fd >= 0)
			return 0;
		if (*stop || now_ns() >= give_up)
			return -1;
		nanosleep(&pause, NULL);
	}
}

void conn_close(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

int conn_request(struct conn *c, unsigned long long seq, bool maps)
{
	char req[BNB_WIRE_MAX_REQUEST];
	int n = snprintf(req, sizeof(req), "get %llu %s\n", seq,
			 maps ? BNB_WIRE_FLAG_MAPS : BNB_WIRE_FLAG_NONE);
	ssize_t sent = send(c->fd, req, n, MSG_NOSIGNAL);

	if (sent == n)
		return 0;
	if (sent < 0 && (errno == EAGAIN || errno == EINTR))
		return 1;
	/* A partial request would desynchronise the agent: treat as gone. */
	return -1;
}

static void consume(struct conn *c, size_t n)
{
	memmove(c->buf, c->buf + n, c->len - n);
	c->len -= n;
}

/*
 * After an oversized reply, skip to the end of it.  The last few bytes
 * are kept in case "end\n" straddles two reads.
 */
static void resync(struct conn *c)
{
	size_t keep = sizeof(BNB_WIRE_END) - 1;
	size_t n = reply_frame(c->buf, c->len);

	if (n) {
		consume(c, n);
		c->resync = false;
	} else if (c->len > keep) {
		consume(c, c->len - keep);
	}
}

/* Read what is there, waiting at most until deadline. 1 data, 0 timeout, -1 gone. */
static int fill(struct conn *c, uint64_t deadline_ns)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	uint64_t now = now_ns();
	ssize_t n;
	int ret;

	if (now >= deadline_ns)
		return 0;
	ret = poll(&pfd, 1, (deadline_ns - now + 999999) / 1000000);
	if (ret < 0)
		return errno == EINTR ? 0 : -1;
	if (ret == 0)
		return 0;
	n = read(c->fd, c->buf + c->len, sizeof(c->buf) - c->len);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		return -1;
	if (n > 0)
		c->len += n;
	return 1;
}

/* A reply with a sequence number in lo..hi; others are dropped as stale. */
static enum await_result await_range(struct conn *c, unsigned long long lo,
				     unsigned long long hi, uint64_t deadline_ns,
				     struct bnb_reply *r, char *why, size_t whylen,
				     unsigned *stale, volatile sig_atomic_t *stop)
{
	for (;;) {
		size_t n;
		int got;

		if (c->resync)
			resync(c);
		n = c->resync ? 0 : reply_frame(c->buf, c->len);
		if (n) {
			int bad = reply_parse(c->buf, n, r, why, whylen);

			consume(c, n);
			if (bad)
				return AWAIT_MALFORMED;
			if (r->seq >= lo && r->seq <= hi)
				return AWAIT_OK;
			snprintf(why, whylen, "dropped a reply numbered %llu (waiting for %llu)",
				 r->seq, lo);
			(*stale)++;
			continue;
		}
		if (!c->resync && c->len == sizeof(c->buf)) {
			snprintf(why, whylen, "reply longer than %zu bytes", sizeof(c->buf));
			c->resync = true;
			return AWAIT_MALFORMED;
		}
		if (*stop)
			return AWAIT_INTERRUPTED;
		got = fill(c, deadline_ns);
		if (got < 0) {
			snprintf(why, whylen, "agent connection closed");
			return AWAIT_GONE;
		}
		if (got == 0 && now_ns() >= deadline_ns) {
			snprintf(why, whylen, "no reply numbered %llu", lo);
			return AWAIT_TIMEOUT;
		}
	}
}

enum await_result conn_await(struct conn *c, unsigned long long seq,
			     uint64_t deadline_ns, struct bnb_reply *r,
			     char *why, size_t whylen, unsigned *stale,
			     volatile sig_atomic_t *stop)
{
	return await_range(c, seq, seq, deadline_ns, r, why, whylen, stale, stop);
}

enum await_result conn_next(struct conn *c, unsigned long long min_seq,
			    uint64_t deadline_ns, struct bnb_reply *r,
			    char *why, size_t whylen, unsigned *stale,
			    volatile sig_atomic_t *stop)
{
	return await_range(c, min_seq, ULLONG_MAX, deadline_ns, r, why, whylen, stale, stop);
}
