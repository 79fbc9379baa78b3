// SPDX-License-Identifier: GPL-2.0
/*
 * thp: a region asked to be backed by transparent huge pages
 * (MADV_HUGEPAGE), first touched on one node and then used by threads on
 * another (--placement misplaced, the default), so NUMA balancing has
 * whole huge pages to migrate: numa_pages_migrated grows by 512 for each
 * one. Reports whether the region really is THP-backed (AnonHugePages in
 * /proc/self/smaps) and says so when THP is off.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"
#include "lib/util.h"
#include "smaps.h"

#define HUGE_SIZE (2ul << 20)
#define LINE 64
#define MAX_THREADS 256
#define MB 1e6

static struct thp_opts {
	struct wl_common com;
	unsigned int interval_ms;
} cfg;
#define O(f) OPT_FIELD(struct thp_opts, f)
static const struct opt_def rows[] = {
	WL_ROW_SIZE(O, "64M", "bytes of the region, rounded up to 2 MiB huge pages"),
	WL_ROW_THREADS(O, "threads using the region, 0: every CPU of --node"),
	WL_ROW_ITERATIONS(O, "30", WL_ROWS_MAX, "rows to run for, one per --interval-ms"),
	WL_ROW_INTERVAL(O, interval_ms, "1000"),
	WL_ROW_PLACEMENT(O, "misplaced", "where the region goes relative to the threads"),
	WL_ROW_NODE(O, "node whose CPUs use the region"),
	WL_ROW_MEM_NODE(O),
	WL_ROW_LOCALITY(O),
	WL_ROW_CHECK(O),
};
static const struct opt_tool tool = {
	"thp [options]",
	"Huge pages touched on one node and used from another.\n",
	rows, ARRAY_SIZE(rows), WL_EPILOG,
};

struct worker {
	char *mem;
	size_t len;
	int node;
	_Atomic uint64_t bytes;
	_Atomic unsigned int passes;
	_Atomic int node_now;
};

static _Atomic int phase;	/* 1 run, 2 stop */
static struct worker workers[MAX_THREADS];

/* One write to every cache line: every page is used, at little cost per pass. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int pass = 0;
	size_t off;

	wl_run_on(w->node);
	while (atomic_load(&phase) == 1) {
		for (off = 0; off < w->len; off += LINE)
			(*(uint64_t *)(w->mem + off))++;
		atomic_fetch_add(&w->bytes, w->len);
		atomic_store(&w->passes, ++pass);
		atomic_store(&w->node_now, w->node >= 0 ? w->node : wl_current_node());
	}
	return NULL;
}

static bool verify(void)
{
	unsigned int t, bad = 0;
	size_t off;

	for (t = 0; t < cfg.com.threads; t++)
		for (off = 0; off < workers[t].len; off += LINE)
			bad += *(uint64_t *)(workers[t].mem + off) != workers[t].passes;
	if (bad)
		fprintf(stderr, "thp: verification failed: %u lines differ from their "
			"thread's pass count\n", bad);
	return !bad;
}

static void thp_mode(char *mode, size_t len)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	if (!f || wl_thp_mode(f, mode, len))
		snprintf(mode, len, "unavailable");
	if (f)
		fclose(f);
}

/* A 2 MiB-aligned region with the scenario's policy, touched where it says. */
static char *make_region(size_t len, const struct wl_where *where,
			 const struct wl_topo *topo)
{
	char *raw = wl_map(len + HUGE_SIZE, false), *mem;

	if (!raw)
		return NULL;
	mem = (char *)(((uintptr_t)raw + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1));
	if (madvise(mem, len, MADV_HUGEPAGE))
		fprintf(stderr, "thp: madvise(MADV_HUGEPAGE) failed (%m); huge pages only "
			"if THP is 'always'\n");
	if (wl_bind_memory(mem, len, cfg.com.placement, where->mem, topo))
		return NULL;
	if (where->touch >= 0)
		wl_run_on(where->touch);
	memset(mem, 0, len);
	wl_run_on(-1);
	return mem;
}

struct state {
	char *mem;
	size_t len;
	struct wl_sample pages, heads;	/* spread pages; one per huge page */
	int *head_before;
	int owner_node[MAX_THREADS];
	long long migrated0;
};

static int init_samples(struct state *st)
{
	unsigned int huge = (unsigned int)(st->len / HUGE_SIZE);

	if (wl_sample_init(&st->pages, cfg.com.samples, 0) ||
	    wl_sample_init(&st->heads, huge, 0))
		return -1;
	wl_sample_add(&st->pages, st->mem, st->len, cfg.com.samples, 0, cfg.com.threads);
	/* a huge page's first 4 KiB page stands for it */
	for (unsigned int h = 0; h < huge; h++)
		wl_sample_add(&st->heads, st->mem + h * HUGE_SIZE, 4096, 1,
			      (unsigned int)((uint64_t)h * cfg.com.threads / huge), 1);
	st->head_before = calloc(huge, sizeof(int));
	if (!st->head_before || wl_sample_query(&st->heads))
		return -1;
	memcpy(st->head_before, st->heads.status, huge * sizeof(int));
	return 0;
}

static double locality(struct state *st)
{
	unsigned int t;

	for (t = 0; t < cfg.com.threads; t++)
		st->owner_node[t] = atomic_load(&workers[t].node_now);
	if (wl_sample_query(&st->pages))
		return NAN;
	return wl_sample_locality(&st->pages, st->owner_node);
}

static unsigned int huge_moved(struct state *st)
{
	if (wl_sample_query(&st->heads))
		return 0;
	return wl_sample_moved(&st->heads, st->head_before);
}

static double monitor(struct state *st, struct wl_out *out)
{
	uint64_t done, last_done = 0;
	struct wl_ticker tick;
	double loc, values[4];
	unsigned int t;

	wl_ticker_start(&tick, cfg.interval_ms);
	while (wl_ticker_next(&tick, cfg.com.iterations)) {
		for (done = 0, t = 0; t < cfg.com.threads; t++)
			done += atomic_load(&workers[t].bytes);
		loc = wl_locality_due(&cfg.com, tick.row) ? locality(st) : NAN;
		values[0] = (double)(done - last_done) / MB;
		values[1] = st->migrated0 < 0 ? NAN :
			    (double)(wl_vmstat("numa_pages_migrated") - st->migrated0);
		values[2] = (double)wl_region_huge_kb(st->mem, st->len);
		values[3] = huge_moved(st);
		wl_out_row(out, wl_ticker_elapsed(&tick), values[0] / wl_ticker_dt(&tick),
			   loc, values);
		last_done = done;
	}
	return wl_ticker_elapsed(&tick);
}

static void assign_parts(struct state *st, const struct wl_where *where)
{
	size_t per = st->len / cfg.com.threads / LINE * LINE;
	unsigned int t;

	for (t = 0; t < cfg.com.threads; t++) {
		workers[t].mem = st->mem + t * per;
		workers[t].len = t == cfg.com.threads - 1 ? st->len - t * per : per;
		workers[t].node = where->run;
		workers[t].node_now = where->run;
	}
}

static void start_threads(pthread_t *tid)
{
	unsigned int t;

	atomic_store(&phase, 1);
	for (t = 0; t < cfg.com.threads; t++) {
		if (pthread_create(&tid[t], NULL, worker_main, &workers[t])) {
			fprintf(stderr, "thp: cannot start thread %u\n", t);
			exit(1);
		}
	}
}

static const char *const columns[] = { "mb", "pages_migrated", "thp_kb", "huge_moved",
				       NULL };

int main(int argc, char **argv)
{
	static struct state st;
	pthread_t tid[MAX_THREADS];
	struct wl_where where;
	struct wl_topo topo;
	struct wl_out out;
	long long thp_kb, thp_kb_end, migrated;
	char mode[32];
	unsigned int t, moved;
	double work_s;
	bool ok;

	wl_common_init(&cfg.com);
	wl_parse_or_exit("thp", &tool, &cfg, argc, argv);
	st.len = (cfg.com.size + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1);
	wl_topo_or_exit("thp", &cfg.com, &topo);
	wl_resolve_or_exit("thp", &cfg.com, &topo, st.len, WL_ONE_NODE);
	if (cfg.com.threads > MAX_THREADS || cfg.com.threads > st.len / HUGE_SIZE) {
		fprintf(stderr, "thp: --threads must be at most one per huge page of --size "
			"(and 256)\n");
		return WL_EXIT_USAGE;
	}
	wl_check_done(&cfg.com);
	wl_register_pid(WL_AGENT_DIR);
	thp_mode(mode, sizeof(mode));
	wl_where(&cfg.com, &topo, 0, &where);
	st.mem = make_region(st.len, &where, &topo);
	if (!st.mem || init_samples(&st)) {
		fprintf(stderr, "thp: cannot set up a region of %zu bytes\n", st.len);
		return 1;
	}
	thp_kb = wl_region_huge_kb(st.mem, st.len);
	if (strcmp(mode, "never") == 0 || thp_kb <= 0)
		fprintf(stderr, "thp: the region is not THP-backed (THP mode %s, "
			"AnonHugePages %lld kB): migrations will be 4 KiB pages\n", mode, thp_kb);
	printf("# thp placement=%s run_node=%d mem_node=%d threads=%u bytes=%zu "
	       "thp_mode=%s thp_kb=%lld\n", wl_placement_names[cfg.com.placement], where.run,
	       where.mem, cfg.com.threads, st.len, mode, thp_kb);
	wl_out_begin(&out, stdout, "MB/s", columns);
	assign_parts(&st, &where);
	if (cfg.com.locality_every)
		wl_out_start_locality(&out, locality(&st));
	st.migrated0 = wl_vmstat("numa_pages_migrated");
	start_threads(tid);
	work_s = monitor(&st, &out);
	atomic_store(&phase, 2);
	for (t = 0; t < cfg.com.threads; t++)
		pthread_join(tid[t], NULL);
	ok = verify();
	migrated = st.migrated0 < 0 ? -1 : wl_vmstat("numa_pages_migrated") - st.migrated0;
	moved = huge_moved(&st);
	/*
	 * When the node has no free huge page at first touch the region starts
	 * as 4 KiB pages and khugepaged collapses it later: backed means backed
	 * at either end of the run.
	 */
	thp_kb_end = wl_region_huge_kb(st.mem, st.len);
	out.interrupted = wl_interrupted;
	wl_out_summary(&out, ok, work_s, "thp_mode=%s thp_backed=%s thp_kb=%lld "
		       "thp_kb_end=%lld huge_pages=%zu huge_moved=%u pages_migrated=%lld",
		       mode, thp_kb > 0 || thp_kb_end > 0 ? "yes" : "no", thp_kb,
		       thp_kb_end, st.len / HUGE_SIZE, moved, migrated);
	return ok && !wl_interrupted ? 0 : 1;
}
