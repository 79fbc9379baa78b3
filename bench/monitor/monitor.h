/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bnb-monitor: runs the workload command in the guest, times it, and
 * watches what NUMA balancing does meanwhile. Each monitor writes one file
 * in the output directory; main.c prints them for the runner at the end.
 */
#ifndef BNB_MONITOR_INTERNAL_H
#define BNB_MONITOR_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "bnb_monitor.h"

/* Seconds on CLOCK_MONOTONIC (the clock tracefs uses once set to mono). */
double mon_now(void);
/* When the command started: every monitor's times count from here. */
extern double mon_t0;
/* In a child before exec: default dispositions, nothing blocked. */
void mon_child_signals(void);

/* Write "printable(TEXT)" of at most LEN-1 bytes into BUF (guest strings). */
void mon_printable(char *buf, size_t len, const char *text);

/* The tracepoints: set up before the command starts, read while it runs. */
struct trace_mon;
struct trace_mon *trace_start(const char *tracefs, const char *dir, unsigned int buffer_kb,
			      char *err, size_t errlen);
/* Append one interval's counts (ending now) to trace.csv. */
void trace_tick(struct trace_mon *t, double now);
/* Stop tracing, drain the pipe, write the last row and the totals line. */
void trace_stop(struct trace_mon *t, double now);

/* Parse one trace_pipe line into *ev; 0 when it is one of ours. */
enum trace_event { EV_MOVE, EV_SWAP, EV_STICK, EV_MIGRATE, N_EVENTS };
struct trace_rec {
	enum trace_event ev;
	double ts;
	long pid, src_cpu, src_nid, dst_cpu, dst_nid, dst_pid;
	long succeeded, failed;
	int reason;		/* index into the reasons, -1 unknown */
};
int trace_parse_line(const char *line, struct trace_rec *r);
extern const char *const trace_event_names[N_EVENTS];
extern const char *const trace_reasons[];
extern const unsigned int trace_n_reasons;

/* The workload's tasks: every thread of ROOT's descendants. */
#define MON_MAX_TASKS 1024
struct mon_task {
	pid_t pid, tid;
};
/* What one walk of /proc found, so that the next reads new PIDs only. */
#define MON_MAX_PROCS 4096
struct proc_link {
	pid_t pid, ppid;
};
struct proc_tree {
	char proc[128];
	int n;
	struct proc_link links[MON_MAX_PROCS];	/* sorted by pid */
};
void proc_tree_init(struct proc_tree *pt, const char *proc);
int tasks_of(struct proc_tree *pt, pid_t root, struct mon_task *out, int max);

/* /proc/PID/task/TID/sched of every task, one row each per interval. */
struct sched_mon;
struct sched_mon *sched_start(const char *proc, const char *dir, pid_t root,
			      char *err, size_t errlen);
void sched_tick(struct sched_mon *s, double now);
void sched_stop(struct sched_mon *s);

/* The fields of /proc/PID/sched the sched monitor keeps; -1 when absent. */
struct sched_fields {
	long long scan_period, preferred_nid, scan_seq, pages_migrated, total_faults;
};
/* Parse the text of one /proc/PID/sched; -1 when none of the fields is there. */
int sched_parse(const char *text, struct sched_fields *out);
/* The task's name from that text's first line, printable, no CSV separators. */
void sched_comm(const char *text, char *buf, size_t len);
#define SCHED_TEXT_MAX 16384

/* perf stat -I over the whole system while the command runs. */
struct perf_mon;
struct perf_mon *perfstat_start(const char *perf, const char *dir, const char *events,
				unsigned int interval_ms, char *err, size_t errlen);
/* Stop perf; returns the CPU time (user + system, s) perf used since it was enabled. */
double perfstat_stop(struct perf_mon *p);

/* "# bnb-prov: key=value" lines: kernel, command line, NUMA sysctls. */
void prov_print(FILE *out, const char *proc, const char *debugfs, const char *sysfs);

#endif
