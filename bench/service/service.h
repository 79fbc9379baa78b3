/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bnb-service: a server in the guest for the length of a load generator
 * (README.md). The phases are main.c's; the processes, the server's
 * user and its followed pids are here.
 */
#ifndef BNB_SERVICE_H
#define BNB_SERVICE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#define SVC_MAX_PIDS 256	/* the server's processes followed */

/* Exit statuses of its own; otherwise the load generator's. */
enum svc_exit {
	SVC_USAGE = 2,
	SVC_SETUP_FAILED = 90,	/* --setup failed */
	SVC_NOT_READY = 91,	/* the server did not answer in time */
	SVC_SERVER_DIED = 92,	/* it exited before or while serving */
	SVC_LOAD_FAILED = 93,	/* --load failed */
	SVC_MOVE_FAILED = 94,	/* --move could not place it */
};

/* The server's processes: the leader, then every descendant seen. */
struct svc_procs {
	pid_t pid[SVC_MAX_PIDS];
	int n;
	const char *pid_file;	/* where each is appended for the agent, or NULL */
};

/* Guest seconds, CLOCK_MONOTONIC. */
double svc_now(void);

/*
 * Run `sh -c CMD` as UID/GID (-1: as we are) in DIR (NULL: here), its
 * output appended to LOG (NULL: ours); NEWGROUP: in a process group of
 * its own. The child's pid, or -1.
 */
pid_t svc_spawn(const char *cmd, uid_t uid, gid_t gid, const char *dir, const char *log,
		bool newgroup);

/* Run CMD to its end (as svc_spawn); its wait status, or -1. */
int svc_run(const char *cmd, uid_t uid, gid_t gid, const char *dir, const char *log);

/* A wait status as an exit status: N, or 128 + the signal. */
int svc_exit_code(int status);

/* The last LINES lines of the file PATH to F, each prefixed. */
void svc_tail(FILE *f, const char *path, int lines);

/* Add the descendants of P's processes not seen yet, each registered. */
void svc_follow(struct svc_procs *p);

/*
 * Move every thread of P's processes to the CPUs of guest node NODE;
 * -1 with ERR.
 */
int svc_move(const struct svc_procs *p, int node, char *err, size_t errlen);

/*
 * The user NAME: its uid and gid, made (in /etc/passwd and /etc/group,
 * home /tmp) when the guest has none; -1 with ERR.
 */
int svc_user(const char *name, uid_t *uid, gid_t *gid, char *err, size_t errlen);

#endif
