/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - the machine model: what a model-cache miss costs on the
 * modelled NUMA machine, in hardware picoseconds.
 *
 * A miss by a vCPU on node i to memory on node j costs
 *
 *	dependent  (not the line after one the vCPU missed recently: a
 *		   pointer chase) the larger of lat[i][j] and the wait for
 *		   the line's turn at the vCPU's bandwidth pace (below);
 *	streaming  (the next line of one of the vCPU's streams) the wait for
 *		   its turn at the pace alone: the vCPU's lines to node j
 *		   are served one per pace, and up to mlp of them may be in
 *		   flight while the core executes, so that instruction time
 *		   overlaps with the transfers, as out-of-order cores and
 *		   prefetchers overlap it.
 *
 * The pace is the largest of
 *	latency	 lat[i][j] / mlp for a stream (Little's law: mlp lines in
 *		 flight, each lat[i][j]);
 *	memory	 one line at the vCPU's share of node j's bandwidth
 *		 (node_bandwidth_mbs):
 *		 its share of the lines missed to node j in the two windows
 *		 of hardware time before the last one (demand: those windows
 *		 are complete when the vCPUs lag each other by less than one
 *		 window; the last one is not, and a vCPU ahead would find the
 *		 others' lines in it only in part and take more than its
 *		 share; the last and the current window count only until
 *		 there is history), but
 *		 never less than an equal share among the vCPUs that missed
 *		 there, so a vCPU missing now and then takes little from a
 *		 streaming one and a burst is served at least as fast as an
 *		 equal share;
 *	links	 for i != j, the same at each link of the route from i to j
 *		 (below), each link's bandwidth shared by every vCPU whose
 *		 lines cross it, whatever their initiator and memory nodes:
 *		 a line forwarded by a third node counts on both links it
 *		 crosses and slows that node's own traffic on them.
 *
 * The interconnect is a graph: n_links links, each joining two nodes at
 * its bandwidth each way (0 links: one per node pair, each at
 * link_bandwidth_mbs, every route direct, as before the graph).  The
 * route of a miss of node i to memory on node j is a fixed list of nodes
 * from i to j, given or derived (bnb_model_fill_routes(): fewest hops,
 * then the lowest-numbered nodes from the initiator's end); the line
 * travels it backwards, from j to i, and is charged to each link in that
 * direction.  Latency is the caller's (lat[i][j]: machine.c adds each
 * link's hop latency along the route unless given a table); the model
 * uses the graph for bandwidth only.
 *
 * Bandwidth per CPU: a guest node with fewer vCPUs than the modelled
 * machine's node (cpus_per_node) gets the machine's bandwidth per CPU
 * times its vCPUs, so that k guest threads contend as k of the machine's
 * would.  A link scales, each way, with the vCPUs of the node its lines
 * enter (the initiator's, on a direct route).
 *
 * Windows are counted per node and per link in a small ring indexed by
 * window number, so vCPUs whose local times lag each other by up to a
 * few windows still meet; the window should be longer than the time
 * keeper's lag bound in hardware time.
 *
 * Everything is integer picoseconds of the modelled hardware; the caller
 * scales the stall into guest time (D, timekeeper.h) with
 * bnb_model_scale().  No QEMU calls, no locking (one caller at a time:
 * the time keeper's single TCG thread).  Unit-tested against
 * hand-computed durations (tests/unit/test_model_miss.c).
 */
#ifndef BNB_MODEL_MODEL_H
#define BNB_MODEL_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "bnb_plugin_shm.h"

#define BNB_MODEL_LINE		64		/* bytes per miss */
#define BNB_MODEL_STREAMS	4		/* streams tracked per vCPU */
#define BNB_MODEL_RING		8		/* windows remembered */
#define BNB_MODEL_MAX_NODES	BNB_SHM_MAX_NODES
#define BNB_MODEL_DEF_WINDOW_NS	20000		/* longer than the keeper's lag in hw time */
#define BNB_MODEL_MAX_LINKS	128		/* links of a graph given */
#define BNB_MODEL_MAX_HOPS	7		/* links on one route */

/* A link of the interconnect, both ways. */
struct bnb_model_link {
	unsigned char a, b;			/* the nodes it joins */
	uint64_t mbs;				/* bandwidth each way, MB/s */
	uint64_t hop_ps;			/* latency crossing it adds (machine.c's) */
};

struct bnb_model_params {
	unsigned int n_nodes;
	unsigned int cpus[BNB_MODEL_MAX_NODES];	/* guest vCPUs per node */
	uint64_t lat_ps[BNB_MODEL_MAX_NODES][BNB_MODEL_MAX_NODES];
	uint64_t node_bandwidth_mbs;		/* one node's memory, MB/s */
	/* a node's own bandwidth (CXL memory), shared by all vCPUs; 0: the above */
	uint64_t mem_mbs[BNB_MODEL_MAX_NODES];
	uint64_t link_bandwidth_mbs;		/* one link, each direction, MB/s */
	unsigned int cpus_per_node;		/* modelled machine's CPUs per node */
	unsigned int mlp;			/* sequential misses in flight per CPU */
	uint64_t window_ps;			/* bandwidth sharing window */
	uint64_t ipi_ps;			/* an interrupt's delivery to another CPU */
	/* the interconnect: 0 links, one per node pair at link_bandwidth_mbs */
	unsigned int n_links;
	struct bnb_model_link link[BNB_MODEL_MAX_LINKS];
	/*
	 * route[i][j][0 .. route_len[i][j] - 1]: the nodes a miss of node i
	 * to memory on node j crosses, i first and j last; 0: not given,
	 * bnb_model_fill_routes() derives it.
	 */
	unsigned char route_len[BNB_MODEL_MAX_NODES][BNB_MODEL_MAX_NODES];
	unsigned char route[BNB_MODEL_MAX_NODES][BNB_MODEL_MAX_NODES][BNB_MODEL_MAX_HOPS + 1];
};

struct bnb_model_win {
	uint64_t tag;				/* window number + 1; 0 = unused */
	unsigned int users;			/* vCPUs that missed in it */
	uint64_t lines;				/* lines they missed */
};

#define BNB_MODEL_HIST	4		/* windows a vCPU's own lines are kept */

/* One vCPU's use of one node's memory or one link, in recent windows. */
struct bnb_model_use {
	uint64_t tag[BNB_MODEL_HIST];		/* window + 1, by window % HIST */
	uint64_t lines[BNB_MODEL_HIST];
	/* pace's last share: its lines and own lines, the line time (0: none) */
	uint64_t share_lines, share_own, share_ps;
};

/* One node's memory or one link: who used it in recent windows. */
struct bnb_model_res {
	uint64_t line_ps;			/* one line at full bandwidth */
	struct bnb_model_win ring[BNB_MODEL_RING];
};

/*
 * The links a line from one memory node to one initiator crosses, memory
 * side first: each a link's direction (an index of struct bnb_model's
 * link[]) and the initiator's use of it (of its vCPUs' link[]).
 */
struct bnb_model_route {
	unsigned int hops;
	unsigned short res[BNB_MODEL_MAX_HOPS];
	unsigned short use[BNB_MODEL_MAX_HOPS];
};

struct bnb_model_vcpu {
	unsigned int node;
	const struct bnb_model_route *route;	/* its node's, by memory node */
	uint64_t stream[BNB_MODEL_STREAMS];	/* last line of each stream */
	uint64_t stream_used[BNB_MODEL_STREAMS];	/* miss number it last grew */
	struct bnb_model_use mem[BNB_MODEL_MAX_NODES];
	struct bnb_model_use *link;		/* the links its node's routes cross */
	unsigned int n_link;			/* how many */
	uint64_t done_ps[BNB_MODEL_MAX_NODES];	/* last line from each node served */
	uint64_t win, win_start_ps;		/* window of the last miss, its start */
	/* figures */
	uint64_t misses, seq_misses, stall_ps;
	uint64_t lat_ps, bw_ps;			/* stall set by latency, by bandwidth */
	uint64_t node_ps[BNB_MODEL_MAX_NODES];	/* stall by memory node */
};

struct bnb_model {
	struct bnb_model_params p;
	/* lat_ps / mlp: a stream's latency pace, divided once at init */
	uint64_t seq_step_ps[BNB_MODEL_MAX_NODES][BNB_MODEL_MAX_NODES];
	unsigned int n_vcpus;
	struct bnb_model_vcpu *v;
	struct bnb_model_res *mem;		/* n_nodes */
	struct bnb_model_res *link;		/* each link's two directions */
	struct bnb_model_route *route;		/* n_nodes * n_nodes, [i * n + j] */
	struct bnb_model_use *uses;		/* the vCPUs' link[] */
};

/* 0, or -1 with the reason in err (naming the parameter). */
int bnb_model_check(const struct bnb_model_params *p, char *err, size_t errlen);

/*
 * The interconnect's part of that check: the links (nodes, bandwidths,
 * repeats), the routes given (each from its initiator to its memory node
 * over links that exist) and a route for every pair.  0, or -1 with the
 * reason in err and *what "links" or "routes", the one at fault.
 */
int bnb_model_check_graph(const struct bnb_model_params *p, const char **what,
			  char *err, size_t errlen);

/*
 * Every route not given, derived: the fewest hops, and of those the one
 * through the lowest-numbered nodes, compared from the initiator's end
 * (breadth first from the initiator, neighbours in node order).  p passed
 * bnb_model_check_graph().
 */
void bnb_model_fill_routes(struct bnb_model_params *p);

/* A route's nodes as text, "0-1-2", into buf; returns buf. */
const char *bnb_model_route_text(const unsigned char *r, unsigned int len, char *buf,
				 size_t size);

/* The link joining nodes a and b, or -1 (with 0 links, one per pair). */
int bnb_model_link_between(const struct bnb_model_params *p, unsigned int a, unsigned int b);

/* Links in the graph: n_links, or one per pair with none given. */
unsigned int bnb_model_n_links(const struct bnb_model_params *p);

/* Link k (< bnb_model_n_links()): with 0 links given, pair k at link_bandwidth_mbs. */
struct bnb_model_link bnb_model_link_get(const struct bnb_model_params *p, unsigned int k);

/*
 * The most bandwidth the model lets one initiator node i draw from node
 * j's memory, MB/s: j's own (a CXL node's, else one node's) or the
 * slowest link on the route, whichever is lower.  With p->lat_ps[i][j],
 * the idle latency, it is what the guest's firmware tables (HMAT) say of
 * the pair, so that the guest kernel ranks the nodes as the model charges
 * them.  p passed bnb_model_check() and has every route.
 */
uint64_t bnb_model_peak_mbs(const struct bnb_model_params *p, unsigned int i, unsigned int j);

/* The latency at SLIT distance d from a local latency: local * d / 10. */
static inline uint64_t bnb_model_lat_ps(uint64_t local_ps, unsigned int d)
{
	return (local_ps * d + 5) / 10;
}

/* Latencies from a local latency and a SLIT matrix. */
void bnb_model_lat_from_dist(struct bnb_model_params *p, uint64_t local_ps,
			     const uint8_t dist[][BNB_SHM_MAX_NODES]);

/*
 * p passed bnb_model_check.  vCPUs are numbered node by node, p->cpus[]
 * of each.  -1 on ENOMEM.
 */
int bnb_model_init(struct bnb_model *m, const struct bnb_model_params *p);
void bnb_model_free(struct bnb_model *m);

/*
 * vCPU v, at hardware time now_ps of its own, missed line (virtual
 * address / 64: a stream is contiguous there, not in physical pages) on
 * memory node mem: returns the stall in hardware ps.
 */
uint64_t bnb_model_miss(struct bnb_model *m, unsigned int v, unsigned int mem,
			uint64_t line, uint64_t now_ps);

/*
 * Division by a divisor fixed at init, as a multiplication and shifts
 * (Granlund and Montgomery, "Division by invariant integers using
 * multiplication", PLDI 1994, figure 4.1): the exact quotient for every
 * 64-bit dividend and every divisor from 1 up, a few cycles against a
 * hardware division's tens, on every model miss.
 */
struct bnb_divisor {
	uint64_t d;			/* the divisor */
	uint64_t m;			/* 2^64 * (2^l - d) / d + 1, l = ceil(log2 d) */
	unsigned char s1, s2;		/* min(l, 1), max(l - 1, 0) */
};

static inline void bnb_divisor_init(struct bnb_divisor *v, uint64_t d)
{
	unsigned int l = d <= 1 ? 0 : 64 - __builtin_clzll(d - 1);
	uint64_t top = l == 64 ? -d : (1ULL << l) - d;	/* 2^l - d */

	v->d = d;
	v->m = (uint64_t)(((unsigned __int128)top << 64) / d) + 1;
	v->s1 = l < 1 ? l : 1;
	v->s2 = l > 1 ? l - 1 : 0;
}

static inline uint64_t bnb_divide(const struct bnb_divisor *v, uint64_t n)
{
	uint64_t t = (uint64_t)(((unsigned __int128)v->m * n) >> 64);

	return (t + ((n - t) >> v->s1)) >> v->s2;
}

/*
 * ps * num / den with the remainder carried in *carry, so that a run's
 * sum is exact: hardware stall into guest time (num/den = D).  A miss's
 * product fits 64 bits: a multiplication then (bnb_divide), libgcc's
 * 128-bit division past that.
 */
static inline uint64_t bnb_model_scale(uint64_t *carry, uint64_t ps,
				       uint64_t num, const struct bnb_divisor *den)
{
	unsigned __int128 t = (unsigned __int128)ps * num + *carry;
	uint64_t t64 = (uint64_t)t, q;

	if (__builtin_expect(t >> 64, 0)) {
		*carry = (uint64_t)(t % den->d);
		return (uint64_t)(t / den->d);
	}
	q = bnb_divide(den, t64);
	*carry = t64 - q * den->d;
	return q;
}

/*
 * a * num / den, truncated to 64 bits as the 128-bit expression is:
 * bnb_divide() when the product fits 64 bits (a vCPU's hardware time in
 * ps times hw_insn_ps does for hours of guest time), libgcc's 128-bit
 * division past that.
 */
static inline uint64_t bnb_model_mul_div(uint64_t a, uint64_t num,
					 const struct bnb_divisor *den)
{
	unsigned __int128 t = (unsigned __int128)a * num;

	if (__builtin_expect(t >> 64, 0))
		return (uint64_t)(t / den->d);
	return bnb_divide(den, (uint64_t)t);
}

/*
 * now_ps / window_ps for a vCPU whose time mostly stays in the window of
 * its last miss or enters the next one: *w and its start *start_ps are
 * kept, and a division is needed only on a jump past the next window or
 * back.  Exact: *w is the quotient iff start <= now < start + window.
 * Starts at *w = *start_ps = 0, window 0; kept for one window_ps.
 */
static inline uint64_t bnb_model_window(uint64_t *w, uint64_t *start_ps,
					uint64_t now_ps, uint64_t window_ps)
{
	if (now_ps >= *start_ps) {
		uint64_t in = now_ps - *start_ps;

		if (in < window_ps)
			return *w;
		if (in - window_ps < window_ps) {
			*start_ps += window_ps;
			return ++*w;
		}
	}
	*w = now_ps / window_ps;
	*start_ps = *w * window_ps;
	return *w;
}

#endif /* BNB_MODEL_MODEL_H */
