// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-spin: compute-bound, cache-resident threads, each pinned to a CPU,
 * each timed on the guest's clock.  The time keeper's tests and figures
 * use it: under deterministic timing N threads on N CPUs must take the
 * time of one, and N threads on one CPU N times as long.
 *
 *   bnb-spin --cpus 0,1 [--iters N]   (--help for the options)
 *
 * One thread per entry of --cpus (a CPU may repeat).  Every thread runs
 * the same N iterations of an integer hash (a few registers, no memory
 * traffic), from a common start.  Prints CSV: thread,cpu,iters,elapsed_s,
 * then "# summary status=ok wall_s=... min_s=... max_s=... spread=..."
 * (spread = (max - min) / max of the threads' elapsed times).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/util.h"

#define MAX_THREADS 64

struct spinner {
	pthread_t tid;
	int cpu;
	double start, end;
	uint64_t result;
};

static struct spinner threads[MAX_THREADS];
static int n_threads;
static uint64_t iters = 50000000;
static pthread_barrier_t ready;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *spin(void *arg)
{
	struct spinner *s = arg;
	uint64_t x = 0x9e3779b97f4a7c15ULL + s->cpu;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "bnb-spin: cannot pin to CPU %d: %s\n", s->cpu, strerror(errno));
		exit(1);
	}
	pthread_barrier_wait(&ready);
	s->start = now_s();
	for (uint64_t i = 0; i < iters; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	s->end = now_s();
	s->result = x;
	return NULL;
}

static int parse_cpus(const struct opt_def *o, const char *list, void *field,
		      char *err, size_t errlen)
{
	const char *p = list;

	(void)o;
	(void)field;
	n_threads = 0;
	while (*p) {
		char *end;
		long cpu;

		errno = 0;
		cpu = strtol(p, &end, 10);
		if (end == p || errno || cpu < 0 || cpu >= CPU_SETSIZE || (*end && *end != ','))
			return errf(err, errlen, "'%s' is not a list of CPU numbers", list);
		if (n_threads == MAX_THREADS)
			return errf(err, errlen, "more than %d CPUs in '%s'", MAX_THREADS, list);
		threads[n_threads++].cpu = cpu;
		p = *end ? end + 1 : end;
	}
	if (!n_threads)
		return errf(err, errlen, "no CPU in '%s'", list);
	return 0;
}

struct spin_opts {
	uint64_t iters;
	bool cpus_given;
};

#define S(f) OPT_FIELD(struct spin_opts, f)

static const struct opt_def options[] = {
	{ "cpus", OPT_FUNC, 0, .parse = parse_cpus, .metavar = "CPU[,CPU...]",
	  .flags = OPTF_REQUIRED,
	  .help = "one thread per entry, pinned to that CPU (a CPU may repeat)" },
	{ "iters", OPT_U64, S(iters), .min = 1, .max = 1000000000000LL, .def = "50000000",
	  .help = "iterations of the hash each thread runs" },
};

static const struct opt_tool tool = {
	.synopsis = "bnb-spin --cpus CPU[,CPU...] [--iters N]",
	.about = "Compute-bound, cache-resident threads, each pinned to a CPU and timed on\n"
		 "the guest's clock, from a common start (the time keeper's tests).\n"
		 "Prints CSV thread,cpu,iters,elapsed_s and a '# summary' line.\n",
	.opts = options,
	.n = ARRAY_SIZE(options),
};

int main(int argc, char **argv)
{
	double t0, lo = 1e300, hi = 0;
	uint64_t sink = 0;

	struct spin_opts o;
	int first = opt_tool_main(&tool, argc, argv, &o, false);

	if (first < 0)
		return 2;
	if (first < argc) {
		fprintf(stderr, "bnb-spin: unexpected argument '%s'\n", argv[first]);
		return 2;
	}
	if (!n_threads) {
		fprintf(stderr, "bnb-spin: --cpus is required\n");
		return 2;
	}
	iters = o.iters;
	pthread_barrier_init(&ready, NULL, n_threads + 1);
	for (int i = 0; i < n_threads; i++)
		pthread_create(&threads[i].tid, NULL, spin, &threads[i]);
	pthread_barrier_wait(&ready);
	t0 = now_s();
	printf("thread,cpu,iters,elapsed_s\n");
	for (int i = 0; i < n_threads; i++) {
		double el;

		pthread_join(threads[i].tid, NULL);
		el = threads[i].end - t0;
		lo = el < lo ? el : lo;
		hi = el > hi ? el : hi;
		sink ^= threads[i].result;
		printf("%d,%d,%llu,%.6f\n", i, threads[i].cpu, (unsigned long long)iters, el);
	}
	printf("# summary status=ok wall_s=%.6f min_s=%.6f max_s=%.6f spread=%.4f check=%llx\n",
	       now_s() - t0, lo, hi, (hi - lo) / hi, (unsigned long long)(sink & 0xffff));
	return 0;
}
