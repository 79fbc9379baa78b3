// SPDX-License-Identifier: GPL-2.0
/*
 * latency: a pointer chase over a random cyclic permutation of the cache
 * lines of a buffer bound to node M, run from a CPU of node C, for every
 * (C, M) pair: the load-to-use latency matrix in ns, for a working set
 * larger than the caches and for a cache-resident one. Every load depends
 * on the previous one, so neither prefetching nor overlap hides latency.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "lib/util.h"

#define LINE 64

static struct latency_opts {
	struct wl_common com;
	uint64_t cache_size, loads, cache_loads;
	unsigned int seed, repeat;
} cfg;
#define O(f) OPT_FIELD(struct latency_opts, f)
static const struct opt_def rows[] = {
	WL_ROW_SIZE(O, "64M", "working set of the main chase (bytes)"),
	{ "cache-size", OPT_SIZE, O(cache_size), .max = WL_SIZE_MAX, .def = "16K",
	  .help = "working set of the cache-resident chase, 0 skips it" },
	{ "loads", OPT_SIZE, O(loads), .max = WL_SIZE_MAX, .def = "2M",
	  .help = "loads timed per (C, M) pair (K, M suffixes: 1024, 1048576)" },
	{ "cache-loads", OPT_SIZE, O(cache_loads), .max = WL_SIZE_MAX, .def = "0",
	  .help = "loads per pair of the cache-resident chase, 0 = --loads (its loads "
		  "are short: more of them steady its pieces)" },
	{ "repeat", OPT_INT, O(repeat), .min = 1, .max = 100000, .def = "3",
	  .help = "rounds over all pairs; the matrix keeps a pair's fastest chase, the "
		  "ratios the median over rounds of its chase over the same round's local one" },
	{ "seed", OPT_INT, O(seed), .min = 0, .max = INT_MAX, .def = "1",
	  .help = "seed of the random permutation" },
	WL_ROW_LOCALITY(O),
	WL_ROW_CHECK(O),
};
static const struct opt_tool tool = {
	"latency [options]",
	"Pointer-chase latency matrix: every CPU node against every memory node.\n",
	rows, ARRAY_SIZE(rows), WL_EPILOG,
};

static uint64_t next_random(uint64_t *state)
{
	/* xorshift64*: plenty for shuffling */
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dull;
}

/*
 * Link the lines of @buf into one cycle in random order (Sattolo's
 * shuffle gives a single cycle); then walk it once to prove it is one.
 */
static int build_chain(char *buf, size_t lines, uint64_t rng)
{
	size_t *order = malloc(lines * sizeof(*order)), i, j, tmp, steps;
	void **p;

	if (!order)
		return -1;
	for (i = 0; i < lines; i++)
		order[i] = i;
	for (i = lines - 1; i > 0; i--) {
		j = next_random(&rng) % i;
		tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	for (i = 0; i < lines; i++)
		*(void **)(buf + order[i] * LINE) = buf + order[(i + 1) % lines] * LINE;
	free(order);
	p = (void **)buf;
	for (steps = 1, p = *p; p != (void **)buf && steps <= lines; steps++)
		p = *p;
	if (steps == lines)
		return 0;
	fprintf(stderr, "latency: the chain has a cycle of %zu lines, not %zu\n", steps, lines);
	return -1;
}

static void *volatile chase_end;	/* keeps the chase from being optimised out */

#define CHUNKS 8	/* a chase is timed in this many pieces */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned int n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Chase @count loads from *@cursor and leave *@cursor where it stopped, so
 * the next round goes on along the cycle rather than replaying the same
 * lines (a replay would find them in the caches the last round warmed).
 * The loads are timed in CHUNKS pieces and the median piece counts: a
 * host preemption or a guest interrupt lands in one piece of a chase,
 * not in its typical load.
 */
static double chase_once(void **cursor, uint64_t count)
{
	uint64_t per = count / CHUNKS ? count / CHUNKS : 1, i;
	double ns[CHUNKS], t0;
	void **p = *cursor;
	unsigned int k;

	for (i = 0; i < count / 8; i++)	/* warm-up: caches and TLB */
		p = *p;
	for (k = 0; k < CHUNKS; k++) {
		t0 = wl_now();
		for (i = 0; i < per; i++)
			p = *p;
		ns[k] = (wl_now() - t0) * 1e9 / (double)per;
	}
	chase_end = p;
	*cursor = p;
	return median(ns, CHUNKS);
}

struct buffers {
	char *buf[WL_MAX_NODES];
	size_t bytes;
	uint64_t loads;		/* timed per (C, M) pair and round */
};

static int make_buffers(struct buffers *b, size_t bytes, uint64_t count,
			const struct wl_topo *topo)
{
	int m;

	b->bytes = bytes;
	b->loads = count;
	for (m = 0; m < topo->nodes; m++) {
		if (!topo->present[m])
			continue;
		b->buf[m] = wl_map(bytes, false);
		if (!b->buf[m] || wl_bind_memory(b->buf[m], bytes, WL_LOCAL, m, topo) ||
		    build_chain(b->buf[m], bytes / LINE, cfg.seed + (uint64_t)m * 7919))
			return -1;
	}
	return 0;
}

static double page_locality(const struct buffers *b, int cpu_node, int mem_node)
{
	struct wl_sample s;
	double loc;

	if (wl_sample_init(&s, cfg.com.samples, 0))
		return NAN;
	wl_sample_add(&s, b->buf[mem_node], b->bytes, cfg.com.samples, 0, 1);
	loc = wl_sample_query(&s) ? NAN : wl_sample_locality(&s, &cpu_node);
	wl_sample_free(&s);
	return loc;
}

struct matrix {
	double ns[WL_MAX_NODES][WL_MAX_NODES];
	double ratio[WL_MAX_NODES][WL_MAX_NODES];
	double local_sum, remote_sum;
	unsigned int local_n, remote_n;
};

/*
 * Round r's chases from CPU node c, one per memory node, as ns per load;
 * the row's ratios to its local chase of the same round go to
 * @ratios[m * repeat + r].
 */
static void chase_row(void *cursor[], uint64_t count, const struct wl_topo *topo, int c,
		      unsigned int r, struct matrix *mx, double *ratios)
{
	double ns[WL_MAX_NODES];
	int m;

	for (m = 0; m < topo->nodes; m++) {
		if (!topo->present[m])
			continue;
		ns[m] = chase_once(&cursor[m], count);
		if (ns[m] < mx->ns[c][m])
			mx->ns[c][m] = ns[m];
	}
	for (m = 0; m < topo->nodes; m++)
		if (topo->present[m] && topo->present[c])
			ratios[(size_t)m * cfg.repeat + r] = ns[m] / ns[c];
}

/*
 * Fill mx->ns with the fastest of --repeat chases per (C, M) pair, and
 * mx->ratio with the median over the rounds of ns(C, M) / ns(C, C) taken
 * in the same round. The repeats go round all pairs in turn, so a slow
 * stretch of the host (other guests, preemption) hits every pair alike
 * rather than one. The minimum alone makes a noisy ratio: each row is
 * divided by its own lucky local round. A round's chases from one CPU
 * node run back to back within milliseconds, so their ratio cancels the
 * host's slow drift, and the median drops the rounds a preemption hit.
 * Each pair's chase resumes where its previous round stopped.
 */
static int chase_all(const struct buffers *b, const struct wl_topo *topo, struct matrix *mx)
{
	static void *cursor[WL_MAX_NODES][WL_MAX_NODES];
	double *ratios = calloc((size_t)topo->nodes * topo->nodes * cfg.repeat, sizeof(*ratios));
	unsigned int r, done = 0;
	int c, m;

	if (!ratios)
		return -1;
	for (c = 0; c < topo->nodes; c++)
		for (m = 0; m < topo->nodes; m++) {
			mx->ns[c][m] = INFINITY;
			mx->ratio[c][m] = NAN;
			cursor[c][m] = b->buf[m];
		}
	for (r = 0; r < cfg.repeat && !wl_interrupted; r++, done++)
		for (c = 0; c < topo->nodes; c++)
			if (topo->cpus[c] && !wl_run_on(c))
				chase_row(cursor[c], b->loads, topo, c, r, mx,
					  ratios + (size_t)c * topo->nodes * cfg.repeat);
	wl_run_on(-1);
	for (c = 0; c < topo->nodes; c++)
		for (m = 0; m < topo->nodes; m++)
			if (!isinf(mx->ns[c][m]) && topo->present[c])
				mx->ratio[c][m] = median(ratios + ((size_t)c * topo->nodes + m) * cfg.repeat,
							 done);
	free(ratios);
	return 0;
}

/* One row per (C, M) pair for the working set of @b. */
static void measure(const struct buffers *b, const struct wl_topo *topo, struct wl_out *out,
		    double start, struct matrix *mx, unsigned int *row)
{
	double values[4], loc;
	int c, m;

	if (chase_all(b, topo, mx)) {
		fprintf(stderr, "latency: out of memory for %u rounds\n", cfg.repeat);
		exit(1);
	}
	for (c = 0; c < topo->nodes; c++) {
		for (m = 0; m < topo->nodes; m++) {
			if (isinf(mx->ns[c][m]))
				continue;
			values[0] = c;
			values[1] = m;
			values[2] = (double)b->bytes;
			values[3] = mx->ns[c][m];
			++*row;
			loc = wl_locality_due(&cfg.com, *row) ? page_locality(b, c, m) : NAN;
			wl_out_row(out, wl_now() - start, 1e3 / values[3], loc, values);
			if (c == m) {
				mx->local_sum += values[3];
				mx->local_n++;
			} else {
				mx->remote_sum += values[3];
				mx->remote_n++;
			}
		}
	}
}

/*
 * One comment row per CPU node with memory ("<label>C v0 v1 ..."), a
 * value per memory node; rows of memory-less CPU nodes only when
 * @all_rows (a ratio to the local chase needs local memory).
 */
static void print_rows(struct wl_out *out, const char *label, int width, int decimals,
		       const double (*v)[WL_MAX_NODES], bool all_rows,
		       const struct wl_topo *topo)
{
	char line[1024];
	size_t used;
	int c, m;

	for (c = 0; c < topo->nodes; c++) {
		if (!topo->cpus[c] || (!all_rows && !topo->present[c]))
			continue;
		used = (size_t)snprintf(line, sizeof(line), "%s%d", label, c);
		for (m = 0; m < topo->nodes && used < sizeof(line); m++)
			if (topo->present[m])
				used += (size_t)snprintf(line + used, sizeof(line) - used,
							 " %*.*f", width, decimals, v[c][m]);
		wl_out_comment(out, "%s", line);
	}
}

/*
 * The fastest chase per pair in ns ("nodeC" rows), then the median
 * per-round ratio to the local chase ("ratio_nodeC" rows).
 */
static void print_matrix(struct wl_out *out, const struct matrix *mx, size_t bytes,
			 const struct wl_topo *topo)
{
	wl_out_comment(out, "matrix ws_bytes=%zu ns per load, rows: CPU node, "
		       "columns: memory node", bytes);
	print_rows(out, "node", 8, 2, mx->ns, true, topo);
	wl_out_comment(out, "ratios ws_bytes=%zu median over rounds of ns(C, M) / ns(C, C) "
		       "of the same round, rows: CPU node, columns: memory node", bytes);
	print_rows(out, "ratio_node", 6, 3, mx->ratio, false, topo);
}

static void check_args(const struct wl_topo *topo)
{
	const char *why = NULL;
	int m;

	if (cfg.com.size < 2 * LINE)
		why = "--size must hold at least two 64-byte lines";
	else if (cfg.cache_size && cfg.cache_size < 2 * LINE)
		why = "--cache-size must be 0 or hold at least two 64-byte lines";
	else if (cfg.loads < 8)
		why = "--loads must be at least 8";
	else if (cfg.cache_loads && cfg.cache_loads < 8)
		why = "--cache-loads must be 0 or at least 8";
	for (m = 0; !why && m < topo->nodes; m++)
		if (topo->present[m] && cfg.com.size + cfg.cache_size > topo->mem[m])
			why = "--size is larger than the memory of a node";
	if (!why)
		return;
	fprintf(stderr, "latency: %s\n", why);
	exit(WL_EXIT_USAGE);
}

static const char *const columns[] = { "cpu_node", "mem_node", "ws_bytes", "ns_per_load",
				       NULL };

int main(int argc, char **argv)
{
	static struct matrix big, small;
	struct buffers main_ws = { 0 }, cache_ws = { 0 };
	struct wl_topo topo;
	struct wl_out out;
	unsigned int row = 0;
	double start;

	wl_common_init(&cfg.com);
	wl_parse_or_exit("latency", &tool, &cfg, argc, argv);
	wl_topo_or_exit("latency", &cfg.com, &topo);
	wl_resolve_or_exit("latency", &cfg.com, &topo, cfg.com.size, WL_ONE_NODE);
	check_args(&topo);
	wl_check_done(&cfg.com);
	wl_register_pid(WL_AGENT_DIR);
	if (make_buffers(&main_ws, cfg.com.size / LINE * LINE, cfg.loads, &topo) ||
	    (cfg.cache_size && make_buffers(&cache_ws, cfg.cache_size / LINE * LINE,
					cfg.cache_loads ? cfg.cache_loads : cfg.loads, &topo))) {
		fprintf(stderr, "latency: cannot build the chains\n");
		return 1;
	}
	printf("# latency nodes=%d ws_bytes=%zu cache_bytes=%zu loads=%llu cache_loads=%llu "
	       "repeat=%u seed=%u\n", topo.nodes, main_ws.bytes, cache_ws.bytes,
	       (unsigned long long)cfg.loads, (unsigned long long)cache_ws.loads, cfg.repeat,
	       cfg.seed);
	wl_out_begin(&out, stdout, "Mloads/s", columns);
	start = wl_work_begin();
	measure(&main_ws, &topo, &out, start, &big, &row);
	if (cfg.cache_size)
		measure(&cache_ws, &topo, &out, start, &small, &row);
	print_matrix(&out, &big, main_ws.bytes, &topo);
	if (cfg.cache_size)
		print_matrix(&out, &small, cache_ws.bytes, &topo);
	out.interrupted = wl_interrupted;
	wl_out_summary(&out, true, wl_now() - start,
		       "local_ns=%.2f remote_ns=%.2f remote_over_local=%.3f cache_local_ns=%.2f",
		       big.local_n ? big.local_sum / big.local_n : NAN,
		       big.remote_n ? big.remote_sum / big.remote_n : NAN,
		       big.local_n && big.remote_n ?
		       (big.remote_sum / big.remote_n) / (big.local_sum / big.local_n) : NAN,
		       small.local_n ? small.local_sum / small.local_n : NAN);
	return wl_interrupted ? 1 : 0;
}
