// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the machine model's arithmetic; see model.h.
 */
#include <stdbool.h>
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
	if (!p->node_bandwidth_mbs)
		return snprintf(err, errlen, "model: node bandwidth must be above 0"), -1;
	if (n > 1 && !p->link_bandwidth_mbs)
		return snprintf(err, errlen, "model: link bandwidth must be above 0"), -1;
	if (!p->mlp)
		return snprintf(err, errlen, "model: mlp (misses in flight) must be at least 1"), -1;
	if (!p->cpus_per_node)
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
			p->lat_ps[i][j] = bnb_model_lat_ps(local_ps, dist[i][j]);
}

/* One line's time at bandwidth mbs, kept per CPU for a node of cpus vCPUs. */
static uint64_t line_ps(const struct bnb_model_params *p, uint64_t mbs, unsigned int cpus)
{
	uint64_t eff = cpus < 1 ? 1 : cpus;

	if (eff > p->cpus_per_node)
		eff = p->cpus_per_node;
	/* 64 B at 1 MB/s is 64 us */
	return (BNB_MODEL_LINE * PS_PER_US * p->cpus_per_node + mbs * eff / 2) /
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
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = 0; j < n; j++)
			m->seq_step_ps[i][j] = p->lat_ps[i][j] / p->mlp;
	for (unsigned int j = 0; j < n; j++) {
		m->mem[j].line_ps = line_ps(p, p->node_bandwidth_mbs, p->cpus[j]);
		for (unsigned int i = 0; i < n && p->link_bandwidth_mbs; i++)
			m->link[i * n + j].line_ps = line_ps(p, p->link_bandwidth_mbs, p->cpus[i]);
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

/*
 * Does line continue one of v's streams?  Either way it is now one: a
 * new stream replaces the one that grew least recently, so that a stray
 * miss (a stack line, an interrupt's) ends no stream that is still
 * growing, as a prefetcher's stream table replaces its oldest entry.
 */
static int sequential(struct bnb_model_vcpu *v, uint64_t line)
{
	unsigned int oldest = 0;

	for (unsigned int s = 0; s < BNB_MODEL_STREAMS; s++) {
		if (v->stream[s] != NO_LINE && line == v->stream[s] + 1) {
			v->stream[s] = line;
			v->stream_used[s] = v->misses + 1;
			return 1;
		}
		if (v->stream_used[s] < v->stream_used[oldest])
			oldest = s;
	}
	v->stream[oldest] = line;
	v->stream_used[oldest] = v->misses + 1;
	return 0;
}

/* v's lines on a resource in window x (0 when not kept). */
static uint64_t own_lines(const struct bnb_model_use *u, uint64_t x)
{
	return u->tag[x % BNB_MODEL_HIST] == x + 1 ? u->lines[x % BNB_MODEL_HIST] : 0;
}

/* Start window w for r and for v's use u of it; count one line. */
static void count(struct bnb_model_res *r, struct bnb_model_use *u, uint64_t w)
{
	struct bnb_model_win *cur = &r->ring[w % BNB_MODEL_RING];
	unsigned int slot = w % BNB_MODEL_HIST;

	if (cur->tag != w + 1) {
		cur->tag = w + 1;
		cur->users = 0;
		cur->lines = 0;
	}
	if (u->tag[slot] != w + 1) {
		u->tag[slot] = w + 1;
		u->lines[slot] = 0;
		cur->users++;
	}
	cur->lines++;
	u->lines[slot]++;
}

/* Add r's lines and v's (use u) in windows [from, to); raise *users to r's most. */
static void tally(const struct bnb_model_res *r, const struct bnb_model_use *u,
		  uint64_t from, uint64_t to, uint64_t *users, uint64_t *lines, uint64_t *own)
{
	for (uint64_t x = from; x < to; x++) {
		const struct bnb_model_win *win = &r->ring[x % BNB_MODEL_RING];

		if (win->tag != x + 1)
			continue;
		if (win->users > *users)
			*users = win->users;
		*lines += win->lines;
		*own += own_lines(u, x);
	}
}

/*
 * r's line time at v's share, own of lines: the division is kept, for
 * the history windows change seldom once complete, and it was a tenth of
 * a miss's host time.
 */
static uint64_t share(const struct bnb_model_res *r, struct bnb_model_use *u,
		      uint64_t lines, uint64_t own)
{
	if (lines != u->share_lines || own != u->share_own) {
		u->share_lines = lines;
		u->share_own = own;
		u->share_ps = (r->line_ps * lines + own / 2) / own;
	}
	return u->share_ps;
}

/*
 * One line's time at v's share of r in window w: r's lines over v's in
 * windows w - 3 and w - 2, at most the number of vCPUs sharing it.  Not
 * w - 1: a vCPU that entered w ahead of the others would count their
 * lines in w - 1 before they had all missed them, and its share and
 * theirs would add up to more than r.  Without history there (v has
 * just begun to use r), w - 1 and w, the best there is.
 */
static uint64_t pace(struct bnb_model_res *r, struct bnb_model_use *u, uint64_t w)
{
	const struct bnb_model_win *cur = &r->ring[w % BNB_MODEL_RING];
	uint64_t last = w >= 1 ? w - 1 : 0, users, lines = 0, own = 0;

	if (cur->tag > w + 1)
		return r->line_ps;	/* lagging further than the ring remembers */
	count(r, u, w);
	users = cur->users;
	tally(r, u, w >= 3 ? w - 3 : 0, last, &users, &lines, &own);
	if (!own) {
		lines = 0;
		tally(r, u, last, w + 1, &users, &lines, &own);
	}
	if (lines > own * users)
		return r->line_ps * users;
	return share(r, u, lines, own);
}

uint64_t bnb_model_miss(struct bnb_model *m, unsigned int vi, unsigned int mem,
			uint64_t line, uint64_t now_ps)
{
	struct bnb_model_vcpu *v = &m->v[vi];
	uint64_t w = bnb_model_window(&v->win, &v->win_start_ps, now_ps, m->p.window_ps);
	uint64_t lat = m->p.lat_ps[v->node][mem];
	uint64_t seq_step = m->seq_step_ps[v->node][mem];
	uint64_t step, start, stall, *done = &v->done_ps[mem];
	int seq = sequential(v, line);
	bool by_bw;

	step = pace(&m->mem[mem], &v->mem[mem], w);
	if (mem != v->node) {
		uint64_t l = pace(&m->link[v->node * m->p.n_nodes + mem], &v->link[mem], w);

		if (l > step)
			step = l;
	}
	if (seq) {
		uint64_t ahead;

		by_bw = step > seq_step;
		if (!by_bw)
			step = seq_step;
		/* up to mlp lines may have been fetched while the core ran */
		ahead = step * m->p.mlp;
		start = now_ps > ahead && now_ps - ahead > *done ? now_ps - ahead : *done;
		*done = start + step;
		stall = *done > now_ps ? *done - now_ps : 0;
	} else {
		start = *done > now_ps ? *done : now_ps;
		stall = start + step - now_ps;
		by_bw = stall > lat;
		if (!by_bw)
			stall = lat;
		*done = now_ps + stall;
	}
	v->misses++;
	v->seq_misses += seq;
	v->stall_ps += stall;
	*(by_bw ? &v->bw_ps : &v->lat_ps) += stall;
	return stall;
}
