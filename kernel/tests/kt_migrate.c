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
#define PINGPONG_MAX_SECS	8.0
#define PINGPONG_REMOTE_FAULTS	256

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

struct pingpong_run {
	long migrated;
	long remote;	/* remote hinting faults */
};

/*
 * Threads on node 0 and node 1 write the same pages until enough remote
 * hinting faults happened (or time is up). How many faults a run sees
 * depends on how busy the host is, so the policies are compared by the
 * share of remote faults that migrated.
 */
static double pingpong(int policy)
{
	atomic_bool stop = false;
	struct pinger p[2];
	pthread_t tid[2];
	long before[KT_NR_COUNTERS], now[KT_NR_COUNTERS];
	struct pingpong_run run = { 0 };
	char *buf = kt_alloc(PINGPONG_BYTES, false);
	double end = kt_now() + PINGPONG_MAX_SECS;
	int i;

	kt_sysctl_set("numa_balancing_migrate_policy", policy);
	kt_touch(buf, PINGPONG_BYTES);
	kt_counters(before);
	for (i = 0; i < 2; i++) {
		p[i] = (struct pinger){ .buf = buf, .node = i, .stop = &stop };
		if (pthread_create(&tid[i], NULL, ping, &p[i]))
			kt_bail("pthread_create failed");
	}
	while (run.remote < PINGPONG_REMOTE_FAULTS && kt_now() < end) {
		usleep(200000);
		kt_counters(now);
		run.remote = now[KT_HINT_FAULTS] - before[KT_HINT_FAULTS] -
			     (now[KT_HINT_FAULTS_LOCAL] - before[KT_HINT_FAULTS_LOCAL]);
		run.migrated = now[KT_PAGES_MIGRATED] - before[KT_PAGES_MIGRATED];
	}
	atomic_store(&stop, true);
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	munmap(buf, PINGPONG_BYTES);
	kt_diag("policy %d: %ld pages migrated on %ld remote hint faults, ping-pong on %lu pages",
		policy, run.migrated, run.remote, PINGPONG_BYTES / 4096);
	if (run.remote < PINGPONG_REMOTE_FAULTS / 4)
		return -1;
	return (double)run.migrated / run.remote;
}

static void check_pingpong(void)
{
	double moron, lastnode, dflt;

	/* The same scan rate under every policy: the 6.1 adaptation is off */
	kt_sysctl_set("numa_balancing_scan_period_max_ms", 100);
	moron = pingpong(1);
	lastnode = pingpong(2);
	dflt = pingpong(0);
	if (moron < 0 || lastnode < 0 || dflt < 0) {
		kt_skip("too few remote faults: host too busy", "ping-pong ordering");
		return;
	}

	kt_ok(moron >= 0.9,
	      "ping-pong: policy 1 migrates on (nearly) every remote fault (%.2f)",
	      moron);
	kt_ok(moron >= 1.5 * lastnode,
	      "ping-pong: policy 1 migrates at least 1.5 times as often as policy 2 (%.2f vs %.2f per remote fault)",
	      moron, lastnode);
	kt_ok(moron > dflt,
	      "ping-pong: policy 1 migrates more often than policy 0 (%.2f vs %.2f per remote fault)",
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
