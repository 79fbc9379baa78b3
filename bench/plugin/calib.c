// SPDX-License-Identifier: GPL-2.0
/*
 * calib.c - bnb-plugin-calib: the guest half of the plugin's map check.
 *
 * For node 0, 1, ... in order: allocate a buffer bound to the node, fault
 * it in, check with move_pages() that the kernel really put every page
 * there, then between a BEGIN and an END marker (bnb_marker.h) read one word
 * per cache line of it several times.  The plugin counts which node it
 * attributes those reads to and judges the map; the verdict is on the
 * host side (shm file, bnb-plugin-check), since the plugin cannot write
 * into the guest.  Runs pinned to one CPU so one vCPU sees the whole phase,
 * and real-time so that no other user process runs there meanwhile: the
 * plugin counts every user access of that vCPU in the phase, and the
 * guest agent answering a collector on the same vCPU once put 18 % of a
 * phase's accesses on the other node.
 */
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bnb_marker.h"
#include "lib/err.h"
#include "lib/opt.h"
#include "lib/util.h"

struct calib_opts {
	int cpu;
	int kib;
	size_t bytes;
	int passes;
};

#define O(f) OPT_FIELD(struct calib_opts, f)

static const struct opt_def options[] = {
	{ "cpu", OPT_INT, O(cpu), .min = 0, .max = 1 << 20, .def = "0",
	  .help = "the CPU to run on, pinned, so one vCPU sees the whole phase" },
	{ "kib", OPT_INT, O(kib), .min = 1, .max = 1 << 20, .metavar = "KIB", .def = "2048",
	  .help = "buffer per node, KiB" },
	{ "passes", OPT_INT, O(passes), .min = 1, .max = 1 << 20, .def = "4",
	  .help = "reads of every cache line of the buffer" },
};

static const struct opt_tool tool = {
	.synopsis = "bnb-plugin-calib [options]",
	.about = "The guest half of the TCG plugin's map check: touches memory of each node\n"
		 "in turn between markers, so that the plugin can verify its address map.\n",
	.opts = options,
	.n = ARRAY_SIZE(options),
};

static void parse(int argc, char **argv, struct calib_opts *o)
{
	int first = opt_tool_main(&tool, argc, argv, o, false);

	if (first < 0)
		exit(2);
	if (first != argc) {
		prog_error("no arguments besides options (see --help)");
		exit(2);
	}
	o->bytes = (size_t)o->kib << 10;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "bnb-plugin-calib: cannot pin to CPU %d: %s\n",
			cpu, strerror(errno));
		exit(1);
	}
}

/*
 * SCHED_FIFO at the top priority: while the sweep runs (never blocking,
 * its memory locked and faulted in) no normal task gets this CPU.  A
 * guest without the permission still calibrates, with a warning, since
 * an idle guest rarely runs anything else there.
 */
static void run_alone(void)
{
	struct sched_param sp = { .sched_priority = sched_get_priority_max(SCHED_FIFO) };

	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		fprintf(stderr, "bnb-plugin-calib: warning: cannot run real-time (%s): another task on the CPU may share the phase\n",
			strerror(errno));
}

/* Fault buf in and make sure every page sits on node. */
static void place(char *buf, size_t bytes, int node)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t n = bytes / page;
	void **pages = calloc(n, sizeof(*pages));
	int *status = calloc(n, sizeof(*status));

	if (!pages || !status) {
		fprintf(stderr, "bnb-plugin-calib: out of memory\n");
		exit(1);
	}
	memset(buf, 0x5a, bytes);
	for (size_t i = 0; i < n; i++)
		pages[i] = buf + i * page;
	if (move_pages(0, n, pages, NULL, status, 0)) {
		fprintf(stderr, "bnb-plugin-calib: move_pages: %s\n", strerror(errno));
		exit(1);
	}
	for (size_t i = 0; i < n; i++)
		if (status[i] != node) {
			fprintf(stderr, "bnb-plugin-calib: page %zu of node %d's buffer is on node %d\n",
				i, node, status[i]);
			exit(1);
		}
	free(pages);
	free(status);
}

/* One read per cache line; noinline keeps the loop's state in registers. */
static __attribute__((noinline)) uint64_t sweep(const volatile uint64_t *p,
						 size_t words, int passes)
{
	uint64_t sum = 0;

	bnb_mark_begin();
	for (int pass = 0; pass < passes; pass++)
		for (size_t i = 0; i < words; i += 8)
			sum += p[i];
	bnb_mark_end();
	return sum;
}

int main(int argc, char **argv)
{
	struct calib_opts o = { 0 };
	int nodes;
	uint64_t sum = 0;

	parse(argc, argv, &o);
	if (numa_available() < 0) {
		fprintf(stderr, "bnb-plugin-calib: the guest kernel has no NUMA\n");
		return 1;
	}
	nodes = numa_max_node() + 1;
	pin(o.cpu);
	run_alone();
	bnb_mark_start();
	for (int node = 0; node < nodes; node++) {
		char *buf = numa_alloc_onnode(o.bytes, node);

		if (!buf) {
			fprintf(stderr, "bnb-plugin-calib: cannot allocate on node %d\n", node);
			return 1;
		}
		mlock(buf, o.bytes);
		place(buf, o.bytes, node);
		sum += sweep((const volatile uint64_t *)buf, o.bytes / 8, o.passes);
		numa_free(buf, o.bytes);
	}
	bnb_mark_done();
	fprintf(stderr, "bnb-plugin-calib: %d nodes touched from CPU %d (%zu KiB x %d passes each, sum %llx)\n",
		nodes, o.cpu, o.bytes >> 10, o.passes, (unsigned long long)sum);
	return 0;
}
