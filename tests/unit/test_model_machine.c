// SPDX-License-Identifier: GPL-2.0
/* The machine classes turned into the plugin's model options. */
#include <criterion/criterion.h>
#include <string.h>

#include "model/machine.h"

static char opts[2048];
static char err[256];

static void add(void *ctx, const char *kv)
{
	strcat(opts, kv);
	strcat(opts, " ");
}

static int build(const char *name, unsigned int nodes, const char *table)
{
	struct bnb_machine_cfg c = { .m = *bnb_machine_find(name), .lat_table = table,
				     .n_nodes = nodes };

	for (unsigned int i = 0; i < nodes; i++) {
		c.cpus[i] = 1;
		for (unsigned int j = 0; j < nodes; j++)
			c.dist[i][j] = i == j ? 10 : 20;
	}
	opts[0] = err[0] = '\0';
	return bnb_machine_plugin_opts(&c, add, NULL, err, sizeof(err));
}

Test(machine, classes_known)
{
	cr_assert_not_null(bnb_machine_find("2socket"));
	cr_assert_not_null(bnb_machine_find("4node"));
	cr_assert_null(bnb_machine_find("off"));
	cr_assert_null(bnb_machine_find("8node"));
}

Test(machine, two_sockets_use_the_measured_remote_latency)
{
	cr_assert_eq(build("2socket", 2, NULL), 0, "%s", err);
	cr_assert(strstr(opts, "model=on delay=on model_name=2socket lat=108:196:196:108 "
			 "node_mbs=69300 link_mbs=34400 hw_cpus=16 mlp=10 "), "%s", opts);
}

Test(machine, four_nodes_scale_latency_by_distance)
{
	cr_assert_eq(build("4node", 4, NULL), 0, "%s", err);
	cr_assert(strstr(opts, "lat=100:200:200:200:200:100:"), "%s", opts);
}

Test(machine, a_table_must_fit)
{
	cr_assert_eq(build("2socket", 2, "90,150;160,95"), 0, "%s", err);
	cr_assert(strstr(opts, "lat=90:150:160:95 "), "%s", opts);
	cr_assert_eq(build("2socket", 2, "90,150"), -1);
	cr_assert(strstr(err, "latency table"), "%s", err);
	cr_assert_eq(build("2socket", 2, "90,150,1;160,95"), -1);
	cr_assert_eq(build("2socket", 2, "90,80;160,95"), -1);
	cr_assert(strstr(err, "below the local"), "%s", err);
	cr_assert_eq(build("2socket", 2, "0,150;160,95"), -1);
	cr_assert(strstr(err, "above 0"), "%s", err);
}
