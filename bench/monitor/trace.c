// SPDX-License-Identifier: GPL-2.0
/*
 * The NUMA tracepoints through tracefs, no perf needed:
 * sched:sched_move_numa (a task moved to its preferred node),
 * sched:sched_swap_numa (two tasks swapped nodes), sched:sched_stick_numa
 * (a move was wanted but no CPU could be found) and migrate:mm_migrate_pages
 * (one migrate_pages() call: pages moved and failed, and why).
 *
 * The trace clock is set to "mono", so event times and our own rows share
 * CLOCK_MONOTONIC. A reader thread drains trace_pipe every DRAIN_MS,
 * counts the events per interval and logs each one (up to a cap) in
 * trace-events.csv; trace.csv gets one row of counts per interval. Events
 * the kernel dropped because the ring buffer was full are counted from
 * per_cpu/cpuN/stats and reported, never hidden.
 *
 * The reader sleeps between drains rather than waiting in poll(): a
 * poller makes the kernel queue a wake-up (irq_work) on each event written
 * and wakes the reader for each few lines, which costs the workload more
 * than one read of everything every DRAIN_MS. The ring buffer
 * (--trace-buffer-kb per CPU) holds thousands of events per drain.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "monitor.h"

#define EVENTS_MAX 200000	/* lines of trace-events.csv; counts go on */
#define DRAIN_MS 100

const char *const trace_event_names[N_EVENTS] = {
	[EV_MOVE] = "sched_move_numa", [EV_SWAP] = "sched_swap_numa",
	[EV_STICK] = "sched_stick_numa", [EV_MIGRATE] = "mm_migrate_pages",
};
static const char *const event_paths[N_EVENTS] = {
	[EV_MOVE] = "events/sched/sched_move_numa",
	[EV_SWAP] = "events/sched/sched_swap_numa",
	[EV_STICK] = "events/sched/sched_stick_numa",
	[EV_MIGRATE] = "events/migrate/mm_migrate_pages",
};
const char *const trace_reasons[] = { BNB_MIGRATE_REASONS };
const unsigned int trace_n_reasons = ARRAY_SIZE(trace_reasons);

struct counts {
	unsigned long ev[N_EVENTS];
	unsigned long failed;
	unsigned long moved[ARRAY_SIZE(trace_reasons)];
};

struct trace_mon {
	char tracefs[256];
	int fd;
	pthread_t reader;
	pthread_mutex_t lock;
	_Atomic int stop;
	struct counts now;	/* this interval, under lock */
	unsigned long logged, unlogged, unparsed;
	FILE *rows, *events;
	char line[4096];
	size_t used;
};

static int tracefs_write(const char *tracefs, const char *file, const char *value)
{
	char path[512];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", tracefs, file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -1;
	ok = write(fd, value, strlen(value)) == (ssize_t)strlen(value);
	close(fd);
	return ok ? 0 : -1;
}

/* The number after "KEY=" at the start of ARGS or after a blank, into *V. */
static bool field(const char *args, const char *key, long *v)
{
	size_t klen = strlen(key);
	const char *p = args;
	char *end;

	while ((p = strstr(p, key))) {
		if ((p == args || p[-1] == ' ') && p[klen] == '=') {
			*v = strtol(p + klen + 1, &end, 10);
			return end != p + klen + 1;
		}
		p += klen;
	}
	return false;
}

static int reason_index(const char *args)
{
	const char *p = strstr(args, " reason=");
	unsigned int i;
	size_t len;

	if (!p)
		return -1;
	p += 8;
	len = strcspn(p, " \n");
	for (i = 0; i < trace_n_reasons; i++)
		if (strlen(trace_reasons[i]) == len && !strncmp(p, trace_reasons[i], len))
			return (int)i;
	return -1;
}

/* PID of the "comm-PID  [CPU]" header before END, or -1. */
static long header_pid(const char *line, const char *end)
{
	const char *p = NULL, *q;
	long pid = 0, scale = 1;

	for (q = line; q < end && (q = strstr(q, " [")) && q < end; q++)
		p = q;
	if (!p)
		return -1;
	while (p > line && p[-1] == ' ')
		p--;
	for (q = p; q > line && q[-1] >= '0' && q[-1] <= '9' && scale < 10000000; q--) {
		pid += (q[-1] - '0') * scale;
		scale *= 10;
	}
	return q < p && q > line && q[-1] == '-' ? pid : -1;
}

/* "   comm-PID  [CPU] FLAGS  SECONDS.MICROS: EVENT: ARGS" */
int trace_parse_line(const char *line, struct trace_rec *r)
{
	static const char *const pats[N_EVENTS] = {	/* ": NAME: " of each event */
		[EV_MOVE] = ": sched_move_numa: ", [EV_SWAP] = ": sched_swap_numa: ",
		[EV_STICK] = ": sched_stick_numa: ", [EV_MIGRATE] = ": mm_migrate_pages: ",
	};
	const char *pat = NULL, *at = NULL, *ts;
	int e;

	for (e = 0; e < N_EVENTS && !at; e++) {
		pat = pats[e];
		at = strstr(line, pat);
	}
	if (!at)
		return -1;
	memset(r, 0, sizeof(*r));
	r->ev = (enum trace_event)(e - 1);
	for (ts = at; ts > line && (ts[-1] == '.' || (ts[-1] >= '0' && ts[-1] <= '9')); ts--)
		;
	if (ts == at || sscanf(ts, "%lf", &r->ts) != 1)
		return -1;
	at += strlen(pat);
	r->pid = r->src_cpu = r->src_nid = r->dst_cpu = r->dst_nid = r->dst_pid = -1;
	r->succeeded = r->failed = -1;
	r->reason = -1;
	if (r->ev == EV_MIGRATE) {
		r->reason = reason_index(at);
		r->pid = header_pid(line, ts);	/* the task that migrated them */
		return field(at, "nr_succeeded", &r->succeeded) &&
		       field(at, "nr_failed", &r->failed) ? 0 : -1;
	}
	/* sched_stick_numa has no destination: dst_* are -1 there */
	if (!field(at, r->ev == EV_MOVE ? "pid" : "src_pid", &r->pid) ||
	    !field(at, "src_cpu", &r->src_cpu) || !field(at, "src_nid", &r->src_nid) ||
	    !field(at, "dst_cpu", &r->dst_cpu) || !field(at, "dst_nid", &r->dst_nid))
		return -1;
	if (r->ev != EV_MOVE && !field(at, "dst_pid", &r->dst_pid))
		return -1;
	return 0;
}

static void log_event(struct trace_mon *t, const struct trace_rec *r)
{
	if (t->logged >= EVENTS_MAX) {
		t->unlogged++;
		return;
	}
	t->logged++;
	fprintf(t->events, "%.6f,%s,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%s\n", r->ts - mon_t0,
		trace_event_names[r->ev], r->pid, r->src_cpu, r->src_nid, r->dst_cpu,
		r->dst_nid, r->dst_pid, r->succeeded, r->failed,
		r->reason >= 0 ? trace_reasons[r->reason] : "");
}

static void take_line(struct trace_mon *t, const char *line)
{
	struct trace_rec r;

	if (trace_parse_line(line, &r)) {
		t->unparsed += !!line[0];
		return;
	}
	pthread_mutex_lock(&t->lock);
	t->now.ev[r.ev]++;
	if (r.ev == EV_MIGRATE) {
		t->now.failed += (unsigned long)r.failed;
		if (r.reason >= 0)
			t->now.moved[r.reason] += (unsigned long)r.succeeded;
	}
	pthread_mutex_unlock(&t->lock);
	log_event(t, &r);
}

/* Split what was read into lines; a line longer than the buffer is dropped. */
static void take_bytes(struct trace_mon *t, const char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (t->used + 1 < sizeof(t->line))
				t->line[t->used++] = buf[i];
			continue;
		}
		t->line[t->used] = 0;
		take_line(t, t->line);
		t->used = 0;
	}
}

static void *reader(void *arg)
{
	const struct timespec pause = { .tv_nsec = DRAIN_MS * 1000000L };
	struct trace_mon *t = arg;
	static char buf[65536];
	ssize_t n;

	for (;;) {
		n = read(t->fd, buf, sizeof(buf));
		if (n > 0) {
			take_bytes(t, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			break;
		if (atomic_load(&t->stop))	/* stopped and drained */
			break;
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static void header(struct trace_mon *t)
{
	unsigned int i;

	fputs("t_s", t->rows);
	for (i = 0; i < N_EVENTS; i++)
		fprintf(t->rows, ",%s", trace_event_names[i]);
	fputs(",pages_failed", t->rows);
	for (i = 0; i < trace_n_reasons; i++)
		fprintf(t->rows, ",pages_%s", trace_reasons[i]);
	fputc('\n', t->rows);
	fputs("t_s,event,pid,src_cpu,src_nid,dst_cpu,dst_nid,dst_pid,nr_succeeded,"
	      "nr_failed,reason\n", t->events);
}

static FILE *open_in(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, "w");
}

static int enable_events(const char *tracefs, const char *value, char *err, size_t errlen)
{
	char file[128];
	int e;

	for (e = 0; e < N_EVENTS; e++) {
		snprintf(file, sizeof(file), "%s/enable", event_paths[e]);
		if (!tracefs_write(tracefs, file, value))
			continue;
		snprintf(err, errlen, "tracepoint %s cannot be enabled (%s/%s: %s)",
			 trace_event_names[e], tracefs, file, strerror(errno));
		return -1;
	}
	return 0;
}

struct trace_mon *trace_start(const char *tracefs, const char *dir, unsigned int buffer_kb,
			      char *err, size_t errlen)
{
	struct trace_mon *t = calloc(1, sizeof(*t));
	char kb[32], path[512];

	if (!t)
		return NULL;
	snprintf(t->tracefs, sizeof(t->tracefs), "%s", tracefs);
	pthread_mutex_init(&t->lock, NULL);
	snprintf(kb, sizeof(kb), "%u", buffer_kb);
	tracefs_write(tracefs, "tracing_on", "0");
	if (tracefs_write(tracefs, "trace_clock", "mono") ||
	    tracefs_write(tracefs, "buffer_size_kb", kb) || tracefs_write(tracefs, "trace", "")) {
		snprintf(err, errlen, "tracefs at %s cannot be set up: %s", tracefs, strerror(errno));
		goto fail;
	}
	if (enable_events(tracefs, "1", err, errlen))
		goto fail;
	snprintf(path, sizeof(path), "%s/trace_pipe", tracefs);
	t->fd = open(path, O_RDONLY | O_NONBLOCK);
	t->rows = open_in(dir, BNB_MON_TRACE_FILE);
	t->events = open_in(dir, BNB_MON_EVENTS_FILE);
	if (t->fd < 0 || !t->rows || !t->events) {
		snprintf(err, errlen, "cannot open %s or the output files: %s", path, strerror(errno));
		goto fail;
	}
	header(t);
	if (tracefs_write(tracefs, "tracing_on", "1") ||
	    pthread_create(&t->reader, NULL, reader, t)) {
		snprintf(err, errlen, "cannot start tracing: %s", strerror(errno));
		goto fail;
	}
	return t;
fail:
	enable_events(tracefs, "0", path, sizeof(path));
	free(t);
	return NULL;
}

void trace_tick(struct trace_mon *t, double now)
{
	struct counts c;
	unsigned int i;

	pthread_mutex_lock(&t->lock);
	c = t->now;
	memset(&t->now, 0, sizeof(t->now));
	pthread_mutex_unlock(&t->lock);
	fprintf(t->rows, "%.6f", now - mon_t0);
	for (i = 0; i < N_EVENTS; i++)
		fprintf(t->rows, ",%lu", c.ev[i]);
	fprintf(t->rows, ",%lu", c.failed);
	for (i = 0; i < trace_n_reasons; i++)
		fprintf(t->rows, ",%lu", c.moved[i]);
	fputc('\n', t->rows);
}

/* Events the ring buffer lost: "overrun:" of every CPU's stats. */
static unsigned long overruns(const char *tracefs)
{
	char pattern[512], line[256];
	unsigned long sum = 0, v;
	glob_t g;
	size_t i;

	snprintf(pattern, sizeof(pattern), "%s/per_cpu/cpu*/stats", tracefs);
	if (glob(pattern, 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");

		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "overrun: %lu", &v) == 1)
				sum += v;
		if (f)
			fclose(f);
	}
	globfree(&g);
	return sum;
}

void trace_stop(struct trace_mon *t, double now)
{
	char err[256];

	tracefs_write(t->tracefs, "tracing_on", "0");
	atomic_store(&t->stop, 1);
	pthread_join(t->reader, NULL);
	trace_tick(t, now);
	fprintf(t->rows, "# lost_events=%lu unlogged_events=%lu unparsed_lines=%lu\n",
		overruns(t->tracefs), t->unlogged, t->unparsed);
	enable_events(t->tracefs, "0", err, sizeof(err));
	close(t->fd);
	fclose(t->rows);
	fclose(t->events);
	free(t);
}
