// SPDX-License-Identifier: GPL-2.0
/*
 * The workload's tasks: every thread of every process descended from the
 * command bnb-monitor started, found by walking /proc. Each walk lists
 * /proc but reads the parent of new PIDs only (a guest has a hundred
 * processes and kernel threads, and the parent of a process listed in the
 * last walk has not changed unless it was reparented, which moves it out
 * of the tree's reach anyway): what a sample reads is the tree's own.
 * A PID that exits and is reused between two walks would keep the old
 * parent; that needs pid_max forks within one interval.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "monitor.h"

/* ppid from /proc/PID/stat: the field after the last ')' of the comm. */
static pid_t parent_of(const char *proc, pid_t pid)
{
	char path[256], buf[512], *close_paren;
	ssize_t n;
	int ppid, fd;

	snprintf(path, sizeof(path), "%s/%d/stat", proc, (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	close_paren = strrchr(buf, ')');
	if (!close_paren || sscanf(close_paren + 1, " %*c %d", &ppid) != 1)
		return -1;
	return ppid;
}

static int by_pid(const void *a, const void *b)
{
	const struct proc_link *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* PID's parent as the last walk found it, or -1 when it was not listed. */
static pid_t known_parent(const struct proc_tree *pt, pid_t pid)
{
	struct proc_link key = { .pid = pid }, *hit;

	hit = bsearch(&key, pt->links, (size_t)pt->n, sizeof(key), by_pid);
	return hit ? hit->ppid : -1;
}

/* Every process of /proc with its parent, sorted by PID, into NEXT. */
static int all_procs(const struct proc_tree *pt, struct proc_link *next)
{
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(pt->proc);

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < MON_MAX_PROCS) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		next[n].pid = (pid_t)pid;
		next[n].ppid = known_parent(pt, (pid_t)pid);
		if (next[n].ppid < 0)
			next[n].ppid = parent_of(pt->proc, (pid_t)pid);
		n += next[n].ppid >= 0;
	}
	closedir(d);
	qsort(next, (size_t)n, sizeof(*next), by_pid);
	return n;
}

static int add_threads(const char *proc, pid_t pid, struct mon_task *out, int n, int max)
{
	char path[256];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%d/task", proc, (int)pid);
	d = opendir(path);
	if (!d)
		return n;
	while ((de = readdir(d)) && n < max) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (*end || tid <= 0)
			continue;
		out[n].pid = pid;
		out[n++].tid = (pid_t)tid;
	}
	closedir(d);
	return n;
}

void proc_tree_init(struct proc_tree *pt, const char *proc)
{
	memset(pt, 0, sizeof(*pt));
	snprintf(pt->proc, sizeof(pt->proc), "%s", proc);
}

int tasks_of(struct proc_tree *pt, pid_t root, struct mon_task *out, int max)
{
	static struct proc_link next[MON_MAX_PROCS];
	pid_t tree[MON_MAX_PROCS];
	int nt = 1, i, j, n = 0;

	pt->n = all_procs(pt, next);
	memcpy(pt->links, next, (size_t)pt->n * sizeof(*next));
	tree[0] = root;
	/* breadth first: each process found adds its children */
	for (i = 0; i < nt; i++)
		for (j = 0; j < pt->n && nt < MON_MAX_PROCS; j++)
			if (pt->links[j].ppid == tree[i])
				tree[nt++] = pt->links[j].pid;
	for (i = 0; i < nt; i++)
		n = add_threads(pt->proc, tree[i], out, n, max);
	return n;
}
