// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the machine model's arithmetic; see model.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#define PS_PER_US	1000000ULL
#define NO_LINE		UINT64_MAX

int bnb_model_check(const struct bnb_model_params *p, char *err, size_t errlen)
{
	unsigned int n = p->n_nodes;

	if (n < 1 || n > BNB_MODEL_MAX_NODES)
		return snprintf(err, errlen, "model: %u nodes; want 1..%u", n,
				BNB_MODEL_MAX_NODES), -1;
	if (!p->node_mbs)
		return snprintf(err, errlen, "model: node bandwidth must be above 0"), -1;
	if (n > 1 && !p->link_mbs)
		return snprintf(err, errlen, "model: link bandwidth must be above 0"), -1;
	if (!p->mlp)
		return snprintf(err, errlen, "model: mlp (misses in flight) must be at least 1"), -1;
	if (!p->hw_cpus_per_node)
		return snprintf(err, errlen, "model: CPUs per node of the modelled machine must be at least 1"), -1;
	if (!p->window_ps)
		return snprintf(err, errlen, "model: window must be above 0"), -1;
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = 0; j < n; j++) {
			if (!p->lat_ps[i][j])
				return snprintf(err, errlen, "model: latency %u->%u must be above 0", i, j), -1;
			if (p->lat_ps[i][j] < p->lat_ps[i][i])
				return snprintf(err, errlen,
					"model: latency %u->%u (%llu ps) is below the local %u->%u (%llu ps)",
					i, j, (unsigned long long)p->lat_ps[i][j], i, i,
					(unsigned long long)p->lat_ps[i][i]), -1;
		}
	return 0;
}

void bnb_model_lat_from_dist(struct bnb_model_params *p, uint64_t local_ps,
			     const uint8_t dist[][BNB_SHM_MAX_NODES])
{
	for (unsigned int i = 0; i < p->n_nodes; i++)
		for (unsigned int j = 0; j < p->n_nodes; j++)
			p->lat_ps[i][j] = (local_ps * dist[i][j] + 5) / 10;
}

/* One line's time at bandwidth mbs, kept per CPU for a node of cpus vCPUs. */
static uint64_t line_ps(const struct bnb_model_params *p, uint64_t mbs, unsigned int cpus)
{
	uint64_t eff = cpus < 1 ? 1 : cpus;

	if (eff > p->hw_cpus_per_node)
		eff = p->hw_cpus_per_node;
	/* 64 B at 1 MB/s is 64 us */
	return (BNB_MODEL_LINE * PS_PER_US * p->hw_cpus_per_node + mbs * eff / 2) /
	       (mbs * eff);
}

static void init_vcpus(struct bnb_model *m)
{
	unsigned int i = 0;

	for (unsigned int node = 0; node < m->p.n_nodes; node++)
		for (unsigned int k = 0; k < m->p.cpus[node]; k++, i++) {
			m->v[i].node = node;
			for (unsigned int s = 0; s < BNB_MODEL_STREAMS; s++)
				m->v[i].stream[s] = NO_LINE;
		}
}

int bnb_model_init(struct bnb_model *m, const struct bnb_model_params *p)
{
	unsigned int n = p->n_nodes;

	memset(m, 0, sizeof(*m));
	m->p = *p;
	for (unsigned int i = 0; i < n; i++)
		m->n_vcpus += p->cpus[i];
	m->v = calloc(m->n_vcpus ? m->n_vcpus : 1, sizeof(*m->v));
	m->mem = calloc(n, sizeof(*m->mem));
	m->link = calloc((size_t)n * n, sizeof(*m->link));
	if (!m->v || !m->mem || !m->link) {
		bnb_model_free(m);
		return -1;
	}
	for (unsigned int j = 0; j < n; j++) {
		m->mem[j].line_ps = line_ps(p, p->node_mbs, p->cpus[j]);
		for (unsigned int i = 0; i < n && p->link_mbs; i++)
			m->link[i * n + j].line_ps = line_ps(p, p->link_mbs, p->cpus[i]);
	}
	init_vcpus(m);
	return 0;
}

void bnb_model_free(struct bnb_model *m)
{
	free(m->v);
	free(m->mem);
	free(m->link);
	m->v = NULL;
	m->mem = m->link = NULL;
}

/* Does line continue one of v's streams?  Either way it is now one. */
static int sequential(struct bnb_model_vcpu *v, uint64_t line)
{
	for (unsigned int s = 0; s < BNB_MODEL_STREAMS; s++)
		if (v->stream[s] != NO_LINE && line == v->stream[s] + 1) {
			v->stream[s] = line;
			return 1;
		}
	v->stream[v->next_stream] = line;
	v->next_stream = (v->next_stream + 1) % BNB_MODEL_STREAMS;
	return 0;
}

/*
 * Count v in window w of r once (*seen remembers), and return how many
 * vCPUs share r: the larger of this window's users and the last one's.
 */
static unsigned int share(struct bnb_model_res *r, uint64_t *seen, uint64_t w)
{
	struct bnb_model_win *cur = &r->ring[w % BNB_MODEL_RING];
	struct bnb_model_win *prev = &r->ring[(w + BNB_MODEL_RING - 1) % BNB_MODEL_RING];
	unsigned int users;

	if (cur->tag > w + 1)
		return 1;	/* lagging further than the ring remembers */
	if (cur->tag != w + 1) {
		cur->tag = w + 1;
		cur->users = 0;
	}
	if (*seen != w + 1) {
		*seen = w + 1;
		cur->users++;
	}
	users = cur->users;
	if (w && prev->tag == w && prev->users > users)
		users = prev->users;
	return users;
}

uint64_t bnb_model_miss(struct bnb_model *m, unsigned int vi, unsigned int mem,
			uint64_t line, uint64_t now_ps)
{
	struct bnb_model_vcpu *v = &m->v[vi];
	uint64_t w = now_ps / m->p.window_ps;
	uint64_t lat = m->p.lat_ps[v->node][mem];
	uint64_t bw, stall;
	int seq = sequential(v, line);

	if (seq)
		lat /= m->p.mlp;
	bw = m->mem[mem].line_ps * share(&m->mem[mem], &v->seen_mem[mem], w);
	if (mem != v->node) {
		struct bnb_model_res *l = &m->link[v->node * m->p.n_nodes + mem];
		uint64_t lbw = l->line_ps * share(l, &v->seen_link[mem], w);

		if (lbw > bw)
			bw = lbw;
	}
	stall = lat > bw ? lat : bw;
	v->misses++;
	v->seq_misses += seq;
	v->stall_ps += stall;
	*(lat >= bw ? &v->lat_ps : &v->bw_ps) += stall;
	return stall;
}
