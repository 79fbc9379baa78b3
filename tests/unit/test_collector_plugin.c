// SPDX-License-Identifier: GPL-2.0
/*
 * The plugin's counters file as the collector reads it: a file laid out
 * per bench/include/bnb_plugin_shm.h, header validation of hostile
 * variants, and the derived locality and benefit per sample.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bnb_plugin_shm.h"
#include "plugin.h"
#include "series.h"

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
	uint64_t l, r;
	char err[160];

	vcpu(0)->reads[0] = 100;	/* local */
	vcpu(0)->writes[1] = 7;		/* remote */
	vcpu(1)->reads[1] = 50;		/* local */
	vcpu(1)->reads[0] = 3;		/* remote */
	vcpu(1)->writes[0] = 2;		/* remote */
	cr_assert(plugin_read(&p, &l, &r, err, sizeof(err)), "%s", err);
	cr_expect_eq(l, 150);
	cr_expect_eq(r, 12);
	plugin_close(&p);
}

static void expect_bad(const char *why)
{
	struct plugin_state p = { .path = path };
	uint64_t l, r;
	char err[160] = "";

	cr_expect_not(plugin_read(&p, &l, &r, err, sizeof(err)));
	cr_expect(strstr(err, why), "error '%s' does not mention '%s'", err, why);
	plugin_close(&p);
}

Test(plugin, hostile_headers)
{
	h->magic ^= 1;
	expect_bad("magic");
	h->magic ^= 1;
	h->version = 2;
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
	uint64_t l, r;
	char err[160];

	cr_expect_not(plugin_read(&p, &l, &r, err, sizeof(err)));
	cr_expect(strstr(err, "cannot open"), "%s", err);
}

/*
 * benefit: the first interval with data (1 s) had 100 remote accesses;
 * the next 1 s interval has 40: (100 - 40) * Wnuma 2 = 120.
 */
Test(plugin, locality_and_benefit)
{
	struct series s;
	struct bnb_reply r = { 0 };
	struct sample_time t = { 0 };

	cr_assert_eq(series_init(&s, 2.0, 10), 0);
	s.plugin.path = path;
	series_columns(&s, &r);
	series_update(&s, &r, &t);			/* baseline read */
	cr_expect(s.plugin.valid);
	cr_expect_not(s.plugin.locality_defined);

	vcpu(0)->reads[0] += 300;
	vcpu(0)->reads[1] += 100;
	t.guest_ns = t.req_ns = t.rep_ns = 1000000000;
	r.guest_ns = t.guest_ns;
	series_update(&s, &r, &t);
	cr_expect_float_eq(s.plugin.true_locality, 0.75, 1e-12);
	cr_expect_float_eq(s.plugin.benefit_cum, 0, 1e-12);

	vcpu(0)->reads[0] += 360;
	vcpu(0)->reads[1] += 40;
	t.guest_ns = t.req_ns = t.rep_ns = 2000000000;
	series_update(&s, &r, &t);
	cr_expect_float_eq(s.plugin.true_locality, 0.9, 1e-12);
	cr_expect_float_eq(s.plugin.benefit_cum, 120, 1e-9);
	cr_expect_eq(s.plugin.local, 660);
	cr_expect_eq(s.plugin.remote, 140);
	series_free(&s);
}
