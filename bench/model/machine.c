// SPDX-License-Identifier: GPL-2.0
/*
 * machine.c - the modelled machine classes; see machine.h.  The figures
 * and their sources are in bench/model/README.md ("Classes and their sources").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "model.h"

static const struct bnb_machine machines[] = {
	/* 2-socket Xeon (E5 v3/v4 class): MLC idle 108.2 / 195.7 ns,
	 * read bandwidth 69.3 GB/s local, 34.4 GB/s remote */
	{ "2socket", 108, 196, 69300, 34400, 16, 10 },
	/* 4-node Opteron (2012 class): ~100 ns idle; perf bench numa,
	 * two threads, 13.177 GB/s local, 7.371 GB/s remote; 32 CPUs */
	{ "4node", 100, 0, 13177, 7371, 8, 10 },
};

const struct bnb_machine *bnb_machine_find(const char *name)
{
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (!strcmp(name, machines[i].name))
			return &machines[i];
	return NULL;
}

const struct bnb_machine *bnb_machine_at(unsigned int i)
{
	if (!i || i > sizeof(machines) / sizeof(machines[0]))
		return NULL;
	return &machines[i - 1];
}

void bnb_machine_refine(struct bnb_machine *m, unsigned long lat_ns, unsigned long node_mbs,
			unsigned long link_mbs, unsigned long hw_cpus, unsigned long mlp)
{
	if (lat_ns) {
		m->lat_ns = lat_ns;
		m->remote_lat_ns = 0;	/* the distances give the rest */
	}
	if (node_mbs)
		m->node_mbs = node_mbs;
	if (link_mbs)
		m->link_mbs = link_mbs;
	if (hw_cpus)
		m->hw_cpus = hw_cpus;
	if (mlp)
		m->mlp = mlp;
}

/* "a,b;c,d" (rows split by ';' or '/') into lat_ps; -1 with err. */
static int parse_table(const char *s, unsigned int n, struct bnb_model_params *p,
		       char *err, size_t errlen)
{
	unsigned int i = 0, j = 0;

	while (*s) {
		char *end;
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || i >= n || j >= n)
			return snprintf(err, errlen, "latency table: want %u rows of %u ns values", n, n), -1;
		p->lat_ps[i][j++] = (uint64_t)v * 1000;
		s = end;
		if (*s == ',') {
			s++;
		} else if (*s == ';' || *s == '/' || !*s) {
			if (j != n)
				return snprintf(err, errlen, "latency table: row %u has %u values; want %u (one per node)", i, j, n), -1;
			i++;
			j = 0;
			s += !!*s;
		} else {
			return snprintf(err, errlen, "latency table: '%c' is not a digit, ',' or ';'", *s), -1;
		}
	}
	if (i != n)
		return snprintf(err, errlen, "latency table: %u rows; want %u (one per node)", i, n), -1;
	return 0;
}

static int build_params(const struct bnb_machine_cfg *c, struct bnb_model_params *p,
			char *err, size_t errlen)
{
	const struct bnb_machine *m = &c->m;

	memset(p, 0, sizeof(*p));
	p->n_nodes = c->n_nodes;
	memcpy(p->cpus, c->cpus, sizeof(p->cpus));
	p->node_mbs = m->node_mbs;
	p->link_mbs = m->link_mbs;
	p->hw_cpus_per_node = m->hw_cpus;
	p->mlp = m->mlp;
	p->window_ps = 1;	/* the plugin's own default is checked there */
	if (c->lat_table)
		return parse_table(c->lat_table, c->n_nodes, p, err, errlen);
	bnb_model_lat_from_dist(p, (uint64_t)m->lat_ns * 1000, c->dist);
	if (c->n_nodes == 2 && m->remote_lat_ns)
		p->lat_ps[0][1] = p->lat_ps[1][0] = (uint64_t)m->remote_lat_ns * 1000;
	return 0;
}

int bnb_machine_plugin_opts(const struct bnb_machine_cfg *c,
			    void (*add)(void *ctx, const char *kv), void *ctx,
			    char *err, size_t errlen)
{
	struct bnb_model_params p;
	char kv[BNB_SHM_MAX_NODES * BNB_SHM_MAX_NODES * 7 + 16];
	size_t used;

	if (build_params(c, &p, err, errlen) || bnb_model_check(&p, err, errlen))
		return -1;
	add(ctx, "model=on");
	add(ctx, "delay=on");
	snprintf(kv, sizeof(kv), "model_name=%s", c->m.name);
	add(ctx, kv);
	used = snprintf(kv, sizeof(kv), "lat=");
	for (unsigned int i = 0; i < p.n_nodes; i++)
		for (unsigned int j = 0; j < p.n_nodes; j++)
			used += snprintf(kv + used, sizeof(kv) - used, "%s%llu", i || j ? ":" : "",
					 (unsigned long long)(p.lat_ps[i][j] / 1000));
	add(ctx, kv);
	snprintf(kv, sizeof(kv), "node_mbs=%lu", c->m.node_mbs);
	add(ctx, kv);
	snprintf(kv, sizeof(kv), "link_mbs=%lu", c->m.link_mbs);
	add(ctx, kv);
	snprintf(kv, sizeof(kv), "hw_cpus=%lu", c->m.hw_cpus);
	add(ctx, kv);
	snprintf(kv, sizeof(kv), "mlp=%lu", c->m.mlp);
	add(ctx, kv);
	return 0;
}
