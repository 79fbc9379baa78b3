// SPDX-License-Identifier: GPL-2.0
/*
 * The scan period over time: numa_scan_period and numa_preferred_nid (and
 * the scan sequence, pages migrated and fault total) of every workload
 * task, read from /proc/PID/task/TID/sched (CONFIG_SCHED_DEBUG) once per
 * interval. This is the curve a scan-period tuner wants: how the kernel's
 * adaptive scanning moved each task's period between scan_period_min_ms
 * and scan_period_max_ms.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "monitor.h"

struct sched_mon {
	FILE *rows;
	pid_t root;
	struct proc_tree tree;
	struct mon_task tasks[MON_MAX_TASKS];
	char text[SCHED_TEXT_MAX];
};

static const struct {
	const char *name;
	size_t off;
} sched_names[] = {	/* as sched_show_numa() prints them */
	{ "numa_scan_period", offsetof(struct sched_fields, scan_period) },
	{ "numa_preferred_nid", offsetof(struct sched_fields, preferred_nid) },
	{ "mm->numa_scan_seq", offsetof(struct sched_fields, scan_seq) },
	{ "numa_pages_migrated", offsetof(struct sched_fields, pages_migrated) },
	{ "total_numa_faults", offsetof(struct sched_fields, total_faults) },
};

/* LINE (LEN bytes, no newline) if it is "NAME   :   VALUE" of a field we keep. */
static int take_field(const char *line, size_t len, struct sched_fields *out)
{
	size_t i, n;
	char *end;
	long long v;

	for (i = 0; i < ARRAY_SIZE(sched_names); i++) {
		n = strlen(sched_names[i].name);
		if (len <= n || strncmp(line, sched_names[i].name, n) || line[n] != ' ')
			continue;
		line += n + strspn(line + n, " ");
		if (*line != ':')
			return 0;
		v = strtoll(line + 1, &end, 10);
		if (end == line + 1)
			return 0;
		*(long long *)((char *)out + sched_names[i].off) = v;
		return 1;
	}
	return 0;
}

int sched_parse(const char *text, struct sched_fields *out)
{
	const char *line, *nl;
	int found = 0;

	out->scan_period = out->preferred_nid = out->scan_seq = -1;
	out->pages_migrated = out->total_faults = -1;
	for (line = text; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line);
		found += take_field(line, (size_t)(nl - line), out);
		if (!*nl)
			break;
	}
	return found ? 0 : -1;
}

void sched_comm(const char *text, char *buf, size_t len)
{
	const char *nl = strchr(text, '\n'), *end = NULL, *p;
	char raw[64];

	/* "COMM (PID, #threads: N)": the name ends at the last " (" */
	for (p = text; nl && (p = strstr(p, " (")) && p < nl; p++)
		end = p;
	snprintf(raw, sizeof(raw), "%.*s", end ? (int)(end - text) : 0, text);
	mon_printable(buf, len, raw);
	for (; *buf; buf++)	/* CSV: no separators inside a cell */
		if (*buf == ',' || *buf == '"')
			*buf = '_';
}

struct sched_mon *sched_start(const char *proc, const char *dir, pid_t root,
			      char *err, size_t errlen)
{
	struct sched_mon *s = calloc(1, sizeof(*s));
	char path[512];

	if (!s)
		return NULL;
	proc_tree_init(&s->tree, proc);
	snprintf(path, sizeof(path), "%s/self/sched", proc);
	if (access(path, R_OK)) {
		snprintf(err, errlen, "%s is missing (the kernel needs CONFIG_SCHED_DEBUG)", path);
		free(s);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, BNB_MON_SCHED_FILE);
	s->rows = fopen(path, "w");
	if (!s->rows) {
		snprintf(err, errlen, "cannot write %s", path);
		free(s);
		return NULL;
	}
	fputs("t_s,pid,tid,comm,numa_scan_period,numa_preferred_nid,numa_scan_seq,"
	      "numa_pages_migrated,total_numa_faults\n", s->rows);
	s->root = root;
	return s;
}

/* The whole of PATH into BUF (at most LEN-1 bytes); -1 when it is gone. */
static int read_text(const char *path, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while (used + 1 < len && (n = read(fd, buf + used, len - 1 - used)) > 0)
		used += (size_t)n;
	close(fd);
	buf[used] = 0;
	return used ? 0 : -1;
}

void sched_tick(struct sched_mon *s, double now)
{
	struct sched_fields sf;
	char path[256], comm[32];
	int i, n = tasks_of(&s->tree, s->root, s->tasks, MON_MAX_TASKS);

	for (i = 0; i < n; i++) {
		const struct mon_task *t = &s->tasks[i];

		snprintf(path, sizeof(path), "%s/%d/task/%d/sched", s->tree.proc, (int)t->pid,
			 (int)t->tid);
		if (read_text(path, s->text, sizeof(s->text)) || sched_parse(s->text, &sf))
			continue;	/* gone since the walk */
		sched_comm(s->text, comm, sizeof(comm));
		fprintf(s->rows, "%.6f,%d,%d,%s,%lld,%lld,%lld,%lld,%lld\n", now - mon_t0,
			(int)t->pid, (int)t->tid, comm, sf.scan_period, sf.preferred_nid,
			sf.scan_seq, sf.pages_migrated, sf.total_faults);
	}
}

void sched_stop(struct sched_mon *s)
{
	fclose(s->rows);
	free(s);
}
