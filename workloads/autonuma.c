// SPDX-License-Identifier: GPL-2.0
/*
 * autonuma: the autonuma-benchmark programs numa01, numa01_THREAD_ALLOC,
 * numa02 and numa02_SMT, with their HARD_BIND and INVERSE_BIND variants,
 * written from their published description (autonuma.h says what each
 * does). Memory is zeroed with memset as upstream does, so the guest CPU's
 * string instructions are what is measured.
 *
 * SIZE, the thread count and the pass counts are options, so that a run
 * fits a small guest; left alone, threads and passes are upstream's. The
 * headline figure is the elapsed time of the whole program (work_s, what
 * MMTests reports), counted from before the buffers are allocated to the
 * moment the last thread finished. The rows in between are progress: MB
 * zeroed per interval, counted after every memset.
 */
#include <limits.h>
#include <math.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "autonuma.h"
#include "common.h"
#include "smaps.h"
#include "lib/util.h"

#define MB 1e6
#define LOCALITY_PAGES 32
#define MAX_SLOTS (2 * AN_MAX_THREADS + 1)	/* numa02's main thread: the last */

static struct autonuma_opts {
	struct wl_common com;
	int test;			/* enum an_test */
	unsigned int passes, interval_ms;
	uint64_t align;			/* the buffers' start boundary; 0: malloc's */
	bool first_touch, inverse_both;
} cfg;

/* Sizes that give a run of minutes in a 2-vCPU TCG guest (README). */
static const uint64_t default_size[] = {
	[AN_NUMA01] = 32ull << 20, [AN_NUMA01_THREAD_ALLOC] = 4ull << 20,
	[AN_NUMA02] = 16ull << 20, [AN_NUMA02_SMT] = 16ull << 20,
};

#define O(f) OPT_FIELD(struct autonuma_opts, f)
static const struct opt_def rows[] = {
	{ "test", OPT_CHOICE, O(test), .choices = AN_TEST_CHOICES, .def = "numa01",
	  .help = "which program" },
	WL_ROW_SIZE(O, "0", "SIZE: each numa01 process's buffer, numa02's one buffer; "
		    "0: the test's default (numa01 32M, THREAD_ALLOC 4M, numa02 16M)"),
	WL_ROW_THREADS(O, "THREADS per process; 0: upstream's ncpus/2 (numa02: ncpus)"),
	{ "passes", OPT_INT, O(passes), .min = 0, .max = INT_MAX, .def = "0",
	  .help = "zeroing passes per thread; 0: upstream's (numa01 50, THREAD_ALLOC 1000, "
		  "numa02 800)" },
	WL_ROW_PLACEMENT(O, "free", "free = as upstream builds it by default, local = HARD_BIND, "
			 "remote = INVERSE_BIND"),
	{ "first-touch", OPT_FLAG, O(first_touch),
	  .help = "plain numa01: place the opening zeroing by first touch, not on node 0 as "
		  "upstream's NO_BIND_FORCE_SAME_NODE build" },
	{ "inverse-both", OPT_FLAG, O(inverse_both),
	  .help = "numa01 INVERSE_BIND: swap both processes' memory halves, not only the "
		  "child's as upstream's build" },
	{ "align", OPT_SIZE, O(align), .min = 0, .max = 1ull << 30, .def = "2M",
	  .help = "start each buffer on this boundary, a power of two (default a huge page), "
		  "so that a buffer of MiB is as huge-page backed as upstream's of GiB; "
		  "0: where malloc puts it, as upstream" },
	WL_ROW_INTERVAL(O, interval_ms, "1000"),
	WL_ROW_CHECK(O),
};
static const struct opt_tool tool = {
	"autonuma [options]",
	"The autonuma-benchmark programs (numa01, numa01_THREAD_ALLOC, numa02, numa02_SMT).\n",
	rows, ARRAY_SIZE(rows), WL_EPILOG,
};

/* One thread's progress, in memory shared by both numa01 processes. */
struct slot {
	_Atomic uint64_t bytes;
	double end;			/* wl_now() when it finished */
	unsigned int local, present;	/* its pages' locality at the end */
	unsigned int node_moves;	/* passes that began on another node than the last */
	char pad[64 - sizeof(uint64_t) - sizeof(double) - 3 * sizeof(unsigned int)];
};

struct control {
	_Atomic unsigned int done;	/* threads finished */
	_Atomic int stop;		/* interrupted: stop between passes */
	_Atomic long long huge_kb;	/* AnonHugePages of the buffers at the end */
	struct slot slot[MAX_SLOTS];
};

struct worker {
	const struct an_plan *plan;
	struct control *ctl;
	char *buf;			/* its process's buffer */
	unsigned int index;		/* in its process */
	struct slot *slot;
};

static struct an_plan plan;
static struct control *ctl;
static double t0;

static struct bitmask *node_range(unsigned int first, unsigned int end)
{
	struct bitmask *mask = numa_allocate_nodemask();
	unsigned int n;

	for (n = first; n < end; n++)
		numa_bitmask_setbit(mask, n);
	return mask;
}

/* HARD_BIND's bind(): CPUs and memory of nodes [first, end) only. */
static int bind_nodes(unsigned int first, unsigned int end)
{
	struct bitmask *mask = node_range(first, end);

	numa_bind(mask);
	numa_bitmask_free(mask);
	return 0;
}

/* numa01's bind: CPUs of one node range, memory of another (INVERSE_BIND). */
static void bind_cpus_mem(const unsigned int cpu[2], const unsigned int mem[2])
{
	struct bitmask *cpus = node_range(cpu[0], cpu[1]);
	struct bitmask *mems = node_range(mem[0], mem[1]);

	numa_run_on_node_mask(cpus);
	numa_set_membind(mems);
	numa_bitmask_free(cpus);
	numa_bitmask_free(mems);
}

/* Fraction of a sample of [p, p + len) on the node this thread runs on. */
static void sample_locality(struct slot *slot, const char *p, uint64_t len)
{
	struct wl_sample s;
	int node = wl_current_node();

	if (wl_sample_init(&s, LOCALITY_PAGES, 0))
		return;
	wl_sample_add(&s, p, len, LOCALITY_PAGES, 0, 1);
	if (!wl_sample_query(&s))
		wl_sample_count(&s, &node, &slot->local, &slot->present);
	wl_sample_free(&s);
}

static void zero(struct slot *slot, char *p, uint64_t len)
{
	memset(p, 0, len);
	atomic_fetch_add_explicit(&slot->bytes, len, memory_order_relaxed);
}

/*
 * numa01's opening zeroing of the whole buffer; upstream's
 * NO_BIND_FORCE_SAME_NODE binds this thread's memory to one node for it
 * and returns it to MPOL_DEFAULT right after.
 */
static void zero_opening(struct worker *w)
{
	const struct an_plan *p = w->plan;
	struct bitmask *mask;

	if (p->opening_node < 0) {
		zero(w->slot, w->buf, p->size);
		return;
	}
	mask = node_range(p->opening_node, p->opening_node + 1);
	numa_set_membind(mask);
	numa_bitmask_free(mask);
	zero(w->slot, w->buf, p->size);
	if (set_mempolicy(MPOL_DEFAULT, NULL, 0))
		perror("autonuma: set_mempolicy");
}

/*
 * The node this thread runs on now. Looked at between passes, so a move
 * there and back within one pass goes unseen: node_moves is a lower bound
 * of how often the scheduler moved the thread between nodes.
 */
static int node_now(void)
{
	int cpu = sched_getcpu();

	return cpu < 0 ? -1 : numa_node_of_cpu(cpu);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct an_plan *p = w->plan;
	char *mine = w->buf + an_thread_offset(p, w->index);
	int node = an_thread_node(p, w->index), last, now;
	unsigned int pass;

	if (node >= 0)
		bind_nodes(node, node + 1);
	if (an_is_numa01(p))
		zero_opening(w);
	last = node_now();
	for (pass = 0; pass < p->passes && !atomic_load(&w->ctl->stop); pass++) {
		zero(w->slot, mine, p->thread_size);
		now = node_now();
		w->slot->node_moves += now != last;
		last = now;
	}
	w->slot->end = wl_now();
	sample_locality(w->slot, mine, p->thread_size);
	atomic_fetch_add(&w->ctl->done, 1);
	return NULL;
}

/* Start the threads of process @proc on @buf and wait for them. */
static int run_threads(unsigned int proc, char *buf)
{
	static pthread_t tid[AN_MAX_THREADS];
	static struct worker w[AN_MAX_THREADS];
	unsigned int i;

	for (i = 0; i < plan.threads; i++) {
		w[i] = (struct worker){ &plan, ctl, buf, i, &ctl->slot[proc * plan.threads + i] };
		if (pthread_create(&tid[i], NULL, worker_main, &w[i])) {
			fprintf(stderr, "autonuma: cannot start thread %u\n", i);
			atomic_store(&ctl->stop, 1);
			atomic_fetch_add(&ctl->done, plan.threads - i);
			break;
		}
	}
	while (i--)
		pthread_join(tid[i], NULL);
	return 0;
}

/* numa02: the main thread faults SIZE/N on each node, bound there if asked. */
static void main_fault(char *buf)
{
	struct slot *slot = &ctl->slot[MAX_SLOTS - 1];
	unsigned int n;

	for (n = 0; n < plan.nodes; n++) {
		if (plan.bind != AN_NO_BIND)
			bind_nodes(n, n + 1);
		zero(slot, buf + n * plan.node_size, plan.node_size);
	}
}

/*
 * Upstream mallocs GiB, so the partial huge pages at a buffer's two ends
 * are a few MiB of base pages in thousands of huge ones. A buffer scaled
 * to MiB starts wherever mmap put it, and those ends are a quarter of it:
 * most hinting faults then come from its base pages, one per 4K, where a
 * huge page takes one per 2 MiB (docs/time-scale.md). Aligned, the scaled
 * buffer keeps upstream's share of huge pages.
 */
/*
 * Its own mapping, trimmed to @size from @align: not posix_memalign, which
 * writes its chunk header just below the aligned start, where with THP
 * "always" that write may fault in a huge page of the same mapping, which
 * smaps then counts with the buffer's (10240 of 8192 KiB).
 */
static char *map_aligned(size_t size, size_t align)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len;
	uintptr_t raw, start, end;
	void *map;

	if (align < page)
		align = page;
	size = (size + page - 1) & ~(page - 1);
	len = size + align;
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	raw = (uintptr_t)map;
	start = (raw + align - 1) & ~(uintptr_t)(align - 1);
	end = start + size;
	if (start > raw)
		munmap(map, start - raw);
	if (raw + len > end)
		munmap((void *)end, raw + len - end);
	return (char *)start;
}

static char *alloc_buffer(void)
{
	char *buf = cfg.align ? map_aligned(plan.size, cfg.align) : malloc(plan.size);

	if (!buf)
		fprintf(stderr, "autonuma: cannot allocate %llu bytes\n",
			(unsigned long long)plan.size);
	return buf;
}

/* What of @buf is in huge pages now (smaps), into the run's total. */
static void note_huge(const char *buf)
{
	long long kb = wl_region_huge_kb(buf, plan.size);

	if (kb > 0)
		atomic_fetch_add(&ctl->huge_kb, kb);
}

/* numa01: this process's half of the machine (child 0, parent 1). */
static int run_process(unsigned int proc)
{
	unsigned int cpu[2], mem[2];
	char *buf;
	int rc;

	an_process_nodes(&plan, proc, false, &cpu[0], &cpu[1]);
	an_process_nodes(&plan, proc, true, &mem[0], &mem[1]);
	if (cpu[1] > cpu[0])
		bind_cpus_mem(cpu, mem);
	buf = alloc_buffer();
	if (!buf)
		return -1;
	rc = run_threads(proc, buf);
	note_huge(buf);
	return rc;
}

static uint64_t bytes_done(void)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < MAX_SLOTS; i++)
		sum += atomic_load_explicit(&ctl->slot[i].bytes, memory_order_relaxed);
	return sum;
}

static bool all_done(void)
{
	return atomic_load(&ctl->done) >= plan.processes * plan.threads;
}

/* Rows every --interval-ms until every thread is done; the last one short. */
static void *monitor(void *arg)
{
	struct wl_out *out = arg;
	double last = t0, next = t0, now;
	uint64_t done, last_done = 0;
	double values[1];

	while (!all_done()) {
		next += cfg.interval_ms / 1000.0;
		while (!all_done() && (now = wl_now()) < next) {
			if (wl_interrupted)
				atomic_store(&ctl->stop, 1);
			wl_sleep_until(fmin(next, now + 0.02));
		}
		now = wl_now();
		done = bytes_done();
		values[0] = (double)(done - last_done) / MB;
		if (now > last)
			wl_out_row(out, now - t0, values[0] / (now - last), NAN, values);
		last = now;
		last_done = done;
	}
	return NULL;
}

static unsigned int node_moves(void)
{
	unsigned int i, moves = 0;

	for (i = 0; i < MAX_SLOTS; i++)
		moves += ctl->slot[i].node_moves;
	return moves;
}

static double end_time(void)
{
	double end = t0;
	unsigned int i;

	for (i = 0; i < MAX_SLOTS; i++)
		end = fmax(end, ctl->slot[i].end);
	return end;
}

static double locality_end(void)
{
	unsigned int i, local = 0, present = 0;

	for (i = 0; i < MAX_SLOTS; i++) {
		local += ctl->slot[i].local;
		present += ctl->slot[i].present;
	}
	return present ? (double)local / present : NAN;
}

static int wait_child(pid_t child)
{
	int status;

	if (child <= 0)
		return 0;
	if (waitpid(child, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "autonuma: the child process failed\n");
		return -1;
	}
	return 0;
}

/* Fork (numa01), run this process's part, then the parent reports. */
static bool run(struct wl_out *out)
{
	pthread_t mon;
	pid_t child = 0;
	int rc = 0;
	char *buf;

	fflush(stdout);		/* or the child's exit would repeat it */
	t0 = wl_work_begin();
	if (an_is_numa01(&plan)) {
		child = fork();
		if (child < 0) {
			perror("autonuma: fork");
			return false;
		}
		if (!child) {
			wl_register_pid(WL_AGENT_DIR);
			_exit(run_process(0) ? 1 : 0);
		}
	}
	pthread_create(&mon, NULL, monitor, out);
	if (an_is_numa01(&plan)) {
		rc = run_process(1);
	} else if ((buf = alloc_buffer())) {
		main_fault(buf);
		rc = run_threads(0, buf);
		note_huge(buf);
	} else {
		rc = -1;
	}
	if (rc) {	/* let the monitor end */
		atomic_store(&ctl->stop, 1);
		atomic_store(&ctl->done, plan.processes * plan.threads);
	}
	rc |= wait_child(child);
	pthread_join(mon, NULL);
	return !rc && !atomic_load(&ctl->stop);
}

static uint64_t memory_of(const struct wl_topo *topo, unsigned int first, unsigned int end)
{
	uint64_t sum = 0;
	unsigned int n;

	for (n = first; n < end && n < (unsigned int)topo->nodes; n++)
		sum += topo->mem[n];
	return sum;
}

static void too_big(uint64_t need, uint64_t have, const char *where)
{
	fprintf(stderr, "autonuma: --size %llu needs %.1f MiB on %s, which has %.1f MiB\n",
		(unsigned long long)plan.size, need / 1048576.0, where, have / 1048576.0);
	exit(WL_EXIT_USAGE);
}

/* numa01: the buffers placed on process @i's nodes must fit there. */
static void check_buffers(const struct wl_topo *topo, unsigned int i)
{
	unsigned int first, end, f, e, j;
	uint64_t need = 0, have;

	an_buffer_nodes(&plan, i, &first, &end);
	for (j = 0; j < plan.processes; j++) {
		an_buffer_nodes(&plan, j, &f, &e);
		need += f == first && e == end ? plan.size : 0;
	}
	have = memory_of(topo, first, end);
	if (have >= need)
		return;
	too_big(need, have, end - first == 1 ? "the node the opening pass is bound to" :
		end - first < plan.nodes ? "a process's half of the nodes" : "the system");
}

/* The buffers must fit where they are placed, or in the whole system. */
static void check_memory(const struct wl_topo *topo)
{
	unsigned int i;
	uint64_t have;

	for (i = 0; an_is_numa01(&plan) && i < plan.processes; i++)
		check_buffers(topo, i);
	if (an_is_numa01(&plan))
		return;
	have = memory_of(topo, 0, plan.nodes);
	if (have < plan.size)
		too_big(plan.size, have, "the system");
	for (i = 0; plan.bind != AN_NO_BIND && i < plan.nodes; i++)
		if (topo->mem[i] < plan.node_size)
			too_big(plan.node_size, topo->mem[i], "one node");
}

static enum an_bind bind_of(int placement)
{
	switch (placement) {
	case WL_FREE:
		return AN_NO_BIND;
	case WL_LOCAL:
		return AN_HARD_BIND;
	case WL_REMOTE:
		return AN_INVERSE_BIND;
	}
	fprintf(stderr, "autonuma: --placement %s has no meaning here (free, local or remote)\n",
		wl_placement_names[placement]);
	exit(WL_EXIT_USAGE);
}

static void make_plan(const struct wl_topo *topo)
{
	char err[256];
	uint64_t size = cfg.com.size ? cfg.com.size : default_size[cfg.test];

	if (cfg.align & (cfg.align - 1)) {
		fprintf(stderr, "autonuma: --align %llu is not a power of two\n",
			(unsigned long long)cfg.align);
		exit(WL_EXIT_USAGE);
	}
	if (cfg.align && cfg.align < sizeof(void *)) {
		fprintf(stderr, "autonuma: --align %llu is below a pointer's size\n",
			(unsigned long long)cfg.align);
		exit(WL_EXIT_USAGE);
	}

	if (an_plan_make(&plan, cfg.test, bind_of(cfg.com.placement), (unsigned int)topo->nodes,
			 topo->total_cpus, size, cfg.com.threads, cfg.passes,
			 (cfg.first_touch ? AN_FIRST_TOUCH : 0) | (cfg.inverse_both ? AN_INVERSE_BOTH : 0),
			 err, sizeof(err))) {
		fprintf(stderr, "autonuma: %s\n", err);
		exit(WL_EXIT_USAGE);
	}
	check_memory(topo);
}

/* numa01 INVERSE_BIND: whose memory half is swapped. */
static const char *inverse_name(void)
{
	if (plan.bind != AN_INVERSE_BIND || !an_is_numa01(&plan))
		return "none";
	return plan.inverse_both ? "both" : "child";
}

static const char *const columns[] = { "mb", NULL };

int main(int argc, char **argv)
{
	struct wl_topo topo;
	struct wl_out out;
	double loc;
	bool ok;

	wl_common_init(&cfg.com);
	wl_parse_or_exit("autonuma", &tool, &cfg, argc, argv);
	wl_topo_or_exit("autonuma", &cfg.com, &topo);
	make_plan(&topo);
	wl_check_done(&cfg.com);
	wl_catch_signals();
	ctl = wl_map(sizeof(*ctl), true);
	if (!ctl) {
		fprintf(stderr, "autonuma: cannot map the control page\n");
		return 1;
	}
	wl_register_pid(WL_AGENT_DIR);
	printf("# autonuma test=%s bind=%s processes=%u threads=%u size=%llu thread_size=%llu "
	       "passes=%u bytes_total=%llu opening_node=%d inverse=%s\n",
	       an_test_names[plan.test], an_bind_names[plan.bind], plan.processes, plan.threads,
	       (unsigned long long)plan.size, (unsigned long long)plan.thread_size, plan.passes,
	       (unsigned long long)an_total_bytes(&plan), plan.opening_node, inverse_name());
	wl_out_begin(&out, stdout, "MB/s", columns);
	ok = run(&out);
	loc = locality_end();
	out.loc_end = loc;
	out.interrupted = wl_interrupted;
	wl_out_summary(&out, ok, end_time() - t0, "test=%s bind=%s threads=%u passes=%u "
		       "mb_total=%.1f align=%llu buffer_kb=%llu huge_kb=%lld node_moves=%u",
		       an_test_names[plan.test], an_bind_names[plan.bind],
		       plan.processes * plan.threads, plan.passes, bytes_done() / MB,
		       (unsigned long long)cfg.align,
		       (unsigned long long)(plan.processes * plan.size >> 10),
		       atomic_load(&ctl->huge_kb), node_moves());
	return ok && !wl_interrupted ? 0 : 1;
}
