// SPDX-License-Identifier: GPL-2.0
/*
 * machine.c - the modelled machine classes and the one check of their
 * parameters; see machine.h.  The figures and their sources are in
 * bench/model/README.md ("Classes and their sources").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "machine.h"
#include "model.h"

#define PS_PER_NS	1000ULL
#define MAX_LATENCY_NS	100000

/* In BNB_MACHINE_NAMES order, after "auto" and "off". */
static const struct bnb_machine classes[] = {
	/* 2-socket Xeon (E5 v3/v4 class): MLC idle 108.2 / 195.7 ns,
	 * read bandwidth 69.3 GB/s local, 34.4 GB/s remote */
	/* IPI: C1's exit latency on Haswell-EP and Broadwell-EP, 2 us (Linux,
	 * drivers/idle/intel_idle.c, hsw_cstates and bdw_cstates) */
	/* insn_ps: D = 6.67; the 2012 classes 26.7 (README.md, "The time factor") */
	{ .name = "2socket", .latency_ns = 108, .remote_latency_ns = 196,
	  .node_bandwidth_mbs = 69300, .link_bandwidth_mbs = 34400, .cpus_per_node = 16,
	  .mlp = 10, .ipi_latency_ns = 2000, .insn_ps = 2000 },
	/* 4-node 32-way Opteron (2012; assumed 2 x Opteron 6200, 2 dies of 8
	 * cores each): ~100 ns idle, one hop 60 more (SLIT 16 of 2-socket G34
	 * boards); perf bench numa, two threads, 13.177 GB/s local and 7.371
	 * GB/s to the other die of the package: an x16 HyperTransport 3 link,
	 * an x8 half of it; dies 0,1 and 2,3 in a package, joined by x16,
	 * 0-2 and 1-3 x16, 0-3 and 1-2 x8 (G34's 4 ports a package, one for I/O);
	 * IPI: 2socket's 2 us, assumed (no published figure for the Opteron) */
	{ .name = "4node", .latency_ns = 100, .hop_latency_ns = 60, .node_bandwidth_mbs = 13177,
	  .link_bandwidth_mbs = 7371, .cpus_per_node = 8, .mlp = 10,
	  .links = "0-1,2-3,0-2,1-3,0-3:3686,1-2:3686", .ipi_latency_ns = 2000,
	  .insn_ps = 8000 },
	/* 8-node 64-core box of 2012 (assumed 4 x Opteron 6200, 8 dies of 8
	 * cores): the 4-socket G34 link graph of the SLIT of two such boards
	 * (10 local, 16 one hop, 22 two; hwloc's test topologies), x16 within
	 * a package, x8 between packages; the dies as 4node's */
	{ .name = "8node", .latency_ns = 100, .hop_latency_ns = 60, .node_bandwidth_mbs = 13177,
	  .link_bandwidth_mbs = 3686, .cpus_per_node = 8, .mlp = 10,
	  .links = "0-1:7371,2-3:7371,4-5:7371,6-7:7371,0-2,0-4,0-6,1-3,1-4,1-7,2-4,2-5,"
		   "2-6,2-7,3-4,3-5,4-6,5-7", .ipi_latency_ns = 2000, .insn_ps = 8000 },
};

#define SPEC(f) OPT_FIELD(struct bnb_machine_spec, f)
#define ROW(key, option, text, offset, ...) \
	{ option, { key, .off = offset, .help = text, __VA_ARGS__ } },

/* The parameters with both spellings, offsets into the spec. */
static const struct machine_key {
	const char *option;
	struct opt_def o;
} keys[] = {
	BNB_MACHINE_KEYS(ROW, SPEC)
};

void bnb_machine_resolve(struct bnb_machine_spec *s, bool keeper)
{
	if (s->model == BNB_MACHINE_AUTO)
		s->model = keeper ? BNB_MACHINE_DEFAULT : BNB_MACHINE_OFF;
}

const struct bnb_machine *bnb_machine_class(const struct bnb_machine_spec *s)
{
	if (s->model <= BNB_MACHINE_OFF || s->model > BNB_MACHINE_OFF + (int)ARRAY_SIZE(classes))
		return NULL;
	return &classes[s->model - BNB_MACHINE_OFF - 1];
}

uint64_t bnb_machine_insn_ps(const struct bnb_machine_spec *s)
{
	const struct bnb_machine *m = bnb_machine_class(s);

	return (m ? m : &classes[BNB_MACHINE_DEFAULT - BNB_MACHINE_OFF - 1])->insn_ps;
}

const struct bnb_machine *bnb_machine_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
		if (!strcmp(name, classes[i].name))
			return &classes[i];
	return NULL;
}

#define OR(given, class) ((given) ? (given) : (class))
#define DIGITS_MAX	8	/* a number's digits, with the NUL */

/* The len (< DIGITS_MAX) digits at p as an int of min..max. */
static int digits(const char *p, size_t len, int min, int max, int *v, char *err, size_t errlen)
{
	char num[DIGITS_MAX];

	memcpy(num, p, len);
	num[len] = '\0';
	return parse_int(num, min, max, v, err, errlen);
}

/*
 * A latency table, "a,b;c,d": rows split by ';' or '/', values by ',' or
 * ':' (the plugin's arguments cannot hold ','), each 1..MAX_LATENCY_NS.
 * Its rows into lat_ps when given one (n x n), else only its grammar.
 */
static int read_table(const char *s, unsigned int n, uint64_t lat_ps[][BNB_MODEL_MAX_NODES],
		      char *err, size_t errlen)
{
	unsigned int i = 0, j = 0;
	const char *p = s;

	while (*p) {
		size_t len = strspn(p, "0123456789");
		int v;

		if (!len || len >= DIGITS_MAX)
			return errf(err, errlen, "'%s': want ns values split by ',', rows by ';'", s);
		if (digits(p, len, 1, MAX_LATENCY_NS, &v, err, errlen))
			return -1;
		if (lat_ps && (i >= n || j >= n))
			return errf(err, errlen, "want %u rows of %u values, one per node", n, n);
		if (lat_ps)
			lat_ps[i][j] = v * PS_PER_NS;
		j++;
		p += len;
		if (*p == ',' || *p == ':') {
			p++;
			if (!*p)
				return errf(err, errlen, "'%s' ends in a separator", s);
		} else if (*p == ';' || *p == '/' || !*p) {
			if (lat_ps && j != n)
				return errf(err, errlen, "row %u has %u values; want %u, one per node", i, j, n);
			i++;
			j = 0;
			p += !!*p;
		} else {
			return errf(err, errlen, "'%c' in '%s' is not a digit, ',' or ';'", *p, s);
		}
	}
	if (lat_ps && i != n)
		return errf(err, errlen, "%u rows; want %u, one per node", i, n);
	return 0;
}

int bnb_machine_parse_latencies(const struct opt_def *o, const char *value, void *field,
				char *err, size_t errlen)
{
	if (!*value)
		return errf(err, errlen, "empty latency table");
	if (strlen(value) >= BNB_MACHINE_TABLE_LEN)
		return errf(err, errlen, "a latency table of at most %d characters",
			    BNB_MACHINE_TABLE_LEN - 1);
	if (read_table(value, 0, NULL, err, errlen))
		return -1;
	if (field)
		strcpy(field, value);
	return 0;
}

#define SEPARATORS	",;:/"
#define MAX_MBS		100000000

/*
 * The next item of a list of links or routes at *s: digits and '-' up to
 * a separator (',' ';' ':' '/', all alike: the plugin's arguments have ':'
 * for ','), into item; *s then points past its separator.
 */
static int next_item(const char **s, const char *all, char *item, size_t len,
		     char *err, size_t errlen)
{
	size_t n = strspn(*s, "0123456789-");

	if (!n)
		return errf(err, errlen, "'%c' in '%s' is not a digit, '-' or ','", **s, all);
	if (n >= len)
		return errf(err, errlen, "'%.*s' in '%s' is too long", (int)n, *s, all);
	memcpy(item, *s, n);
	item[n] = '\0';
	*s += n;
	if (**s && !strchr(SEPARATORS, **s))
		return errf(err, errlen, "'%c' in '%s' is not a digit, '-' or ','", **s, all);
	if (**s && !*++*s)
		return errf(err, errlen, "'%s' ends in a separator", all);
	return 0;
}

/* "0-1-2" into nodes[], *len of them: each a node number, at most max of them. */
static int read_path(const char *item, unsigned char *nodes, unsigned int *len,
		     unsigned int max, char *err, size_t errlen)
{
	const char *p = item;

	*len = 0;
	while (*p) {
		size_t n = strspn(p, "0123456789");
		int v;

		if (!n || n >= DIGITS_MAX)
			return errf(err, errlen, "'%s': want node numbers joined by '-'", item);
		if (digits(p, n, 0, BNB_MODEL_MAX_NODES - 1, &v, err, errlen))
			return errf_prefix(err, errlen, "'%s'", item);
		if (*len >= max)
			return errf(err, errlen, "'%s': at most %u nodes", item, max);
		nodes[(*len)++] = v;
		p += n;
		if (*p == '-' && !*++p)
			return errf(err, errlen, "'%s' ends in '-'", item);
	}
	return 0;
}

/*
 * Links "A-B[:MB/S[:NS]],...": into p's link[] when p is given (those
 * without MB/S at def_mbs, without NS at hop 0), else only the grammar.
 */
static int read_links(const char *s, struct bnb_model_params *p, uint64_t def_mbs,
		      char *err, size_t errlen)
{
	const char *at = s;
	unsigned int n = 0;

	while (*at) {
		struct bnb_model_link l = { .mbs = def_mbs };
		unsigned char ends[BNB_MODEL_MAX_HOPS + 1];
		unsigned int len, numbers = 0;
		char item[4 * (BNB_MODEL_MAX_HOPS + 2)];

		if (next_item(&at, s, item, sizeof(item), err, errlen) ||
		    read_path(item, ends, &len, BNB_MODEL_MAX_HOPS + 1, err, errlen))
			return -1;
		if (len != 2)
			return errf(err, errlen, "'%s': want a link A-B, then its MB/s and hop ns", item);
		if (n >= BNB_MODEL_MAX_LINKS)
			return errf(err, errlen, "more than %d links", BNB_MODEL_MAX_LINKS);
		l.a = ends[0];
		l.b = ends[1];
		/* its numbers: up to the next link's A-B */
		while (*at && at[strspn(at, "0123456789")] != '-') {
			int v;

			if (next_item(&at, s, item, sizeof(item), err, errlen))
				return -1;
			if (numbers++ == 2)
				return errf(err, errlen, "link %u-%u: '%s' after its MB/s and hop ns",
					    l.a, l.b, item);
			if (parse_int(item, 1, numbers == 1 ? MAX_MBS : MAX_LATENCY_NS, &v, err, errlen))
				return errf_prefix(err, errlen, "link %u-%u", l.a, l.b);
			if (numbers == 1)
				l.mbs = v;
			else
				l.hop_ps = v * PS_PER_NS;
		}
		if (p)
			p->link[n] = l;
		n++;
	}
	if (p)
		p->n_links = n;
	return 0;
}

/* Routes "0-1-2,...": into p's route[][] when p is given, else only the grammar. */
static int read_routes(const char *s, struct bnb_model_params *p, char *err, size_t errlen)
{
	const char *at = s;

	while (*at) {
		unsigned char nodes[BNB_MODEL_MAX_HOPS + 1];
		unsigned int len, i, j;
		char item[4 * (BNB_MODEL_MAX_HOPS + 2)];

		if (next_item(&at, s, item, sizeof(item), err, errlen) ||
		    read_path(item, nodes, &len, BNB_MODEL_MAX_HOPS + 1, err, errlen))
			return -1;
		if (len < 2)
			return errf(err, errlen, "'%s': want the nodes of a route, initiator first and "
				    "memory node last", item);
		i = nodes[0];
		j = nodes[len - 1];
		if (!p)
			continue;
		if (i >= p->n_nodes || j >= p->n_nodes)
			return errf(err, errlen, "route %s: the guest has %u nodes", item, p->n_nodes);
		if (p->route_len[i][j])
			return errf(err, errlen, "a second route from node %u to node %u: %s", i, j, item);
		p->route_len[i][j] = len;
		memcpy(p->route[i][j], nodes, len);
	}
	return 0;
}

/* A list's text on its own: not empty, fits, its grammar; copied into field. */
static int parse_list(const char *value, void *field, const char *what,
		      int (*read)(const char *, char *, size_t), char *err, size_t errlen)
{
	if (!*value)
		return errf(err, errlen, "empty list of %s", what);
	if (strlen(value) >= BNB_MACHINE_TABLE_LEN)
		return errf(err, errlen, "a list of %s of at most %d characters", what,
			    BNB_MACHINE_TABLE_LEN - 1);
	if (read(value, err, errlen))
		return -1;
	if (field)
		strcpy(field, value);
	return 0;
}

static int links_grammar(const char *s, char *err, size_t errlen)
{
	return read_links(s, NULL, 0, err, errlen);
}

static int routes_grammar(const char *s, char *err, size_t errlen)
{
	return read_routes(s, NULL, err, errlen);
}

int bnb_machine_parse_links(const struct opt_def *o, const char *value, void *field,
			    char *err, size_t errlen)
{
	return parse_list(value, field, "links", links_grammar, err, errlen);
}

int bnb_machine_parse_routes(const struct opt_def *o, const char *value, void *field,
			     char *err, size_t errlen)
{
	return parse_list(value, field, "routes", routes_grammar, err, errlen);
}

/*
 * A list of CXL nodes, "2,3" or "2:3", each 0..BNB_MODEL_MAX_NODES - 1;
 * into cxl[] when given one, else only its grammar.
 */
static int read_cxl_nodes(const char *s, bool cxl[BNB_MODEL_MAX_NODES], char *err, size_t errlen)
{
	const char *p = s;

	while (*p) {
		size_t len = strspn(p, "0123456789");
		int v;

		if (!len || len >= DIGITS_MAX)
			return errf(err, errlen, "'%s': want node numbers split by ','", s);
		if (digits(p, len, 0, BNB_MODEL_MAX_NODES - 1, &v, err, errlen))
			return -1;
		if (cxl)
			cxl[v] = true;
		p += len;
		if (*p && *p != ',' && *p != ':')
			return errf(err, errlen, "'%s': want node numbers split by ','", s);
		if (*p && !*++p)
			return errf(err, errlen, "'%s' ends in a separator", s);
	}
	return 0;
}

int bnb_machine_parse_cxl_nodes(const struct opt_def *o, const char *value, void *field,
				char *err, size_t errlen)
{
	if (strlen(value) >= BNB_MACHINE_CXL_LEN)
		return errf(err, errlen, "cxl_nodes: longer than %d characters",
			    BNB_MACHINE_CXL_LEN - 1);
	if (read_cxl_nodes(value, NULL, err, errlen))
		return errf_prefix(err, errlen, "cxl_nodes");
	if (field)	/* NULL: check only (the runner, as it reads the file) */
		snprintf(field, BNB_MACHINE_CXL_LEN, "%s", value);
	return 0;
}

/* The CPU node nearest memory node j by distance, lowest first; -1: none. */
static int nearest_cpus(const struct bnb_topology *t, int j)
{
	int best = -1;

	for (int i = 0; i < t->nodes; i++)
		if (t->cpus[i] && (best < 0 || t->dist[i][j] < t->dist[best][j]))
			best = i;
	return best;
}

/* The fast tier, the nodes with CPUs, holds what the guest kernel needs. */
static int check_fast_tier(const struct bnb_topology *t, char *err, size_t errlen)
{
	uint64_t fast = 0;

	for (int i = 0; i < t->nodes; i++)
		if (t->cpus[i])
			fast += t->mem[i];
	if (fast >= (uint64_t)BNB_CXL_FAST_MIN_MIB << 20)
		return 0;
	return errf(err, errlen, "the nodes with CPUs (the fast tier) have %llu MiB in all; "
		    "beside CXL memory the guest kernel needs at least %d MiB there (mem)",
		    (unsigned long long)(fast >> 20), BNB_CXL_FAST_MIN_MIB);
}

/*
 * CXL nodes: CPU-less memory behind the nearest CPU node h, each miss of
 * node i costing i's latency to h plus what the expander adds to a local
 * miss (a latency table given stands), at the expander's own bandwidth.
 */
static int build_cxl(const struct bnb_machine_spec *s, const struct bnb_topology *t,
		     struct bnb_model_params *p, const char **key, char *err, size_t errlen)
{
	bool cxl[BNB_MODEL_MAX_NODES] = { false };
	uint64_t lat_ps = (uint64_t)OR(s->cxl_latency_ns, BNB_CXL_LATENCY_NS) * PS_PER_NS;

	*key = "cxl_nodes";
	if (read_cxl_nodes(s->cxl_nodes, cxl, err, errlen))
		return -1;
	for (int j = 0; j < BNB_MODEL_MAX_NODES; j++) {
		int h;

		if (!cxl[j])
			continue;
		if (j >= t->nodes)
			return errf(err, errlen, "node %d: the guest has %d nodes", j, t->nodes);
		if (t->cpus[j])
			return errf(err, errlen, "node %d has %d CPUs: CXL memory has none",
				    j, t->cpus[j]);
		h = nearest_cpus(t, j);
		if (h < 0)
			return errf(err, errlen, "node %d: no node with CPUs", j);
		if (lat_ps < p->lat_ps[h][h]) {
			*key = "cxl_latency_ns";
			return errf(err, errlen, "%llu ns is below the local latency of node %d "
				    "(%llu ns)", (unsigned long long)(lat_ps / PS_PER_NS), h,
				    (unsigned long long)(p->lat_ps[h][h] / PS_PER_NS));
		}
		for (int i = 0; i < t->nodes && !*s->latencies; i++)
			if (t->cpus[i])	/* a CPU-less node misses nothing */
				p->lat_ps[i][j] = p->lat_ps[i][h] + lat_ps - p->lat_ps[h][h];
		p->mem_mbs[j] = OR(s->cxl_bandwidth_mbs, BNB_CXL_BANDWIDTH_MBS);
	}
	return *s->cxl_nodes ? check_fast_tier(t, err, errlen) : 0;
}

/* A parameter other than the model that is given, or NULL. */
static const char *refinement(const struct bnb_machine_spec *s)
{
	for (size_t i = 1; i < ARRAY_SIZE(keys); i++) {
		const char *f = (const char *)s + keys[i].o.off;

		if (keys[i].o.type == OPT_INT ? *(const int *)f != 0 : *f != '\0')
			return keys[i].o.name;
	}
	return NULL;
}

/*
 * The class's links among the guest's nodes: a guest of fewer nodes runs
 * on the machine's first ones (one node: no links at all).
 */
static int class_links(const struct bnb_machine *m, const struct bnb_topology *t,
		       struct bnb_model_params *p, char *err, size_t errlen)
{
	unsigned int kept = 0;

	if (read_links(m->links, p, p->link_bandwidth_mbs, err, errlen))
		return -1;
	for (unsigned int k = 0; k < p->n_links; k++)
		if (p->link[k].a < t->nodes && p->link[k].b < t->nodes)
			p->link[kept++] = p->link[k];
	if (!kept && t->nodes > 1)
		return errf(err, errlen, "no link of %s's joins the guest's %d nodes", m->name,
			    t->nodes);
	p->n_links = t->nodes > 1 && kept < p->n_links ? kept : p->n_links;
	if (t->nodes == 1)
		p->n_links = 0;
	return 0;
}

/* Links and routes, checked, and every route not given derived. */
static int build_graph(const struct bnb_machine_spec *s, const struct bnb_machine *m,
		       const struct bnb_topology *t, struct bnb_model_params *p,
		       const char **key, char *err, size_t errlen)
{
	const char *what;

	*key = "links";
	if (*s->links && read_links(s->links, p, p->link_bandwidth_mbs, err, errlen))
		return -1;
	*key = "model";
	if (!*s->links && m->links && class_links(m, t, p, err, errlen))
		return -1;
	*key = "routes";
	if (*s->routes && read_routes(s->routes, p, err, errlen))
		return -1;
	if (bnb_model_check_graph(p, &what, err, errlen)) {
		*key = !strcmp(what, "routes") || *s->links || !m->links ? what : "model";
		return !strcmp(*key, "model") ? errf_prefix(err, errlen, "%s's links", m->name) : -1;
	}
	bnb_model_fill_routes(p);
	return 0;
}

/* The hop latencies along route i->j, each link's own or hop_ps. */
static uint64_t route_hops_ps(const struct bnb_model_params *p, unsigned int i, unsigned int j,
			      uint64_t hop_ps)
{
	uint64_t sum = 0;

	for (unsigned int h = 1; h < p->route_len[i][j]; h++) {
		int k = bnb_model_link_between(p, p->route[i][j][h - 1], p->route[i][j][h]);
		struct bnb_model_link l = bnb_model_link_get(p, k);

		sum += l.hop_ps ? l.hop_ps : hop_ps;
	}
	return sum;
}

/* Whether latencies come from the hops: a hop latency for every link. */
static int hop_latencies(const struct bnb_model_params *p, uint64_t hop_ps, bool *hops,
			 const char **key, char *err, size_t errlen)
{
	unsigned int own = 0;

	for (unsigned int k = 0; k < p->n_links; k++)
		own += !!p->link[k].hop_ps;
	*hops = hop_ps || (p->n_links && own == p->n_links);
	if (!hop_ps && own && own < p->n_links) {
		*key = "links";
		return errf(err, errlen, "some links give a hop latency and some none: give one "
			    "for every link, or hop_latency_ns");
	}
	return 0;
}

/*
 * Latencies: the table; else the local latency plus the hop latencies
 * along the route; else without hop latencies the local one x distance / 10.
 */
static int build_latencies(const struct bnb_machine_spec *s, const struct bnb_machine *m,
			   const struct bnb_topology *t, struct bnb_model_params *p,
			   const char **key, char *err, size_t errlen)
{
	uint64_t local_ps = (uint64_t)(s->latency_ns ? s->latency_ns : m->latency_ns) * PS_PER_NS;
	uint64_t hop_ps = (uint64_t)(s->hop_latency_ns ? s->hop_latency_ns : m->hop_latency_ns) *
			  PS_PER_NS;
	bool hops;

	*key = "latencies";
	if (*s->latencies)
		return read_table(s->latencies, t->nodes, p->lat_ps, err, errlen);
	if (hop_latencies(p, hop_ps, &hops, key, err, errlen))
		return -1;
	for (int i = 0; i < t->nodes; i++)
		for (int j = 0; j < t->nodes; j++)
			p->lat_ps[i][j] = hops ? local_ps + route_hops_ps(p, i, j, hop_ps) :
					  bnb_model_lat_ps(local_ps, t->dist[i][j]);
	/* the class's measured remote latency, unless the local one was changed */
	if (!hops && t->nodes == 2 && m->remote_latency_ns && !s->latency_ns)
		p->lat_ps[0][1] = p->lat_ps[1][0] = (uint64_t)m->remote_latency_ns * PS_PER_NS;
	return 0;
}

/* Each latency at least its row's local one: a remote miss is no faster. */
static int check_latencies(const struct bnb_model_params *p, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < p->n_nodes; i++)
		for (unsigned int j = 0; j < p->n_nodes; j++)
			if (p->lat_ps[i][j] < p->lat_ps[i][i])
				return errf(err, errlen, "%u->%u is %llu ns, below the local %u->%u (%llu ns)",
					    i, j, (unsigned long long)(p->lat_ps[i][j] / PS_PER_NS),
					    i, i, (unsigned long long)(p->lat_ps[i][i] / PS_PER_NS));
	return 0;
}

static int build(const struct bnb_machine_spec *s, const struct bnb_topology *t,
		 struct bnb_model_params *p, const char **key, char *err, size_t errlen)
{
	const struct bnb_machine *m = bnb_machine_class(s);

	memset(p, 0, sizeof(*p));
	p->n_nodes = t->nodes;
	for (int i = 0; i < t->nodes; i++)
		p->cpus[i] = t->cpus[i];
	p->node_bandwidth_mbs = OR(s->node_bandwidth_mbs, m->node_bandwidth_mbs);
	p->link_bandwidth_mbs = OR(s->link_bandwidth_mbs, m->link_bandwidth_mbs);
	p->cpus_per_node = OR(s->cpus_per_node, m->cpus_per_node);
	p->mlp = OR(s->mlp, m->mlp);
	p->window_ps = (uint64_t)OR(s->window_ns, BNB_MODEL_DEF_WINDOW_NS) * PS_PER_NS;
	p->ipi_ps = (uint64_t)OR(s->ipi_latency_ns, m->ipi_latency_ns) * PS_PER_NS;
	if (build_graph(s, m, t, p, key, err, errlen) ||
	    build_latencies(s, m, t, p, key, err, errlen) ||
	    build_cxl(s, t, p, key, err, errlen))
		return -1;
	*key = "latencies";
	if (check_latencies(p, err, errlen))
		return -1;
	*key = "model";
	return bnb_model_check(p, err, errlen);
}

int bnb_machine_check(const struct bnb_machine_spec *given, const struct bnb_topology *t,
		      bool keeper, struct bnb_model_params *p, const char **key,
		      char *err, size_t errlen)
{
	struct bnb_machine_spec resolved = *given, *s = &resolved;
	struct bnb_model_params own;

	bnb_machine_resolve(s, keeper);
	*key = refinement(s);
	if (!bnb_machine_class(s))
		return *key ? errf(err, errlen, "refines the machine model, which is off%s",
				   given->model == BNB_MACHINE_AUTO ? " without deterministic "
				   "timing and the plugin" : "") : 0;
	*key = "model";
	if (!keeper)
		return errf(err, errlen, "the machine model needs deterministic timing with the "
			    "plugin: its stalls go into each vCPU's own time, which the "
			    "plugin's time keeper keeps");
	return build(s, t, p ? p : &own, key, err, errlen);
}

const char *bnb_machine_option(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(key, keys[i].o.name))
			return keys[i].option;
	return key;
}

/* One parameter's value as text; lists with ':' for the plugin. */
static void value_text(const struct bnb_machine_spec *s, const struct opt_def *o,
		       enum bnb_machine_style style, char *buf, size_t len)
{
	const char *f = (const char *)s + o->off;
	char *c;

	if (o->type == OPT_CHOICE) {
		const struct bnb_machine *m = bnb_machine_class(s);

		snprintf(buf, len, "%s", m ? m->name : s->model == BNB_MACHINE_AUTO ? "auto" : "off");
	} else if (o->type == OPT_INT) {
		snprintf(buf, len, "%d", *(const int *)f);
	} else {
		snprintf(buf, len, "%s", f);
		for (c = buf; style == BNB_MACHINE_PLUGIN && (c = strchr(c, ',')); c++)
			*c = ':';
	}
}

void bnb_machine_args(const struct bnb_machine_spec *s, enum bnb_machine_style style,
		      void (*add)(void *ctx, const char *word), void *ctx)
{
	char word[BNB_MACHINE_TABLE_LEN + 64], value[BNB_MACHINE_TABLE_LEN];

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct opt_def *o = &keys[i].o;
		const char *f = (const char *)s + o->off;

		if (i && (o->type == OPT_INT ? !*(const int *)f : !*f))
			continue;	/* not given: the class's */
		value_text(s, o, style, value, sizeof(value));
		if (style == BNB_MACHINE_PLUGIN)
			snprintf(word, sizeof(word), "%s=%s", o->name, value);
		else
			snprintf(word, sizeof(word), "--%s=%s", keys[i].option, value);
		add(ctx, word);
	}
}
