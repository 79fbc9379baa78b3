// SPDX-License-Identifier: GPL-2.0
/*
 * stream: the four STREAM kernels (copy, scale, add, triad) over three
 * arrays of doubles, split among threads; one CSV row per iteration with
 * the bandwidth of each kernel, and the arrays checked at the end against
 * the values the same arithmetic must give.
 *
 * Page locality is sampled by every thread over its own slice of the
 * arrays, after the iteration's kernels and before the barrier that
 * starts the next one; thread 0 combines the counts for the row.  Thread
 * 0 sampling every page alone was a serial part of each iteration (a
 * fifth of one with 128K arrays) that STREAM itself does not have, and
 * that made two threads look slower than they are against one.
 *
 * The threads meet at a barrier before and after every kernel.  Like
 * STREAM's OpenMP barriers (libgomp waits actively before it sleeps),
 * a thread that arrives early spins with PAUSE for up to SPIN_S, then
 * sleeps on a futex; with more threads than CPUs it sleeps at once.  A
 * pthread barrier always slept: every meeting was a futex wake-up across
 * CPUs (thousands of instructions each side, a microsecond of hardware),
 * nine an iteration, where STREAM's threads see a cache line change.
 */
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"
#include "lib/util.h"

#define MB 1e6
/* |scalar| < 1 keeps the values finite over any number of iterations */
#define SCALAR 0.4
#define MAX_ITERATIONS 10000
/* how long an early thread spins at a barrier before it sleeps */
#define SPIN_S 1e-3
/* spins between two looks at the clock */
#define SPINS_PER_LOOK 64

enum kernel { COPY, SCALE, ADD, TRIAD, NKERNELS };

/* arrays touched by each kernel: copy and scale move 2, add and triad 3 */
static const unsigned int kernel_arrays[NKERNELS] = { 2, 2, 3, 3 };

static struct stream_opts {
	struct wl_common com;
} cfg;
#define O(f) OPT_FIELD(struct stream_opts, f)
static const struct opt_def rows[] = {
	WL_ROW_SIZE(O, "32M", "bytes per array (three arrays)"),
	WL_ROW_THREADS(O, "worker threads, 0: every CPU of --node"),
	WL_ROW_ITERATIONS(O, "30", MAX_ITERATIONS, "iterations of the four kernels"),
	WL_ROW_PLACEMENT(O, "local", "where the arrays go relative to the threads"),
	WL_ROW_NODE(O, "node whose CPUs run the threads"),
	WL_ROW_MEM_NODE(O),
	WL_ROW_LOCALITY(O),
	WL_ROW_CHECK(O),
};
static const struct opt_tool tool = {
	"stream [options]",
	"STREAM-style memory bandwidth: copy, scale, add, triad per iteration.\n",
	rows, ARRAY_SIZE(rows), WL_EPILOG,
};

/* Threads meet here: spin, then sleep (see the top of the file). */
struct barrier {
	_Atomic unsigned int arrived;	/* of this round */
	_Atomic int round;		/* the futex word: moves on when all arrived */
	_Atomic unsigned int sleepers;	/* in FUTEX_WAIT, or about to be */
	unsigned int threads;
	bool spin;			/* no more threads than CPUs */
};

struct shared {
	double *a, *b, *c;
	size_t n;
	struct barrier barrier;
	struct wl_where where;
	struct wl_sample *sample;	/* each thread's pages, queried by that thread */
	bool *sample_failed;	/* its last query failed */
	int *owner_node;	/* node of each thread's CPU, for locality */
	struct wl_out out;
	double start, times[NKERNELS];
	unsigned int done;	/* iterations completed */
	bool stop;		/* set by thread 0: a signal, or the last iteration done */
};

struct worker {
	struct shared *sh;
	unsigned int idx;
	size_t begin, end;
};

static void barrier_init(struct barrier *b, unsigned int threads, unsigned int cpus)
{
	atomic_init(&b->arrived, 0);
	atomic_init(&b->round, 0);
	atomic_init(&b->sleepers, 0);
	b->threads = threads;
	b->spin = threads <= cpus;
}

/* True once the round has moved on from @round, after up to SPIN_S of spinning. */
static bool spin_until_round(struct barrier *b, int round)
{
	double deadline = wl_now() + SPIN_S;

	for (unsigned int i = 1;; i++) {
		if (atomic_load_explicit(&b->round, memory_order_acquire) != round)
			return true;
		__builtin_ia32_pause();
		if (i % SPINS_PER_LOOK == 0 && wl_now() > deadline)
			return false;
	}
}

/*
 * The sleeper count and the round are sequentially consistent: either the
 * last thread sees a sleeper and wakes it, or the sleeper's FUTEX_WAIT
 * sees the new round and returns at once.
 */
static void barrier_wait(struct barrier *b)
{
	int round = atomic_load_explicit(&b->round, memory_order_acquire);

	if (atomic_fetch_add(&b->arrived, 1) + 1 == b->threads) {
		atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
		atomic_fetch_add(&b->round, 1);
		if (atomic_load(&b->sleepers))
			syscall(SYS_futex, &b->round, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
		return;
	}
	if (b->spin && spin_until_round(b, round))
		return;
	while (atomic_load(&b->round) == round) {
		atomic_fetch_add(&b->sleepers, 1);
		syscall(SYS_futex, &b->round, FUTEX_WAIT_PRIVATE, round, NULL, NULL, 0);
		atomic_fetch_sub(&b->sleepers, 1);
	}
}

static void run_kernel(struct shared *sh, enum kernel k, size_t begin, size_t end)
{
	double *restrict a = sh->a, *restrict b = sh->b, *restrict c = sh->c;
	size_t j;

	switch (k) {
	case COPY:
		for (j = begin; j < end; j++)
			c[j] = a[j];
		break;
	case SCALE:
		for (j = begin; j < end; j++)
			b[j] = SCALAR * c[j];
		break;
	case ADD:
		for (j = begin; j < end; j++)
			c[j] = a[j] + b[j];
		break;
	case TRIAD:
		for (j = begin; j < end; j++)
			a[j] = b[j] + SCALAR * c[j];
		break;
	default:
		break;
	}
}

/* Locality over every thread's sample, NaN if a query failed or none is present. */
static double combined_locality(const struct shared *sh)
{
	unsigned int t, local = 0, present = 0;

	for (t = 0; t < cfg.com.threads; t++) {
		if (sh->sample_failed[t])
			return NAN;
		wl_sample_count(&sh->sample[t], sh->owner_node, &local, &present);
	}
	return present ? (double)local / present : NAN;
}

/* Thread @idx asks where its own sampled pages are now. */
static void sample_own(struct shared *sh, unsigned int idx)
{
	sh->sample_failed[idx] = wl_sample_query(&sh->sample[idx]) != 0;
}

/* Row @iter's kernels ran and, when due, every thread sampled its pages. */
static void report(struct shared *sh, unsigned int iter)
{
	double mbs[NKERNELS + 1], total_t = 0, total_mb = 0, locality = NAN;
	double array_mb = (double)sh->n * sizeof(double) / MB;
	int k;

	mbs[0] = iter + 1;
	for (k = 0; k < NKERNELS; k++) {
		mbs[k + 1] = kernel_arrays[k] * array_mb / sh->times[k];
		total_t += sh->times[k];
		total_mb += kernel_arrays[k] * array_mb;
	}
	if (wl_locality_due(&cfg.com, iter + 1))
		locality = combined_locality(sh);
	wl_out_row(&sh->out, wl_now() - sh->start, total_mb / total_t, locality, mbs);
}

/* Before the timed part: thread 0 queries every slice, the others wait. */
static void start_locality(struct shared *sh)
{
	unsigned int t;

	if (!cfg.com.locality_every)
		return;
	for (t = 0; t < cfg.com.threads; t++)
		sample_own(sh, t);
	wl_out_start_locality(&sh->out, combined_locality(sh));
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	unsigned int it;
	double t0 = 0;
	int k;

	if (sh->where.touch >= 0)
		wl_run_on(sh->where.touch);
	for (size_t j = w->begin; j < w->end; j++) {
		sh->a[j] = 1.0;
		sh->b[j] = 2.0;
		sh->c[j] = 0.0;
	}
	sh->owner_node[w->idx] = sh->where.run >= 0 ? sh->where.run : wl_current_node();
	barrier_wait(&sh->barrier);
	if (!w->idx)
		start_locality(sh);
	wl_run_on(sh->where.run);
	if (!w->idx)
		sh->start = wl_work_begin();
	/*
	 * Pass it ends iteration it - 1 (each thread samples its own pages
	 * when the row is due) and starts iteration it: after the barrier
	 * every thread sees thread 0's decision to stop at the same point,
	 * and thread 0 reports the row while the others wait at the first
	 * kernel's barrier.
	 */
	for (it = 0;; it++) {
		if (it && wl_locality_due(&cfg.com, it))
			sample_own(sh, w->idx);
		if (!w->idx)
			sh->stop = wl_interrupted || it == cfg.com.iterations;
		barrier_wait(&sh->barrier);
		if (it && !w->idx) {
			report(sh, it - 1);
			sh->done = it;
		}
		if (sh->stop)
			break;
		for (k = 0; k < NKERNELS; k++) {
			barrier_wait(&sh->barrier);
			if (!w->idx)
				t0 = wl_now();
			run_kernel(sh, k, w->begin, w->end);
			sh->owner_node[w->idx] = sh->where.run >= 0 ? sh->where.run :
						 wl_current_node();
			barrier_wait(&sh->barrier);
			if (!w->idx)
				sh->times[k] = wl_now() - t0;
		}
	}
	return NULL;
}

/* Elements of @array differing from @want by more than rounding; STREAM's check. */
static size_t count_wrong(const double *array, size_t n, double want)
{
	size_t j, wrong = 0;

	for (j = 0; j < n; j++)
		wrong += fabs(array[j] - want) > 1e-13 * fabs(want);
	return wrong;
}

static bool verify(const struct shared *sh)
{
	double a = 1.0, b = 2.0, c = 0.0;
	size_t wa, wb, wc;
	unsigned int it;

	for (it = 0; it < sh->done; it++) {
		c = a;
		b = SCALAR * c;
		c = a + b;
		a = b + SCALAR * c;
	}
	wa = count_wrong(sh->a, sh->n, a);
	wb = count_wrong(sh->b, sh->n, b);
	wc = count_wrong(sh->c, sh->n, c);
	if (!(wa | wb | wc))
		return true;
	fprintf(stderr, "stream: verification failed: wrong elements a=%zu b=%zu c=%zu "
		"of %zu\n", wa, wb, wc, sh->n);
	return false;
}

/*
 * Thread t's sample: up to @per pages of each array, whole pages of its
 * own slice only (a page astride two slices has no one owner).
 */
static int sample_slice(struct shared *sh, unsigned int t, unsigned int per)
{
	size_t page = (size_t)getpagesize(), bytes = sh->n * sizeof(double);
	size_t from = bytes * t / cfg.com.threads, to = bytes * (t + 1) / cfg.com.threads;
	double *arrays[] = { sh->a, sh->b, sh->c };

	from = (from + page - 1) / page * page;
	to = to / page * page;
	if (wl_sample_init(&sh->sample[t], 3 * per, 0))
		return -1;
	for (int i = 0; to > from && i < 3; i++)
		wl_sample_add(&sh->sample[t], (char *)arrays[i] + from, to - from, per, t, 1);
	return 0;
}

static int setup(struct shared *sh, const struct wl_topo *topo)
{
	size_t bytes = sh->n * sizeof(double);
	unsigned int threads = cfg.com.threads;
	unsigned int per_array = cfg.com.samples / 3 ? cfg.com.samples / 3 : 1;
	unsigned int per = per_array / threads ? per_array / threads : 1;
	double **arrays[] = { &sh->a, &sh->b, &sh->c };

	wl_where(&cfg.com, topo, 0, &sh->where);
	sh->owner_node = calloc(threads, sizeof(*sh->owner_node));
	sh->sample = calloc(threads, sizeof(*sh->sample));
	sh->sample_failed = calloc(threads, sizeof(*sh->sample_failed));
	if (!sh->owner_node || !sh->sample || !sh->sample_failed)
		return -1;
	/*
	 * One untouched page past each array, as STREAM's OFFSET: three
	 * mappings of the same size end up exactly that size apart, and an
	 * emulator's direct-mapped TLB (QEMU's) then puts a[j], b[j] and
	 * c[j] on one entry, so every access evicts the other two.
	 */
	for (int i = 0; i < 3; i++) {
		*arrays[i] = wl_map(bytes + (size_t)getpagesize(), false);
		if (!*arrays[i] ||
		    wl_bind_memory(*arrays[i], bytes, cfg.com.placement, sh->where.mem, topo))
			return -1;
	}
	for (unsigned int t = 0; t < threads; t++)
		if (sample_slice(sh, t, per))
			return -1;
	barrier_init(&sh->barrier, threads, sh->where.run >= 0 ? topo->cpus[sh->where.run] :
						       topo->total_cpus);
	return 0;
}

static const char *const columns[] = {
	"iter", "copy_mbs", "scale_mbs", "add_mbs", "triad_mbs", NULL,
};

int main(int argc, char **argv)
{
	static struct shared sh;
	struct wl_topo topo;
	struct worker *workers;
	pthread_t *tids;
	unsigned int i;
	double work_s;
	bool ok;

	wl_common_init(&cfg.com);
	wl_parse_or_exit("stream", &tool, &cfg, argc, argv);
	wl_topo_or_exit("stream", &cfg.com, &topo);
	wl_resolve_or_exit("stream", &cfg.com, &topo, 3 * cfg.com.size, WL_ONE_NODE);
	sh.n = cfg.com.size / sizeof(double);
	if (sh.n < cfg.com.threads) {
		fprintf(stderr, "stream: --size must hold at least one double per thread\n");
		return WL_EXIT_USAGE;
	}
	wl_check_done(&cfg.com);
	wl_register_pid(WL_AGENT_DIR);
	workers = calloc(cfg.com.threads, sizeof(*workers));
	tids = calloc(cfg.com.threads, sizeof(*tids));
	if (!workers || !tids || setup(&sh, &topo)) {
		fprintf(stderr, "stream: cannot set up %u threads over 3 x %zu doubles\n",
			cfg.com.threads, sh.n);
		return 1;
	}
	printf("# stream placement=%s run_node=%d mem_node=%d threads=%u array_bytes=%zu "
	       "iterations=%u\n", wl_placement_names[cfg.com.placement], sh.where.run,
	       sh.where.mem, cfg.com.threads, sh.n * sizeof(double), cfg.com.iterations);
	wl_out_begin(&sh.out, stdout, "MB/s", columns);
	for (i = 0; i < cfg.com.threads; i++) {
		workers[i] = (struct worker){ &sh, i, sh.n * i / cfg.com.threads,
					      sh.n * (i + 1) / cfg.com.threads };
		if (pthread_create(&tids[i], NULL, worker_main, &workers[i])) {
			fprintf(stderr, "stream: cannot start thread %u\n", i);
			return 1;
		}
	}
	for (i = 0; i < cfg.com.threads; i++)
		pthread_join(tids[i], NULL);
	work_s = wl_work_end() - sh.start;
	free(workers);
	free(tids);
	/* STREAM's check is not timed; on the run node it moves nothing back */
	wl_run_on(sh.where.run);
	ok = verify(&sh);
	sh.out.interrupted = wl_interrupted;
	wl_out_summary(&sh.out, ok, work_s, "threads=%u verified=%s",
		       cfg.com.threads, ok ? "yes" : "no");
	return ok && !wl_interrupted ? 0 : 1;
}
