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

/* In BNB_MACHINE_NAMES order, after "off". */
static const struct bnb_machine classes[] = {
	/* 2-socket Xeon (E5 v3/v4 class): MLC idle 108.2 / 195.7 ns,
	 * read bandwidth 69.3 GB/s local, 34.4 GB/s remote */
	{ "2socket", 108, 196, 69300, 34400, 16, 10 },
	/* 4-node Opteron (2012 class): ~100 ns idle; perf bench numa,
	 * two threads, 13.177 GB/s local, 7.371 GB/s remote; 32 CPUs */
	{ "4node", 100, 0, 13177, 7371, 8, 10 },
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

const struct bnb_machine *bnb_machine_class(const struct bnb_machine_spec *s)
{
	if (s->model <= BNB_MACHINE_OFF || s->model > (int)ARRAY_SIZE(classes))
		return NULL;
	return &classes[s->model - 1];
}

const struct bnb_machine *bnb_machine_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
		if (!strcmp(name, classes[i].name))
			return &classes[i];
	return NULL;
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
		char item[8];
		int v;

		if (!len || len >= sizeof(item))
			return errf(err, errlen, "'%s': want ns values split by ',', rows by ';'", s);
		memcpy(item, p, len);
		item[len] = '\0';
		if (parse_int(item, 1, MAX_LATENCY_NS, &v, err, errlen))
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

/* Latencies: the table, else the local latency x distance / 10. */
static int build_latencies(const struct bnb_machine_spec *s, const struct bnb_machine *m,
			   const struct bnb_topology *t, struct bnb_model_params *p,
			   char *err, size_t errlen)
{
	uint64_t local_ps = (uint64_t)(s->latency_ns ? s->latency_ns : m->latency_ns) * PS_PER_NS;

	if (*s->latencies)
		return read_table(s->latencies, t->nodes, p->lat_ps, err, errlen);
	for (int i = 0; i < t->nodes; i++)
		for (int j = 0; j < t->nodes; j++)
			p->lat_ps[i][j] = bnb_model_lat_ps(local_ps, t->dist[i][j]);
	/* the class's measured remote latency, unless the local one was changed */
	if (t->nodes == 2 && m->remote_latency_ns && !s->latency_ns)
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

#define OR(given, class) ((given) ? (given) : (class))

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
	*key = "latencies";
	if (build_latencies(s, m, t, p, err, errlen) || check_latencies(p, err, errlen))
		return -1;
	*key = "model";
	return bnb_model_check(p, err, errlen);
}

int bnb_machine_check(const struct bnb_machine_spec *s, const struct bnb_topology *t,
		      bool keeper, struct bnb_model_params *p, const char **key,
		      char *err, size_t errlen)
{
	struct bnb_model_params own;

	*key = refinement(s);
	if (!bnb_machine_class(s))
		return *key ? errf(err, errlen, "refines the machine model, which is off") : 0;
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

		snprintf(buf, len, "%s", m ? m->name : "off");
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
