/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bnb-agent: answers the host collector's snapshot requests over a
 * virtio-serial port.  See bench/include/bnb_wire.h for the protocol.
 *
 * Everything here is sized at start-up: answering a request reads a few
 * procfs/sysfs files into fixed buffers and formats into a fixed reply
 * buffer, so a sample costs a handful of syscalls and no allocation.
 */
#ifndef BNB_AGENT_H
#define BNB_AGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "bnb_wire.h"

#define AGENT_MAX_PREFIXES	16
#define AGENT_MAX_PIDS		64

struct reply {
	char buf[BNB_WIRE_MAX_REPLY];
	size_t len;
	bool overflow;		/* a line did not fit: reply is cut short */
};

void reply_reset(struct reply *r);
void reply_add(struct reply *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void reply_add_raw(struct reply *r, const char *s, size_t n);
void reply_finish(struct reply *r);

/* vmstat.c */
int vmstat_open(void);
void vmstat_add_prefix(const char *prefix);
void vmstat_emit(int fd, struct reply *r);

/* meminfo.c */
int meminfo_open(const char *sysfs_node_dir);
void meminfo_emit(struct reply *r);

/* maps.c */
void maps_add_pid(pid_t pid);
void maps_set_pid_file(const char *path);
void maps_emit(struct reply *r);
/* the counter BNB_WIRE_PASSES: scan passes over the followed processes */
void passes_emit(struct reply *r);

/* main.c: one snapshot to fd; false when it could not be written */
bool agent_answer(int fd, unsigned long long seq, bool maps);

/* stream.c: sampling on the guest's clock (deterministic timing) */
#define STREAM_MAX_MS	3600000
struct stream_opts {
	int interval_ms;	/* 0: answer requests instead */
	int maps_every;		/* walk numa_maps every Nth instant, 0 never */
};
void agent_stream(int fd, const struct stream_opts *s);
void stream_from_cmdline(const char *path, struct stream_opts *s);

/* parse helpers shared by the readers */
bool scan_u64(const char *s, const char **end, unsigned long long *val);

#endif /* BNB_AGENT_H */
