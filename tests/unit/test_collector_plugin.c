// SPDX-License-Identifier: GPL-2.0
/*
 * The plugin's counters file as the collector reads it: a file laid out
 * per bench/include/bnb_plugin_shm.h, header validation of hostile
 * variants, and the derived locality and benefit per sample.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bnb_plugin_shm.h"
#include "plugin.h"
#include "reply.h"
#include "series.h"
#include "summary.h"

static char path[64];
static struct bnb_shm_header *h;
static size_t size;

/* Two nodes, vCPU 0 on node 0 and vCPU 1 on node 1. */
static void make_file(void)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/bnb-shm-test.XXXXXX");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	size = bnb_shm_size(2);
	cr_assert_eq(ftruncate(fd, size), 0);
	h = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	cr_assert_neq(h, MAP_FAILED);
	close(fd);
	h->magic = BNB_SHM_MAGIC;
	h->version = BNB_SHM_VERSION;
	h->header_size = BNB_SHM_HEADER_SIZE;
	h->vcpu_stride = sizeof(struct bnb_shm_vcpu);
	h->n_vcpus = 2;
	h->n_nodes = 2;
	h->flags = BNB_SHM_F_COUNT;
	h->generation = 1;
	h->state = BNB_SHM_RUNNING;
	h->vcpu_node[1] = 1;
	h->distance[0][0] = h->distance[1][1] = 10;
	h->distance[0][1] = h->distance[1][0] = 20;
}

static void drop_file(void)
{
	munmap(h, size);
	unlink(path);
}

static struct bnb_shm_vcpu *vcpu(unsigned v)
{
	return (struct bnb_shm_vcpu *)bnb_shm_vcpu_at(h, v);
}

TestSuite(plugin, .init = make_file, .fini = drop_file);

Test(plugin, sums_local_and_remote)
{
	struct plugin_state p = { .path = path };
	struct plugin_totals t;
	char err[160];

	vcpu(0)->reads[0] = 100;	/* local */
	vcpu(0)->writes[1] = 7;		/* remote */
	vcpu(1)->reads[1] = 50;		/* local */
	vcpu(1)->reads[0] = 3;		/* remote */
	vcpu(1)->writes[0] = 2;		/* remote */
	h->work_marks = 3;
	cr_assert(plugin_read(&p, &t, err, sizeof(err)), "%s", err);
	cr_expect_eq(t.local, 150);
	cr_expect_eq(t.remote, 12);
	cr_expect_eq(t.work_marks, 3);
	plugin_close(&p);
}

static void expect_bad(const char *why)
{
	struct plugin_state p = { .path = path };
	struct plugin_totals t;
	char err[160] = "";

	cr_expect_not(plugin_read(&p, &t, err, sizeof(err)));
	cr_expect(strstr(err, why), "error '%s' does not mention '%s'", err, why);
	plugin_close(&p);
}

Test(plugin, hostile_headers)
{
	h->magic ^= 1;
	expect_bad("magic");
	h->magic ^= 1;
	h->version = BNB_SHM_VERSION + 1;
	expect_bad("version");
	h->version = BNB_SHM_VERSION;
	h->n_vcpus = 3;			/* the file holds two */
	expect_bad("need");
	h->n_vcpus = 1000;
	expect_bad("n_vcpus");
	h->n_vcpus = 2;
	h->n_nodes = 65;
	expect_bad("n_nodes");
	h->n_nodes = 2;
	h->vcpu_node[1] = 2;
	expect_bad("node");
	h->vcpu_node[1] = 1;
	h->vcpu_stride = 8;
	expect_bad("vcpu_stride");
	h->vcpu_stride = sizeof(struct bnb_shm_vcpu);
	h->header_size = 100;
	expect_bad("header_size");
	h->header_size = BNB_SHM_HEADER_SIZE;
	h->state = BNB_SHM_STARTING;
	expect_bad("starting");
}

Test(plugin, missing_file)
{
	struct plugin_state p = { .path = "/nonexistent/bnb.shm" };
	struct plugin_totals t;
	char err[160];

	cr_expect_not(plugin_read(&p, &t, err, sizeof(err)));
	cr_expect(strstr(err, "cannot open"), "%s", err);
}

/* A series over the counters file, with its first sample taken at t. */
static void begin(struct series *s, struct bnb_reply *r, struct sample_time *t, double wnuma)
{
	cr_assert_eq(series_init(s, wnuma, 10, 0), 0);
	s->plugin.path = path;
	series_columns(s, r);
	series_update(s, r, t);
}

/* One sample ns after the last, after adding reads to vCPU 0. */
static void step_by(struct series *s, struct sample_time *t, struct bnb_reply *r,
		    unsigned local, unsigned remote, uint64_t ns)
{
	vcpu(0)->reads[0] += local;
	vcpu(0)->reads[1] += remote;
	t->guest_ns = t->req_ns = t->rep_ns = t->guest_ns + ns;
	r->guest_ns = t->guest_ns;
	series_update(s, r, t);
}

static void step(struct series *s, struct sample_time *t, struct bnb_reply *r,
		 unsigned local, unsigned remote)
{
	step_by(s, t, r, local, remote, 1000000000);
}

/*
 * benefit: nothing before the workload's WORK marker (calibration, here
 * 1000 remote of 1000); the sample that first sees the marker ends a
 * mixed interval, so it is skipped too.  The next interval is the
 * "before" window: 20000 remote of 80000, share 0.25.  Then 80000 with
 * 8000 remote avoid 0.25 * 80000 - 8000 = 12000 remote misses (no model
 * cache: every access is one); at distance 20 each saves one local
 * access's time, 12000 u.  An idle interval (100 accesses, 25 remote)
 * adds nothing.  true_locality covers the intervals after the marker.
 */
Test(plugin, locality_and_benefit)
{
	struct series s;
	struct bnb_reply r = { 0 };
	struct sample_time t = { 0 };

	begin(&s, &r, &t, 2.0);
	cr_expect(s.plugin.valid);
	cr_expect_not(s.plugin.locality_defined);

	step(&s, &t, &r, 0, 1000);			/* calibration */
	cr_expect_float_eq(s.plugin.true_locality, 0, 1e-12);
	cr_expect_not(s.plugin.work_seen);
	cr_expect_not(s.plugin.baseline_set);

	h->work_marks = 1;
	step(&s, &t, &r, 500, 500);			/* setup, then the marker */
	cr_expect(s.plugin.work_seen);
	cr_expect_not(s.plugin.baseline_set);

	step(&s, &t, &r, 60000, 20000);			/* before */
	cr_assert(s.plugin.baseline_set);
	cr_expect_float_eq(s.plugin.remote_share0, 0.25, 1e-12);
	cr_expect_float_eq(s.plugin.benefit_cum, 0, 1e-12);

	step(&s, &t, &r, 72000, 8000);			/* balanced */
	cr_expect_float_eq(s.plugin.true_locality, 0.9, 1e-12);
	cr_expect_float_eq(s.plugin.benefit_cum, 12000, 1e-6);
	cr_expect_float_eq(s.plugin.acc_avoided_cum, 12000, 1e-6);

	step(&s, &t, &r, 75, 25);			/* idle: share 0.25 */
	cr_expect_float_eq(s.plugin.benefit_cum, 12000, 1e-6);
	cr_expect_eq(s.plugin.work_local, 132075);
	cr_expect_eq(s.plugin.work_remote, 28025);
	cr_expect_eq(s.plugin.local, 132575);
	cr_expect_eq(s.plugin.remote, 29525);
	series_free(&s);
}

/* The "before" window needs 10,000 accesses as well as a second. */
Test(plugin, benefit_baseline_needs_accesses)
{
	struct series s;
	struct bnb_reply r = { 0 };
	struct sample_time t = { 0 };

	begin(&s, &r, &t, 2.0);
	h->work_marks = 1;
	step(&s, &t, &r, 10, 10);			/* sees the marker */
	step(&s, &t, &r, 10, 10);			/* too few */
	cr_expect_not(s.plugin.baseline_set);
	step(&s, &t, &r, 5000, 5000);			/* (10 + 5000) / 10020 */
	cr_assert(s.plugin.baseline_set);
	cr_expect_float_eq(s.plugin.remote_share0, 0.5, 1e-12);
	step(&s, &t, &r, 10000, 0);
	cr_expect_float_eq(s.plugin.benefit_cum, 0.5 * 10000 * (2.0 - 1), 1e-6);
	series_free(&s);
}

/* Without a WORK marker there is no "before", so no benefit at all. */
Test(plugin, no_marker_no_benefit)
{
	struct series s;
	struct bnb_reply r = { 0 };
	struct sample_time t = { 0 };

	begin(&s, &r, &t, 2.0);
	for (int i = 0; i < 5; i++)
		step(&s, &t, &r, 50000, 50000 - 10000 * i);
	cr_expect_not(s.plugin.work_seen);
	cr_expect_not(s.plugin.baseline_set);
	cr_expect_float_eq(s.plugin.benefit_cum, 0, 1e-12);
	cr_expect_eq(s.plugin.work_local + s.plugin.work_remote, 0);
	series_free(&s);
}

/* At 100 ms a sample, the "before" window spans ten intervals. */
Test(plugin, benefit_baseline_spans_a_second)
{
	struct series s;
	struct bnb_reply r = { 0 };
	struct sample_time t = { 0 };
	int i;

	begin(&s, &r, &t, 1.0);
	h->work_marks = 1;
	step_by(&s, &t, &r, 100, 100, 100000000);	/* sees the marker */
	for (i = 0; i < 10; i++) {
		cr_expect_not(s.plugin.baseline_set, "interval %d", i);
		/* alternately 90 % and 10 % remote: 50 % over the window */
		step_by(&s, &t, &r, i % 2 ? 9000 : 1000, i % 2 ? 1000 : 9000, 100000000);
	}
	cr_assert(s.plugin.baseline_set);
	cr_expect_float_eq(s.plugin.remote_share0, 0.5, 1e-12);
	cr_expect_float_eq(s.plugin.benefit_cum, 0, 1e-12);
	step_by(&s, &t, &r, 10000, 0, 100000000);
	cr_expect_float_eq(s.plugin.benefit_cum, 5000, 1e-6);	/* distance 20: Wnuma - 1 = 1 */
	series_free(&s);
}

/* One sample after adding misses from vCPU V (node V) to memory node M. */
static void misses(unsigned v, unsigned m, unsigned n)
{
	vcpu(v)->misses[m] += n;
	vcpu(v)->reads[m] += 10 * n;	/* and nine cache hits per miss */
}

/*
 * The benefit in the cost model's unit u: remote misses avoided times
 * their extra latency, distance / 10 - 1 for each node pair; cache hits
 * cost the same everywhere and do not count. The old figure, remote
 * accesses avoided (hits included) times Wnuma, was (0.5 * 20000 - 3000)
 * * 2.5 = 17500 here, against a cost in u: 1100 u is what was saved.
 */
Test(plugin, benefit_in_cost_units_from_misses_per_pair)
{
	struct series s;
	struct bnb_reply r = { 0 };
	struct sample_time t = { 0 };

	h->flags |= BNB_SHM_F_CACHE;
	h->distance[0][1] = 30;		/* asymmetric: 0 -> 1 costs 3x, 1 -> 0 2x */
	begin(&s, &r, &t, 2.5);
	h->work_marks = 1;
	step(&s, &t, &r, 0, 0);				/* sees the marker */
	/* before: 500 local and 500 remote misses from each vCPU */
	misses(0, 0, 500); misses(0, 1, 500);
	misses(1, 1, 500); misses(1, 0, 500);
	step(&s, &t, &r, 0, 0);
	cr_assert(s.plugin.baseline_set);
	/* extra latency per miss: (500 * 2 + 500 * 1) / 2000 = 0.75 */
	cr_expect_float_eq(s.plugin.excess0, 0.75, 1e-12);
	/* after: vCPU 0 misses node 1 only 100 times, vCPU 1 node 0 200 times */
	misses(0, 0, 900); misses(0, 1, 100);
	misses(1, 1, 800); misses(1, 0, 200);
	step(&s, &t, &r, 0, 0);
	/* 0.75 * 2000 - (100 * 2 + 200 * 1) = 1100 u */
	cr_expect_float_eq(s.plugin.benefit_cum, 1100, 1e-9, "%g", s.plugin.benefit_cum);
	cr_expect_float_eq(s.plugin.acc_avoided_cum, 0.5 * 20000 - 3000, 1e-9,
			   "the access count: remote share 0.5 before, 3000 of 20000 after");
	series_free(&s);
}

/* A sample with counter lines LINES ("c NAME V\n"...) at the host and guest time of second SEC. */
static void sample_at(struct series *s, struct bnb_reply *r, const char *lines, unsigned sec)
{
	struct sample_time t = { sec * 1000000000ULL, sec * 1000000000ULL, sec * 1000000000ULL };
	char text[256], err[200];

	snprintf(text, sizeof(text), "bnb 1 %u %llu\n%send\n", sec + 1,
		 (unsigned long long)t.guest_ns, lines);
	cr_assert_eq(reply_parse(text, strlen(text), r, err, sizeof(err)), 0, "%s", err);
	if (!s->samples)
		series_columns(s, r);
	series_update(s, r, &t);
}

/* A sample with the hint counters at the host and guest time of second SEC. */
static void hints_at(struct series *s, struct bnb_reply *r, unsigned long long hints,
		     unsigned long long local, unsigned sec)
{
	char lines[128];

	snprintf(lines, sizeof(lines), "c numa_hint_faults %llu\nc numa_hint_faults_local %llu\n",
		 hints, local);
	sample_at(s, r, lines, sec);
}

/*
 * Time to converge counts from the workload's WORK marker, not from the
 * collector's first sample: setup and first touch (here the first three
 * seconds, all remote) are not the balancer's doing. The marker shows at
 * second 3, so the work began in (2, 3], taken as 2.5; convergence stays
 * at 1 from second 4: 1.5 s, where the first sample would say 4 s.
 */
Test(plugin, time_to_converge_from_the_work_marker)
{
	struct run_info run = { .end = "agent-gone", .interval_ms = 1000 };
	struct json_object *sum, *v;
	struct bnb_reply r;
	struct series s;
	unsigned sec;

	cr_assert_eq(series_init(&s, 2.0, 10, 0), 0);
	s.plugin.path = path;
	hints_at(&s, &r, 0, 0, 0);
	hints_at(&s, &r, 10, 0, 1);
	hints_at(&s, &r, 20, 0, 2);
	h->work_marks = 1;
	hints_at(&s, &r, 30, 0, 3);
	for (sec = 4; sec < 8; sec++)
		hints_at(&s, &r, 30 + 10 * (sec - 3), 10 * (sec - 3), sec);
	sum = summary_build(&s, &run);
	cr_assert(json_object_object_get_ex(sum, "time_to_conv_90_s", &v));
	cr_expect_float_eq(json_object_get_double(v), 1.5, 1e-9, "time_to_conv_90_s %g, want 1.5",
			   json_object_get_double(v));
	json_object_put(sum);
	series_free(&s);
}

/*
 * The run's convergence figures stand at the end of the workload's work:
 * the sample that sees its WORK_END marker (second 8) is the last one
 * counted.  Afterwards (the exit, the shell on another node) every hint
 * is remote: the column follows them, the final value, the time to
 * converge and the true locality do not.
 */
Test(plugin, figures_stop_at_the_work_end_marker)
{
	struct run_info run = { .end = "agent-gone", .interval_ms = 1000 };
	struct json_object *sum, *v, *pl;
	struct bnb_reply r;
	struct series s;
	unsigned sec;

	cr_assert_eq(series_init(&s, 2.0, 10, 0), 0);
	s.plugin.path = path;
	hints_at(&s, &r, 0, 0, 0);
	h->work_marks = 1;
	hints_at(&s, &r, 10, 0, 1);
	for (sec = 2; sec <= 8; sec++) {
		if (sec == 8)
			h->work_ends = 1;
		vcpu(0)->reads[0] += 1000;
		hints_at(&s, &r, 10 + 10 * (sec - 1), 10 * (sec - 1), sec);
	}
	for (sec = 9; sec <= 10; sec++) {
		vcpu(0)->reads[1] += 1000;
		hints_at(&s, &r, 80 + 10 * (sec - 8), 70, sec);
	}
	cr_expect_float_eq(s.conv, 0.0, 1e-9, "the column follows the tail: %g", s.conv);
	sum = summary_build(&s, &run);
	cr_assert(json_object_object_get_ex(sum, "convergence_final", &v));
	cr_expect_float_eq(json_object_get_double(v), 1.0, 1e-9, "convergence_final %g, want 1",
			   json_object_get_double(v));
	cr_assert(json_object_object_get_ex(sum, "time_to_conv_90_s", &v));
	cr_expect_not_null(v, "time to converge kept after the work ended");
	cr_assert(json_object_object_get_ex(sum, "plugin", &pl));
	cr_assert(json_object_object_get_ex(pl, "true_locality", &v));
	cr_expect_float_eq(json_object_get_double(v), 1.0, 1e-9, "true locality over the work %g",
			   json_object_get_double(v));
	cr_assert(json_object_object_get_ex(pl, "work_ended", &v));
	cr_expect(json_object_get_boolean(v));
	json_object_put(sum);
	series_free(&s);
}

/* A sample with pgpromote_success at the host and guest time of second SEC. */
static void promoted_at(struct series *s, struct bnb_reply *r, unsigned long long pages,
			unsigned sec)
{
	char lines[64];

	snprintf(lines, sizeof(lines), "c pgpromote_success %llu\n", pages);
	sample_at(s, r, lines, sec);
}

/*
 * The mean promotion rate is the workload's: over the intervals after the
 * one that saw its WORK marker (second 2) up to the one that saw WORK_END
 * (second 5), 3 s in which 3 x 256 pages moved: 1 MB/s. What the first
 * touch and the exit promoted (1000 pages each side) is not in it.
 */
Test(plugin, promotion_rate_over_the_work)
{
	struct run_info run = { .end = "agent-gone", .interval_ms = 1000 };
	struct json_object *sum, *t, *v;
	struct bnb_reply r;
	struct series s;
	unsigned sec;

	cr_assert_eq(series_init(&s, 2.0, 10, 0), 0);
	s.plugin.path = path;
	promoted_at(&s, &r, 0, 0);
	promoted_at(&s, &r, 1000, 1);
	h->work_marks = 1;
	promoted_at(&s, &r, 1000, 2);
	for (sec = 3; sec <= 5; sec++) {
		if (sec == 5)
			h->work_ends = 1;
		vcpu(0)->reads[0] += 1000;
		promoted_at(&s, &r, 1000 + 256 * (sec - 2), sec);
	}
	promoted_at(&s, &r, 2768, 6);
	sum = summary_build(&s, &run);
	cr_assert(json_object_object_get_ex(sum, "tiering", &t));
	cr_assert(json_object_object_get_ex(t, "rates_over", &v));
	cr_expect_str_eq(json_object_get_string(v), "work");
	cr_assert(json_object_object_get_ex(t, "rates_span_s", &v));
	cr_expect_float_eq(json_object_get_double(v), 3.0, 1e-9);
	cr_assert(json_object_object_get_ex(t, "promote_mbps_mean", &v));
	cr_expect_float_eq(json_object_get_double(v), 1.0, 1e-9, "promote_mbps_mean %g, want 1",
			   json_object_get_double(v));
	cr_assert(json_object_object_get_ex(t, "promoted_pages", &v));
	cr_expect_eq(json_object_get_int(v), 2768, "the total is the whole run's");
	json_object_put(sum);
	series_free(&s);
}

/*
 * The memory tiers: a third node without vCPUs is the slow tier. Each
 * interval's fast_tier_share is the share of its accesses to nodes with
 * vCPUs, whichever vCPU made them; the summary's is over the workload's
 * work. Two nodes with vCPUs have no slow tier: no share at all.
 */
Test(plugin, accesses_split_by_tier)
{
	struct run_info run = { .end = "agent-gone", .interval_ms = 1000 };
	struct json_object *sum, *v, *pl;
	struct bnb_reply r = { 0 };
	struct sample_time t = { 0 };
	struct series s;

	begin(&s, &r, &t, 2.0);
	step(&s, &t, &r, 100, 100);
	cr_expect_not(s.plugin.tier_share_defined, "two nodes with vCPUs: no slow tier");
	h->n_nodes = 3;
	h->distance[2][2] = 10;
	h->work_marks = 1;
	step(&s, &t, &r, 0, 0);				/* the marker's interval */
	vcpu(0)->reads[2] += 900;			/* slow: the hot set in CXL memory */
	step(&s, &t, &r, 100, 0);
	cr_assert(s.plugin.tier_share_defined);
	cr_expect_float_eq(s.plugin.fast_tier_share, 0.1, 1e-12);
	vcpu(1)->writes[2] += 100;			/* promoted: the other vCPU's too */
	step(&s, &t, &r, 600, 300);
	cr_expect_float_eq(s.plugin.fast_tier_share, 0.9, 1e-12);
	sum = summary_build(&s, &run);
	cr_assert(json_object_object_get_ex(sum, "plugin", &pl));
	cr_assert(json_object_object_get_ex(pl, "fast_tier_share", &v));
	cr_expect_float_eq(json_object_get_double(v), 0.5, 1e-12, "over the work: %g",
			   json_object_get_double(v));
	cr_assert(json_object_object_get_ex(pl, "acc_slow_tier", &v));
	cr_expect_eq(json_object_get_uint64(v), 1000);
	json_object_put(sum);
	series_free(&s);
}
