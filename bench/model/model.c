// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the machine model's arithmetic; see model.h.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "model.h"

#define PS_PER_US	1000000ULL
#define NO_LINE		UINT64_MAX

unsigned int bnb_model_n_links(const struct bnb_model_params *p)
{
	return p->n_links ? p->n_links : p->n_nodes * (p->n_nodes - 1) / 2;
}

struct bnb_model_link bnb_model_link_get(const struct bnb_model_params *p, unsigned int k)
{
	struct bnb_model_link l = { .mbs = p->link_bandwidth_mbs };
	unsigned int a = 0;

	if (p->n_links)
		return p->link[k];
	/* pairs in order: (0,1), (0,2) .. (0,n-1), (1,2) .. */
	while (k >= p->n_nodes - 1 - a)
		k -= p->n_nodes - 1 - a++;
	l.a = a;
	l.b = a + 1 + k;
	return l;
}

uint64_t bnb_model_peak_mbs(const struct bnb_model_params *p, unsigned int i, unsigned int j)
{
	uint64_t mbs = p->mem_mbs[j] ? p->mem_mbs[j] : p->node_bandwidth_mbs;
	const unsigned char *r = p->route[i][j];

	for (unsigned int h = 1; h < p->route_len[i][j]; h++) {
		int k = bnb_model_link_between(p, r[h - 1], r[h]);
		uint64_t link = k < 0 ? mbs : bnb_model_link_get(p, (unsigned int)k).mbs;

		mbs = link < mbs ? link : mbs;
	}
	return mbs;
}

static bool same_pair(const struct bnb_model_link *x, const struct bnb_model_link *y)
{
	return (x->a == y->a && x->b == y->b) || (x->a == y->b && x->b == y->a);
}

int bnb_model_link_between(const struct bnb_model_params *p, unsigned int a, unsigned int b)
{
	unsigned int n = p->n_nodes;

	if (a == b || a >= n || b >= n)
		return -1;
	if (!p->n_links) {
		unsigned int lo = a < b ? a : b, hi = a < b ? b : a;

		return lo * n - lo * (lo + 1) / 2 + (hi - lo - 1);
	}
	for (unsigned int k = 0; k < p->n_links; k++)
		if (same_pair(&p->link[k], &(struct bnb_model_link){ .a = a, .b = b }))
			return k;
	return -1;
}

static int check_links(const struct bnb_model_params *p, char *err, size_t errlen)
{
	unsigned int n = p->n_nodes, top = 0;

	if (!p->n_links)
		return n > 1 && !p->link_bandwidth_mbs ?
			errf(err, errlen, "link bandwidth must be above 0") : 0;
	if (p->n_links > BNB_MODEL_MAX_LINKS)
		return errf(err, errlen, "%u links; at most %u", p->n_links, BNB_MODEL_MAX_LINKS);
	for (unsigned int k = 0; k < p->n_links; k++) {
		const struct bnb_model_link *l = &p->link[k];

		if (l->a == l->b)
			return errf(err, errlen, "link %u-%u joins a node to itself", l->a, l->b);
		if (!l->mbs)
			return errf(err, errlen, "link %u-%u: bandwidth must be above 0", l->a, l->b);
		for (unsigned int e = 0; e < k; e++)
			if (same_pair(&p->link[e], l))
				return errf(err, errlen, "link %u-%u is given twice", l->a, l->b);
		top = l->a > top ? l->a : top;
		top = l->b > top ? l->b : top;
	}
	if (top + 1 != n)
		return errf(err, errlen, "the links join nodes 0-%u; the guest "
			    "has %u node%s", top, n, n == 1 ? "" : "s");
	return 0;
}

/* Which nodes are joined: adj[a][b]. */
static void adjacency(const struct bnb_model_params *p, bool adj[][BNB_MODEL_MAX_NODES])
{
	for (unsigned int a = 0; a < p->n_nodes; a++)
		for (unsigned int b = 0; b < p->n_nodes; b++)
			adj[a][b] = bnb_model_link_between(p, a, b) >= 0;
}

/*
 * Breadth first from src, neighbours in node order: parent[] of every
 * node reached (src its own), hops[] its distance, UCHAR_MAX unreached.
 * The first parent found gives each node the path through the
 * lowest-numbered nodes among its shortest, compared from src's end.
 */
static void breadth_first(const struct bnb_model_params *p, bool adj[][BNB_MODEL_MAX_NODES],
			  unsigned int src, unsigned char *parent, unsigned char *hops)
{
	unsigned char queue[BNB_MODEL_MAX_NODES];
	unsigned int head = 0, tail = 0;

	memset(hops, UCHAR_MAX, BNB_MODEL_MAX_NODES);
	hops[src] = 0;
	parent[src] = src;
	queue[tail++] = src;
	while (head < tail) {
		unsigned int x = queue[head++];

		for (unsigned int y = 0; y < p->n_nodes; y++)
			if (adj[x][y] && hops[y] == UCHAR_MAX) {
				hops[y] = hops[x] + 1;
				parent[y] = x;
				queue[tail++] = y;
			}
	}
}

const char *bnb_model_route_text(const unsigned char *r, unsigned int len, char *buf,
				 size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned int h = 0; h < len && at < size; h++)
		at += snprintf(buf + at, size - at, "%s%u", h ? "-" : "", r[h]);
	return buf;
}

/* A route given for i->j: from i to j over links, no node twice. */
static int check_route(const struct bnb_model_params *p, bool adj[][BNB_MODEL_MAX_NODES],
		       unsigned int i, unsigned int j, char *err, size_t errlen)
{
	const unsigned char *r = p->route[i][j];
	unsigned int len = p->route_len[i][j];
	bool seen[BNB_MODEL_MAX_NODES] = { false };
	char text[4 * (BNB_MODEL_MAX_HOPS + 1) + 1];

	if (i == j)
		return errf(err, errlen, "a route from node %u to its own memory", i);
	if (len < 2 || len > BNB_MODEL_MAX_HOPS + 1)
		return errf(err, errlen, "route %u->%u of %u nodes; want 2 to %u", i, j, len,
			    BNB_MODEL_MAX_HOPS + 1);
	bnb_model_route_text(r, len, text, sizeof(text));
	if (r[0] != i || r[len - 1] != j)
		return errf(err, errlen, "route %s does not lead from node %u to node %u", text, i, j);
	for (unsigned int h = 0; h < len; h++) {
		if (r[h] >= p->n_nodes)
			return errf(err, errlen, "route %s: node %u; the guest has %u nodes", text,
				    r[h], p->n_nodes);
		if (seen[r[h]])
			return errf(err, errlen, "route %s crosses node %u twice", text, r[h]);
		seen[r[h]] = true;
		if (h && !adj[r[h - 1]][r[h]])
			return errf(err, errlen, "route %s crosses %u-%u, which is not a link", text,
				    r[h - 1], r[h]);
	}
	return 0;
}

int bnb_model_check_graph(const struct bnb_model_params *p, const char **what,
			  char *err, size_t errlen)
{
	bool adj[BNB_MODEL_MAX_NODES][BNB_MODEL_MAX_NODES];
	unsigned char parent[BNB_MODEL_MAX_NODES], hops[BNB_MODEL_MAX_NODES];

	*what = "links";
	if (check_links(p, err, errlen))
		return -1;
	adjacency(p, adj);
	for (unsigned int i = 0; i < p->n_nodes; i++) {
		breadth_first(p, adj, i, parent, hops);
		for (unsigned int j = 0; j < p->n_nodes; j++) {
			if (p->route_len[i][j]) {
				*what = "routes";
				if (check_route(p, adj, i, j, err, errlen))
					return -1;
				continue;
			}
			*what = "links";
			if (hops[j] == UCHAR_MAX)
				return errf(err, errlen, "no route from node %u to node %u: no links "
					    "join them", i, j);
			if (hops[j] > BNB_MODEL_MAX_HOPS)
				return errf(err, errlen, "node %u to node %u is %u hops; at most %u",
					    i, j, hops[j], BNB_MODEL_MAX_HOPS);
		}
	}
	return 0;
}

void bnb_model_fill_routes(struct bnb_model_params *p)
{
	bool adj[BNB_MODEL_MAX_NODES][BNB_MODEL_MAX_NODES];
	unsigned char parent[BNB_MODEL_MAX_NODES], hops[BNB_MODEL_MAX_NODES];

	adjacency(p, adj);
	for (unsigned int i = 0; i < p->n_nodes; i++) {
		breadth_first(p, adj, i, parent, hops);
		for (unsigned int j = 0; j < p->n_nodes; j++) {
			if (j == i || p->route_len[i][j] || hops[j] == UCHAR_MAX)
				continue;
			p->route_len[i][j] = hops[j] + 1;
			for (unsigned int x = j, h = hops[j] + 1; h-- > 0; x = parent[x])
				p->route[i][j][h] = x;
		}
	}
}

int bnb_model_check(const struct bnb_model_params *p, char *err, size_t errlen)
{
	unsigned int n = p->n_nodes;
	const char *what;

	if (n < 1 || n > BNB_MODEL_MAX_NODES)
		return snprintf(err, errlen, "model: %u nodes; want 1..%u", n,
				BNB_MODEL_MAX_NODES), -1;
	if (!p->node_bandwidth_mbs)
		return snprintf(err, errlen, "model: node bandwidth must be above 0"), -1;
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
	if (bnb_model_check_graph(p, &what, err, errlen))
		return errf_prefix(err, errlen, "model: %s", what);
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

/* Link k's direction that carries lines from node from, and its line time. */
static unsigned int direction(const struct bnb_model_params *p, unsigned int k, unsigned int from)
{
	return 2 * k + (bnb_model_link_get(p, k).a == from ? 0 : 1);
}

/*
 * The route of lines from node j to initiator i, memory side first, and
 * i's use of each link on it: an index into i's vCPUs' link[] by the
 * first route of i that crosses it (use_of[], per initiator).
 */
static void build_route(struct bnb_model *m, unsigned int i, unsigned int j,
			short *use_of, unsigned int *n_uses)
{
	const struct bnb_model_params *p = &m->p;
	const unsigned char *path = p->route[i][j];
	struct bnb_model_route *r = &m->route[i * p->n_nodes + j];
	unsigned int len = p->route_len[i][j];

	r->hops = len ? len - 1 : 0;
	for (unsigned int h = 0; h < r->hops; h++) {
		unsigned int from = path[len - 1 - h], to = path[len - 2 - h];
		unsigned int res = direction(p, bnb_model_link_between(p, from, to), from);

		if (use_of[res] < 0)
			use_of[res] = (*n_uses)++;
		r->res[h] = res;
		r->use[h] = use_of[res];
	}
}

/* Routes, and each vCPU's uses of the links its node's routes cross. */
static int init_routes(struct bnb_model *m, unsigned int n_res)
{
	unsigned int n = m->p.n_nodes, n_uses[BNB_MODEL_MAX_NODES] = { 0 }, total = 0, v = 0;
	short *use_of = malloc((n_res ? n_res : 1) * sizeof(*use_of));

	m->route = calloc((size_t)n * n, sizeof(*m->route));
	if (!use_of || !m->route) {
		free(use_of);
		return -1;
	}
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int k = 0; k < n_res; k++)
			use_of[k] = -1;
		for (unsigned int j = 0; j < n; j++)
			if (j != i)
				build_route(m, i, j, use_of, &n_uses[i]);
		total += n_uses[i] * m->p.cpus[i];
	}
	free(use_of);
	m->uses = calloc(total ? total : 1, sizeof(*m->uses));
	if (!m->uses)
		return -1;
	total = 0;
	for (unsigned int node = 0; node < n; node++)
		for (unsigned int k = 0; k < m->p.cpus[node]; k++, v++) {
			m->v[v].route = &m->route[node * n];
			m->v[v].link = &m->uses[total];
			m->v[v].n_link = n_uses[node];
			total += n_uses[node];
		}
	return 0;
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
	unsigned int n = p->n_nodes, n_links;

	memset(m, 0, sizeof(*m));
	m->p = *p;
	bnb_model_fill_routes(&m->p);
	n_links = bnb_model_n_links(&m->p);
	for (unsigned int i = 0; i < n; i++)
		m->n_vcpus += p->cpus[i];
	m->v = calloc(m->n_vcpus ? m->n_vcpus : 1, sizeof(*m->v));
	m->mem = calloc(n, sizeof(*m->mem));
	m->link = calloc(2 * n_links + 1, sizeof(*m->link));
	if (!m->v || !m->mem || !m->link || init_routes(m, 2 * n_links)) {
		bnb_model_free(m);
		return -1;
	}
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = 0; j < n; j++)
			m->seq_step_ps[i][j] = p->lat_ps[i][j] / p->mlp;
	for (unsigned int j = 0; j < n; j++)
		m->mem[j].line_ps = p->mem_mbs[j] ?
				    line_ps(p, p->mem_mbs[j], m->n_vcpus) :
				    line_ps(p, p->node_bandwidth_mbs, p->cpus[j]);
	/* each way at the bandwidth per CPU of the node its lines enter */
	for (unsigned int k = 0; k < n_links; k++) {
		struct bnb_model_link l = bnb_model_link_get(&m->p, k);

		m->link[2 * k].line_ps = line_ps(p, l.mbs, p->cpus[l.b]);
		m->link[2 * k + 1].line_ps = line_ps(p, l.mbs, p->cpus[l.a]);
	}
	init_vcpus(m);
	return 0;
}

void bnb_model_free(struct bnb_model *m)
{
	free(m->v);
	free(m->mem);
	free(m->link);
	free(m->route);
	free(m->uses);
	m->v = NULL;
	m->mem = m->link = NULL;
	m->route = NULL;
	m->uses = NULL;
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
	const struct bnb_model_route *r = &v->route[mem];
	uint64_t w = bnb_model_window(&v->win, &v->win_start_ps, now_ps, m->p.window_ps);
	uint64_t lat = m->p.lat_ps[v->node][mem];
	uint64_t seq_step = m->seq_step_ps[v->node][mem];
	uint64_t step, start, stall, *done = &v->done_ps[mem];
	int seq = sequential(v, line);
	bool by_bw;

	step = pace(&m->mem[mem], &v->mem[mem], w);
	for (unsigned int h = 0; h < r->hops; h++) {
		uint64_t l = pace(&m->link[r->res[h]], &v->link[r->use[h]], w);

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
	v->node_ps[mem] += stall;
	*(by_bw ? &v->bw_ps : &v->lat_ps) += stall;
	return stall;
}
