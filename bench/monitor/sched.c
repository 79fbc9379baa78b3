// SPDX-License-Identifier: GPL-2.0
/*
 * The scan period over time: numa_scan_period and numa_preferred_nid (and
 * the scan sequence, pages migrated and fault total) of every workload
 * task, read from /proc/PID/task/TID/sched (CONFIG_SCHED_DEBUG) once per
 * interval. This is the curve a scan-period tuner wants: how the kernel's
 * adaptive scanning moved each task's period between scan_period_min_ms
 * and scan_period_max_ms.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "monitor.h"

struct sched_mon {
	char proc[128];
	FILE *rows;
	pid_t root;
	struct mon_task tasks[MON_MAX_TASKS];
};

/* "name      :      value" lines; the names as sched_show_numa() prints them */
int sched_parse(FILE *f, struct sched_fields *out)
{
	static const struct { const char *name; size_t off; } fields[] = {
		{ "numa_scan_period", offsetof(struct sched_fields, scan_period) },
		{ "numa_preferred_nid", offsetof(struct sched_fields, preferred_nid) },
		{ "mm->numa_scan_seq", offsetof(struct sched_fields, scan_seq) },
		{ "numa_pages_migrated", offsetof(struct sched_fields, pages_migrated) },
		{ "total_numa_faults", offsetof(struct sched_fields, total_faults) },
	};
	char line[256], name[64];
	long long v;
	size_t i;
	int found = 0;

	out->scan_period = out->preferred_nid = out->scan_seq = -1;
	out->pages_migrated = out->total_faults = -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s : %lld", name, &v) != 2)
			continue;
		for (i = 0; i < ARRAY_SIZE(fields); i++) {
			if (strcmp(name, fields[i].name))
				continue;
			*(long long *)((char *)out + fields[i].off) = v;
			found++;
		}
	}
	return found ? 0 : -1;
}

struct sched_mon *sched_start(const char *proc, const char *dir, pid_t root,
			      char *err, size_t errlen)
{
	struct sched_mon *s = calloc(1, sizeof(*s));
	char path[512];

	if (!s)
		return NULL;
	snprintf(s->proc, sizeof(s->proc), "%s", proc);
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

static void read_comm(const char *proc, const struct mon_task *t, char *buf, size_t len)
{
	char path[256], raw[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/task/%d/comm", proc, (int)t->pid, (int)t->tid);
	f = fopen(path, "r");
	if (f) {
		if (!fgets(raw, sizeof(raw), f))
			raw[0] = 0;
		fclose(f);
	}
	raw[strcspn(raw, "\n")] = 0;
	mon_printable(buf, len, raw);
	for (; *buf; buf++)	/* CSV: no separators inside a cell */
		if (*buf == ',' || *buf == '"')
			*buf = '_';
}

void sched_tick(struct sched_mon *s, double now)
{
	struct sched_fields sf;
	char path[256], comm[32];
	int i, n = tasks_of(s->proc, s->root, s->tasks, MON_MAX_TASKS);

	for (i = 0; i < n; i++) {
		const struct mon_task *t = &s->tasks[i];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%d/task/%d/sched", s->proc, (int)t->pid,
			 (int)t->tid);
		f = fopen(path, "r");
		if (!f)
			continue;	/* gone since the walk */
		if (!sched_parse(f, &sf)) {
			read_comm(s->proc, t, comm, sizeof(comm));
			fprintf(s->rows, "%.6f,%d,%d,%s,%lld,%lld,%lld,%lld,%lld\n", now - mon_t0,
				(int)t->pid, (int)t->tid, comm, sf.scan_period, sf.preferred_nid,
				sf.scan_seq, sf.pages_migrated, sf.total_faults);
		}
		fclose(f);
	}
}

void sched_stop(struct sched_mon *s)
{
	fclose(s->rows);
	free(s);
}
