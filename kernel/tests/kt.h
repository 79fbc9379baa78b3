/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the in-guest kernel tests (kt-*): TAP output, the
 * kernel.* sysctls of the balancenuma series, /proc/vmstat counters and
 * NUMA placement of threads and pages.
 */
#ifndef KT_H
#define KT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* TAP: numbered results on stdout, the plan printed by kt_done() */
void kt_ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void kt_skip(const char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void kt_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the plan, restore the sysctls, exit 0 if every test passed */
int kt_done(void);
/* Give up on the whole program: one "not ok", the plan, exit 1 */
void kt_bail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * kernel.NAME under /proc/sys/kernel. kt_sysctl_write() returns 0 or
 * -errno of the write. kt_sysctl_set() remembers the first value it
 * replaces, so kt_done() (or a signal) puts it back; it bails on failure.
 */
int kt_sysctl_read(const char *name, long *val);
int kt_sysctl_write(const char *name, const char *text);
void kt_sysctl_set(const char *name, long val);
void kt_sysctl_restore(void);

/* One /proc/vmstat counter, or -1 when it does not exist */
long kt_vmstat(const char *name);

/* The balancing counters, read together */
enum kt_counter {
	KT_PTE_UPDATES,
	KT_HUGE_PTE_UPDATES,
	KT_HINT_FAULTS,
	KT_HINT_FAULTS_LOCAL,
	KT_HUGE_HINT_FAULTS,
	KT_HUGE_HINT_FAULTS_LOCAL,
	KT_PAGES_MIGRATED,
	KT_MIGRATE_RATELIMITED,
	KT_PTE_SCAN_RATELIMITED,
	KT_NR_COUNTERS,
};
extern const char *const kt_counter_names[KT_NR_COUNTERS];
void kt_counters(long out[KT_NR_COUNTERS]);

/* The value of @name in /proc/self/sched (negative ones too); bails if absent */
long kt_sched_field(const char *name);

/*
 * Fork a child that reports back through a pipe: 0 in the child, with
 * *fd the pipe's write end; the child's pid in the parent, with *fd its
 * read end. kt_child_report() reads @len bytes of report, reaps the child
 * and says whether both worked and the child exited 0.
 */
pid_t kt_fork_reporter(int *fd);
bool kt_child_report(pid_t pid, int fd, void *buf, size_t len);

/* Needs two nodes with a CPU each; skips the whole program otherwise */
void kt_require_nodes(int nr);
/* Run the calling thread on the CPUs of @node only; bails on failure */
void kt_run_on_node(int node);

/* Anonymous memory, not yet touched; THP off for the process unless @thp */
void *kt_alloc(size_t bytes, bool thp);
void kt_touch(void *buf, size_t bytes);
/*
 * Put the pages this CPU faulted in last on the LRU. Linux keeps up to 15
 * new pages in a per-CPU batch with a reference of its own (folio_add_lru())
 * and the NUMA scanner skips a private page with a second reference
 * (change_pte_range(): "skip shared copy-on-write pages"), so until that
 * CPU drains its batch, which on an idle vCPU may be never, they are not
 * marked, do not fault and do not move.
 */
void kt_drain_lru(void);
/* Sum one word per page, so that every page is read */
unsigned long kt_read_pages(const void *buf, size_t bytes);
/* How many of the pages of @buf are on @node */
long kt_pages_on_node(void *buf, size_t bytes, int node);

/*
 * Start a thread that only sleeps. change_prot_numa() does not mark pages
 * that are already on the node a single-threaded process runs on, so tests
 * that want hinting faults on local pages need a second user of the mm.
 */
void kt_second_thread(void);

double kt_now(void);
/* Keep the CPU busy for @secs without touching memory */
void kt_spin(double secs);

#endif
