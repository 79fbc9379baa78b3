/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bnb_plugin_shm.h - layout of the TCG plugin's shared-memory counters file.
 *
 * The plugin (build/bin/bnb-plugin.so, option shm=PATH) creates PATH,
 * sizes it to bnb_shm_size(n_vcpus) and maps it shared; the host collector
 * maps the same file read-only and reads it at every sample.  Nothing on
 * the access path makes a syscall: the plugin writes plain memory.
 *
 * File = struct bnb_shm_header (BNB_SHM_HEADER_SIZE bytes), then n_vcpus
 * struct bnb_shm_vcpu, each starting on its own cache line.  Readers
 * should locate vCPU i with bnb_shm_vcpu_at(), which honours the
 * header_size and vcpu_stride fields, so a later version may grow either
 * struct at its end without breaking old readers of the same major
 * version.
 *
 * Consistency rules:
 *  - Every counter is a uint64_t written by exactly one host thread (the
 *    vCPU's) and only ever increases.  A reader loads each counter with
 *    one aligned 64-bit load (__atomic_load_n(..., __ATOMIC_RELAXED)) and
 *    gets a value that was true at some instant; a snapshot across
 *    counters is not atomic, which is fine for rates over 100 ms windows.
 *  - Header fields that change after start (state, map check results) are
 *    guarded by seq, a sequence lock: the plugin makes seq odd, writes,
 *    then makes it even.  A reader copies the fields and retries while
 *    seq was odd or changed (bnb_shm_read_begin/retry below).
 *  - generation identifies the QEMU instance that owns the file
 *    (CLOCK_REALTIME nanoseconds at plugin start); a reader that finds it
 *    changed must re-map, the file was recreated by a new run.
 *
 * Counting: every guest memory access (instruction data access, kernel or
 * user) made by vCPU v increments reads[node] or writes[node] of vCPU v,
 * where node is the memory node that owns the guest-physical address.
 * An access counts as local when node == vcpu_node[v].  The memory tiers
 * are derived by readers, not counted: the fast tier is the nodes that
 * have a vCPU in vcpu_node[], the slow tier the nodes without (CXL
 * memory, which a tiering kernel puts in a lower tier).  Accesses to I/O
 * regions count in io_reads/io_writes; RAM outside every node range
 * (ROM, option ROMs, firmware) in unknown_reads/unknown_writes.
 * misses[node] counts accesses that missed the plugin's per-vCPU model
 * cache; only remote misses pay the emulated delay.
 *
 * Time keeper (flag BNB_SHM_F_TIMEKEEPER, deterministic timing only; see
 * bench/model/timekeeper.h): the header's tk_* fields and each vCPU's
 * tk_* counters are written by the one host thread that runs all vCPUs
 * under icount, at every batch of tk_batch instructions and at exit.
 * D = insn_ps / hw_insn_ps is the factor by which the emulated machine
 * is slower than the modelled hardware; dilation_milli holds it in
 * thousandths.
 */
#ifndef BNB_PLUGIN_SHM_H
#define BNB_PLUGIN_SHM_H

#include <stdint.h>
#include <stddef.h>

#define BNB_SHM_MAGIC		0x314d48535042424eULL	/* "NBBPSHM1" */
#define BNB_SHM_VERSION		2	/* 2: the time keeper's fields */
#define BNB_SHM_MAX_NODES	64
#define BNB_SHM_MAX_VCPUS	256
#define BNB_SHM_LINE		64
#define BNB_SHM_HEADER_SIZE	8192
#define BNB_SHM_MSG_LEN		256

/* header.state */
enum bnb_shm_state {
	BNB_SHM_STARTING = 0,	/* header being filled in */
	BNB_SHM_RUNNING = 1,	/* counters live */
	BNB_SHM_EXITED = 2,	/* QEMU exited; counters are final */
};

/* header.map_status: outcome of the address-to-node mapping check */
enum bnb_shm_map_status {
	BNB_MAP_UNCHECKED = 0,	/* guest never ran the calibration */
	BNB_MAP_CHECKING = 1,	/* calibration phase in progress */
	BNB_MAP_OK = 2,		/* every node checked, >= threshold */
	BNB_MAP_FAILED = 3,	/* some node below threshold: no emulated figures */
};

/* header.flags */
#define BNB_SHM_F_COUNT		(1u << 0)	/* counters enabled */
#define BNB_SHM_F_DELAY		(1u << 1)	/* remote misses are being delayed; by
						 * default set once the map check passed */
#define BNB_SHM_F_CACHE		(1u << 2)	/* model cache filter enabled */
#define BNB_SHM_F_TIMEKEEPER	(1u << 3)	/* the time keeper runs (icount) */
#define BNB_SHM_F_MODEL		(1u << 4)	/* misses cost the machine model's
						 * stall (bench/model/model.h) */

/* Accesses seen while the guest touched memory of one node to check the map. */
struct bnb_shm_map_check {
	uint64_t total;		/* user-space data accesses in the phase */
	uint64_t on_node;	/* of those, attributed to the node being checked */
};

struct bnb_shm_header {
	uint64_t magic;			/* BNB_SHM_MAGIC */
	uint32_t version;		/* BNB_SHM_VERSION */
	uint32_t header_size;		/* offset of vCPU 0's counters */
	uint32_t vcpu_stride;		/* bytes between two vCPUs' counters */
	uint32_t n_vcpus;
	uint32_t n_nodes;
	uint32_t flags;			/* BNB_SHM_F_*; F_DELAY may turn on later */
	uint64_t generation;		/* CLOCK_REALTIME ns at plugin start */
	uint64_t seq;			/* sequence lock over the fields below it */
	uint32_t state;			/* enum bnb_shm_state */
	uint32_t map_status;		/* enum bnb_shm_map_status */
	uint32_t map_nodes_checked;	/* nodes whose check phase ended */
	uint32_t map_threshold_ppm;	/* pass mark, parts per million (990000) */
	uint64_t base_ns;		/* local miss latency; 0 = measured per vCPU
					 * as it runs (bench/plugin/delay.h).  A
					 * remote miss from node c to node m waits
					 * base * (distance[c][m] - 10) / 10 */
	uint64_t cache_bytes;		/* model cache size per vCPU (0 = off) */
	uint32_t cache_ways;
	uint32_t qemu_pid;
	uint8_t vcpu_node[BNB_SHM_MAX_VCPUS];	/* node of each vCPU */
	uint8_t distance[BNB_SHM_MAX_NODES][BNB_SHM_MAX_NODES]; /* SLIT, row = initiator */
	struct bnb_shm_map_check map_check[BNB_SHM_MAX_NODES];
	char map_message[BNB_SHM_MSG_LEN];	/* why the map check failed, NUL-terminated */
	uint64_t work_marks;		/* BNB_MARK_WORK markers executed: a guest
					 * workload's measured phase started (0 in
					 * files of plugins that predate it) */
	/* time keeper: fixed at start */
	uint32_t icount_shift;		/* each instruction moves icount 2^shift ns */
	uint32_t tk_batch;		/* instructions between two syncs of a vCPU */
	uint64_t insn_ps;		/* modelled instruction time */
	uint64_t hw_insn_ps;		/* hardware instruction time it stands for */
	uint64_t dilation_milli;	/* D = insn_ps / hw_insn_ps, x 1000 */
	uint64_t tk_quantum_ps;		/* lead past which a vCPU yields */
	/* time keeper: live */
	uint64_t tk_insns;		/* instructions of all vCPUs */
	uint64_t tk_clock_ps;		/* the keeper's clock, idle warps left out */
	uint64_t tk_added_ns;		/* added to the guest clock (add_ns) */
	uint64_t tk_adds;		/* add_ns calls */
	uint64_t tk_syncs;
	uint64_t tk_lag_max_ps;		/* largest spread of busy vCPUs' local times */
	uint64_t tk_lag_sum_ps;		/* summed over syncs: mean = sum / syncs */
	/* machine model (BNB_SHM_F_MODEL): fixed at start; zero in older files */
	char model_name[32];		/* the launcher's name for the parameters */
	uint64_t model_node_mbs;	/* one node's bandwidth, modelled machine */
	uint64_t model_link_mbs;	/* one link's bandwidth */
	uint64_t model_window_ps;	/* bandwidth sharing window, hardware time */
	uint32_t model_hw_cpus;		/* modelled machine's CPUs per node */
	uint32_t model_mlp;		/* sequential misses in flight per CPU */
	uint32_t model_lat_from_dist;	/* 1: latency = lat[0][0] x SLIT / 10 */
	uint32_t model_pad;
	uint32_t model_lat_ns[16][16];	/* latency, row = initiator (first 16 nodes) */
	uint64_t work_ends;		/* BNB_MARK_WORK_END markers executed: a
					 * measured phase ended (0 in older files) */
	uint64_t tk_ipi_ps;		/* time keeper: an interrupt's delivery to
					 * another vCPU, guest time (0 without the
					 * machine model and in older files) */
	/*
	 * The account's counterfactual (bench/collector/account.h): the
	 * misses of all vCPUs (the model cache's, else every access), to
	 * their own node and to others, when the first WORK marker ran and
	 * when the balancer's work (a scan, a hinting fault or a migration:
	 * the plugin's ksym= attribution) first ran after it. Between the
	 * two the placement is what it would have been without balancing.
	 * acct_state: ACCT_* bits; written once each, under seq.
	 */
	uint64_t acct_work_miss[2];	/* [0] local, [1] remote */
	uint64_t acct_act_miss[2];
	uint32_t acct_state;
	uint32_t acct_pad;
};

/* header.acct_state */
#define BNB_ACCT_WORK		(1u << 0)	/* acct_work_miss taken */
#define BNB_ACCT_ACTED		(1u << 1)	/* acct_act_miss taken */
#define BNB_ACCT_BEFORE		(1u << 2)	/* the balancer worked before the marker */

struct bnb_shm_vcpu {
	uint64_t reads[BNB_SHM_MAX_NODES];	/* per memory node */
	uint64_t writes[BNB_SHM_MAX_NODES];
	uint64_t misses[BNB_SHM_MAX_NODES];	/* model cache misses, reads + writes */
	uint64_t io_reads;
	uint64_t io_writes;
	uint64_t unknown_reads;
	uint64_t unknown_writes;
	uint64_t delayed;			/* remote misses that were delayed */
	uint64_t delay_ns;			/* total delay injected, host ns */
	/* time keeper (BNB_SHM_F_TIMEKEEPER) */
	uint64_t tk_insns;			/* instructions this vCPU executed */
	uint64_t tk_local_ps;			/* its local time */
	uint64_t tk_stall_ps;			/* stalls charged to it */
	uint64_t tk_catchup_ps;			/* idle or spin-wait time skipped */
	uint64_t tk_yields;			/* turns ended for leading too far */
	/* machine model (BNB_SHM_F_MODEL), in hardware ps before scaling by D */
	uint64_t model_misses;			/* misses charged by the model */
	uint64_t model_seq_misses;		/* of those, continuing a stream */
	uint64_t model_lat_ps;			/* stall of misses bound by latency */
	uint64_t model_bw_ps;			/* stall of misses bound by bandwidth */
	/* time keeper, wake-ups and spin-waits (BNB_SHM_F_TIMEKEEPER) */
	uint64_t tk_wakes;			/* resumes at another vCPU's wake time */
	uint64_t tk_pauses;			/* PAUSEs executed (spin-waits) */
	uint64_t tk_spin_ps;			/* of tk_catchup_ps: skipped spinning */
	uint64_t tk_holds;			/* interrupts held until their arrival
						 * (0 in older files) */
	/*
	 * machine model: the stall it charged by memory node, hardware ps
	 * (model_lat_ps + model_bw_ps split by where the lines came from),
	 * so that a reader can price a local and a remote miss as the model
	 * did (the account of balancing, bench/runner/extract/account.c)
	 */
	uint64_t model_node_ps[BNB_SHM_MAX_NODES];
} __attribute__((aligned(BNB_SHM_LINE)));

_Static_assert(sizeof(struct bnb_shm_header) <= BNB_SHM_HEADER_SIZE,
	       "bnb_shm_header outgrew BNB_SHM_HEADER_SIZE");
_Static_assert(sizeof(struct bnb_shm_vcpu) % BNB_SHM_LINE == 0,
	       "bnb_shm_vcpu must be whole cache lines");

static inline size_t bnb_shm_size(unsigned int n_vcpus)
{
	return BNB_SHM_HEADER_SIZE + (size_t)n_vcpus * sizeof(struct bnb_shm_vcpu);
}

static inline const struct bnb_shm_vcpu *
bnb_shm_vcpu_at(const struct bnb_shm_header *h, unsigned int vcpu)
{
	return (const struct bnb_shm_vcpu *)((const char *)h + h->header_size +
					     (size_t)vcpu * h->vcpu_stride);
}

static inline uint64_t bnb_shm_load(const uint64_t *counter)
{
	return __atomic_load_n(counter, __ATOMIC_RELAXED);
}

/* Seqlock read side for the header fields after seq. */
static inline uint64_t bnb_shm_read_begin(const struct bnb_shm_header *h)
{
	uint64_t s;

	while ((s = __atomic_load_n(&h->seq, __ATOMIC_ACQUIRE)) & 1)
		;
	return s;
}

static inline int bnb_shm_read_retry(const struct bnb_shm_header *h, uint64_t s)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&h->seq, __ATOMIC_RELAXED) != s;
}

/*
 * Local and remote RAM accesses summed over all vCPUs (reads + writes).
 * I/O and unknown accesses are in neither.
 */
static inline void bnb_shm_sum(const struct bnb_shm_header *h,
			       uint64_t *local, uint64_t *remote)
{
	uint64_t l = 0, r = 0;

	for (unsigned int v = 0; v < h->n_vcpus; v++) {
		const struct bnb_shm_vcpu *c = bnb_shm_vcpu_at(h, v);

		for (unsigned int n = 0; n < h->n_nodes; n++) {
			uint64_t a = bnb_shm_load(&c->reads[n]) +
				     bnb_shm_load(&c->writes[n]);

			if (n == h->vcpu_node[v])
				l += a;
			else
				r += a;
		}
	}
	*local = l;
	*remote = r;
}

/*
 * RAM accesses of all vCPUs by the memory node's tier: to nodes with a
 * vCPU (fast) and to nodes without (slow).  Returns whether there is a
 * slow tier at all.
 */
static inline int bnb_shm_tier_sum(const struct bnb_shm_header *h,
				   uint64_t *fast, uint64_t *slow)
{
	unsigned char has_cpu[BNB_SHM_MAX_NODES] = { 0 };
	uint64_t f = 0, s = 0;
	int tiered = 0;

	for (unsigned int v = 0; v < h->n_vcpus; v++)
		has_cpu[h->vcpu_node[v] % BNB_SHM_MAX_NODES] = 1;
	for (unsigned int v = 0; v < h->n_vcpus; v++) {
		const struct bnb_shm_vcpu *c = bnb_shm_vcpu_at(h, v);

		for (unsigned int n = 0; n < h->n_nodes; n++) {
			uint64_t a = bnb_shm_load(&c->reads[n]) +
				     bnb_shm_load(&c->writes[n]);

			if (has_cpu[n])
				f += a;
			else
				s += a;
		}
	}
	for (unsigned int n = 0; n < h->n_nodes; n++)
		tiered |= !has_cpu[n];
	*fast = f;
	*slow = s;
	return tiered;
}

/*
 * What the machine model charged (BNB_SHM_F_MODEL), summed over all
 * vCPUs: misses, and the stall share, the stalls over the vCPUs' busy
 * time (local time less the idle time skipped on waking), 0 without any.
 */
static inline void bnb_shm_model_totals(const struct bnb_shm_header *h,
					uint64_t *misses, double *stall_share)
{
	uint64_t m = 0, stall = 0, busy = 0;

	for (unsigned int v = 0; v < h->n_vcpus; v++) {
		const struct bnb_shm_vcpu *c = bnb_shm_vcpu_at(h, v);

		m += bnb_shm_load(&c->model_misses);
		stall += bnb_shm_load(&c->tk_stall_ps);
		busy += bnb_shm_load(&c->tk_local_ps) - bnb_shm_load(&c->tk_catchup_ps);
	}
	*misses = m;
	*stall_share = busy ? (double)stall / busy : 0.0;
}

#endif /* BNB_PLUGIN_SHM_H */
