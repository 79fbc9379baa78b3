// SPDX-License-Identifier: GPL-2.0
/*
 * prodcons: producers on one node write records into ring buffers that
 * consumers on another node read, one ring per producer/consumer pair.
 * In --mode threads they are threads of one process (the rings are private
 * memory the kernel may migrate); in --mode processes they are separate
 * processes sharing a MAP_SHARED region, so every ring page is mapped by
 * several processes. Reports records per second and the latency from a
 * record's write to its read; every record is checked by the consumer.
 *
 * Locality counts a ring page as local when it is on its consumer's node.
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "lib/util.h"
#include "hist.h"

#define MAX_PAIRS 64
#define SPINS_BEFORE_YIELD 256

enum mode { THREADS, PROCESSES };
/* the --mode words, as its row lists them */
static const char *const mode_names[] = { "threads", "processes", NULL };

static struct prodcons_opts {
	struct wl_common com;
	unsigned int interval_ms, window;
	int mode;		/* enum mode */
	int producer_node;	/* -1: derived from --node */
} cfg;
#define O(f) OPT_FIELD(struct prodcons_opts, f)
static const struct opt_def rows[] = {
	WL_ROW_SIZE(O, "4M", "bytes of ring buffer per pair"),
	WL_ROW_THREADS(O, "producer/consumer pairs, 0: the CPUs of a node"),
	{ "mode", OPT_CHOICE, O(mode), .choices = "threads|processes", .def = "threads",
	  .help = "threads of one process, or processes sharing the rings" },
	{ "window", OPT_INT, O(window), .min = 1, .max = 1 << 24, .def = "16",
	  .help = "records in flight per ring at most (bounds the queueing in the latency)" },
	WL_ROW_ITERATIONS(O, "30", WL_ROWS_MAX, "rows to run for, one per --interval-ms"),
	WL_ROW_INTERVAL(O, interval_ms, "1000"),
	WL_ROW_PLACEMENT(O, "local", "where the rings go relative to the consumers"),
	WL_ROW_NODE(O, "node whose CPUs run the consumers"),
	{ "producer-node", OPT_INT, O(producer_node), .min = 0, .max = WL_NODE_MAX,
	  .help = "node whose CPUs run the producers; default: the next node after --node" },
	WL_ROW_MEM_NODE(O),
	WL_ROW_LOCALITY(O),
	WL_ROW_CHECK(O),
};
static const struct opt_tool tool = {
	"prodcons [options]",
	"Producer/consumer rings across nodes: throughput and record latency.\n",
	rows, ARRAY_SIZE(rows), WL_EPILOG,
};

struct record {
	uint64_t seq;
	uint64_t stamp_ns;
	uint64_t payload[5];
	uint64_t check;
};

/* Ring control and statistics, in memory shared with the monitor. */
struct pair {
	_Atomic uint64_t head;		/* records written, by the producer */
	char pad0[56];
	_Atomic uint64_t tail;		/* records read, by the consumer */
	char pad1[56];
	_Atomic uint64_t errors;	/* records that failed the check */
	_Atomic int node_now;		/* consumer's node */
	_Atomic uint64_t hist[WL_HIST_BUCKETS];
};

struct control {
	_Atomic unsigned int ready;
	_Atomic int phase;		/* 0 touch, 1 run, 2 stop */
	struct pair pair[MAX_PAIRS];
};

struct role {
	struct control *ctl;
	struct pair *pair;
	struct record *ring;
	uint64_t slots;
	int node;
	bool consumes;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t checksum(const struct record *r)
{
	uint64_t h = r->seq * 0x9e3779b97f4a7c15ull;
	int i;

	for (i = 0; i < 5; i++)
		h = (h ^ r->payload[i]) * 0x100000001b3ull;
	return h;
}

/* Spin, then yield: producer and consumer may share a CPU. */
static bool wait_while(_Atomic uint64_t *other, uint64_t value, uint64_t gap,
		       struct control *ctl)
{
	unsigned int spins = 0;

	while (atomic_load_explicit(other, memory_order_acquire) + gap == value) {
		if (atomic_load_explicit(&ctl->phase, memory_order_relaxed) > 1)
			return false;
		if (++spins % SPINS_BEFORE_YIELD == 0)
			sched_yield();
	}
	return true;
}

static void start_gate(struct role *r)
{
	atomic_fetch_add(&r->ctl->ready, 1);
	while (atomic_load(&r->ctl->phase) < 1)
		usleep(1000);
	wl_run_on(r->node);
}

static void *producer(void *arg)
{
	struct role *r = arg;
	struct record *rec;
	uint64_t seq;
	int i;

	start_gate(r);
	for (seq = 0;; seq++) {
		/* full when head - tail == window */
		if (!wait_while(&r->pair->tail, seq, cfg.window, r->ctl))
			break;
		rec = &r->ring[seq % r->slots];
		rec->seq = seq;
		for (i = 0; i < 5; i++)
			rec->payload[i] = seq * 31 + (uint64_t)i;
		rec->check = checksum(rec);
		rec->stamp_ns = now_ns();
		atomic_store_explicit(&r->pair->head, seq + 1, memory_order_release);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	struct role *r = arg;
	const struct record *rec;
	uint64_t seq, lat;

	start_gate(r);
	for (seq = 0;; seq++) {
		/* empty when head == tail */
		if (!wait_while(&r->pair->head, seq, 0, r->ctl))
			break;
		rec = &r->ring[seq % r->slots];
		lat = now_ns() - rec->stamp_ns;
		if (rec->seq != seq || rec->check != checksum(rec))
			atomic_fetch_add(&r->pair->errors, 1);
		atomic_fetch_add_explicit(&r->pair->hist[wl_hist_bucket(lat)], 1,
					  memory_order_relaxed);
		atomic_store_explicit(&r->pair->tail, seq + 1, memory_order_release);
		if ((seq & 1023) == 0)
			atomic_store(&r->pair->node_now, r->node >= 0 ? r->node :
				     wl_current_node());
	}
	return NULL;
}

struct setup {
	struct control *ctl;
	char *rings;
	size_t ring_bytes;
	struct wl_where where;
	struct role roles[2 * MAX_PAIRS];	/* producer 2i, consumer 2i + 1 */
	pthread_t tid[2 * MAX_PAIRS];
	pid_t pid[2 * MAX_PAIRS];
	struct wl_sample sample;
	int *before;
	int owner_node[MAX_PAIRS];
};

static void *role_main(void *arg)
{
	struct role *r = arg;

	return r->consumes ? consumer(r) : producer(r);
}

static int map_rings(struct setup *s, const struct wl_topo *topo)
{
	size_t bytes = s->ring_bytes * cfg.com.threads;
	unsigned int p;

	s->ctl = wl_map(sizeof(*s->ctl), true);
	s->rings = wl_map(bytes, cfg.mode == PROCESSES);
	if (!s->ctl || !s->rings)
		return -1;
	wl_where(&cfg.com, topo, 0, &s->where);
	if (wl_bind_memory(s->rings, bytes, cfg.com.placement, s->where.mem, topo))
		return -1;
	/* first touch, from the node the scenario names */
	if (s->where.touch >= 0)
		wl_run_on(s->where.touch);
	memset(s->rings, 0, bytes);
	wl_run_on(-1);
	for (p = 0; p < cfg.com.threads; p++) {
		struct record *ring = (struct record *)(s->rings + p * s->ring_bytes);
		uint64_t slots = s->ring_bytes / sizeof(struct record);

		s->ctl->pair[p].node_now = s->where.run;
		s->roles[2 * p] = (struct role){ s->ctl, &s->ctl->pair[p], ring, slots,
						 cfg.com.placement == WL_FREE ? -1 : cfg.producer_node,
						 false };
		s->roles[2 * p + 1] = (struct role){ s->ctl, &s->ctl->pair[p], ring, slots,
						     s->where.run, true };
	}
	return 0;
}

static void start_roles(struct setup *s)
{
	unsigned int i;

	fflush(stdout);
	for (i = 0; i < 2 * cfg.com.threads; i++) {
		if (cfg.mode == THREADS) {
			if (pthread_create(&s->tid[i], NULL, role_main, &s->roles[i])) {
				fprintf(stderr, "prodcons: cannot start thread %u\n", i);
				exit(1);
			}
			continue;
		}
		s->pid[i] = fork();
		if (s->pid[i] < 0) {
			perror("prodcons: fork");
			exit(1);
		}
		if (!s->pid[i]) {
			wl_register_pid(WL_AGENT_DIR);
			role_main(&s->roles[i]);
			_exit(0);
		}
	}
}

static bool stop_roles(struct setup *s)
{
	unsigned int i, failed = 0;
	int status;

	atomic_store(&s->ctl->phase, 2);
	for (i = 0; i < 2 * cfg.com.threads; i++) {
		if (cfg.mode == THREADS) {
			pthread_join(s->tid[i], NULL);
			continue;
		}
		if (waitpid(s->pid[i], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed++;
	}
	if (failed)
		fprintf(stderr, "prodcons: %u worker processes failed\n", failed);
	return !failed;
}

static int init_sample(struct setup *s)
{
	unsigned int p, per = cfg.com.samples / cfg.com.threads;

	if (!per)
		per = 1;
	if (wl_sample_init(&s->sample, per * cfg.com.threads, 0))
		return -1;
	for (p = 0; p < cfg.com.threads; p++)
		wl_sample_add(&s->sample, s->rings + p * s->ring_bytes, s->ring_bytes, per, p, 1);
	s->before = calloc(s->sample.n, sizeof(*s->before));
	if (!s->before || wl_sample_query(&s->sample))
		return -1;
	memcpy(s->before, s->sample.status, s->sample.n * sizeof(*s->before));
	return 0;
}

static double locality(struct setup *s)
{
	unsigned int p;

	for (p = 0; p < cfg.com.threads; p++)
		s->owner_node[p] = atomic_load(&s->ctl->pair[p].node_now);
	if (wl_sample_query(&s->sample))
		return NAN;
	return wl_sample_locality(&s->sample, s->owner_node);
}

/* Sum of the consumers' histograms, and of their records, so far. */
static uint64_t gather(const struct setup *s, uint64_t *hist)
{
	uint64_t records = 0;
	unsigned int p, b;

	memset(hist, 0, WL_HIST_BUCKETS * sizeof(*hist));
	for (p = 0; p < cfg.com.threads; p++) {
		records += atomic_load(&s->ctl->pair[p].tail);
		for (b = 0; b < WL_HIST_BUCKETS; b++)
			hist[b] += atomic_load_explicit(&s->ctl->pair[p].hist[b],
							memory_order_relaxed);
	}
	return records;
}

static double monitor(struct setup *s, struct wl_out *out, uint64_t *hist)
{
	static uint64_t last_hist[WL_HIST_BUCKETS];
	uint64_t records, last_records = 0;
	struct wl_ticker tick;
	double loc, values[3];
	unsigned int b;

	while (atomic_load(&s->ctl->ready) < 2 * cfg.com.threads)
		usleep(1000);
	if (cfg.com.locality_every)
		wl_out_start_locality(out, locality(s));
	wl_ticker_start(&tick, cfg.interval_ms);
	atomic_store(&s->ctl->phase, 1);
	while (wl_ticker_next(&tick, cfg.com.iterations)) {
		records = gather(s, hist);
		loc = wl_locality_due(&cfg.com, tick.row) ? locality(s) : NAN;
		/* this interval's latencies: the difference of the running totals */
		for (b = 0; b < WL_HIST_BUCKETS; b++) {
			uint64_t total = hist[b];

			hist[b] -= last_hist[b];
			last_hist[b] = total;
		}
		values[0] = (double)(records - last_records);
		values[1] = wl_hist_percentile(hist, 50) / 1e3;
		values[2] = wl_hist_percentile(hist, 99) / 1e3;
		wl_out_row(out, wl_ticker_elapsed(&tick), values[0] / wl_ticker_dt(&tick),
			   loc, values);
		last_records = records;
	}
	return wl_ticker_elapsed(&tick);
}

static void check_args(void)
{
	const char *why = NULL;

	if (cfg.com.threads > MAX_PAIRS)
		why = "--threads: at most 64 pairs";
	else if (cfg.window > cfg.com.size / sizeof(struct record))
		why = "--window must not exceed the records a ring holds (--size / 64)";
	if (!why)
		return;
	fprintf(stderr, "prodcons: %s\n", why);
	exit(WL_EXIT_USAGE);
}

static void resolve_producer_node(const struct wl_topo *topo)
{
	int n;

	if (cfg.producer_node < 0) {
		cfg.producer_node = cfg.com.node;
		for (n = 1; n < topo->nodes; n++)
			if (topo->present[(cfg.com.node + n) % topo->nodes]) {
				cfg.producer_node = (cfg.com.node + n) % topo->nodes;
				break;
			}
	}
	if (cfg.producer_node >= topo->nodes || !topo->present[cfg.producer_node]) {
		fprintf(stderr, "prodcons: --producer-node %d: no such NUMA node with memory "
			"(nodes are 0-%d)\n", cfg.producer_node, topo->nodes - 1);
		exit(WL_EXIT_USAGE);
	}
	if (cfg.com.threads > topo->cpus[cfg.producer_node]) {
		fprintf(stderr, "prodcons: --threads %u is more than the %u CPUs of "
			"producer node %d\n", cfg.com.threads, topo->cpus[cfg.producer_node],
			cfg.producer_node);
		exit(WL_EXIT_USAGE);
	}
}

static const char *const columns[] = { "records", "lat_p50_us", "lat_p99_us", NULL };

int main(int argc, char **argv)
{
	static uint64_t hist[WL_HIST_BUCKETS];
	static struct setup s;
	struct wl_topo topo;
	struct wl_out out;
	uint64_t records, errors = 0;
	unsigned int p, moved;
	double work_s;
	bool ok;

	wl_common_init(&cfg.com);
	cfg.producer_node = -1;
	wl_parse_or_exit("prodcons", &tool, &cfg, argc, argv);
	wl_topo_or_exit("prodcons", &cfg.com, &topo);
	wl_resolve_or_exit("prodcons", &cfg.com, &topo,
			   cfg.com.size * (cfg.com.threads ? cfg.com.threads : 1), WL_ONE_NODE);
	check_args();
	resolve_producer_node(&topo);
	wl_check_done(&cfg.com);
	wl_register_pid(WL_AGENT_DIR);
	s.ring_bytes = cfg.com.size / sizeof(struct record) * sizeof(struct record);
	if (map_rings(&s, &topo) || init_sample(&s)) {
		fprintf(stderr, "prodcons: cannot set up %u rings of %zu bytes\n",
			cfg.com.threads, s.ring_bytes);
		return 1;
	}
	printf("# prodcons mode=%s placement=%s pairs=%u consumer_node=%d producer_node=%d "
	       "mem_node=%d ring_bytes=%zu window=%u\n", mode_names[cfg.mode],
	       wl_placement_names[cfg.com.placement], cfg.com.threads, s.where.run,
	       cfg.com.placement == WL_FREE ? -1 : cfg.producer_node, s.where.mem, s.ring_bytes,
	       cfg.window);
	wl_out_begin(&out, stdout, "records/s", columns);
	start_roles(&s);
	work_s = monitor(&s, &out, hist);
	ok = stop_roles(&s);
	records = gather(&s, hist);
	for (p = 0; p < cfg.com.threads; p++)
		errors += atomic_load(&s.ctl->pair[p].errors);
	if (errors)
		fprintf(stderr, "prodcons: %lu records failed their check\n",
			(unsigned long)errors);
	ok = ok && !errors && records;
	moved = wl_sample_query(&s.sample) ? 0 : wl_sample_moved(&s.sample, s.before);
	out.interrupted = wl_interrupted;
	wl_out_summary(&out, ok, work_s, "mode=%s records=%lu errors=%lu lat_p50_us=%.3f "
		       "lat_p90_us=%.3f lat_p99_us=%.3f sampled_pages=%u moved_pages=%u",
		       mode_names[cfg.mode], (unsigned long)records, (unsigned long)errors,
		       wl_hist_percentile(hist, 50) / 1e3, wl_hist_percentile(hist, 90) / 1e3,
		       wl_hist_percentile(hist, 99) / 1e3, s.sample.n, moved);
	return ok && !wl_interrupted ? 0 : 1;
}
