// SPDX-License-Identifier: GPL-2.0
/*
 * plugin.c - bnb-plugin.so: emulated NUMA latency and true access counts.
 *
 * For every guest memory access the vCPU's thread finds the memory node
 * of the address, counts the access in its own cache-line-padded counters
 * in the shared-memory file (bnb_plugin_shm.h), and, when the access is a
 * model-cache miss to another node, busy-waits on the host clock for
 * base * (distance - 10) / 10 (delay.h says what base is).  Nothing on
 * that path locks or enters the kernel.  Marker instructions (bnb_marker.h) drive the map check.
 * Under deterministic timing the time keeper (timing.h) runs beside it,
 * and with the model on (model=CLASS) a miss instead costs the machine model's stall
 * (model.h), charged to the vCPU's local time: no waiting on the host.
 *
 * Built twice (qemu.h): against the plugin API of the project's QEMU
 * (build/qemu/include/qemu-plugin.h, version 8), and as
 * bnb-plugin-qemu72.so for Debian's QEMU 7.2 (version 1, no time keeper).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "qemu.h"
#include "addrmap.h"
#include "args.h"
#include "clock.h"
#include "delay.h"
#include "ksym_qemu.h"
#include "mapcheck.h"
#include "timing.h"
#include "xlate.h"
#include "lib/err.h"
#include "model/cache.h"
#include "model/model.h"
#include "bnb_marker.h"

#define USER_VADDR_END	(1ULL << 47)	/* x86-64 lower canonical half */

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct vcpu {
	struct bnb_shm_vcpu *ctr;
	struct bnb_cache cache;
	struct bnb_delay delay;
	int node;
	int calib_node;			/* node whose map-check phase runs, or -1 */
	uint64_t calib_total;
	uint64_t calib_on;
	struct bnb_xlate xlate;		/* recent user pages' physical ones */
	uint64_t last_line;		/* see on_access(); NO_LINE: none */
	int last_node;
} __attribute__((aligned(64)));

#define NO_LINE		UINT64_MAX

static struct bnb_plugin_args args;
static struct bnb_addrmap amap;
static struct bnb_shm_header *shm;
static size_t shm_bytes;
static struct vcpu *vcpus;
static unsigned int n_vcpus;
static bool use_cache;
static bool use_model;		/* misses charge the model's stall (model.h) */
static struct bnb_model model;
static bool delay_live;		/* remote misses pay; see enum bnb_delay_mode */
static uint32_t delay_mult[BNB_SHM_MAX_NODES][BNB_SHM_MAX_NODES];
static uint64_t ns_per_tick_q16;	/* host ns per tick, 16 fraction bits */
static uint64_t fixed_ticks, cap_ticks;
static uint64_t read_cost;	/* ticks a spin costs beyond what it measures */

static qemu_plugin_id_t plugin_id;
static bool instrument_mem;	/* memory callbacks in new translations */
static bool reset_asked;

static struct bnb_mapcheck mapcheck;
static pthread_mutex_t mapcheck_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t work_marks;		/* BNB_MARK_WORK seen; under mapcheck_lock */
static uint64_t work_ends;		/* BNB_MARK_WORK_END seen; the same */
static uint32_t acct_state;		/* BNB_ACCT_*; under mapcheck_lock */

/* ---- shared-memory file ------------------------------------------------ */

static void shm_write_begin(void)
{
	__atomic_add_fetch(&shm->seq, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void shm_write_end(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_add_fetch(&shm->seq, 1, __ATOMIC_RELAXED);
}

static void *map_file(const char *path, size_t bytes)
{
	void *p;
	int fd;

	if (!*path)
		return mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return MAP_FAILED;
	/*
	 * Allocated, not sparse: on a full disk a store into a hole would be
	 * a SIGBUS in QEMU and in every reader, long after the run started.
	 */
	errno = posix_fallocate(fd, 0, bytes);
	if (errno) {
		close(fd);
		return MAP_FAILED;
	}
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return p;
}

static uint32_t shm_flags(void)
{
	return (args.count ? BNB_SHM_F_COUNT : 0) |
	       (delay_live ? BNB_SHM_F_DELAY : 0) |
	       (use_cache ? BNB_SHM_F_CACHE : 0) |
	       (args.timekeeper ? BNB_SHM_F_TIMEKEEPER : 0) |
	       (use_model ? BNB_SHM_F_MODEL : 0);
}

static void shm_model_params(void)
{
	const struct bnb_model_params *p = &model.p;

	snprintf(shm->model_name, sizeof(shm->model_name), "%s",
		 bnb_machine_class(&args.machine)->name);
	shm->model_node_mbs = p->node_bandwidth_mbs;
	shm->model_link_mbs = p->link_bandwidth_mbs;
	shm->model_window_ps = p->window_ps;
	shm->model_hw_cpus = p->cpus_per_node;
	shm->model_mlp = p->mlp;
	shm->model_lat_from_dist = 1;
	for (unsigned int i = 0; i < args.n_nodes; i++)
		for (unsigned int j = 0; j < args.n_nodes; j++)
			if (p->lat_ps[i][j] != bnb_model_lat_ps(p->lat_ps[i][i], args.dist[i][j]))
				shm->model_lat_from_dist = 0;	/* a table's, or a class's */
	for (unsigned int i = 0; i < args.n_nodes && i < 16; i++)
		for (unsigned int j = 0; j < args.n_nodes && j < 16; j++)
			shm->model_lat_ns[i][j] = p->lat_ps[i][j] / 1000;
}

static int shm_create(char *err, size_t errlen)
{
	struct timespec now;

	shm_bytes = bnb_shm_size(n_vcpus);
	shm = map_file(args.shm_path, shm_bytes);
	if (shm == MAP_FAILED) {
		snprintf(err, errlen, "bnb-plugin: shm=%s: %s", args.shm_path,
			 strerror(errno));
		return -1;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	shm->version = BNB_SHM_VERSION;
	shm->header_size = BNB_SHM_HEADER_SIZE;
	shm->vcpu_stride = sizeof(struct bnb_shm_vcpu);
	shm->n_vcpus = n_vcpus;
	shm->n_nodes = args.n_nodes;
	shm->flags = shm_flags();
	shm->generation = (uint64_t)now.tv_sec * 1000000000ULL + now.tv_nsec;
	shm->state = BNB_SHM_STARTING;
	shm->map_status = BNB_MAP_UNCHECKED;
	shm->map_threshold_ppm = args.map_min_pct * 10000;
	shm->base_ns = args.base_ns;
	shm->cache_bytes = use_cache ? args.cache_kib << 10 : 0;
	shm->cache_ways = args.cache_ways;
	shm->qemu_pid = getpid();
	for (unsigned int i = 0; i < n_vcpus; i++)
		shm->vcpu_node[i] = vcpus[i].node;
	for (unsigned int i = 0; i < args.n_nodes; i++)
		for (unsigned int j = 0; j < args.n_nodes; j++)
			shm->distance[i][j] = args.dist[i][j];
	if (use_model)
		shm_model_params();
	/* readers test magic first: publish it last */
	__atomic_store_n(&shm->magic, BNB_SHM_MAGIC, __ATOMIC_RELEASE);
	return 0;
}

static void shm_set_state(enum bnb_shm_state state)
{
	shm_write_begin();
	shm->state = state;
	shm_write_end();
}

/* ---- the access path --------------------------------------------------- */

static void count_calibration(struct vcpu *v, uint64_t vaddr, int node)
{
	if (vaddr >= USER_VADDR_END)
		return;	/* interrupts and the kernel touch other nodes' memory */
	v->calib_total++;
	v->calib_on += node == v->calib_node;
}

/* Wait for a remote miss and account it; returns the ticks waited. */
static uint64_t delay_miss(struct vcpu *v, int node)
{
	uint64_t want = bnb_delay_ticks(&v->delay, node);
	uint64_t owed = bnb_delay_owed(&v->delay, want);
	uint64_t t0 = bnb_ticks(), t = t0;

	while (t - t0 < owed)
		t = bnb_ticks();
	t += read_cost;		/* the reads at both ends, half each */
	bnb_delay_paid(&v->delay, want, t - t0);
	v->ctr->delayed++;
	v->ctr->delay_ns += (t - t0) * ns_per_tick_q16 >> 16;
	return t - t0;
}

/* Where a user access lands: the vCPU's table, else QEMU (and remember). */
static bool translate(struct vcpu *v, qemu_plugin_meminfo_t info,
		      uint64_t vaddr, uint64_t *addr, int *node)
{
	struct qemu_plugin_hwaddr *hw;
	bool user = vaddr < USER_VADDR_END;

	if (user && bnb_xlate_find(&v->xlate, vaddr, addr, node))
		return true;
	if (!user)
		bnb_xlate_forget(&v->xlate);	/* see xlate.h */
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw))
		return false;
	*addr = qemu_plugin_hwaddr_phys_addr(hw);
	*node = bnb_addrmap_node(&amap, *addr);
	if (user && *node >= 0)
		bnb_xlate_add(&v->xlate, vaddr, *addr, *node);
	return true;
}

/* An access that is not to the line of the vCPU's last one. */
static __attribute__((noinline)) void access_line(struct vcpu *v, unsigned int vcpu_index,
						   qemu_plugin_meminfo_t info,
						   uint64_t vaddr, bool store)
{
	bool delaying = __atomic_load_n(&delay_live, __ATOMIC_RELAXED);
	bool spinning = delaying && !use_model;	/* the model waits for nothing */
	uint64_t addr;
	int node;

	v->last_line = NO_LINE;
	if (spinning)
		bnb_delay_observe(&v->delay, bnb_ticks());
	if (!translate(v, info, vaddr, &addr, &node)) {
		if (__builtin_expect(v->calib_node >= 0, 0))
			count_calibration(v, vaddr, -1);
		*(store ? &v->ctr->io_writes : &v->ctr->io_reads) += 1;
		return;
	}
	if (__builtin_expect(v->calib_node >= 0, 0))
		count_calibration(v, vaddr, node);
	if (node < 0) {
		*(store ? &v->ctr->unknown_writes : &v->ctr->unknown_reads) += 1;
		return;
	}
	if (args.count)
		(store ? v->ctr->writes : v->ctr->reads)[node]++;
	if (!delaying)
		return;
	if (use_model && use_cache && vaddr < USER_VADDR_END &&
	    __builtin_expect(v->calib_node < 0, 1)) {
		v->last_line = vaddr >> BNB_CACHE_LINE_SHIFT;
		v->last_node = node;
	}
	/*
	 * The model's stalls do not depend on how long this path takes, wall
	 * timing's delays do: their base is the host time between callbacks
	 * (delay.h).  With the unrolled lookup, wall runs on QEMU 7.2 lost most
	 * of one vCPU's remote delay in the latency matrix (1.1 x local where
	 * 2.5 was configured; its measured base fell by half), cause not found,
	 * so wall timing keeps the loops its tests were checked with.
	 */
	if (use_cache) {
		if (use_model ? bnb_cache_access_unrolled(&v->cache, addr) :
				bnb_cache_access(&v->cache, addr))
			return;
		v->ctr->misses[node]++;
	}
	/*
	 * A miss costs the model's stall, in the vCPU's own time (timing.h).
	 * A stream is told by its virtual lines: a program's array is
	 * contiguous there, while its physical pages are scattered, and the
	 * first line of the next page is no more dependent on the last one
	 * than any other.
	 */
	if (use_model) {
		bnb_timing_model_miss(vcpu_index, node, vaddr >> BNB_CACHE_LINE_SHIFT);
		return;
	}
	if (node == v->node)
		return;
	/* the next interval must not include this delay */
	v->delay.last += delay_miss(v, node);
}

/*
 * Most accesses are to the line of the vCPU's last one (a store of 16
 * bytes is a quarter of a line).  When that one was a user access that
 * went through the model cache with the model on, this one finds the
 * same page on the same node, and its line first in its set: a hit,
 * counted without the page lookup and the cache.  last_line is set only
 * then (not while the map check counts, nor before delays are live) and
 * cleared by every other access, so nothing but this vCPU's last access
 * came between (a page's mapping changes only through the vCPU's own
 * kernel: xlate.h).
 */
static inline void on_access(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
			     uint64_t vaddr, bool store)
{
	struct vcpu *v;

	if (__builtin_expect(vcpu_index >= n_vcpus, 0))
		return;
	v = &vcpus[vcpu_index];
	if (vaddr >> BNB_CACHE_LINE_SHIFT != v->last_line) {
		access_line(v, vcpu_index, info, vaddr, store);
		return;
	}
	if (args.count)
		(store ? v->ctr->writes : v->ctr->reads)[v->last_node]++;
}

/*
 * Loads and stores have callbacks of their own (QEMU picks them when it
 * translates): a store needs no call back into QEMU to ask what the
 * access was.  An atomic read-modify-write is one access that both see:
 * the load's callback leaves it to the store's, so that it counts once,
 * as a store, as it did with one callback for both.
 */
static void on_load(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
		    uint64_t vaddr, void *udata)
{
	if (qemu_plugin_mem_is_store(info))
		return;
	on_access(vcpu_index, info, vaddr, false);
}

static void on_store(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
		     uint64_t vaddr, void *udata)
{
	on_access(vcpu_index, info, vaddr, true);
}

/* ---- map check markers ------------------------------------------------- */

/* What the markers changed: the map check's state and the WORK count. */
static void publish_markers(void)
{
	shm_write_begin();
	shm->map_status = mapcheck.status;
	shm->map_nodes_checked = mapcheck.checked;
	memcpy(shm->map_check, mapcheck.res, sizeof(shm->map_check));
	memcpy(shm->map_message, mapcheck.msg, sizeof(shm->map_message));
	shm->work_marks = work_marks;
	shm->work_ends = work_ends;
	shm_write_end();
}

static void map_check_failed(void)
{
	fprintf(stderr, "bnb-plugin: %s\n", mapcheck.msg);
	if (!args.map_fail_exit)
		return;
	fprintf(stderr, "bnb-plugin: stopping QEMU (map_fail=exit)\n");
	shm_set_state(BNB_SHM_EXITED);
	_exit(EXIT_FAILURE);	/* no atexit work from a vCPU thread */
}

static void map_check_passed(void)
{
	if (args.delay == BNB_DELAY_VERIFIED) {
		__atomic_store_n(&delay_live, true, __ATOMIC_RELAXED);
		shm_write_begin();
		shm->flags = shm_flags();
		shm_write_end();
	}
	if (args.verbose)
		fprintf(stderr, "bnb-plugin: map check passed for %u nodes%s\n",
			mapcheck.n_nodes, delay_live ? ", remote misses delayed" : "");
}

static void register_callbacks(qemu_plugin_id_t id);

static void on_reset(qemu_plugin_id_t id)
{
	__atomic_store_n(&instrument_mem, true, __ATOMIC_RELAXED);
	register_callbacks(id);
}

/*
 * With mem_from=calib the boot ran without memory callbacks (5x faster);
 * the calibration's start drops the translation cache so that every
 * block is translated again, now with them.  QEMU runs on_reset with
 * the vCPUs stopped, before any new translation.  Caller holds
 * mapcheck_lock.
 */
static void start_instrumenting(void)
{
	if (__atomic_load_n(&instrument_mem, __ATOMIC_RELAXED) || reset_asked)
		return;
	reset_asked = true;
	qemu_plugin_reset(plugin_id, on_reset);
}

/* Misses of all vCPUs to their own node and to others, into m[0] and m[1]. */
static void sum_misses(uint64_t m[2])
{
	m[0] = m[1] = 0;
	for (unsigned int i = 0; i < n_vcpus; i++) {
		const struct bnb_shm_vcpu *c = vcpus[i].ctr;

		for (unsigned int n = 0; n < args.n_nodes; n++)
			m[(int)n != vcpus[i].node] += use_cache ? c->misses[n] :
						 c->reads[n] + c->writes[n];
	}
}

/* The account's snapshots (bnb_plugin_shm.h, acct_*): publish what is new. */
static void acct_snapshot(uint32_t bit)
{
	uint64_t m[2];

	if (acct_state & bit)
		return;
	acct_state |= bit;
	sum_misses(m);
	shm_write_begin();
	for (int i = 0; i < 2; i++) {
		if (bit == BNB_ACCT_WORK)
			shm->acct_work_miss[i] = m[i];
		else if (bit == BNB_ACCT_ACTED)
			shm->acct_act_miss[i] = m[i];
	}
	shm->acct_state = acct_state;
	shm_write_end();
}

/*
 * The balancer ran (ksym_qemu.c): before the first WORK marker it is
 * only noted; after it the placement may change from here on.  Returns
 * whether it wants to hear of it again.
 */
bool bnb_plugin_balancer_ran(void)
{
	bool again;

	pthread_mutex_lock(&mapcheck_lock);
	acct_snapshot(acct_state & BNB_ACCT_WORK ? BNB_ACCT_ACTED : BNB_ACCT_BEFORE);
	again = !(acct_state & BNB_ACCT_ACTED);
	pthread_mutex_unlock(&mapcheck_lock);
	return again;
}

static void on_marker(unsigned int vcpu_index, void *udata)
{
	enum bnb_shm_map_status before, after;
	struct vcpu *v;

	if (vcpu_index >= n_vcpus)
		return;
	v = &vcpus[vcpu_index];
	pthread_mutex_lock(&mapcheck_lock);
	before = mapcheck.status;
	switch ((uintptr_t)udata) {
	case BNB_MARK_START:
		bnb_mapcheck_start(&mapcheck);
		start_instrumenting();
		break;
	case BNB_MARK_BEGIN:
		v->last_line = NO_LINE;	/* the map check counts every access */
		v->calib_total = v->calib_on = 0;
		v->calib_node = bnb_mapcheck_begin(&mapcheck);
		break;
	case BNB_MARK_END:
		bnb_mapcheck_end(&mapcheck, v->calib_node, v->calib_total, v->calib_on);
		v->calib_node = -1;
		break;
	case BNB_MARK_DONE:
		bnb_mapcheck_done(&mapcheck);
		break;
	case BNB_MARK_WORK:
		work_marks++;
		acct_snapshot(BNB_ACCT_WORK);
		break;
	case BNB_MARK_WORK_END:
		work_ends++;
		break;
	}
	after = mapcheck.status;
	publish_markers();
	pthread_mutex_unlock(&mapcheck_lock);
	if (after == BNB_MAP_FAILED && before != BNB_MAP_FAILED)
		map_check_failed();
	if (after == BNB_MAP_OK && before != BNB_MAP_OK)
		map_check_passed();
}

/* ---- translation ------------------------------------------------------- */

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	bnb_timing_translate(tb);
	bnb_ksym_translate(tb);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint8_t bytes[BNB_MARKER_LEN];
		size_t len = bnb_insn_bytes(insn, bytes, sizeof(bytes));
		int op = len == qemu_plugin_insn_size(insn) ?
			 bnb_marker_op(bytes, len) : 0;

		if (op) {
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker,
				QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)op);
			continue;
		}
		if (!__atomic_load_n(&instrument_mem, __ATOMIC_RELAXED))
			continue;
		qemu_plugin_register_vcpu_mem_cb(insn, on_load,
			QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_R, NULL);
		qemu_plugin_register_vcpu_mem_cb(insn, on_store,
			QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_W, NULL);
	}
}

static void print_summary(void)
{
	uint64_t local, remote, delayed = 0, io = 0, unknown = 0, fast, slow;
	char tiers[64] = "";

	bnb_shm_sum(shm, &local, &remote);
	if (bnb_shm_tier_sum(shm, &fast, &slow))
		snprintf(tiers, sizeof(tiers), " fast_tier=%llu slow_tier=%llu",
			 (unsigned long long)fast, (unsigned long long)slow);
	for (unsigned int i = 0; i < n_vcpus; i++) {
		delayed += vcpus[i].ctr->delayed;
		io += vcpus[i].ctr->io_reads + vcpus[i].ctr->io_writes;
		unknown += vcpus[i].ctr->unknown_reads + vcpus[i].ctr->unknown_writes;
	}
	fprintf(stderr, "bnb-plugin: local=%llu remote=%llu io=%llu unknown=%llu delayed=%llu "
		"map=%u%s\n", (unsigned long long)local, (unsigned long long)remote,
		(unsigned long long)io, (unsigned long long)unknown,
		(unsigned long long)delayed, shm->map_status, tiers);
}

static void on_exit_qemu(qemu_plugin_id_t id, void *udata)
{
	bnb_timing_publish();
	bnb_timing_flush();
	bnb_ksym_write();
	shm_set_state(BNB_SHM_EXITED);
	if (args.verbose)
		print_summary();
}

static void on_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	bnb_timing_vcpu_init(vcpu_index);
}

static void register_callbacks(qemu_plugin_id_t id)
{
	qemu_plugin_register_vcpu_init_cb(id, on_vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_exit_qemu, NULL);
	bnb_timing_register(id);
}

/* ---- setup ------------------------------------------------------------- */

static void setup_delays(void)
{
	double tpn = bnb_ticks_per_ns();

	ns_per_tick_q16 = (uint64_t)(65536.0 / tpn + 0.5);
	for (unsigned int c = 0; c < args.n_nodes; c++)
		for (unsigned int m = 0; m < args.n_nodes; m++)
			delay_mult[c][m] = bnb_delay_mult(args.dist[c][m]);
	fixed_ticks = (uint64_t)(args.base_ns * tpn + 0.5);
	read_cost = bnb_ticks_read_cost();
	cap_ticks = (uint64_t)(args.cap_ns * tpn + 0.5);
}

static int setup_vcpus(char *err, size_t errlen)
{
	unsigned int i = 0;

	vcpus = aligned_alloc(64, n_vcpus * sizeof(*vcpus));
	if (!vcpus)
		return snprintf(err, errlen, "bnb-plugin: out of memory"), -1;
	memset(vcpus, 0, n_vcpus * sizeof(*vcpus));
	for (unsigned int node = 0; node < args.n_nodes; node++)
		for (unsigned int k = 0; k < args.cpus[node]; k++, i++) {
			struct vcpu *v = &vcpus[i];

			v->node = node;
			v->calib_node = -1;
			v->last_line = NO_LINE;
			bnb_xlate_init(&v->xlate);
			v->delay.mult = delay_mult[node];
			v->delay.fixed = fixed_ticks;
			v->delay.cap = cap_ticks;
			if (use_cache &&
			    bnb_cache_init(&v->cache, args.cache_kib << 10, args.cache_ways))
				return snprintf(err, errlen,
					"bnb-plugin: cache_kib=%lu with cache_ways=%lu: need KiB*1024/64/ways to be a power of two",
					args.cache_kib, args.cache_ways), -1;
		}
	return 0;
}

static int setup_model(char *err, size_t errlen)
{
	struct bnb_model_params p;
	const char *key;

	use_model = bnb_machine_class(&args.machine) != NULL;	/* auto is resolved */
	if (!use_model)
		return 0;
	if (bnb_args_model(&args, &p, &key, err, errlen))
		return errf_prefix(err, errlen, "bnb-plugin: %s", key);
	if (bnb_model_init(&model, &p))
		return snprintf(err, errlen, "bnb-plugin: model: out of memory"), -1;
	return 0;
}

static int install(const qemu_info_t *info, int argc, char **argv,
		   char *err, size_t errlen)
{
	if (!info->system_emulation)
		return snprintf(err, errlen, "bnb-plugin: needs system emulation"), -1;
	if (bnb_args_parse(&args, argc, argv, err, errlen))
		return errf_prefix(err, errlen, "bnb-plugin");
	n_vcpus = bnb_args_n_vcpus(&args);
	if ((int)n_vcpus != info->system.smp_vcpus)
		return snprintf(err, errlen,
			"bnb-plugin: cpus= lists %u vCPUs but QEMU has %d",
			n_vcpus, info->system.smp_vcpus), -1;
	use_cache = args.delay != BNB_DELAY_OFF && args.cache_kib;
	delay_live = args.delay == BNB_DELAY_ALWAYS;
	/* bnb-vm checks QEMU's memory map against it (bench/vm/layout.c) */
	bnb_addrmap_build_q35(&amap, args.map, args.n_nodes, args.mem_bytes);
	bnb_mapcheck_init(&mapcheck, args.n_nodes, args.map_min_pct);
	setup_delays();
	if (setup_vcpus(err, errlen) || setup_model(err, errlen) ||
	    shm_create(err, errlen))
		return -1;
	for (unsigned int i = 0; i < n_vcpus; i++)
		vcpus[i].ctr = (struct bnb_shm_vcpu *)((char *)shm + shm->header_size +
						       i * shm->vcpu_stride);
	if (bnb_ksym_setup(&args, n_vcpus, err, errlen))
		return -1;
	return bnb_timing_setup(&args, n_vcpus, shm, use_model ? &model : NULL, err, errlen);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	char err[PATH_MAX + 256];

	if (install(info, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	plugin_id = id;
	instrument_mem = !args.mem_from_calib || args.delay == BNB_DELAY_ALWAYS;
	register_callbacks(id);
	shm_set_state(BNB_SHM_RUNNING);
	if (args.verbose)
		fprintf(stderr, "bnb-plugin: %u nodes, %u vCPUs, count=%d delay=%d model=%d base_ns=%lu cap_ns=%lu cache=%luKiB/%lu-way map=%s\n",
			args.n_nodes, n_vcpus, args.count, args.delay, use_model,
			args.base_ns, args.cap_ns, use_cache ? args.cache_kib : 0,
			args.cache_ways, args.map == BNB_MAP_QEMU72 ? "qemu72" : "linear");
	return 0;
}
