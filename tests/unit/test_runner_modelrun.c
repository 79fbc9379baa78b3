// SPDX-License-Identifier: GPL-2.0
/* The machine model's charges read from a run's counters file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bnb_plugin_shm.h"
#include "extract/modelrun.h"
#include "scratch.h"

static char dir[64];

/* Two vCPUs: 3 of 4 us busy stalled on one, 1 of 2 us on the other. */
static void write_shm(uint32_t flags, uint32_t version, bool bad_node)
{
	size_t size = bnb_shm_size(2);
	struct bnb_shm_header *h = calloc(1, size);
	struct bnb_shm_vcpu *c;
	char path[256];
	FILE *f;

	h->magic = BNB_SHM_MAGIC;
	h->version = version;
	h->header_size = BNB_SHM_HEADER_SIZE;
	h->vcpu_stride = sizeof(struct bnb_shm_vcpu);
	h->n_vcpus = 2;
	h->flags = flags;
	c = (struct bnb_shm_vcpu *)((char *)h + BNB_SHM_HEADER_SIZE);
	c[0].tk_local_ps = 5000000;
	c[0].tk_catchup_ps = 1000000;
	c[0].tk_stall_ps = 3000000;
	c[0].model_misses = 10;
	c[0].model_lat_ps = 100;
	c[0].model_bw_ps = 300;
	c[1].tk_local_ps = 2000000;
	c[1].tk_stall_ps = 1000000;
	c[1].model_misses = 5;
	/* a 2-node 2socket model, one vCPU a node, D = 4000 / 300 */
	h->n_nodes = 2;
	h->vcpu_node[1] = 1;
	h->insn_ps = 4000;
	h->hw_insn_ps = 300;
	snprintf(h->model_name, sizeof(h->model_name), "2socket");
	h->model_node_mbs = 69300;
	h->model_link_mbs = 34400;
	h->model_hw_cpus = 16;
	h->model_mlp = 10;
	h->model_lat_ns[0][0] = h->model_lat_ns[1][1] = 108;
	h->model_lat_ns[0][1] = h->model_lat_ns[1][0] = 196;
	if (bad_node)
		h->vcpu_node[1] = 2;
	snprintf(path, sizeof(path), "%s/%s", dir, MODELRUN_SHM);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fwrite(h, size, 1, f);
	fclose(f);
	free(h);
}

static void setup(void)
{
	scratch_make(dir, sizeof(dir), "modelrun");
}

static void teardown(void)
{
	scratch_remove(dir);
}

TestSuite(modelrun, .init = setup, .fini = teardown);

Test(modelrun, stall_share_of_busy_time)
{
	struct xmetrics x = { 0 };

	write_shm(BNB_SHM_F_TIMEKEEPER | BNB_SHM_F_MODEL, BNB_SHM_VERSION, false);
	modelrun_add(dir, &x);
	cr_assert_not_null(xm_find(&x, "model_stall_share"));
	cr_assert_float_eq(xm_find(&x, "model_stall_share")->value, 4.0 / 6.0, 1e-9);
	cr_assert_float_eq(xm_find(&x, "model_stall_s")->value, 4e-6, 1e-15);
	cr_assert_float_eq(xm_find(&x, "model_misses")->value, 15, 1e-9);
	cr_assert_float_eq(xm_find(&x, "model_bw_share")->value, 0.75, 1e-9);
}

Test(modelrun, nothing_without_the_model_or_from_a_foreign_file)
{
	struct xmetrics x = { 0 };

	write_shm(BNB_SHM_F_TIMEKEEPER, BNB_SHM_VERSION, false);
	modelrun_add(dir, &x);
	cr_assert_eq(x.n, 0);
	write_shm(BNB_SHM_F_MODEL, BNB_SHM_VERSION + 1, false);
	modelrun_add(dir, &x);
	cr_assert_eq(x.n, 0);
}

Test(modelrun, configuration_in_hardware_units)
{
	struct modelrun_config c;

	write_shm(BNB_SHM_F_TIMEKEEPER | BNB_SHM_F_MODEL, BNB_SHM_VERSION, false);
	cr_assert_eq(modelrun_config(dir, &c), 0);
	cr_assert_str_eq(c.name, "2socket");
	cr_assert_eq(c.n_nodes, 2);
	cr_assert_eq(c.cpus[0], 1);
	cr_assert_eq(c.cpus[1], 1);
	cr_assert_float_eq(c.lat_ns[0][1], 196, 1e-9);
	cr_assert_float_eq(c.node_mbs, 69300, 1e-9);
	cr_assert_eq(c.hw_cpus, 16);
	cr_assert_float_eq(c.d, 4000.0 / 300, 1e-9);
	write_shm(BNB_SHM_F_TIMEKEEPER | BNB_SHM_F_MODEL, BNB_SHM_VERSION, true);
	cr_assert_eq(modelrun_config(dir, &c), -1, "a vCPU on node 2 of 2 accepted");
	write_shm(BNB_SHM_F_TIMEKEEPER, BNB_SHM_VERSION, false);
	cr_assert_eq(modelrun_config(dir, &c), -1, "no model, yet a configuration");
}
