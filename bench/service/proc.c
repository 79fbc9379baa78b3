// SPDX-License-Identifier: GPL-2.0
/*
 * The processes of a service: started through sh as the server's user,
 * its descendants found under /proc and registered for the agent, its
 * threads moved to a node's CPUs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <numa.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "service.h"

double svc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

pid_t svc_spawn(const char *cmd, uid_t uid, gid_t gid, const char *dir, const char *log,
		bool newgroup)
{
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	if (newgroup)
		setpgid(0, 0);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0)
		dup2(fd, 0);
	if (log && (fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644)) >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	if (dir && chdir(dir)) {
		fprintf(stderr, "bnb-service: cd %s: %s\n", dir, strerror(errno));
		_exit(126);
	}
	if (gid != (gid_t)-1 && (setgroups(0, NULL) || setgid(gid) || setuid(uid))) {
		fprintf(stderr, "bnb-service: cannot become uid %d: %s\n", (int)uid,
			strerror(errno));
		_exit(126);
	}
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	fprintf(stderr, "bnb-service: /bin/sh: %s\n", strerror(errno));
	_exit(127);
}

int svc_run(const char *cmd, uid_t uid, gid_t gid, const char *dir, const char *log)
{
	pid_t pid = svc_spawn(cmd, uid, gid, dir, log, false);
	int status;

	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

int svc_exit_code(int status)
{
	if (status < 0)
		return 127;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 127;
}

void svc_tail(FILE *f, const char *path, int lines)
{
	static char buf[8193];
	char *p = buf;
	long size, from;
	int total = 0, n;
	FILE *in = fopen(path, "r");

	if (!in) {
		fprintf(f, "bnb-service: no log %s (%s)\n", path, strerror(errno));
		return;
	}
	fseek(in, 0, SEEK_END);
	size = ftell(in);
	from = size > 8192 ? size - 8192 : 0;
	fseek(in, from, SEEK_SET);
	size = (long)fread(buf, 1, 8192, in);
	fclose(in);
	buf[size] = 0;
	if (from) {	/* the first line is cut */
		p += strcspn(p, "\n");
		p += !!*p;
	}
	for (char *q = p; *q; q++)
		total += *q == '\n' || !q[1];
	for (; total > lines && *p; total--)
		p += strcspn(p, "\n") + 1;
	while (*p) {
		n = strcspn(p, "\n");
		fprintf(f, "bnb-service: | %.*s\n", n, p);
		p += n + !!p[n];
	}
}

static bool followed(const struct svc_procs *p, pid_t pid)
{
	for (int i = 0; i < p->n; i++)
		if (p->pid[i] == pid)
			return true;
	return false;
}

/* The parent of PID from /proc/PID/stat (its name may hold blanks and parens). */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *close;
	int ppid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (close = strrchr(buf, ')')))
		sscanf(close + 1, " %*c %d", &ppid);
	fclose(f);
	return ppid;
}

static void register_pid(const struct svc_procs *p, pid_t pid)
{
	FILE *f;

	if (!p->pid_file || !(f = fopen(p->pid_file, "a")))
		return;
	fprintf(f, "%d\n", (int)pid);
	fclose(f);
}

void svc_follow(struct svc_procs *p)
{
	struct dirent *d;
	DIR *proc = opendir("/proc");
	char *end;
	pid_t pid;

	while (proc && (d = readdir(proc)) && p->n < SVC_MAX_PIDS) {
		pid = strtol(d->d_name, &end, 10);
		if (*end || pid <= 0 || followed(p, pid) || !followed(p, parent_of(pid)))
			continue;
		p->pid[p->n++] = pid;
		register_pid(p, pid);
	}
	if (proc)
		closedir(proc);
}

/* Every thread of PID onto CPUS. */
static int move_threads(pid_t pid, const cpu_set_t *cpus)
{
	char path[64];
	struct dirent *d;
	DIR *task;
	int moved = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	task = opendir(path);
	if (!task)
		return 0;	/* it has exited */
	while ((d = readdir(task)))
		if (d->d_name[0] != '.' &&
		    !sched_setaffinity(atoi(d->d_name), sizeof(*cpus), cpus))
			moved++;
	closedir(task);
	return moved;
}

int svc_move(const struct svc_procs *p, int node, char *err, size_t errlen)
{
	struct bitmask *mask;
	cpu_set_t cpus;
	unsigned i;
	int moved = 0;

	if (numa_available() < 0 || node < 0 || node > numa_max_node())
		return errf(err, errlen, "--move %d: the guest has no node %d", node, node);
	mask = numa_allocate_cpumask();
	if (numa_node_to_cpus(node, mask)) {
		numa_free_cpumask(mask);
		return errf(err, errlen, "--move %d: cannot read the node's CPUs", node);
	}
	CPU_ZERO(&cpus);
	for (i = 0; i < mask->size && i < CPU_SETSIZE; i++)
		if (numa_bitmask_isbitset(mask, i))
			CPU_SET(i, &cpus);
	numa_free_cpumask(mask);
	if (!CPU_COUNT(&cpus))
		return errf(err, errlen, "--move %d: node %d has no CPU", node, node);
	for (int k = 0; k < p->n; k++)
		moved += move_threads(p->pid[k], &cpus);
	if (!moved)
		return errf(err, errlen, "--move %d: no thread of the server could be moved",
			    node);
	return 0;
}
