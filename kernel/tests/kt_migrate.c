// SPDX-License-Identifier: GPL-2.0
/*
 * kt-migrate: kernel.numa_balancing_migrate_policy.
 *
 * Policy 1 (migrate on reference) moves a page on its first remote hinting
 * fault, policy 2 (last-node filter) on the second one from the same node.
 * A page written by threads on two nodes ping-pongs under policy 1 far more
 * often than under policy 2 or the 6.1 default.
 */
#include "kt_numa.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#define FIRST_BYTES	(2UL << 20)	/* 512 pages */
#define PINGPONG_BYTES	(256UL << 10)	/* 64 pages */
#define PINGPONG_SECS	4.0

/*
 * Remote hinting faults per page until the pages moved: 1 when the first
 * fault migrates, 2 when it takes two.
 */
static double faults_per_page(int policy, struct kt_remote_run *run)
{
	long remote;

	kt_sysctl_set("numa_balancing_migrate_policy", policy);
	kt_remote_reads(FIRST_BYTES, 95, 30.0, run);
	remote = run->counters[KT_HINT_FAULTS] -
		 run->counters[KT_HINT_FAULTS_LOCAL];
	kt_diag("policy %d: %ld/%ld pages on node 1 after %.1f s, %ld remote faults, %ld migrated",
		policy, run->on_target, run->pages, run->secs, remote,
		run->counters[KT_PAGES_MIGRATED]);
	return (double)remote / run->pages;
}

static void check_first_fault(void)
{
	struct kt_remote_run run;
	double fpp;

	fpp = faults_per_page(1, &run);
	kt_ok(run.on_target >= run.pages * 95 / 100,
	      "policy 1: pages touched on node 0 and read from node 1 end on node 1");
	kt_ok(run.counters[KT_PAGES_MIGRATED] >= run.pages * 9 / 10,
	      "policy 1: numa_pages_migrated grows by the pages moved (%ld)",
	      run.counters[KT_PAGES_MIGRATED]);
	kt_ok(fpp < 1.5, "policy 1: one remote fault per page moves it (%.2f)",
	      fpp);

	fpp = faults_per_page(2, &run);
	kt_ok(run.on_target >= run.pages * 95 / 100,
	      "policy 2: pages touched on node 0 and read from node 1 end on node 1");
	kt_ok(fpp >= 1.5 && fpp < 3.0,
	      "policy 2: two remote faults per page move it (%.2f)", fpp);
}

struct pinger {
	char *buf;
	int node;
	atomic_bool *stop;
};

static void *ping(void *arg)
{
	struct pinger *p = arg;

	kt_run_on_node(p->node);
	while (!atomic_load(p->stop))
		kt_touch(p->buf, PINGPONG_BYTES);
	return NULL;
}

/* Pages migrated while threads on node 0 and node 1 write the same pages */
static long pingpong(int policy)
{
	atomic_bool stop = false;
	struct pinger p[2];
	pthread_t tid[2];
	long before[KT_NR_COUNTERS], after[KT_NR_COUNTERS];
	char *buf = kt_alloc(PINGPONG_BYTES, false);
	int i;

	kt_sysctl_set("numa_balancing_migrate_policy", policy);
	kt_touch(buf, PINGPONG_BYTES);
	kt_counters(before);
	for (i = 0; i < 2; i++) {
		p[i] = (struct pinger){ .buf = buf, .node = i, .stop = &stop };
		if (pthread_create(&tid[i], NULL, ping, &p[i]))
			kt_bail("pthread_create failed");
	}
	usleep(PINGPONG_SECS * 1e6);
	atomic_store(&stop, true);
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	kt_counters(after);
	munmap(buf, PINGPONG_BYTES);
	for (i = 0; i < KT_NR_COUNTERS; i++)
		after[i] -= before[i];
	kt_diag("policy %d: %ld pages migrated, %ld hint faults (%ld local) in %.0f s of ping-pong on %lu pages",
		policy, after[KT_PAGES_MIGRATED], after[KT_HINT_FAULTS],
		after[KT_HINT_FAULTS_LOCAL], PINGPONG_SECS,
		PINGPONG_BYTES / 4096);
	return after[KT_PAGES_MIGRATED];
}

static void check_pingpong(void)
{
	long pages = PINGPONG_BYTES / 4096, moron, lastnode, dflt;

	/* The same scan rate under every policy: the 6.1 adaptation is off */
	kt_sysctl_set("numa_balancing_scan_period_max_ms", 100);
	moron = pingpong(1);
	lastnode = pingpong(2);
	dflt = pingpong(0);

	kt_ok(moron >= 2 * pages,
	      "ping-pong: policy 1 migrates the shared pages again and again (%ld)",
	      moron);
	kt_ok(moron > 2 * lastnode,
	      "ping-pong: policy 1 migrates more than twice as often as policy 2 (%ld vs %ld)",
	      moron, lastnode);
	kt_ok(moron > 2 * dflt,
	      "ping-pong: policy 1 migrates more than twice as often as policy 0 (%ld vs %ld)",
	      moron, dflt);
}

int main(void)
{
	kt_require_nodes(2);
	kt_fast_scan();
	check_first_fault();
	check_pingpong();
	return kt_done();
}
