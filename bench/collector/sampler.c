// SPDX-License-Identifier: GPL-2.0
/*
 * The sampling loop.  Sampling instants are absolute (t0 + k * interval,
 * clock_nanosleep TIMER_ABSTIME), so the rate does not drift with the
 * time each sample takes; an instant that has already passed is skipped
 * and counted as late rather than caught up in a burst.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "conn.h"
#include "sampler.h"
#include "series.h"
#include "summary.h"
#include "timeseries.h"

#define SUMMARY_EVERY	50	/* samples between interim summaries */

struct run {
	const struct sampler_opts *o;
	struct conn conn;
	struct series s;
	struct bnb_reply reply;
	struct csv csv;
	FILE *csv_file;
	bool header_done;
	struct run_info info;
	uint64_t start_ns, last_good_ns;
	unsigned long long seq;
	unsigned stale;
};

static void write_header(struct run *run, const struct bnb_reply *first)
{
	series_columns(&run->s, first);
	timeseries_header(&run->csv, &run->s);
	run->header_done = true;
}

static void sleep_until(uint64_t t_ns)
{
	struct timespec ts = { t_ns / 1000000000ULL, t_ns % 1000000000ULL };

	/* EINTR (a signal) just ends the sleep early: the loop checks stop. */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static void good_sample(struct run *run, uint64_t req_ns, uint64_t rep_ns)
{
	struct sample_time t = { req_ns, rep_ns, run->reply.guest_ns };

	if (!run->header_done)
		write_header(run, &run->reply);
	if (run->reply.unknown_lines)
		series_warn(&run->s, "%u reply lines of unknown type skipped",
			    run->reply.unknown_lines);
	if (run->reply.missing & MISSING_VMSTAT)
		series_warn(&run->s, "agent could not read /proc/vmstat");
	series_update(&run->s, &run->reply, &t);
	timeseries_row(&run->csv, &run->s);
	run->last_good_ns = rep_ns;
	if (run->s.samples % SUMMARY_EVERY == 0)
		summary_write(run->o->out_dir, &run->s, &run->info);
}

/* Send request seq and wait for its reply. */
static enum await_result ask(struct run *run, bool maps, uint64_t req_ns,
			     char *why, size_t whylen, volatile sig_atomic_t *stop)
{
	int sent = conn_request(&run->conn, run->seq, maps);

	if (sent < 0) {
		snprintf(why, whylen, "agent connection closed");
		return AWAIT_GONE;
	}
	if (sent > 0) {
		snprintf(why, whylen, "agent is not reading requests");
		return AWAIT_TIMEOUT;
	}
	return conn_await(&run->conn, run->seq,
			  req_ns + run->o->reply_timeout_ms * 1000000ULL,
			  &run->reply, why, whylen, &run->stale, stop);
}

/* One request; returns the end reason, or NULL to go on. */
static const char *one_sample(struct run *run, volatile sig_atomic_t *stop)
{
	const struct sampler_opts *o = run->o;
	bool started = run->s.samples > 0;
	bool maps = o->maps_every && run->s.samples % o->maps_every == 0;
	uint64_t req_ns = now_ns(), limit;
	unsigned stale = run->stale;
	char why[256];

	run->seq++;
	switch (ask(run, maps, req_ns, why, sizeof(why), stop)) {
	case AWAIT_OK:
		good_sample(run, req_ns, now_ns());
		return NULL;
	case AWAIT_GONE:
		return "agent-gone";
	case AWAIT_INTERRUPTED:
		return NULL;
	case AWAIT_MALFORMED:
	case AWAIT_TIMEOUT:
		break;
	}
	/* While the guest boots, silence is expected: not a dropped sample. */
	if (started) {
		run->info.dropped++;
		series_warn(&run->s, "%s", why);
		if (run->stale != stale)
			series_warn(&run->s, "%u late replies dropped so far", run->stale);
	}
	limit = started ? o->stall_timeout_ms : o->start_timeout_ms;
	if (now_ns() - (started ? run->last_good_ns : run->start_ns) >= limit * 1000000ULL)
		return started ? "agent-timeout" : "no-agent";
	return NULL;
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "sigint" : sig == SIGTERM ? "sigterm" : "signal";
}

/*
 * One streamed sample: the agent numbers its samples by the guest-clock
 * instant, so a gap in the numbers is instants it missed (or replies we
 * could not parse), counted as dropped.
 */
static const char *one_streamed(struct run *run, volatile sig_atomic_t *stop)
{
	const struct sampler_opts *o = run->o;
	bool started = run->s.samples > 0;
	uint64_t since = started ? run->last_good_ns : run->start_ns;
	uint64_t limit = started ? o->stall_timeout_ms : o->start_timeout_ms;
	char why[256];
	uint64_t t;

	/* a hostile guest may number a sample ULLONG_MAX: nothing comes after */
	unsigned long long next = run->seq < ULLONG_MAX ? run->seq + 1 : ULLONG_MAX;

	switch (conn_next(&run->conn, next, since + limit * 1000000ULL, &run->reply,
			  why, sizeof(why), &run->stale, stop)) {
	case AWAIT_OK:
		if (started && run->reply.seq > next) {
			run->info.dropped += run->reply.seq - next;
			series_warn(&run->s, "samples %llu..%llu missing", next,
				    run->reply.seq - 1);
		}
		run->seq = run->reply.seq;
		t = now_ns();	/* nothing was asked: received is both */
		good_sample(run, t, t);
		return NULL;
	case AWAIT_GONE:
		return "agent-gone";
	case AWAIT_INTERRUPTED:
		return NULL;
	case AWAIT_MALFORMED:
		series_warn(&run->s, "%s", why);
		return NULL;
	case AWAIT_TIMEOUT:
		break;
	}
	return started ? "agent-timeout" : "no-agent";
}

/* After a sample: why the run ends there (a write error, the sample limit), or NULL. */
static const char *sample_written(struct run *run)
{
	if (run->csv.error)
		return "write-error";
	if (run->o->max_samples && run->s.samples >= run->o->max_samples)
		return "max-samples";
	return NULL;
}

static const char *stream_loop(struct run *run, volatile sig_atomic_t *stop)
{
	const char *end;

	for (;;) {
		if (*stop)
			return signal_name(*stop);
		end = one_streamed(run, stop);
		if (!end)
			end = sample_written(run);
		if (end)
			return end;
	}
}

static const char *loop(struct run *run, volatile sig_atomic_t *stop)
{
	const uint64_t interval = run->o->interval_ms * 1000000ULL;
	uint64_t next = now_ns();
	const char *end;

	for (;;) {
		if (*stop)
			return signal_name(*stop);
		if (run->s.samples && now_ns() > next + interval / 2)
			run->info.late++;
		end = one_sample(run, stop);
		if (!end)
			end = sample_written(run);
		if (end)
			return end;
		next += interval;
		/* Instants missed while the guest boots are not late samples. */
		while (next + interval / 2 < now_ns()) {
			next += interval;
			run->info.late += run->s.samples > 0;
		}
		sleep_until(next);
	}
}

static FILE *open_csv(const char *dir)
{
	char path[4096];
	int fd;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "bnb-collect: cannot create %s: %s\n", dir, strerror(errno));
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/timeseries.csv", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (fd < 0) {
		fprintf(stderr, "bnb-collect: cannot create %s: %s\n", path, strerror(errno));
		return NULL;
	}
	return fdopen(fd, "w");
}

/* The collector's own CPU time: on a small host it competes with QEMU. */
static double cpu_seconds(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static void finish(struct run *run, const char *end)
{
	uint64_t t = now_ns();
	double t_s = run->s.samples ? (t - run->s.t0_ns) / 1e9 : 0;

	if (run->s.guest_clock)		/* no guest time after the last sample */
		t_s = run->s.t_s;

	if (!run->header_done) {
		struct bnb_reply none = { 0 };

		write_header(run, &none);
	}
	timeseries_end(&run->csv, &run->s, t_s, end);
	run->info.end = end;
	run->info.duration_s = (t - run->start_ns) / 1e9;
	summary_write(run->o->out_dir, &run->s, &run->info);
	fprintf(stderr, "bnb-collect: %llu samples, %llu dropped, %llu late, end: %s, cpu %.3f s\n",
		run->s.samples, run->info.dropped, run->info.late, end, cpu_seconds());
}

static bool clean_end(const char *end)
{
	static const char *const ok[] = {
		"agent-gone", "sigint", "sigterm", "max-samples",
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(end, ok[i]))
			return true;
	return false;
}

int sampler_run(const struct sampler_opts *o, volatile sig_atomic_t *stop)
{
	static struct run run;	/* the connection buffer is large */
	const char *end;
	int status;

	memset(&run, 0, sizeof(run));
	run.o = o;
	run.conn.fd = -1;
	run.info = (struct run_info) { .end = "running", .interval_ms = o->interval_ms };
	if (series_init(&run.s, o->wnuma, o->window_hints, o->window_s)) {
		fprintf(stderr, "bnb-collect: cannot allocate the convergence window\n");
		return 1;
	}
	run.s.plugin.path = o->plugin_shm;
	run.s.guest_clock = o->stream;
	run.csv_file = open_csv(o->out_dir);
	if (!run.csv_file)
		return 1;
	csv_init(&run.csv, run.csv_file);
	run.start_ns = now_ns();
	if (conn_open(&run.conn, o->socket, o->connect_timeout_ms, stop)) {
		fprintf(stderr, "bnb-collect: cannot connect to %s: %s\n", o->socket,
			*stop ? "interrupted" : strerror(errno));
		end = *stop ? signal_name(*stop) : "connect-failed";
	} else {
		end = o->stream ? stream_loop(&run, stop) : loop(&run, stop);
	}
	finish(&run, end);
	status = run.s.samples > 0 && clean_end(end) && !run.csv.error ? 0 : 1;
	conn_close(&run.conn);
	series_free(&run.s);
	if (fclose(run.csv_file))
		status = 1;
	return status;
}
