// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the in-guest kernel tests; see kt.h. */
#include "kt.h"

#include <errno.h>
#include <fcntl.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL

static int nr_tests, nr_failed;

static void vreport(const char *status, const char *directive,
		    const char *fmt, va_list ap)
{
	printf("%s %d - ", status, ++nr_tests);
	vprintf(fmt, ap);
	if (directive)
		printf(" # %s", directive);
	putchar('\n');
	fflush(stdout);
}

void kt_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(cond ? "ok" : "not ok", NULL, fmt, ap);
	va_end(ap);
	if (!cond)
		nr_failed++;
}

void kt_skip(const char *why, const char *fmt, ...)
{
	char directive[256];
	va_list ap;

	snprintf(directive, sizeof(directive), "SKIP %s", why);
	va_start(ap, fmt);
	vreport("ok", directive, fmt, ap);
	va_end(ap);
}

void kt_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

int kt_done(void)
{
	kt_sysctl_restore();
	printf("1..%d\n", nr_tests);
	fflush(stdout);
	return nr_failed ? 1 : 0;
}

void kt_bail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("not ok", NULL, fmt, ap);
	va_end(ap);
	nr_failed++;
	exit(kt_done());
}

/* sysctls */

static int sysctl_path(const char *name, char *path, size_t len)
{
	int n = snprintf(path, len, "/proc/sys/kernel/%s", name);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int kt_sysctl_read(const char *name, long *val)
{
	char path[256], buf[64], *end;
	ssize_t n;
	int fd, err = sysctl_path(name, path, sizeof(path));

	if (err)
		return err;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	errno = 0;
	*val = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

int kt_sysctl_write(const char *name, const char *text)
{
	char path[256];
	ssize_t n;
	int fd, err = sysctl_path(name, path, sizeof(path));

	if (err)
		return err;
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

/* First values replaced by kt_sysctl_set(), put back by kt_sysctl_restore() */
#define MAX_SAVED 32
static struct {
	char name[64];
	long val;
} saved[MAX_SAVED];
static int nr_saved;

static void restore_on_signal(int sig)
{
	kt_sysctl_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void remember(const char *name)
{
	long val;
	int i;

	for (i = 0; i < nr_saved; i++)
		if (!strcmp(saved[i].name, name))
			return;
	if (nr_saved == MAX_SAVED)
		kt_bail("too many sysctls changed (%s)", name);
	if (kt_sysctl_read(name, &val))
		kt_bail("kernel.%s is missing", name);
	if (!nr_saved) {
		signal(SIGINT, restore_on_signal);
		signal(SIGTERM, restore_on_signal);
	}
	snprintf(saved[nr_saved].name, sizeof(saved[0].name), "%s", name);
	saved[nr_saved++].val = val;
}

void kt_sysctl_set(const char *name, long val)
{
	char text[32];
	int err;

	remember(name);
	snprintf(text, sizeof(text), "%ld", val);
	err = kt_sysctl_write(name, text);
	if (err)
		kt_bail("writing %s to kernel.%s: %s", text, name, strerror(-err));
}

/*
 * Backwards, so that a pair like scan_period_min/max, changed in an order
 * that kept min <= max, goes back in an order that keeps it too.
 */
void kt_sysctl_restore(void)
{
	char text[32];

	while (nr_saved > 0) {
		nr_saved--;
		snprintf(text, sizeof(text), "%ld", saved[nr_saved].val);
		kt_sysctl_write(saved[nr_saved].name, text);
	}
}

/* vmstat */

const char *const kt_counter_names[KT_NR_COUNTERS] = {
	[KT_PTE_UPDATES] = "numa_pte_updates",
	[KT_HUGE_PTE_UPDATES] = "numa_huge_pte_updates",
	[KT_HINT_FAULTS] = "numa_hint_faults",
	[KT_HINT_FAULTS_LOCAL] = "numa_hint_faults_local",
	[KT_HUGE_HINT_FAULTS] = "numa_huge_hint_faults",
	[KT_HUGE_HINT_FAULTS_LOCAL] = "numa_huge_hint_faults_local",
	[KT_PAGES_MIGRATED] = "numa_pages_migrated",
	[KT_MIGRATE_RATELIMITED] = "numa_migrate_ratelimited",
	[KT_PTE_SCAN_RATELIMITED] = "numa_pte_scan_ratelimited",
};

static long vmstat_find(FILE *f, const char *name)
{
	char key[64];
	long val;

	rewind(f);
	while (fscanf(f, "%63s %ld", key, &val) == 2)
		if (!strcmp(key, name))
			return val;
	return -1;
}

long kt_vmstat(const char *name)
{
	FILE *f = fopen("/proc/vmstat", "r");
	long val;

	if (!f)
		kt_bail("cannot open /proc/vmstat: %s", strerror(errno));
	val = vmstat_find(f, name);
	fclose(f);
	return val;
}

void kt_counters(long out[KT_NR_COUNTERS])
{
	FILE *f = fopen("/proc/vmstat", "r");
	int i;

	if (!f)
		kt_bail("cannot open /proc/vmstat: %s", strerror(errno));
	for (i = 0; i < KT_NR_COUNTERS; i++) {
		out[i] = vmstat_find(f, kt_counter_names[i]);
		if (out[i] < 0)
			kt_bail("/proc/vmstat has no %s", kt_counter_names[i]);
	}
	fclose(f);
}

/* /proc/self/sched */

long kt_sched_field(const char *name)
{
	FILE *f = fopen("/proc/self/sched", "r");
	size_t len = strlen(name);
	char line[256];
	bool found = false;
	long val = 0;

	if (!f)
		kt_bail("cannot open /proc/self/sched");
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, name, len) && colon &&
		    (line[len] == ' ' || line[len] == ':'))
			found = sscanf(colon + 1, "%ld", &val) == 1;
	}
	fclose(f);
	if (!found)
		kt_bail("no %s in /proc/self/sched", name);
	return val;
}

/* children */

pid_t kt_fork_reporter(int *fd)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		kt_bail("pipe failed");
	pid = fork();
	if (pid < 0)
		kt_bail("fork failed");
	close(fds[pid ? 1 : 0]);
	*fd = fds[pid ? 0 : 1];
	return pid;
}

bool kt_child_report(pid_t pid, int fd, void *buf, size_t len)
{
	bool got = read(fd, buf, len) == (ssize_t)len;
	int status;

	close(fd);
	if (waitpid(pid, &status, 0) != pid)
		return false;
	return got && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* placement */

void kt_require_nodes(int nr)
{
	int node;

	if (numa_available() < 0 || numa_num_configured_nodes() < nr) {
		kt_skip("needs a guest with 2 NUMA nodes", "NUMA topology");
		exit(kt_done());
	}
	for (node = 0; node < nr; node++) {
		struct bitmask *cpus = numa_allocate_cpumask();
		bool has_cpu = numa_node_to_cpus(node, cpus) == 0 &&
			       numa_bitmask_weight(cpus) > 0;

		numa_free_cpumask(cpus);
		if (!has_cpu) {
			kt_skip("needs a CPU on each node", "NUMA topology");
			exit(kt_done());
		}
	}
}

void kt_run_on_node(int node)
{
	if (numa_run_on_node(node))
		kt_bail("cannot run on node %d: %s", node, strerror(errno));
	/* Let the scheduler move us before anything is touched */
	sched_yield();
}

void *kt_alloc(size_t bytes, bool thp)
{
	void *buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (buf == MAP_FAILED)
		kt_bail("mmap of %zu bytes: %s", bytes, strerror(errno));
	/*
	 * prctl rather than madvise(MADV_NOHUGEPAGE): a tinyconfig kernel
	 * may lack the madvise syscall. It covers the whole process, which
	 * is what the 4 kB tests want anyway.
	 */
	if (prctl(PR_SET_THP_DISABLE, !thp, 0, 0, 0))
		kt_bail("prctl(PR_SET_THP_DISABLE): %s", strerror(errno));
	return buf;
}

void kt_touch(void *buf, size_t bytes)
{
	for (size_t off = 0; off < bytes; off += PAGE)
		((volatile char *)buf)[off] = (char)off;
}

void kt_drain_lru(void)
{
	void *p = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	/* unmap_region() starts with lru_add_drain(), for this CPU */
	if (p == MAP_FAILED || munmap(p, PAGE))
		kt_bail("mmap/munmap of a scratch page: %s", strerror(errno));
}

unsigned long kt_read_pages(const void *buf, size_t bytes)
{
	unsigned long sum = 0;

	for (size_t off = 0; off < bytes; off += PAGE)
		sum += ((const volatile char *)buf)[off];
	return sum;
}

long kt_pages_on_node(void *buf, size_t bytes, int node)
{
	enum { BATCH = 512 };
	void *pages[BATCH];
	int status[BATCH];
	size_t nr = bytes / PAGE, done = 0;
	long on_node = 0;

	while (done < nr) {
		size_t n = nr - done < BATCH ? nr - done : BATCH;

		for (size_t i = 0; i < n; i++)
			pages[i] = (char *)buf + (done + i) * PAGE;
		if (numa_move_pages(0, n, pages, NULL, status, 0))
			kt_bail("move_pages query: %s", strerror(errno));
		for (size_t i = 0; i < n; i++)
			on_node += status[i] == node;
		done += n;
	}
	return on_node;
}

static void *sleeper(void *arg)
{
	for (;;)
		pause();
	return arg;
}

void kt_second_thread(void)
{
	pthread_t tid;

	if (pthread_create(&tid, NULL, sleeper, NULL))
		kt_bail("pthread_create failed");
	pthread_detach(tid);
}

double kt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void kt_spin(double secs)
{
	double end = kt_now() + secs;

	while (kt_now() < end)
		;
}
