// SPDX-License-Identifier: GPL-2.0
/*
 * The machine model against durations computed by hand.  Each vCPU's
 * hardware time advances by the stalls the model returns (instruction
 * time left out), as the time keeper would advance it.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/model.h"

#define NS	1000ULL		/* ps */
#define LINES	1000

static struct bnb_model m;
static uint64_t now[8];

/* nodes x vcpus vCPUs, SLIT 10 local / 20 remote, 1 us windows. */
static void setup(unsigned int nodes, unsigned int vcpus, unsigned int hw_cpus,
		  uint64_t local_ns, uint64_t node_mbs, uint64_t link_mbs)
{
	struct bnb_model_params p = {
		.n_nodes = nodes, .node_bandwidth_mbs = node_mbs, .link_bandwidth_mbs = link_mbs,
		.cpus_per_node = hw_cpus, .mlp = 10, .window_ps = 1000 * NS,
	};
	uint8_t dist[BNB_SHM_MAX_NODES][BNB_SHM_MAX_NODES];
	char err[256];

	for (unsigned int i = 0; i < nodes; i++) {
		p.cpus[i] = vcpus;
		for (unsigned int j = 0; j < nodes; j++)
			dist[i][j] = i == j ? 10 : 20;
	}
	bnb_model_lat_from_dist(&p, local_ns * NS, dist);
	cr_assert_eq(bnb_model_check(&p, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(bnb_model_init(&m, &p), 0);
	memset(now, 0, sizeof(now));
}

static void teardown(void)
{
	bnb_model_free(&m);
}

static void miss(unsigned int v, unsigned int node, uint64_t line)
{
	now[v] += bnb_model_miss(&m, v, node, line, now[v]);
}

static void stream(unsigned int v, unsigned int node, uint64_t first, unsigned int lines)
{
	for (unsigned int i = 0; i < lines; i++)
		miss(v, node, first + i);
}

/* |got - want| within frac of want */
static bool close_to(uint64_t got, uint64_t want, double frac)
{
	double d = (double)got - (double)want;

	return (d < 0 ? -d : d) <= frac * (double)want;
}

TestSuite(model, .fini = teardown);

Test(model, stream_overlaps_up_to_mlp)
{
	setup(1, 1, 1, 100, 1000000, 0);	/* 64 ps a line: latency-bound */
	stream(0, 0, 1000, LINES);
	/* the first miss waits in full, the rest overlap 10 at a time */
	cr_assert_eq(now[0], 100 * NS + (LINES - 1) * 10 * NS);
	cr_assert_eq(m.v[0].seq_misses, LINES - 1);
}

Test(model, stray_misses_end_no_growing_stream)
{
	/*
	 * Three streams in turn (a triad), a stray miss after every third
	 * round: only each stream's first line and the strays pay the
	 * latency, 100 ns; every other line its turn, 10 ns.  Replacing
	 * trackers in turn instead would let the second stray end stream A.
	 */
	unsigned int rounds = 300, strays = rounds / 3;

	setup(1, 1, 1, 100, 1000000, 0);
	for (unsigned int r = 0; r < rounds; r++) {
		for (unsigned int s = 0; s < 3; s++)
			miss(0, 0, (uint64_t)s * 100000 + r);
		if (r % 3 == 2)
			miss(0, 0, 900000 + (uint64_t)r * 1000);
	}
	cr_assert_eq(m.v[0].seq_misses, 3 * rounds - 3);
	cr_assert_eq(now[0], (3 + strays) * 100 * NS + (3 * rounds - 3) * 10 * NS);
}

Test(model, chase_pays_full_latency)
{
	setup(1, 1, 1, 100, 1000000, 0);
	for (unsigned int i = 0; i < LINES; i++)
		miss(0, 0, 1000 + (uint64_t)i * 37 % 4099 * 3);	/* never the next line */
	cr_assert_eq(now[0], LINES * 100 * NS);
	cr_assert_eq(m.v[0].seq_misses, 0);
}

Test(model, remote_chase_pays_distance_ratio)
{
	setup(2, 1, 1, 100, 1000000, 1000000);
	for (unsigned int i = 0; i < LINES; i++)
		miss(0, 1, (uint64_t)i * 2);
	cr_assert_eq(now[0], LINES * 200 * NS);
}

Test(model, two_vcpus_share_a_node)
{
	/* 6400 MB/s for 2 CPUs: 10 ns a line alone, 20 ns when shared */
	setup(1, 2, 2, 50, 6400, 0);
	stream(0, 0, 0, LINES);
	cr_assert_eq(now[0], 50 * NS + (LINES - 1) * 10 * NS, "alone: bandwidth-bound at 10 ns");

	teardown();
	setup(1, 2, 2, 50, 6400, 0);
	for (unsigned int i = 0; i < LINES; i++) {
		miss(0, 0, i);
		miss(1, 0, 100000 + i);
	}
	/* the demand share settles on 1/2 within the first lines */
	cr_assert(close_to(now[0], 50 * NS + (LINES - 1) * 20 * NS, 0.01),
		  "shared: half the bandwidth each, got %llu ps", (unsigned long long)now[0]);
	cr_assert(close_to(now[1], now[0], 0.01));
}

Test(model, bandwidth_shared_by_demand)
{
	/* v1 misses one line per 100 of v0's stream: v0 keeps nearly all */
	setup(1, 2, 2, 50, 6400, 0);
	for (unsigned int i = 0; i < LINES; i++) {
		miss(0, 0, i);
		if (i % 100 == 50)
			miss(1, 0, 100000 + i * 7);
	}
	cr_assert(close_to(now[0], 50 * NS + (LINES - 1) * 10 * NS, 0.02),
		  "demand 100:1, got %llu ps", (unsigned long long)now[0]);
	cr_assert_eq(now[1], 10 * 50 * NS, "v1's dependent misses pay latency");
}

Test(model, instruction_time_overlaps_a_stream)
{
	/* 5 ns of instructions before each 10 ns line hide under the transfer */
	setup(1, 2, 2, 50, 6400, 0);
	for (unsigned int i = 0; i < LINES; i++) {
		now[0] += 5 * NS;
		miss(0, 0, i);
	}
	cr_assert_eq(now[0], 5 * NS + 50 * NS + (LINES - 1) * 10 * NS);
	/* 30 ns of instructions a line: compute-bound, no stall after the first */
	teardown();
	setup(1, 2, 2, 50, 6400, 0);
	for (unsigned int i = 0; i < LINES; i++) {
		now[0] += 30 * NS;
		miss(0, 0, i);
	}
	cr_assert_eq(now[0], LINES * 30 * NS + 50 * NS);
}

Test(model, threads_flatten_at_node_bandwidth)
{
	/* 4 vCPUs, 3 ns of instructions a line, node 6400 MB/s: 10 ns a line */
	unsigned int done[4] = { 0 };

	setup(1, 4, 4, 100, 6400, 0);
	for (unsigned int k = 0; k < 4 * LINES; k++) {
		unsigned int v = 4;

		for (unsigned int u = 0; u < 4; u++)	/* the keeper runs the latest */
			if (done[u] < LINES && (v == 4 || now[u] < now[v]))
				v = u;
		now[v] += 3 * NS;
		miss(v, 0, (uint64_t)v * 100000 + done[v]++);
	}
	for (unsigned int v = 0; v < 4; v++)
		cr_assert(close_to(now[v], 4 * LINES * 10 * NS, 0.02),
			  "vCPU %u: 4000 lines at 6400 MB/s take 40 us, got %llu ps",
			  v, (unsigned long long)now[v]);
}

Test(model, a_leading_vcpu_takes_no_more_than_its_share)
{
	/*
	 * As the time keeper runs them: each vCPU in turn until it leads the
	 * slowest by more than 800 ns, within the 1 us window.  A vCPU ahead
	 * must not count the others' lines of a window they have not ended
	 * (over 1000 windows it took 2.4 % more than the node when it did).
	 */
	uint64_t lines = 0, end = 0, slowest = 0;
	unsigned int v = 0, next[4] = { 0 };

	setup(1, 4, 4, 100, 6400, 0);
	while (slowest < 1000000 * NS) {
		do {
			now[v] += 3 * NS;
			miss(v, 0, (uint64_t)v * 10000000 + next[v]++);
			lines++;
			slowest = now[0];
			for (unsigned int u = 1; u < 4; u++)
				slowest = now[u] < slowest ? now[u] : slowest;
		} while (now[v] <= slowest + 800 * NS);
		v = (v + 1) % 4;
	}
	for (unsigned int u = 0; u < 4; u++)
		end = now[u] > end ? now[u] : end;
	/* 6400 MB/s is 10 ns a line for the node */
	cr_assert(lines * 10 * NS <= end + end / 200,
		  "%llu lines in %llu ps: %.4f of the node's bandwidth",
		  (unsigned long long)lines, (unsigned long long)end,
		  (double)lines * 10 * NS / (double)end);
	cr_assert(lines * 10 * NS >= end - end / 50, "and it is used");
}

Test(model, vcpus_of_other_windows_do_not_share)
{
	setup(1, 2, 2, 50, 6400, 0);
	stream(0, 0, 0, LINES);			/* ends near 10 us */
	now[1] = 100000 * NS;			/* far later */
	stream(1, 0, 100000, LINES);
	cr_assert_eq(now[1] - 100000 * NS, 50 * NS + (LINES - 1) * 10 * NS);
}

Test(model, remote_stream_limited_by_link)
{
	/* node 12800 MB/s (5 ns), link 1600 MB/s (40 ns), remote lat/mlp 20 ns */
	setup(2, 1, 1, 100, 12800, 1600);
	stream(0, 1, 0, LINES);
	cr_assert_eq(now[0], 200 * NS + (LINES - 1) * 40 * NS);
	stream(1, 1, 5000, LINES);
	cr_assert_eq(now[1], 100 * NS + (LINES - 1) * 10 * NS, "local: latency-bound");
}

Test(model, bandwidth_per_cpu_kept)
{
	/* a 12-CPU node of 38400 MB/s is 3200 MB/s per CPU: 20 ns a line */
	setup(2, 1, 12, 100, 38400, 38400);
	stream(0, 0, 0, LINES);
	cr_assert_eq(now[0], 100 * NS + (LINES - 1) * 20 * NS);
}

Test(model, a_cxl_node_has_its_own_bandwidth_shared_by_every_vcpu)
{
	/* node 1 CPU-less at 38400 MB/s of a 12-CPU machine, 2 vCPUs: 10 ns a line */
	struct bnb_model_params p = {
		.n_nodes = 2, .cpus = { 2, 0 }, .node_bandwidth_mbs = 1000000,
		.link_bandwidth_mbs = 1000000, .cpus_per_node = 12, .mlp = 10,
		.window_ps = 1000 * NS, .mem_mbs = { 0, 38400 },
		.lat_ps = { { 10 * NS, 20 * NS }, { 20 * NS, 10 * NS } },
	};
	char err[256];

	cr_assert_eq(bnb_model_check(&p, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(bnb_model_init(&m, &p), 0);
	memset(now, 0, sizeof(now));
	cr_assert_eq(m.mem[1].line_ps, 10 * NS);
	stream(0, 1, 0, LINES);
	cr_assert_eq(now[0], 20 * NS + (LINES - 1) * 10 * NS);
}

static struct bnb_divisor divisor(uint64_t d)
{
	struct bnb_divisor v;

	bnb_divisor_init(&v, d);
	return v;
}

Test(model, scale_is_exact_over_a_run)
{
	struct bnb_divisor three = divisor(3);
	uint64_t carry = 0, sum = 0;

	for (int i = 0; i < 3000; i++)
		sum += bnb_model_scale(&carry, 1, 20, &three);
	cr_assert_eq(sum, 20000);
}

static void expect_divide(uint64_t n, uint64_t d)
{
	struct bnb_divisor v = divisor(d);

	cr_assert_eq(bnb_divide(&v, n), n / d, "%llu / %llu",
		     (unsigned long long)n, (unsigned long long)d);
}

/* the multiplication's quotient is the division's, at the edges and at random */
Test(model, divide_by_multiplying_is_exact)
{
	static const uint64_t ds[] = {
		1, 2, 3, 5, 7, 10, 300, 641, 1000, 4000, 4096, 1ULL << 32,
		(1ULL << 32) + 1, 0x5555555555555555ULL, 1ULL << 63,
		(1ULL << 63) + 1, UINT64_MAX - 1, UINT64_MAX,
	};
	uint64_t x = 88172645463325252ULL;	/* xorshift64 */

	for (size_t i = 0; i < sizeof(ds) / sizeof(ds[0]); i++) {
		uint64_t d = ds[i];
		const uint64_t ns[] = {
			0, 1, d - 1, d, d + 1, 2 * d - 1, 2 * d, UINT64_MAX / d * d - 1,
			UINT64_MAX / d * d, UINT64_MAX - 1, UINT64_MAX,
		};

		for (size_t j = 0; j < sizeof(ns) / sizeof(ns[0]); j++)
			expect_divide(ns[j], d);
	}
	for (int i = 0; i < 200000; i++) {
		uint64_t n, d;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		n = x;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		d = x >> (x % 64);	/* divisors of every width */
		expect_divide(n, d ? d : 1);
		expect_divide(n >> (i % 64), i % 5000 + 1);
	}
}

/* a product past 64 bits takes the wide division, with the same carry */
Test(model, scale_is_exact_past_64_bits)
{
	struct bnb_divisor five = divisor(5);
	uint64_t carry = 2, big = UINT64_MAX / 3;
	unsigned __int128 want = (unsigned __int128)big * 7 + 2;

	cr_assert_eq(bnb_model_scale(&carry, big, 7, &five), (uint64_t)(want / 5));
	cr_assert_eq(carry, (uint64_t)(want % 5));
	want = carry + 7;	/* the carry reaches the next, narrow, call */
	cr_assert_eq(bnb_model_scale(&carry, 1, 7, &five), (uint64_t)(want / 5));
	cr_assert_eq(carry, (uint64_t)(want % 5));
}

/* the narrow division only where the product fits: the same truncated quotient */
Test(model, mul_div_matches_the_wide_one_at_64_bits)
{
	static const uint64_t cases[][3] = {
		{ UINT64_MAX, 1, 3 },			/* fits exactly */
		{ 1ULL << 32, (1ULL << 32) - 1, 7 },	/* just below 2^64 */
		{ 1ULL << 32, 1ULL << 32, 7 },		/* 2^64: the wide one */
		{ UINT64_MAX, 2, 3 },			/* past 64 bits */
		{ UINT64_MAX, UINT64_MAX, 2 },		/* quotient truncated */
		{ 123456789012345ULL, 350, 1000 },	/* a miss's time */
		{ 0, 5, 3 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const uint64_t *c = cases[i];
		unsigned __int128 t = (unsigned __int128)c[0] * c[1];
		struct bnb_divisor den = divisor(c[2]);

		cr_assert_eq(bnb_model_mul_div(c[0], c[1], &den), (uint64_t)(t / c[2]),
			     "case %zu", i);
	}
}

static void expect_window(uint64_t *w, uint64_t *start, uint64_t at, uint64_t window)
{
	cr_assert_eq(bnb_model_window(w, start, at, window), at / window,
		     "at %llu window %llu", (unsigned long long)at,
		     (unsigned long long)window);
	cr_assert_eq(*w, at / window);
	cr_assert_eq(*start, at / window * window);
}

/* the kept window is the quotient at each edge, forward, across and back */
Test(model, window_kept_is_the_quotient_at_its_edges)
{
	static const uint64_t window = 1000;
	static const uint64_t nows[] = {
		0, 999, 1000, 1999, 2000, 2999, 3000, 4999, 5000, 5001,
		10000, 9999, 9000, 8999, 0, 1, UINT64_MAX - 1000, UINT64_MAX,
		UINT64_MAX / window * window - 1, UINT64_MAX / window * window, 7,
	};
	uint64_t w = 0, start = 0;

	for (size_t i = 0; i < sizeof(nows) / sizeof(nows[0]); i++)
		expect_window(&w, &start, nows[i], window);
	w = start = 0;
	for (uint64_t at = 0; at < 5 * 7; at++)	/* every step of a small window */
		expect_window(&w, &start, at, 7);
	w = start = 0;
	expect_window(&w, &start, UINT64_MAX, 1);
	w = start = 0;	/* kept for one window length */
	expect_window(&w, &start, UINT64_MAX, UINT64_MAX);
	expect_window(&w, &start, UINT64_MAX - 1, UINT64_MAX);
}

/* a stream's pace is lat / mlp truncated, as divided per miss before */
Test(model, stream_step_is_latency_over_mlp)
{
	setup(2, 1, 1, 100, 1000000, 1000000);
	for (unsigned int i = 0; i < 2; i++)
		for (unsigned int j = 0; j < 2; j++)
			cr_assert_eq(m.seq_step_ps[i][j], m.p.lat_ps[i][j] / m.p.mlp);
}

/* 100006 / 7 is 14286.57: a stream's lines take the truncated 14286 ps */
Test(model, stream_step_truncates)
{
	struct bnb_model_params p = {
		.n_nodes = 1, .cpus = { 1 }, .node_bandwidth_mbs = 1000000,
		.cpus_per_node = 1, .mlp = 7, .window_ps = 1000 * NS,
		.lat_ps = { { 100 * NS + 6 } },
	};

	cr_assert_eq(bnb_model_init(&m, &p), 0);
	memset(now, 0, sizeof(now));
	stream(0, 0, 0, 3);
	cr_assert_eq(now[0], 100 * NS + 6 + 2 * 14286);	/* a chase, two lines */
}

static void expect_refused(struct bnb_model_params *p, const char *what)
{
	char err[256];

	cr_assert_eq(bnb_model_check(p, err, sizeof(err)), -1, "accepted: %s", what);
	cr_assert_not_null(strstr(err, what), "'%s' does not name %s", err, what);
}

Test(model, bad_parameters_refused)
{
	struct bnb_model_params p = {
		.n_nodes = 2, .node_bandwidth_mbs = 1000, .link_bandwidth_mbs = 500, .cpus_per_node = 1,
		.mlp = 4, .window_ps = 1000, .cpus = { 1, 1 },
		.lat_ps = { { 100, 200 }, { 200, 100 } },
	};
	struct bnb_model_params q;
	char err[256];

	cr_assert_eq(bnb_model_check(&p, err, sizeof(err)), 0, "%s", err);
	q = p; q.node_bandwidth_mbs = 0;
	expect_refused(&q, "node bandwidth");
	q = p; q.link_bandwidth_mbs = 0;
	expect_refused(&q, "link bandwidth");
	q = p; q.lat_ps[1][1] = 0;
	expect_refused(&q, "latency 1->1");
	q = p; q.lat_ps[0][1] = 50;
	expect_refused(&q, "below the local");
	q = p; q.mlp = 0;
	expect_refused(&q, "mlp");
}


static uint64_t miss_at(unsigned int v, uint64_t line, uint64_t at)
{
	return bnb_model_miss(&m, v, 0, line, at);
}

/*
 * A share is kept only while its lines and the vCPU's own are the same:
 * v0's history holds 4 lines in both windows 3 and 4, 3 of them its own
 * in the first, 2 in the second.  Bandwidth-bound chases (1 ns latency,
 * 10 ns a line at full bandwidth) pay the share itself.
 */
Test(model, share_follows_own_lines_at_equal_lines)
{
	const uint64_t W = 1000 * NS;
	uint64_t lp;

	setup(1, 2, 2, 1, 6400, 0);
	lp = m.mem[0].line_ps;
	cr_assert_eq(lp, 10 * NS);
	for (int i = 0; i < 3; i++)
		miss_at(0, 10 + 7 * i, i * 100 * NS);		/* window 0: v0 3 lines */
	miss_at(1, 500, 100 * NS);				/* v1 1 */
	for (int i = 0; i < 2; i++) {
		miss_at(0, 1000 + 7 * i, 2 * W + i * 100 * NS);	/* window 2: 2 and 2 */
		miss_at(1, 2000 + 7 * i, 2 * W + i * 100 * NS);
	}
	cr_assert_eq(miss_at(0, 3000, 3 * W), (4 * lp + 1) / 3, "window 3: 3 of 4 lines");
	cr_assert_eq(miss_at(0, 4000, 4 * W), (4 * lp + 1) / 2, "window 4: 2 of 4 lines");
}

/* Forget every kept share: pace divides afresh. */
static void forget_shares(struct bnb_model *x)
{
	for (unsigned int v = 0; v < x->n_vcpus; v++) {
		for (unsigned int j = 0; j < BNB_MODEL_MAX_NODES; j++)
			x->v[v].mem[j].share_own = 0;
		for (unsigned int k = 0; k < x->v[v].n_link; k++)
			x->v[v].link[k].share_own = 0;
	}
}

/*
 * The kept share changes nothing: 4 vCPUs of 2 nodes miss at random
 * (streams and strays, local and remote, vCPUs at uneven paces), and a
 * second model that divides afresh on every miss returns the same stalls.
 */
Test(model, kept_share_is_the_share_divided_afresh)
{
	struct bnb_model fresh;
	uint64_t x = 2463534242ULL, line[4] = { 0, 1 << 20, 2 << 20, 3 << 20 };

	setup(2, 2, 2, 100, 6400, 3200);
	m.p.window_ps = 50 * NS;	/* a few misses a window: shares change often */
	cr_assert_eq(bnb_model_init(&fresh, &m.p), 0);
	for (int i = 0; i < 200000; i++) {
		unsigned int v, node;
		uint64_t a, b;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v = x % 4 < 3 ? x % 2 : 2 + x % 2;	/* vCPUs 0 and 1 miss more */
		node = x >> 8 & 1;
		line[v] += (x >> 16) % 16 ? 1 : 1 + (x >> 20) % 1000;
		forget_shares(&fresh);
		a = bnb_model_miss(&m, v, node, line[v], now[v]);
		b = bnb_model_miss(&fresh, v, node, line[v], now[v]);
		cr_assert_eq(a, b, "miss %d: vCPU %u, node %u", i, v, node);
		now[v] += a + (x >> 32) % 3000;
	}
	bnb_model_free(&fresh);
}

/*
 * The interconnect: links as a graph, routes over it and each link
 * shared by every line that crosses it.  Concurrent vCPUs run the way
 * the keeper runs them, the one furthest behind next.
 */
#define GRAPH_LINES	2000
#define FAST	6400		/* MB/s: 10 ns a line */
#define SLOW	1600		/* MB/s: 40 ns a line */

static struct bnb_model_params gp;
static char gerr[512];

/*
 * nodes x 1 vCPU, machine nodes of 1 CPU whose memory never limits
 * (1,000,000 MB/s), links "a-b" at their MB/s, latency 100 ns local plus
 * 50 ns a hop (so a 3-hop stream is held by latency / mlp at 25 ns, below
 * every link's line time).
 */
static void graph(unsigned int nodes, const unsigned int (*links)[3], unsigned int n_links)
{
	memset(&gp, 0, sizeof(gp));
	gp.n_nodes = nodes;
	gp.node_bandwidth_mbs = 1000000;
	gp.link_bandwidth_mbs = FAST;
	gp.cpus_per_node = 1;
	gp.mlp = 10;
	gp.window_ps = 1000 * NS;
	gp.n_links = n_links;
	for (unsigned int i = 0; i < nodes; i++) {
		gp.cpus[i] = 1;
		for (unsigned int j = 0; j < nodes; j++)
			gp.lat_ps[i][j] = i == j ? 100 * NS : 200 * NS;
	}
	for (unsigned int k = 0; k < n_links; k++)
		gp.link[k] = (struct bnb_model_link){ .a = links[k][0], .b = links[k][1],
						     .mbs = links[k][2] };
}

/* Check, derive the routes, latencies from the hops, start the model. */
static void start(void)
{
	const char *what = NULL;

	cr_assert_eq(bnb_model_check_graph(&gp, &what, gerr, sizeof(gerr)), 0, "%s: %s", what, gerr);
	bnb_model_fill_routes(&gp);
	for (unsigned int i = 0; i < gp.n_nodes; i++)
		for (unsigned int j = 0; j < gp.n_nodes; j++)
			gp.lat_ps[i][j] = 100 * NS + 50 * NS * (i == j ? 0 : gp.route_len[i][j] - 1);
	cr_assert_eq(bnb_model_check(&gp, gerr, sizeof(gerr)), 0, "%s", gerr);
	cr_assert_eq(bnb_model_init(&m, &gp), 0);
	memset(now, 0, sizeof(now));
}

/* Streams: vCPU v[k] reads node mem[k], GRAPH_LINES lines each, the one behind first. */
static void streams(const unsigned int *v, const unsigned int *mem, unsigned int n)
{
	unsigned int done[8] = { 0 };

	for (unsigned int left = n * GRAPH_LINES; left; left--) {
		unsigned int k = n;

		for (unsigned int x = 0; x < n; x++)
			if (done[x] < GRAPH_LINES && (k == n || now[v[x]] < now[v[k]]))
				k = x;
		miss(v[k], mem[k], (uint64_t)v[k] << 24 | done[k]++);
	}
}

static const char *route(unsigned int i, unsigned int j)
{
	static char buf[64];

	return bnb_model_route_text(gp.route[i][j], gp.route_len[i][j], buf, sizeof(buf));
}

TestSuite(graph, .fini = teardown);

/* 0 - 1 - 2: node 0's lines from node 2 cross both links, held by the slower */
Test(graph, a_two_hop_stream_is_held_by_its_slowest_link)
{
	static const unsigned int line[][3] = { { 0, 1, FAST }, { 1, 2, SLOW } };

	graph(3, line, 2);
	start();
	cr_assert_str_eq(route(0, 2), "0-1-2");
	streams((unsigned int[]){ 0 }, (unsigned int[]){ 2 }, 1);
	/* the first line is a chase: 200 ns; then one a link 1-2 line time */
	cr_assert_eq(now[0], 200 * NS + (GRAPH_LINES - 1) * 40 * NS);
	cr_assert_eq(m.v[0].n_link, 2, "node 0's routes cross 1->0 and 2->1");
	teardown();
	/* the same links faster than latency / mlp: 200 ns / 10 a line */
	graph(3, (const unsigned int[][3]){ { 0, 1, 64000 }, { 1, 2, 64000 } }, 2);
	start();
	streams((unsigned int[]){ 0 }, (unsigned int[]){ 2 }, 1);
	cr_assert_eq(now[0], 200 * NS + (GRAPH_LINES - 1) * 20 * NS);
}

/*
 * An H: 0 and 1 hang off 2, 4 and 5 off 3, 2-3 the slow middle.  Node 0
 * reads node 4 (4->3->2->0), node 1 node 5 (5->3->2->1): alone each
 * takes the middle's 40 ns a line, together half of it each, 80 ns.
 */
Test(graph, two_flows_split_the_link_they_share)
{
	static const unsigned int h[][3] = {
		{ 0, 2, FAST }, { 1, 2, FAST }, { 2, 3, SLOW }, { 3, 4, FAST }, { 3, 5, FAST },
	};

	graph(6, h, 5);
	start();
	cr_assert_str_eq(route(0, 4), "0-2-3-4");
	cr_assert_str_eq(route(1, 5), "1-2-3-5");
	streams((unsigned int[]){ 0 }, (unsigned int[]){ 4 }, 1);
	cr_assert_eq(now[0], 250 * NS + (GRAPH_LINES - 1) * 40 * NS, "alone");
	teardown();
	graph(6, h, 5);
	start();
	streams((unsigned int[]){ 0, 1 }, (unsigned int[]){ 4, 5 }, 2);
	for (unsigned int v = 0; v < 2; v++)
		cr_assert(close_to(now[v], 250 * NS + (GRAPH_LINES - 1) * 80 * NS, 0.01),
			  "vCPU %u: %u lines at half of 1600 MB/s take %llu ns, got %llu ns", v,
			  GRAPH_LINES, (250 + (GRAPH_LINES - 1) * 80ULL), (unsigned long long)now[v] / NS);
	/* the links that are not shared keep their own pace: no one else's lines */
	cr_assert_eq(m.link[0].ring[0].users + m.link[1].ring[0].users, 1,
		     "link 0-2 carries only node 0's lines");
}

/*
 * 0 - 1 - 2 again: node 1 streams from node 2 over 2->1, alone at its 40
 * ns a line.  Node 0's stream from node 2 is forwarded by node 1 over the
 * same 2->1 and halves node 1's own: 80 ns a line each.
 */
Test(graph, forwarded_lines_slow_the_third_nodes_own_stream)
{
	static const unsigned int line[][3] = { { 0, 1, FAST }, { 1, 2, SLOW } };

	graph(3, line, 2);
	start();
	streams((unsigned int[]){ 1 }, (unsigned int[]){ 2 }, 1);
	cr_assert_eq(now[1], 150 * NS + (GRAPH_LINES - 1) * 40 * NS, "alone");
	teardown();
	graph(3, line, 2);
	start();
	streams((unsigned int[]){ 1, 0 }, (unsigned int[]){ 2, 2 }, 2);
	cr_assert(close_to(now[1], 150 * NS + (GRAPH_LINES - 1) * 80 * NS, 0.01),
		  "node 1's own stream with node 0's forwarded beside it: got %llu ns",
		  (unsigned long long)now[1] / NS);
	cr_assert(close_to(now[0], 200 * NS + (GRAPH_LINES - 1) * 80 * NS, 0.01),
		  "node 0's forwarded stream: got %llu ns", (unsigned long long)now[0] / NS);
}

/* Lines the other way, from node 0 to node 2, do not meet node 1's from 2 */
Test(graph, a_link_is_shared_each_way_apart)
{
	static const unsigned int line[][3] = { { 0, 1, FAST }, { 1, 2, SLOW } };

	graph(3, line, 2);
	start();
	streams((unsigned int[]){ 1, 2 }, (unsigned int[]){ 2, 1 }, 2);
	cr_assert_eq(now[1], 150 * NS + (GRAPH_LINES - 1) * 40 * NS, "2->1 alone");
	cr_assert_eq(now[2], 150 * NS + (GRAPH_LINES - 1) * 40 * NS, "1->2 alone");
}

/* the fewest hops, then the lowest-numbered nodes from the initiator's end */
Test(graph, routes_derived_by_fewest_hops_then_lowest_nodes)
{
	static const unsigned int ring[][3] = {
		{ 0, 1, FAST }, { 1, 2, FAST }, { 2, 3, FAST }, { 3, 0, FAST },
	};

	graph(4, ring, 4);
	start();
	cr_assert_str_eq(route(0, 2), "0-1-2");
	cr_assert_str_eq(route(2, 0), "2-1-0");
	cr_assert_str_eq(route(1, 3), "1-0-3");
	cr_assert_str_eq(route(3, 1), "3-0-1");
	cr_assert_str_eq(route(0, 3), "0-3");
	cr_assert_eq(gp.lat_ps[0][2], 200 * NS);
}

/* a route given is kept; the others are derived around it */
Test(graph, a_route_given_is_kept)
{
	static const unsigned int ring[][3] = {
		{ 0, 1, FAST }, { 1, 2, FAST }, { 2, 3, FAST }, { 3, 0, FAST },
	};

	graph(4, ring, 4);
	gp.route_len[0][2] = 3;
	memcpy(gp.route[0][2], (unsigned char[]){ 0, 3, 2 }, 3);
	start();
	cr_assert_str_eq(route(0, 2), "0-3-2");
	cr_assert_str_eq(route(2, 0), "2-1-0");
}

/* Every pair linked, given or not: the same stalls, miss for miss. */
Test(graph, a_full_mesh_given_is_the_mesh_by_default)
{
	struct bnb_model given;
	uint64_t x = 88172645463325252ULL, line[6] = { 0 };

	memset(&gp, 0, sizeof(gp));
	gp = (struct bnb_model_params){ .n_nodes = 3, .cpus = { 2, 2, 2 },
				       .node_bandwidth_mbs = 6400, .link_bandwidth_mbs = 3200,
				       .cpus_per_node = 4, .mlp = 10, .window_ps = 50 * NS };
	for (unsigned int i = 0; i < 3; i++)
		for (unsigned int j = 0; j < 3; j++)
			gp.lat_ps[i][j] = i == j ? 100 * NS : 210 * NS;
	cr_assert_eq(bnb_model_init(&m, &gp), 0);
	gp.n_links = 3;
	gp.link[0] = (struct bnb_model_link){ .a = 0, .b = 1, .mbs = 3200 };
	gp.link[1] = (struct bnb_model_link){ .a = 2, .b = 0, .mbs = 3200 };
	gp.link[2] = (struct bnb_model_link){ .a = 1, .b = 2, .mbs = 3200 };
	cr_assert_eq(bnb_model_check(&gp, gerr, sizeof(gerr)), 0, "%s", gerr);
	cr_assert_eq(bnb_model_init(&given, &gp), 0);
	memset(now, 0, sizeof(now));
	for (int i = 0; i < 300000; i++) {
		unsigned int v, node;
		uint64_t a, b;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v = x % 6;
		node = (x >> 8) % 3;
		line[v] += (x >> 16) % 16 ? 1 : 1 + (x >> 20) % 1000;
		a = bnb_model_miss(&m, v, node, line[v] + ((uint64_t)v << 32), now[v]);
		b = bnb_model_miss(&given, v, node, line[v] + ((uint64_t)v << 32), now[v]);
		cr_assert_eq(a, b, "miss %d: vCPU %u, node %u", i, v, node);
		now[v] += a + (x >> 32) % 2000;
	}
	bnb_model_free(&given);
}

static void expect_graph_refused(const char *what, const char *text)
{
	const char *got = NULL;

	cr_assert_eq(bnb_model_check_graph(&gp, &got, gerr, sizeof(gerr)), -1, "accepted: %s", text);
	cr_assert_str_eq(got, what, "'%s' blamed on %s", gerr, got);
	cr_assert_not_null(strstr(gerr, text), "'%s' does not say '%s'", gerr, text);
	cr_assert_eq(bnb_model_check(&gp, gerr, sizeof(gerr)), -1);
	cr_assert_not_null(strstr(gerr, what), "bnb_model_check: '%s' does not name %s", gerr, what);
}

Test(graph, bad_graphs_refused_naming_links_or_routes)
{
	static const unsigned int two[][3] = { { 0, 1, FAST }, { 2, 3, FAST } };
	static const unsigned int line[][3] = { { 0, 1, FAST }, { 1, 2, FAST } };

	graph(4, two, 2);
	expect_graph_refused("links", "no route from node 0 to node 2: no links join them");
	graph(3, line, 2);
	gp.link[1].mbs = 0;
	expect_graph_refused("links", "link 1-2: bandwidth must be above 0");
	graph(3, line, 2);
	gp.link[1] = (struct bnb_model_link){ .a = 1, .b = 0, .mbs = FAST };
	expect_graph_refused("links", "link 1-0 is given twice");
	graph(3, line, 2);
	gp.link[1].b = 1;
	expect_graph_refused("links", "joins a node to itself");
	graph(4, line, 2);
	expect_graph_refused("links", "the links join nodes 0-2; the guest has 4 nodes");
	graph(2, line, 2);
	expect_graph_refused("links", "nodes 0-2; the guest has 2 nodes");
	graph(3, line, 2);
	gp.route_len[0][2] = 2;
	memcpy(gp.route[0][2], (unsigned char[]){ 0, 2 }, 2);
	expect_graph_refused("routes", "route 0-2 crosses 0-2, which is not a link");
	graph(3, line, 2);
	gp.route_len[0][2] = 4;
	memcpy(gp.route[0][2], (unsigned char[]){ 0, 1, 0, 2 }, 4);
	expect_graph_refused("routes", "crosses node 0 twice");
	graph(3, line, 2);
	gp.route_len[2][0] = 3;
	memcpy(gp.route[2][0], (unsigned char[]){ 2, 1, 1 }, 3);
	expect_graph_refused("routes", "does not lead from node 2 to node 0");
}
