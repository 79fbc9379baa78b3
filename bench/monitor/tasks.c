// SPDX-License-Identifier: GPL-2.0
/*
 * The workload's tasks: every thread of every process descended from the
 * command bnb-monitor started, found by walking /proc (a guest has a few
 * dozen processes, so a walk per interval costs little).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor.h"

#define MAX_PROCS 4096

struct proc_link {
	pid_t pid, ppid;
};

/* ppid from /proc/PID/stat: the field after the last ')' of the comm. */
static pid_t parent_of(const char *proc, pid_t pid)
{
	char path[256], buf[512], *close_paren;
	size_t n;
	int ppid;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/stat", proc, (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	close_paren = strrchr(buf, ')');
	if (!close_paren || sscanf(close_paren + 1, " %*c %d", &ppid) != 1)
		return -1;
	return ppid;
}

static int all_procs(const char *proc, struct proc_link *out, int max)
{
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(proc);

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		out[n].pid = (pid_t)pid;
		out[n].ppid = parent_of(proc, (pid_t)pid);
		n += out[n].ppid >= 0;
	}
	closedir(d);
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

int tasks_of(const char *proc, pid_t root, struct mon_task *out, int max)
{
	static struct proc_link procs[MAX_PROCS];
	pid_t tree[MAX_PROCS];
	int np, nt = 1, i, j, n = 0;

	np = all_procs(proc, procs, MAX_PROCS);
	tree[0] = root;
	/* breadth first: each process found adds its children */
	for (i = 0; i < nt; i++)
		for (j = 0; j < np && nt < MAX_PROCS; j++)
			if (procs[j].ppid == tree[i])
				tree[nt++] = procs[j].pid;
	for (i = 0; i < nt; i++)
		n = add_threads(proc, tree[i], out, n, max);
	return n;
}
