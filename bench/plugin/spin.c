// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-spin: compute-bound, cache-resident threads, each pinned to a CPU,
 * each timed on the guest's clock.  The time keeper's tests and figures
 * use it: under deterministic timing N threads on N CPUs must take the
 * time of one, and N threads on one CPU N times as long.
 *
 *   bnb-spin --cpus 0,1 [--iters N]
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

static int parse_cpus(const char *list)
{
	const char *p = list;

	while (*p) {
		char *end;
		long cpu = strtol(p, &end, 10);

		if (end == p || cpu < 0 || cpu >= CPU_SETSIZE || n_threads == MAX_THREADS ||
		    (*end && *end != ','))
			return -1;
		threads[n_threads++].cpu = cpu;
		p = *end ? end + 1 : end;
	}
	return n_threads ? 0 : -1;
}

static void usage(void)
{
	fprintf(stderr, "usage: bnb-spin --cpus CPU[,CPU...] [--iters N]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	double t0, lo = 1e300, hi = 0;
	uint64_t sink = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cpus") && i + 1 < argc) {
			if (parse_cpus(argv[++i]))
				usage();
		} else if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
			char *end;

			iters = strtoull(argv[++i], &end, 10);
			if (*end || !iters)
				usage();
		} else {
			usage();
		}
	}
	if (!n_threads)
		usage();
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
