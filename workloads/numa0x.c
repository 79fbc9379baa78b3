// SPDX-License-Identifier: GPL-2.0
/*
 * numa01 and numa02: the access patterns of the classic autonuma
 * benchmarks, written from their description; built twice from this file
 * (NUMA0X=1 or 2).
 *
 * numa01: several processes (one per node by default), each with threads
 * that all write the whole of their process's buffer, pass after pass.
 * numa02: one process whose threads, spread over the nodes, each update
 * a private slice of one buffer.
 *
 * --placement local is the HARD_BIND variant (every group's CPUs and
 * memory on the same node, the best case), remote the INVERSE_BIND one
 * (memory on the next node, the worst case); free is the classic unbound
 * run and misplaced first-touches each group's memory on the next node.
 */
#include <pthread.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "lib/util.h"

#ifndef NUMA0X
#error "build with -DNUMA0X=1 or -DNUMA0X=2"
#endif

#define NUMA01 (NUMA0X == 1)
#define MAX_WORKERS 256
#define MB 1e6

#define PROG_NAME (NUMA01 ? "numa01" : "numa02")

static struct numa0x_opts {
	struct wl_common com;
	unsigned int processes, interval_ms;
} cfg;
#define O(f) OPT_FIELD(struct numa0x_opts, f)
static const struct opt_def rows[] = {
	WL_ROW_SIZE(O, NUMA01 ? "48M" : "96M", NUMA01 ? "bytes of buffer per process" :
		    "bytes of buffer, split in one slice per thread"),
	WL_ROW_THREADS(O, NUMA01 ? "threads per process, 0: the CPUs of a node" :
		       "threads, spread over the nodes, 0: every CPU"),
#if NUMA01
	{ "processes", OPT_INT, O(processes), .min = 1, .max = MAX_WORKERS, .def = "2",
	  .help = "processes, each on its own node" },
#endif
	WL_ROW_ITERATIONS(O, "30", WL_ROWS_MAX, "rows to run for, one per --interval-ms"),
	WL_ROW_INTERVAL(O, interval_ms, "1000"),
	/* the classic runs are unbound */
	WL_ROW_PLACEMENT(O, "free", "local = HARD_BIND, remote = INVERSE_BIND, free = unbound"),
	WL_ROW_NODE(O, "node of the first process or thread; the others follow"),
	WL_ROW_MEM_NODE(O),
	WL_ROW_LOCALITY(O),
	WL_ROW_CHECK(O),
};
static const struct opt_tool tool = {
	NUMA01 ? "numa01 [options]" : "numa02 [options]",
	NUMA01 ? "numa01-style: processes whose threads all write their process's buffer.\n" :
		 "numa02-style: threads each updating a private slice of one buffer.\n",
	rows, ARRAY_SIZE(rows), WL_EPILOG,
};

/* One worker's progress, in memory shared with the monitor. */
struct slot {
	_Atomic uint64_t bytes;
	_Atomic unsigned int passes;
	_Atomic int node_now;
	char pad[64 - sizeof(uint64_t) - 2 * sizeof(int)];
};

struct control {
	_Atomic unsigned int ready;
	_Atomic int phase;		/* 0 touch, 1 run, 2 stop */
	struct slot slot[MAX_WORKERS];
};

struct worker {
	struct control *ctl;
	unsigned int id;		/* slot index */
	unsigned int thread;		/* index inside its group */
	char *mem;			/* what this worker writes */
	size_t len;
	struct wl_where where;
	pthread_barrier_t *touched;	/* numa01: the group's threads */
};

static void wait_phase(struct control *ctl, int phase)
{
	while (atomic_load(&ctl->phase) < phase)
		usleep(1000);
}

static void first_touch(struct worker *w)
{
	if (w->where.touch >= 0)
		wl_run_on(w->where.touch);
	if (!NUMA01 || !w->thread)
		memset(w->mem, 0, w->len);
	if (NUMA01)
		pthread_barrier_wait(w->touched);
}

/* numa01 writes the shared buffer; numa02 increments every word of its slice. */
static void one_pass(struct worker *w, unsigned int pass)
{
	uint64_t *word = (uint64_t *)w->mem;
	size_t i, n = w->len / sizeof(*word);

	if (NUMA01) {
		memset(w->mem, (int)(pass & 0xff), w->len);
		return;
	}
	for (i = 0; i < n; i++)
		word[i]++;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct slot *slot = &w->ctl->slot[w->id];
	unsigned int pass = 0;

	first_touch(w);
	atomic_fetch_add(&w->ctl->ready, 1);
	wait_phase(w->ctl, 1);
	wl_run_on(w->where.run);
	while (atomic_load(&w->ctl->phase) == 1) {
		one_pass(w, ++pass);
		atomic_fetch_add(&slot->bytes, w->len);
		atomic_store(&slot->passes, pass);
		atomic_store(&slot->node_now, w->where.run >= 0 ? w->where.run :
			     wl_current_node());
	}
	return NULL;
}

static void start_threads(struct worker *w, pthread_t *tid, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (pthread_create(&tid[i], NULL, worker_main, &w[i])) {
			fprintf(stderr, "%s: cannot start thread %u\n", PROG_NAME, i);
			exit(1);
		}
}

static void join_threads(pthread_t *tid, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
}

struct layout {
	struct control *ctl;
	unsigned int groups, per_group;	/* numa01: processes x threads; numa02: threads x 1 */
	char *mem[MAX_WORKERS];		/* each group's memory */
	size_t len;			/* bytes per group */
	struct wl_where where[MAX_WORKERS];
	pid_t pid[MAX_WORKERS];		/* numa01: the group's process, numa02: 0 */
	struct worker worker[MAX_WORKERS];
	pthread_t tid[MAX_WORKERS];	/* numa02 */
	struct wl_sample sample[MAX_WORKERS];
	int owner_node[MAX_WORKERS];
};

static int map_groups(struct layout *l, const struct wl_topo *topo)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned int g;
	char *all;

	l->len = NUMA01 ? cfg.com.size : cfg.com.size / l->groups / page * page;
	all = wl_map(l->len * l->groups, false);
	if (!all)
		return -1;
	for (g = 0; g < l->groups; g++) {
		wl_where(&cfg.com, topo, g, &l->where[g]);
		l->mem[g] = all + g * l->len;
		l->ctl->slot[g * l->per_group].node_now = l->where[g].run;
		if (wl_bind_memory(l->mem[g], l->len, cfg.com.placement, l->where[g].mem, topo))
			return -1;
	}
	return 0;
}

static void fill_workers(struct layout *l, unsigned int g, pthread_barrier_t *touched)
{
	unsigned int t, id;

	for (t = 0; t < l->per_group; t++) {
		id = g * l->per_group + t;
		l->worker[id] = (struct worker){ l->ctl, id, t, l->mem[g], l->len,
						 l->where[g], touched };
	}
}

/* numa01: one process per group, its threads sharing the group's buffer. */
static void start_processes(struct layout *l)
{
	pthread_barrier_t touched;
	unsigned int g;

	for (g = 0; g < l->groups; g++) {
		l->pid[g] = fork();
		if (l->pid[g] < 0) {
			perror("fork");
			exit(1);
		}
		if (l->pid[g])
			continue;
		wl_register_pid(WL_AGENT_DIR);
		pthread_barrier_init(&touched, NULL, l->per_group);
		fill_workers(l, g, &touched);
		start_threads(&l->worker[g * l->per_group], l->tid, l->per_group);
		join_threads(l->tid, l->per_group);
		_exit(0);
	}
}

static void start_workers(struct layout *l)
{
	unsigned int g;

	if (NUMA01) {
		fflush(stdout);	/* or the children's exit would repeat it */
		start_processes(l);
		return;
	}
	for (g = 0; g < l->groups; g++)
		fill_workers(l, g, NULL);
	start_threads(l->worker, l->tid, l->groups);
}

/* numa01 samples each process's buffer in that process; numa02 its own. */
static int init_samples(struct layout *l)
{
	unsigned int g, per = cfg.com.samples / l->groups ? cfg.com.samples / l->groups : 1;

	for (g = 0; g < l->groups; g++) {
		if (wl_sample_init(&l->sample[g], per, l->pid[g]))
			return -1;
		wl_sample_add(&l->sample[g], l->mem[g], l->len, per, g, 1);
	}
	return 0;
}

static double locality(struct layout *l)
{
	unsigned int g, local = 0, present = 0;

	for (g = 0; g < l->groups; g++) {
		l->owner_node[g] = atomic_load(&l->ctl->slot[g * l->per_group].node_now);
		if (wl_sample_query(&l->sample[g]))
			return NAN;
		wl_sample_count(&l->sample[g], l->owner_node, &local, &present);
	}
	return present ? (double)local / present : NAN;
}

static uint64_t bytes_done(const struct layout *l)
{
	unsigned int i;
	uint64_t sum = 0;

	for (i = 0; i < l->groups * l->per_group; i++)
		sum += atomic_load(&l->ctl->slot[i].bytes);
	return sum;
}

static double monitor(struct layout *l, struct wl_out *out)
{
	struct wl_ticker tick;
	uint64_t done, last_done = 0;
	double loc, values[1];

	while (atomic_load(&l->ctl->ready) < l->groups * l->per_group)
		usleep(1000);
	if (cfg.com.locality_every)
		wl_out_start_locality(out, locality(l));
	wl_ticker_start(&tick, cfg.interval_ms);
	atomic_store(&l->ctl->phase, 1);
	while (wl_ticker_next(&tick, cfg.com.iterations)) {
		done = bytes_done(l);
		loc = wl_locality_due(&cfg.com, tick.row) ? locality(l) : NAN;
		values[0] = (double)(done - last_done) / MB;
		wl_out_row(out, wl_ticker_elapsed(&tick), values[0] / wl_ticker_dt(&tick),
			   loc, values);
		last_done = done;
	}
	atomic_store(&l->ctl->phase, 2);
	return wl_ticker_elapsed(&tick);
}

/* Wait for the workers; numa02 then checks every word counts its passes. */
static bool finish(struct layout *l)
{
	unsigned int g, bad = 0;
	int status;
	size_t i;

	if (NUMA01) {
		for (g = 0; g < l->groups; g++)
			if (waitpid(l->pid[g], &status, 0) < 0 || !WIFEXITED(status) ||
			    WEXITSTATUS(status))
				bad++;
		if (bad)
			fprintf(stderr, "%s: %u worker processes failed\n", PROG_NAME, bad);
		return !bad;
	}
	join_threads(l->tid, l->groups);
	for (g = 0; g < l->groups; g++) {
		const uint64_t *word = (const uint64_t *)l->mem[g];
		unsigned int passes = atomic_load(&l->ctl->slot[g].passes);

		for (i = 0; i < l->len / sizeof(*word); i++)
			bad += word[i] != passes;
	}
	if (bad)
		fprintf(stderr, "%s: verification failed: %u words differ from their "
			"thread's pass count\n", PROG_NAME, bad);
	return !bad;
}

static uint64_t footprint(const struct wl_topo *topo)
{
	unsigned int nodes = 0;
	int n;

	if (!NUMA01)
		return cfg.com.size;
	for (n = 0; n < topo->nodes; n++)
		nodes += topo->present[n];
	/* the processes rotate over the nodes: this many share the fullest */
	return cfg.com.size * ((cfg.processes + nodes - 1) / nodes);
}

static void check_counts(struct layout *l)
{
	unsigned int workers = NUMA01 ? cfg.processes * cfg.com.threads : cfg.com.threads;

	l->groups = NUMA01 ? cfg.processes : cfg.com.threads;
	l->per_group = NUMA01 ? cfg.com.threads : 1;
	if (workers > MAX_WORKERS) {
		fprintf(stderr, "%s: more than 256 workers in all\n", PROG_NAME);
		exit(WL_EXIT_USAGE);
	}
	if (!NUMA01 && cfg.com.size / l->groups < (size_t)sysconf(_SC_PAGESIZE)) {
		fprintf(stderr, "%s: --size must give every thread at least a page\n",
			PROG_NAME);
		exit(WL_EXIT_USAGE);
	}
}

static const char *const columns[] = { "mb", NULL };

int main(int argc, char **argv)
{
	static struct layout l;
	struct wl_topo topo;
	struct wl_out out;
	double work_s;
	bool ok;

	wl_common_init(&cfg.com);
	wl_parse_or_exit(PROG_NAME, &tool, &cfg, argc, argv);
	wl_topo_or_exit(PROG_NAME, &cfg.com, &topo);
	wl_resolve_or_exit(PROG_NAME, &cfg.com, &topo, footprint(&topo),
			   NUMA01 ? WL_PER_NODE : WL_ALL_NODES);
	check_counts(&l);
	wl_check_done(&cfg.com);
	wl_register_pid(WL_AGENT_DIR);
	l.ctl = wl_map(sizeof(*l.ctl), true);
	if (!l.ctl || map_groups(&l, &topo)) {
		fprintf(stderr, "%s: cannot map the buffers\n", PROG_NAME);
		return 1;
	}
	printf("# %s placement=%s groups=%u threads_per_group=%u bytes_per_group=%zu\n",
	       PROG_NAME, wl_placement_names[cfg.com.placement], l.groups, l.per_group, l.len);
	start_workers(&l);
	if (init_samples(&l)) {
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
		return 1;
	}
	wl_out_begin(&out, stdout, "MB/s", columns);
	work_s = monitor(&l, &out);
	ok = finish(&l);
	out.interrupted = wl_interrupted;
	wl_out_summary(&out, ok, work_s, "groups=%u threads_per_group=%u verified=%s",
		       l.groups, l.per_group, NUMA01 ? "n/a" : ok ? "yes" : "no");
	return ok && !wl_interrupted ? 0 : 1;
}
