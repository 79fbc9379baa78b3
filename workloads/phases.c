// SPDX-License-Identifier: GPL-2.0
/*
 * phases: threads with private buffers that all move to the next node
 * every phase while their memory stays behind (phases_plan.h has the
 * plan). The main thread writes one CSV row per --interval-ms with the
 * bandwidth and the page locality of the moment; at the end of every
 * phase the last thread to finish it writes a "# phase" line with the
 * phase's start, length, bandwidth and the local share at its start and
 * end, so a report can show how fast balancing catches up after each move.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common.h"
#include "lib/err.h"
#include "phases_plan.h"

#define MB 1e6
/* words updated between two looks at the clock: 64 KiB */
#define CHUNK_WORDS 8192
/* the local share a phase counts as caught up at */
#define CAUGHT_UP 0.9

struct phase_rec {
	bool started, ended;
	double start, end;	/* seconds since the work began */
	uint64_t words;		/* word updates in the phase, every thread */
	double loc_start, loc_end;
	double to90;		/* from the start to a sample >= CAUGHT_UP; NaN: none */
};

struct shared;

struct worker {
	struct shared *sh;
	unsigned int idx;
	uint64_t *buf;
	size_t n;		/* words in buf */
	size_t pos;		/* the next word of the current pass */
	_Atomic uint64_t updates;	/* word updates done, for the monitor */
};

struct shared {
	struct phases_cfg cfg;
	struct worker *w;
	pthread_barrier_t all;		/* workers and the main thread: the start */
	pthread_barrier_t workers;	/* the phase changes */
	_Atomic int phase;		/* the phase running; cfg.phases when done */
	double start;			/* wl_work_begin() */
	double deadline;		/* --phase-s: the phase ends then (wl_now) */
	uint64_t words_mark;		/* updates of every thread at the phase's start */
	struct phase_rec *rec;
	/* one sample per thread that queries it: the last worker and main */
	struct wl_sample phase_sample, row_sample;
	int *phase_owner, *row_owner;	/* the node of each thread, for each sample */
	pthread_mutex_t lock;		/* the output, rec[], done */
	pthread_cond_t wake;		/* done */
	bool done;
	struct wl_out out;
};

static struct shared sh;

static uint64_t total_updates(void)
{
	uint64_t sum = 0;
	unsigned int t;

	for (t = 0; t < sh.cfg.com.threads; t++)
		sum += atomic_load_explicit(&sh.w[t].updates, memory_order_relaxed);
	return sum;
}

/* The local share of @s with every thread on its node of phase @p; NaN: unknown. */
static double locality(struct wl_sample *s, int *owner, int p)
{
	unsigned int t;

	for (t = 0; t < sh.cfg.com.threads; t++)
		owner[t] = phases_node(&sh.cfg, t, (unsigned int)p);
	if (wl_sample_query(s))
		return NAN;
	return wl_sample_locality(s, owner);
}

static void begin_phase(int p)
{
	struct phase_rec *r = &sh.rec[p];
	double loc = locality(&sh.phase_sample, sh.phase_owner, p), now;

	pthread_mutex_lock(&sh.lock);
	now = wl_now();
	r->start = now - sh.start;
	r->loc_start = loc;
	r->to90 = loc >= CAUGHT_UP ? 0 : NAN;
	r->started = true;
	sh.words_mark = total_updates();
	pthread_mutex_unlock(&sh.lock);
	sh.deadline = now + sh.cfg.phase_s;
}

static void phase_line(int p, const struct phase_rec *r)
{
	double dur = r->end - r->start;
	uint64_t words = (uint64_t)sh.cfg.com.threads * sh.w[0].n;
	char to90[32] = "";

	if (!isnan(r->to90))
		snprintf(to90, sizeof(to90), " to90_s=%.6f", r->to90);
	wl_out_comment(&sh.out, "phase index=%d node=%d start_s=%.6f duration_s=%.6f mbs=%.3f "
		       "passes=%.3f locality_start=%.4f locality_end=%.4f%s", p,
		       phases_node(&sh.cfg, 0, (unsigned int)p), r->start, dur,
		       dur > 0 ? (double)r->words * PHASES_BYTES_PER_WORD / MB / dur : 0.0,
		       (double)r->words / (double)words, r->loc_start, r->loc_end, to90);
}

/* By the last worker to finish phase @p; the workers stop when it says so. */
static void end_phase(int p)
{
	struct phase_rec *r = &sh.rec[p];
	double end = wl_now() - sh.start;
	uint64_t words = total_updates() - sh.words_mark;
	double loc = locality(&sh.phase_sample, sh.phase_owner, p);

	pthread_mutex_lock(&sh.lock);
	r->end = end;
	r->ended = true;
	r->words = words;
	r->loc_end = loc;
	if (isnan(r->to90) && loc >= CAUGHT_UP)
		r->to90 = end - r->start;
	phase_line(p, r);
	if (wl_interrupted || p + 1 == sh.cfg.phases) {
		sh.done = true;
		pthread_cond_signal(&sh.wake);
	}
	pthread_mutex_unlock(&sh.lock);
	atomic_store(&sh.phase, wl_interrupted ? sh.cfg.phases : p + 1);
}

static bool phase_over(const struct worker *w, uint64_t goal)
{
	if (wl_interrupted)
		return true;
	if (sh.cfg.phase_passes)
		return atomic_load_explicit(&w->updates, memory_order_relaxed) >= goal;
	return wl_now() >= sh.deadline;
}

/* Passes over the buffer, a chunk at a time, until the phase is over. */
static void work_phase(struct worker *w)
{
	uint64_t done = atomic_load_explicit(&w->updates, memory_order_relaxed);
	uint64_t goal = done + (uint64_t)sh.cfg.phase_passes * w->n;
	size_t to;

	while (!phase_over(w, goal)) {
		to = w->pos + CHUNK_WORDS < w->n ? w->pos + CHUNK_WORDS : w->n;
		phases_update(w->buf, w->pos, to);
		done += to - w->pos;
		w->pos = to == w->n ? 0 : to;
		atomic_store_explicit(&w->updates, done, memory_order_relaxed);
	}
}

static bool serial(int rc)
{
	return rc == PTHREAD_BARRIER_SERIAL_THREAD;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int p;

	wl_run_on(phases_node(&sh.cfg, w->idx, 0));
	phases_fill(w->buf, w->n, w->idx);
	pthread_barrier_wait(&sh.all);		/* every buffer first touched */
	pthread_barrier_wait(&sh.all);		/* the clock runs */
	for (p = 0;; p++) {
		work_phase(w);
		if (serial(pthread_barrier_wait(&sh.workers)))
			end_phase(p);
		pthread_barrier_wait(&sh.workers);
		if (atomic_load(&sh.phase) >= sh.cfg.phases)
			break;
		wl_run_on(phases_node(&sh.cfg, w->idx, (unsigned int)p + 1));
		if (serial(pthread_barrier_wait(&sh.workers)))
			begin_phase(p + 1);
		pthread_barrier_wait(&sh.workers);
	}
	return NULL;
}

/* Sleep until @due or the end of the last phase; true at the end. */
static bool wait_until(double due)
{
	struct timespec ts = { (time_t)due, (long)((due - floor(due)) * 1e9) };
	bool done;

	pthread_mutex_lock(&sh.lock);
	while (!sh.done && wl_now() < due)
		pthread_cond_timedwait(&sh.wake, &sh.lock, &ts);
	done = sh.done;
	pthread_mutex_unlock(&sh.lock);
	return done;
}

static void row(unsigned int n, double now, double dt, uint64_t words)
{
	int p = atomic_load(&sh.phase);
	double loc = NAN, t = now - sh.start, values[3];
	struct phase_rec *r;

	if (p >= sh.cfg.phases)
		p = sh.cfg.phases - 1;
	if (sh.cfg.com.locality_every && n % sh.cfg.com.locality_every == 0)
		loc = locality(&sh.row_sample, sh.row_owner, p);
	values[0] = p;
	values[1] = phases_node(&sh.cfg, 0, (unsigned int)p);
	values[2] = (double)words * PHASES_BYTES_PER_WORD / MB;
	pthread_mutex_lock(&sh.lock);
	r = &sh.rec[p];
	/* a sample taken while the threads move belongs to no phase yet */
	if (r->started && !r->ended && isnan(r->to90) && loc >= CAUGHT_UP)
		r->to90 = t - r->start;
	wl_out_row(&sh.out, t, dt > 0 ? values[2] / dt : 0, loc, values);
	pthread_mutex_unlock(&sh.lock);
}

/* The main thread's rows, every --interval-ms until the last phase ends. */
static void monitor(void)
{
	double interval = sh.cfg.interval_ms / 1000.0, last = sh.start, now;
	uint64_t before = 0, words;
	unsigned int n = 0;
	bool done = false;

	while (!done) {
		done = wait_until(sh.start + ++n * interval);
		now = wl_now();
		words = total_updates();
		row(n, now, now - last, words - before);
		last = now;
		before = words;
	}
}

/*
 * A buffer that shares no 2 MiB page with another: adjacent mappings merge
 * into one region, and a transparent huge page across two buffers would
 * be first touched by one thread for both.
 */
static uint64_t *map_buffer(size_t bytes)
{
	const size_t huge = 2u << 20;
	uintptr_t p = (uintptr_t)wl_map((bytes + huge - 1) / huge * huge + huge, false);

	return p ? (uint64_t *)((p + huge - 1) & ~(uintptr_t)(huge - 1)) : NULL;
}

static int setup(void)
{
	pthread_condattr_t attr;
	unsigned int threads = sh.cfg.com.threads, samples = sh.cfg.com.samples, t;
	unsigned int per = samples / threads ? samples / threads : 1;
	size_t words = sh.cfg.com.size / sizeof(uint64_t);

	sh.w = calloc(threads, sizeof(*sh.w));
	sh.rec = calloc((size_t)sh.cfg.phases, sizeof(*sh.rec));
	sh.phase_owner = calloc(threads, sizeof(int));
	sh.row_owner = calloc(threads, sizeof(int));
	if (!sh.w || !sh.rec || !sh.phase_owner || !sh.row_owner ||
	    wl_sample_init(&sh.phase_sample, samples, 0) ||
	    wl_sample_init(&sh.row_sample, samples, 0))
		return -1;
	for (t = 0; t < threads; t++) {
		struct worker *w = &sh.w[t];

		w->sh = &sh;
		w->idx = t;
		w->n = words;
		w->buf = map_buffer(words * sizeof(uint64_t));
		if (!w->buf)
			return -1;
		wl_sample_add(&sh.phase_sample, w->buf, words * sizeof(uint64_t), per, t, 1);
		wl_sample_add(&sh.row_sample, w->buf, words * sizeof(uint64_t), per, t, 1);
	}
	if (pthread_condattr_init(&attr) || pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) ||
	    pthread_cond_init(&sh.wake, &attr) || pthread_mutex_init(&sh.lock, NULL) ||
	    pthread_barrier_init(&sh.all, NULL, threads + 1))
		return -1;
	return pthread_barrier_init(&sh.workers, NULL, threads);
}

static void header(void)
{
	char nodes[256];

	phases_format_nodes(&sh.cfg.nodes, nodes, sizeof(nodes));
	printf("# phases threads=%u nodes=%s buffer_bytes=%zu phases=%d phase_s=%g "
	       "phase_passes=%d interval_ms=%u\n", sh.cfg.com.threads, nodes,
	       sh.w[0].n * sizeof(uint64_t), sh.cfg.phases, sh.cfg.phase_s,
	       sh.cfg.phase_passes, sh.cfg.interval_ms);
}

/* Start the threads, start the clock once every buffer is touched. */
static int run(pthread_t *tids)
{
	unsigned int t;

	for (t = 0; t < sh.cfg.com.threads; t++)
		if (pthread_create(&tids[t], NULL, worker_main, &sh.w[t])) {
			prog_error("cannot start thread %u", t);
			exit(1);	/* the others wait at a barrier forever */
		}
	pthread_barrier_wait(&sh.all);
	wl_out_start_locality(&sh.out, locality(&sh.row_sample, sh.row_owner, 0));
	sh.start = wl_work_begin();
	begin_phase(0);
	pthread_barrier_wait(&sh.all);
	monitor();
	for (t = 0; t < sh.cfg.com.threads; t++)
		pthread_join(tids[t], NULL);
	return 0;
}

static bool verify(void)
{
	size_t wrong = 0;
	unsigned int t;

	for (t = 0; t < sh.cfg.com.threads; t++)
		wrong += phases_wrong(sh.w[t].buf, sh.w[t].n, t,
				      atomic_load(&sh.w[t].updates));
	if (wrong)
		prog_error("verification failed: %zu wrong words", wrong);
	return !wrong;
}

/* After the first phase: how many caught up, how fast, how local at the end. */
static void summary(bool ok)
{
	int p, done = 0, caught = 0;
	double to90 = 0, loc = 0;
	char extra[128] = "";
	size_t used = 0;

	for (p = 0; p < sh.cfg.phases && sh.rec[p].ended; p++) {
		done++;
		if (!p)
			continue;
		loc += sh.rec[p].loc_end;
		if (isnan(sh.rec[p].to90))
			continue;
		caught++;
		to90 += sh.rec[p].to90;
	}
	if (caught)
		used += snprintf(extra, sizeof(extra), " to90_s_mean=%.6f", to90 / caught);
	if (done > 1 && !isnan(loc))
		snprintf(extra + used, sizeof(extra) - used, " phase_locality_end_mean=%.4f",
			 loc / (done - 1));
	sh.out.interrupted = wl_interrupted;
	wl_out_summary(&sh.out, ok, done ? sh.rec[done - 1].end : 0,
		       "threads=%u phases=%d phases_done=%d phases_caught_up=%d%s verified=%s",
		       sh.cfg.com.threads, sh.cfg.phases, done, caught, extra, ok ? "yes" : "no");
}

int main(int argc, char **argv)
{
	struct wl_topo topo;
	char err[ERRLEN];
	pthread_t *tids;
	bool ok;

	wl_common_init(&sh.cfg.com);
	wl_parse_or_exit("phases", &phases_tool, &sh.cfg, argc, argv);
	wl_topo_or_exit("phases", &sh.cfg.com, &topo);
	if (phases_resolve(&sh.cfg, &topo, err, sizeof(err))) {
		prog_error("%s", err);
		return WL_EXIT_USAGE;
	}
	wl_check_done(&sh.cfg.com);
	wl_catch_signals();
	wl_register_pid(WL_AGENT_DIR);
	tids = calloc((size_t)sh.cfg.com.threads, sizeof(*tids));
	if (!tids || setup()) {
		prog_error("cannot set up %u threads with %zu bytes each", sh.cfg.com.threads,
			   (size_t)sh.cfg.com.size);
		return 1;
	}
	header();
	wl_out_begin(&sh.out, stdout, "MB/s", (const char *const[]){ "phase", "node", "mb", NULL });
	run(tids);
	ok = verify();
	summary(ok);
	return ok && !wl_interrupted ? 0 : 1;
}
