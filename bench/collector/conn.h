/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host end of the agent port: QEMU's chardev socket.  Requests go out
 * one at a time; replies are framed and parsed from a bounded buffer.
 */
#ifndef BNB_COLLECTOR_CONN_H
#define BNB_COLLECTOR_CONN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "reply.h"

struct conn {
	int fd;
	size_t len;
	bool resync;		/* discarding up to the next "end" line */
	char buf[2 * BNB_WIRE_MAX_REPLY];
};

enum await_result {
	AWAIT_OK,		/* the reply to this request, parsed */
	AWAIT_TIMEOUT,		/* no answer in time */
	AWAIT_MALFORMED,	/* an answer, but not a valid reply */
	AWAIT_GONE,		/* the other end closed: guest or QEMU gone */
	AWAIT_INTERRUPTED,	/* a signal asked us to stop */
};

uint64_t now_ns(void);

/* Connect, retrying until timeout_ms: QEMU creates the socket late. */
int conn_open(struct conn *c, const char *path, unsigned timeout_ms,
	      volatile sig_atomic_t *stop);
void conn_close(struct conn *c);

/* 0 sent, -1 the peer is gone, 1 the socket is full (agent not reading). */
int conn_request(struct conn *c, unsigned long long seq, bool maps);

/*
 * Wait until deadline_ns for the reply to seq.  Replies to other requests
 * are dropped.  why receives a one-line reason for anything that is not
 * AWAIT_OK and for each dropped reply (then *dropped_stale is counted).
 */
enum await_result conn_await(struct conn *c, unsigned long long seq,
			     uint64_t deadline_ns, struct bnb_reply *r,
			     char *why, size_t whylen, unsigned *stale,
			     volatile sig_atomic_t *stop);

/*
 * Streamed samples (the agent sends unasked, bnb_wire.h): wait for the
 * next reply numbered min_seq or more; lower numbers are dropped as stale.
 */
enum await_result conn_next(struct conn *c, unsigned long long min_seq,
			    uint64_t deadline_ns, struct bnb_reply *r,
			    char *why, size_t whylen, unsigned *stale,
			    volatile sig_atomic_t *stop);

#endif /* BNB_COLLECTOR_CONN_H */
