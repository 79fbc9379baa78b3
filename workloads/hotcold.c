// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold: threads on --node read random cache lines of a working set,
 * --hot-pct of them in the hot set, as pmbench does, with the hot set
 * first touched in slow (CPU-less) memory and the cold pages in fast
 * memory (hotcold_plan.h has the layout). Nothing stays bound after the
 * first touch, so memory tiering (numa_balancing = 2) may promote the hot
 * pages. The main thread writes one CSV row per --interval-ms: the
 * accesses' rate, where a sample of the hot set's pages sits, and the
 * kernel's promotions so far; it moves the hot set every --move-s.
 */
#include <errno.h>
#include <math.h>
#include <numaif.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common.h"
#include "hotcold_plan.h"
#include "lib/err.h"

#define HUGE (2ul << 20)
/* accesses between two looks at the stop flag and the window */
#define CHUNK 4096

struct worker {
	pthread_t tid;
	unsigned int idx;
	_Atomic uint64_t accesses;
	uint64_t sink;		/* keeps the reads */
};

static struct {
	struct hotcold_cfg cfg;
	struct wl_topo topo;
	volatile char *ws;		/* the working set, 2 MiB aligned */
	uint64_t lines, hot_lines;
	_Atomic uint64_t window;	/* the hot window */
	_Atomic bool stop;
	struct worker *w;
	pthread_barrier_t start;
	struct wl_sample hot;		/* pages of the hot window */
	long long promoted0, demoted0;	/* the counters at the start; -1: none */
	struct wl_out out;
} hc;

static uint64_t total_accesses(void)
{
	uint64_t sum = 0;

	for (unsigned int t = 0; t < hc.cfg.com.threads; t++)
		sum += atomic_load_explicit(&hc.w[t].accesses, memory_order_relaxed);
	return sum;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	uint64_t rng = hotcold_seed(hc.cfg.seed, w->idx), done = 0, sum = 0;
	uint64_t thresh = hotcold_threshold(hc.cfg.hot_pct);
	/* in registers: the loop's only memory accesses are the working set's */
	const uint64_t lines = hc.lines, hot_lines = hc.hot_lines;
	const volatile char *ws = hc.ws;

	wl_run_on(hc.cfg.com.node);
	pthread_barrier_wait(&hc.start);
	while (!atomic_load_explicit(&hc.stop, memory_order_relaxed)) {
		uint64_t first = atomic_load_explicit(&hc.window, memory_order_relaxed) *
				 hot_lines;

		for (int i = 0; i < CHUNK; i++)
			sum += *(const volatile uint64_t *)(ws + hotcold_pick(hotcold_rand(&rng),
						thresh, lines, first, hot_lines));
		done += CHUNK;
		atomic_store_explicit(&w->accesses, done, memory_order_relaxed);
	}
	w->sink = sum;
	return NULL;
}

static int set_policy(size_t from, size_t to, int mode, int node)
{
	unsigned long mask[WL_MAX_NODES / (8 * sizeof(unsigned long)) + 1] = { 0 };
	const unsigned int bits = 8 * sizeof(unsigned long);

	if (from >= to)
		return 0;
	if (node >= 0)
		mask[node / bits] |= 1ul << (node % bits);
	if (!mbind((char *)hc.ws + from, to - from, mode, node >= 0 ? mask : NULL,
		   node >= 0 ? WL_MAX_NODES + 1 : 0, 0))
		return 0;
	prog_error("mbind(%zu MiB to node %d) failed: %s", (to - from) >> 20, node,
		   strerror(errno));
	return -1;
}

/*
 * Bind the slow part to the slow node and the rest to --node, touch every
 * page, then drop the binding: the pages stay where they are and
 * balancing may move them (it leaves MPOL_BIND pages alone).
 */
static int place(void)
{
	size_t size = hc.cfg.com.size, slow = hc.cfg.slow_size, i;

	if (!hc.cfg.thp && madvise((void *)hc.ws, size, MADV_NOHUGEPAGE))
		prog_error("madvise(MADV_NOHUGEPAGE) failed: %s", strerror(errno));
	if (set_policy(0, slow, MPOL_BIND, hc.cfg.slow_node) ||
	    set_policy(slow, size, MPOL_BIND, hc.cfg.com.node))
		return -1;
	for (i = 0; i < size; i += 4096)
		hc.ws[i] = (char)(i >> 12 | 1);
	return set_policy(0, size, MPOL_DEFAULT, -1);
}

static int setup(void)
{
	size_t size = hc.cfg.com.size;
	uintptr_t p = (uintptr_t)wl_map(size + HUGE, false);
	unsigned int samples = hc.cfg.com.samples ? hc.cfg.com.samples : 1;

	if (!p)
		return -1;
	hc.ws = (volatile char *)((p + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	hc.lines = size / HOTCOLD_LINE;
	hc.hot_lines = hc.cfg.hot_size / HOTCOLD_LINE;
	hc.w = calloc(hc.cfg.com.threads, sizeof(*hc.w));
	if (!hc.w || wl_sample_init(&hc.hot, samples, 0) ||
	    pthread_barrier_init(&hc.start, NULL, hc.cfg.com.threads + 1))
		return -1;
	return place();
}

/* Sample the hot window @w's pages afresh (it moved). */
static void sample_window(uint64_t w)
{
	hc.hot.n = 0;
	wl_sample_add(&hc.hot, (const char *)hc.ws + w * hc.cfg.hot_size, hc.cfg.hot_size,
		      hc.hot.cap, 0, 1);
}

/* The hot set's sampled share on --node (*local) and on the fast nodes. */
static double hot_fast(double *local)
{
	unsigned int fast = 0, here = 0, present = 0;

	*local = NAN;
	if (wl_sample_query(&hc.hot))
		return NAN;
	for (unsigned int i = 0; i < hc.hot.n; i++) {
		int node = hc.hot.status[i];

		if (node < 0 || node >= hc.topo.nodes)
			continue;
		present++;
		fast += hc.topo.cpus[node] > 0 && node != hc.cfg.slow_node;
		here += node == hc.cfg.com.node;
	}
	if (!present)
		return NAN;
	*local = (double)here / present;
	return (double)fast / present;
}

static double since(const char *counter, long long start)
{
	long long now = wl_vmstat(counter);

	return start < 0 || now < 0 ? NAN : (double)(now - start);
}

static long long demoted(void)
{
	long long k = wl_vmstat("pgdemote_kswapd"), d = wl_vmstat("pgdemote_direct");

	return k < 0 || d < 0 ? -1 : k + d;
}

struct run_state {
	uint64_t accesses, moves;
	double last_move, fast_start, fast_end;
};

static void maybe_move(struct run_state *r, double now)
{
	uint64_t w;

	if (hc.cfg.move_s <= 0 || now - r->last_move < hc.cfg.move_s)
		return;
	w = (atomic_load(&hc.window) + 1) % hotcold_windows(&hc.cfg);
	atomic_store(&hc.window, w);
	sample_window(w);
	r->last_move = now;
	r->moves++;
}

static void row(struct wl_ticker *t, struct run_state *r)
{
	uint64_t acc = total_accesses();
	double dt = wl_ticker_dt(t), loc = NAN, fast = NAN, values[4];

	if (wl_locality_due(&hc.cfg.com, t->row)) {
		fast = hot_fast(&loc);
		r->fast_end = fast;
	}
	values[0] = (double)atomic_load(&hc.window);
	values[1] = fast;
	values[2] = since("pgpromote_success", hc.promoted0);
	values[3] = (double)(acc - r->accesses) / 1e6;
	wl_out_row(&hc.out, wl_ticker_elapsed(t), dt > 0 ? values[3] / dt : 0, loc, values);
	r->accesses = acc;
	maybe_move(r, t->now);
}

static void header(void)
{
	printf("# hotcold threads=%u node=%d slow_node=%d ws_bytes=%llu hot_bytes=%llu "
	       "slow_bytes=%llu hot_pct=%d move_s=%g interval_ms=%u seed=%d thp=%s\n",
	       hc.cfg.com.threads, hc.cfg.com.node, hc.cfg.slow_node,
	       (unsigned long long)hc.cfg.com.size, (unsigned long long)hc.cfg.hot_size,
	       (unsigned long long)hc.cfg.slow_size, hc.cfg.hot_pct, hc.cfg.move_s,
	       hc.cfg.interval_ms, hc.cfg.seed, hc.cfg.thp ? "on" : "off");
}

static void counter_text(char *buf, size_t len, const char *key, double v)
{
	if (isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, len, " %s=%.0f", key, v);
}

static void summary(struct run_state *r, double work_s)
{
	char promoted[64], demoted_text[64], fast[64] = "";

	counter_text(promoted, sizeof(promoted), "pgpromote_success",
		     since("pgpromote_success", hc.promoted0));
	counter_text(demoted_text, sizeof(demoted_text), "pgdemote",
		     hc.demoted0 < 0 ? NAN : (double)(demoted() - hc.demoted0));
	if (!isnan(r->fast_start) && !isnan(r->fast_end))
		snprintf(fast, sizeof(fast), " hot_fast_start=%.4f hot_fast_end=%.4f",
			 r->fast_start, r->fast_end);
	hc.out.interrupted = wl_interrupted;
	wl_out_summary(&hc.out, true, work_s,
		       "threads=%u ws_bytes=%llu hot_bytes=%llu slow_bytes=%llu hot_pct=%d "
		       "slow_node=%d moves=%llu accesses=%llu%s%s%s", hc.cfg.com.threads,
		       (unsigned long long)hc.cfg.com.size, (unsigned long long)hc.cfg.hot_size,
		       (unsigned long long)hc.cfg.slow_size, hc.cfg.hot_pct, hc.cfg.slow_node,
		       (unsigned long long)r->moves, (unsigned long long)r->accesses, fast,
		       promoted, demoted_text);
}

static void run(void)
{
	struct run_state r = { .fast_end = NAN };
	struct wl_ticker t;
	double loc, work_s;

	for (unsigned int i = 0; i < hc.cfg.com.threads; i++) {
		hc.w[i].idx = i;
		if (pthread_create(&hc.w[i].tid, NULL, worker_main, &hc.w[i])) {
			prog_error("cannot start thread %u", i);
			exit(1);	/* the others wait at a barrier forever */
		}
	}
	sample_window(0);
	r.fast_start = hot_fast(&loc);
	wl_out_start_locality(&hc.out, loc);
	hc.promoted0 = wl_vmstat("pgpromote_success");
	hc.demoted0 = demoted();
	wl_ticker_start(&t, hc.cfg.interval_ms);
	r.last_move = t.start;
	pthread_barrier_wait(&hc.start);
	while (wl_ticker_next(&t, hc.cfg.com.iterations))
		row(&t, &r);
	work_s = wl_work_end() - t.start;
	atomic_store(&hc.stop, true);
	for (unsigned int i = 0; i < hc.cfg.com.threads; i++)
		pthread_join(hc.w[i].tid, NULL);
	summary(&r, work_s);
}

int main(int argc, char **argv)
{
	char err[ERRLEN];

	hotcold_init(&hc.cfg);
	wl_parse_or_exit("hotcold", &hotcold_tool, &hc.cfg, argc, argv);
	wl_topo_or_exit("hotcold", &hc.cfg.com, &hc.topo);
	if (hotcold_resolve(&hc.cfg, &hc.topo, err, sizeof(err))) {
		prog_error("%s", err);
		return WL_EXIT_USAGE;
	}
	wl_check_done(&hc.cfg.com);
	wl_catch_signals();
	wl_register_pid(WL_AGENT_DIR);
	if (setup()) {
		prog_error("cannot set up %llu bytes for %u threads",
			   (unsigned long long)hc.cfg.com.size, hc.cfg.com.threads);
		return 1;
	}
	header();
	wl_out_begin(&hc.out, stdout, "Maccesses/s",
		     (const char *const[]){ "window", "hot_fast", "pgpromote_success",
					    "maccesses", NULL });
	run();
	return wl_interrupted ? 1 : 0;
}
