// SPDX-License-Identifier: GPL-2.0
/*
 * kt-migrate: kernel.numa_balancing_migrate_policy.
 *
 * Policy 1 (migrate on reference) moves a page on its first remote hinting
 * fault, policy 2 (last-node filter) on the second one from the same node.
 * Policy 0 (6.1) also moves a page on a first fault when the page never
 * faulted before; when its last fault was another thread's from node 0,
 * it waits for a second one from node 1, as policy 2 does, where policy 1
 * does not.
 * A page written in turns by threads on two nodes ping-pongs under policy 1
 * far more often than under policy 2 or the 6.1 default.
 */
#include "kt_numa.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define FIRST_BYTES	(2UL << 20)
#define FIRST_PAGES	((long)(FIRST_BYTES / 4096))
#define PINGPONG_BYTES	(256UL << 10)	/* 64 pages */
#define PINGPONG_PAGES		((int)(PINGPONG_BYTES / 4096))
#define PINGPONG_TURNS		10
/* A bound for a hung kernel, not a time budget: a busy host is slow */
#define PINGPONG_MAX_SECS	180.0
#define PINGPONG_MIN_TURNS	4
#define NODE0_FIRST_MAX_SECS	120.0
/* last_cpupid keeps the low 8 bits of the pid */
#define CPUPID_PID_MASK		0xff
#define PID_FF_MAX_FORKS	4096

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

/* Hinting faults taken on pages of another node */
static long remote_faults(void)
{
	return kt_vmstat("numa_hint_faults") -
	       kt_vmstat("numa_hint_faults_local");
}

struct node0_reader {
	char *buf;
	pid_t tid;
	bool done;	/* the pages moved to node 0 */
};

/*
 * On node 0: read pages that are on node 1 until they moved here. Only a
 * remote fault records the faulting CPU in last_cpupid (a local one stops
 * early in mpol_misplaced()), so this leaves node 0 and this thread in it.
 */
static void *read_from_node0(void *arg)
{
	struct node0_reader *r = arg;
	double end = kt_now() + NODE0_FIRST_MAX_SECS;

	r->tid = syscall(SYS_gettid);
	kt_run_on_node(0);
	while (kt_now() < end &&
	       kt_pages_on_node(r->buf, FIRST_BYTES, 0) < FIRST_PAGES * 95 / 100)
		kt_read_pages(r->buf, FIRST_BYTES);
	r->done = kt_now() < end;
	return NULL;
}

/* A tid whose pid bits read as "never faulted" or as the main thread's */
static bool pid_bits_alias(pid_t tid)
{
	return (tid & CPUPID_PID_MASK) == CPUPID_PID_MASK ||
	       (tid & CPUPID_PID_MASK) == (getpid() & CPUPID_PID_MASK);
}

/*
 * Pages whose last hinting fault came from another thread on node 0, read
 * from node 1: remote faults per page until 95 % moved, or -1.
 */
static double faults_after_node0(int policy)
{
	struct node0_reader r;
	pthread_t tid;
	long remote, on_target = 0;
	double end;

	kt_sysctl_set("numa_balancing_migrate_policy", policy);
	kt_run_on_node(1);
	do {
		r = (struct node0_reader){ .buf = kt_alloc(FIRST_BYTES, false) };
		kt_touch(r.buf, FIRST_BYTES);
		if (pthread_create(&tid, NULL, read_from_node0, &r))
			kt_bail("pthread_create failed");
		pthread_join(tid, NULL);
		if (pid_bits_alias(r.tid))
			munmap(r.buf, FIRST_BYTES);
	} while (pid_bits_alias(r.tid));
	if (!r.done) {
		kt_diag("policy %d: the pages did not move to node 0 in %.0f s",
			policy, NODE0_FIRST_MAX_SECS);
		munmap(r.buf, FIRST_BYTES);
		return -1;
	}

	remote = remote_faults();
	end = kt_now() + NODE0_FIRST_MAX_SECS;
	while (kt_now() < end) {
		kt_read_pages(r.buf, FIRST_BYTES);
		on_target = kt_pages_on_node(r.buf, FIRST_BYTES, 1);
		if (on_target >= FIRST_PAGES * 95 / 100)
			break;
	}
	remote = remote_faults() - remote;
	munmap(r.buf, FIRST_BYTES);
	kt_diag("policy %d after a fault from node 0: %ld/%ld pages on node 1, %ld remote faults",
		policy, on_target, FIRST_PAGES, remote);
	if (on_target < FIRST_PAGES * 95 / 100)
		return -1;
	return (double)remote / FIRST_PAGES;
}

static void check_first_fault_after_node0(void)
{
	double onref = faults_after_node0(1);
	double dflt = faults_after_node0(0);

	kt_ok(onref >= 0 && onref < 1.5,
	      "policy 1: one fault from node 1 moves a page another thread last faulted from node 0 (%.2f)",
	      onref);
	kt_ok(dflt >= 1.5,
	      "policy 0: such a page needs a second fault from node 1 (%.2f)",
	      dflt);
}

/*
 * Fork until a child's pid ends in 0xff: returns 0 in that child and its
 * pid in the parent. The other children exit at once.
 */
static pid_t fork_pid_ff(void)
{
	int i;

	for (i = 0; i < PID_FF_MAX_FORKS; i++) {
		pid_t pid = fork();

		if (pid < 0)
			kt_bail("fork failed");
		if (!pid) {
			if ((getpid() & CPUPID_PID_MASK) != CPUPID_PID_MASK)
				_exit(0);
			return 0;
		}
		if ((pid & CPUPID_PID_MASK) == CPUPID_PID_MASK)
			return pid;
		waitpid(pid, NULL, 0);
	}
	kt_bail("no pid ending in 0x%x in %d forks", CPUPID_PID_MASK,
		PID_FF_MAX_FORKS);
}

/*
 * A pid ending in 0xff fills the pid bits of last_cpupid with ones, which
 * is also how a page that never took a hinting fault reads when only the
 * pid bits are looked at. Policy 2 must still see the previous fault.
 */
static void check_pid_ff(void)
{
	struct kt_remote_run run;
	int fds[2];
	pid_t pid;
	ssize_t got;

	kt_sysctl_set("numa_balancing_migrate_policy", 2);
	if (pipe(fds))
		kt_bail("pipe failed");
	fflush(stdout);
	pid = fork_pid_ff();
	if (!pid) {
		close(fds[0]);
		kt_remote_reads(FIRST_BYTES, 95, 20.0, &run);
		_exit(write(fds[1], &run, sizeof(run)) == sizeof(run) ? 0 : 1);
	}
	close(fds[1]);
	got = read(fds[0], &run, sizeof(run));
	close(fds[0]);
	waitpid(pid, NULL, 0);
	if (got != sizeof(run))
		kt_bail("the child with pid %d reported nothing", pid);
	kt_diag("policy 2, pid %d: %ld/%ld pages on node 1 after %.1f s, %ld migrated",
		pid, run.on_target, run.pages, run.secs,
		run.counters[KT_PAGES_MIGRATED]);
	kt_ok(run.on_target >= run.pages * 95 / 100,
	      "policy 2: a process whose pid (%d) ends in 0xff migrates its pages",
	      pid);
}

/*
 * Ping-pong: a thread on node 0 and one on node 1 take turns writing the
 * same pages. A turn lasts until a scan has passed and the pages took their
 * hinting faults, so each page sees faults from alternating nodes: every
 * one of them is remote for policy 1, and none has a previous fault from
 * its own node for policy 2 or the last-node filter of policy 0.
 */
struct pingpong {
	char *buf;
	atomic_int turn;	/* the node whose thread writes now */
	atomic_int turns;	/* turns completed */
	atomic_bool stop;
};

struct pinger {
	struct pingpong *pp;
	int node;
};

static void take_turn(struct pingpong *pp)
{
	long start = kt_vmstat("numa_hint_faults");

	while (!atomic_load(&pp->stop) &&
	       kt_vmstat("numa_hint_faults") - start < PINGPONG_PAGES)
		kt_touch(pp->buf, PINGPONG_BYTES);
	/* One more pass, for pages whose fault came late */
	kt_touch(pp->buf, PINGPONG_BYTES);
}

static void *ping(void *arg)
{
	struct pinger *p = arg;
	struct pingpong *pp = p->pp;

	kt_run_on_node(p->node);
	while (!atomic_load(&pp->stop)) {
		if (atomic_load(&pp->turn) != p->node)
			continue;
		take_turn(pp);
		atomic_fetch_add(&pp->turns, 1);
		atomic_store(&pp->turn, !p->node);
	}
	return NULL;
}

/* Pages migrated per turn under @policy, or -1 if too few turns happened */
static double pingpong(int policy)
{
	struct pingpong pp = { .buf = kt_alloc(PINGPONG_BYTES, false) };
	struct pinger p[2];
	pthread_t tid[2];
	double end = kt_now() + PINGPONG_MAX_SECS;
	long before;
	int i, turns;

	kt_sysctl_set("numa_balancing_migrate_policy", policy);
	kt_touch(pp.buf, PINGPONG_BYTES);
	before = kt_vmstat("numa_pages_migrated");
	for (i = 0; i < 2; i++) {
		p[i] = (struct pinger){ .pp = &pp, .node = i };
		if (pthread_create(&tid[i], NULL, ping, &p[i]))
			kt_bail("pthread_create failed");
	}
	while (atomic_load(&pp.turns) < PINGPONG_TURNS && kt_now() < end)
		usleep(100000);
	atomic_store(&pp.stop, true);
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	turns = atomic_load(&pp.turns);
	before = kt_vmstat("numa_pages_migrated") - before;
	munmap(pp.buf, PINGPONG_BYTES);
	kt_diag("policy %d: %ld pages migrated in %d turns of ping-pong on %d pages",
		policy, before, turns, PINGPONG_PAGES);
	return turns < PINGPONG_MIN_TURNS ? -1 : (double)before / turns;
}

static void check_pingpong(void)
{
	double moron, lastnode, dflt;

	kt_sysctl_set("numa_balancing_scan_period_max_ms", 100);
	moron = pingpong(1);
	lastnode = pingpong(2);
	dflt = pingpong(0);
	kt_ok(moron >= 0 && lastnode >= 0 && dflt >= 0,
	      "ping-pong: each policy completes %d turns in %.0f s",
	      PINGPONG_MIN_TURNS, PINGPONG_MAX_SECS);
	kt_ok(moron >= PINGPONG_PAGES / 2,
	      "ping-pong: policy 1 moves the shared pages on (nearly) every turn (%.1f pages per turn)",
	      moron);
	kt_ok(moron >= 2 * lastnode,
	      "ping-pong: policy 1 migrates at least twice as much as policy 2 (%.1f vs %.1f pages per turn)",
	      moron, lastnode);
	kt_ok(moron >= 2 * dflt,
	      "ping-pong: policy 1 migrates at least twice as much as policy 0 (%.1f vs %.1f pages per turn)",
	      moron, dflt);
}

int main(void)
{
	kt_require_nodes(2);
	kt_fast_scan();
	check_first_fault();
	check_first_fault_after_node0();
	check_pid_ff();
	check_pingpong();
	return kt_done();
}
