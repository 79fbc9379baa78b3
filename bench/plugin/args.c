// SPDX-License-Identifier: GPL-2.0
/*
 * args.c - parse the plugin's arguments.
 *
 * The launcher appends nodes=N,cpus=C0:C1,mem_mib=M0:M1,dist=d00:d01:...
 * and then every --plugin-opt; lists use ':' because ',' separates plugin
 * arguments on QEMU's command line.  Topology keys are checked against
 * each other only after all arguments are read, since their order is free.
 */
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "model/model.h"

#define MAX_LIST (BNB_SHM_MAX_NODES * BNB_SHM_MAX_NODES)

struct parse_ctx {
	struct bnb_plugin_args *a;
	char *err;
	size_t errlen;
	/* raw lists, checked against n_nodes at the end */
	unsigned long cpus[BNB_SHM_MAX_NODES + 1];
	unsigned long mem[BNB_SHM_MAX_NODES + 1];
	unsigned long dist[MAX_LIST + 1];
	unsigned long lat[MAX_LIST + 1];
	int n_cpus, n_mem, n_dist, n_lat;
	bool have_nodes;
	bool keeper_on, keeper_off;	/* timekeeper= as given */
};

__attribute__((format(printf, 2, 3)))
static int fail(struct parse_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int parse_ulong(const char *s, unsigned long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoul(s, &end, 10);
	if (errno || *end)
		return -1;
	return 0;
}

/* "a:b:c" into out[]; returns the count, or -1 on an empty or bad item. */
static int parse_list(const char *s, unsigned long *out, int max)
{
	int n = 0;

	for (;;) {
		const char *colon = strchr(s, ':');
		size_t len = colon ? (size_t)(colon - s) : strlen(s);
		char item[24];

		if (n == max || len == 0 || len >= sizeof(item))
			return -1;
		memcpy(item, s, len);
		item[len] = '\0';
		if (parse_ulong(item, &out[n++]))
			return -1;
		if (!colon)
			return n;
		s = colon + 1;
	}
}

static int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "on", "yes", "true" };
	static const char *const no[] = { "0", "off", "no", "false" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcmp(s, yes[i]))
			return *out = true, 0;
		if (!strcmp(s, no[i]))
			return *out = false, 0;
	}
	return -1;
}

struct option_desc;
typedef int (*option_fn)(struct parse_ctx *c, const struct option_desc *o,
			 const char *v);

struct option_desc {
	const char *key;
	option_fn parse;
	size_t off;			/* field in struct bnb_plugin_args */
	unsigned long min, max;		/* for opt_num */
	const char *want;		/* for the error message */
};

#define FIELD(o, c, type) ((type *)((char *)(c)->a + (o)->off))

static int bad(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	return fail(c, "bnb-plugin: %s=%s: want %s", o->key, v, o->want);
}

static int opt_nodes(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	unsigned long n;

	if (parse_ulong(v, &n) || n < 1 || n > BNB_SHM_MAX_NODES)
		return bad(c, o, v);
	c->a->n_nodes = n;
	c->have_nodes = true;
	return 0;
}

static int opt_list(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	unsigned long *out = !strcmp(o->key, "cpus") ? c->cpus :
			     !strcmp(o->key, "mem_mib") ? c->mem :
			     !strcmp(o->key, "lat") ? c->lat : c->dist;
	int *n = out == c->cpus ? &c->n_cpus : out == c->mem ? &c->n_mem :
		 out == c->lat ? &c->n_lat : &c->n_dist;

	*n = parse_list(v, out, out == c->dist || out == c->lat ? MAX_LIST : BNB_SHM_MAX_NODES);
	return *n < 0 ? bad(c, o, v) : 0;
}

/* Every path field is PATH_MAX long. */
static int opt_path(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	if (!*v || strlen(v) >= PATH_MAX)
		return bad(c, o, v);
	strcpy(FIELD(o, c, char), v);
	return 0;
}

static int opt_hex(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	char *end;

	errno = 0;
	*FIELD(o, c, unsigned long) = strtoul(v, &end, 16);
	return !*v || *v == '-' || errno || *end ? bad(c, o, v) : 0;
}

static int opt_bool(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	return parse_bool(v, FIELD(o, c, bool)) ? bad(c, o, v) : 0;
}

static int opt_num(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	unsigned long n;

	if (parse_ulong(v, &n) || n < o->min || n > o->max)
		return bad(c, o, v);
	*FIELD(o, c, unsigned long) = n;
	return 0;
}

/* base_ns=auto measures the local latency as the guest runs (delay.h) */
static int opt_base(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	if (!strcmp(v, "auto"))
		return c->a->base_ns = 0, 0;
	return opt_num(c, o, v);
}

static int opt_name(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	if (!*v || strlen(v) >= sizeof(c->a->model_name) || strpbrk(v, ",= "))
		return bad(c, o, v);
	strcpy(c->a->model_name, v);
	return 0;
}

static int opt_delay(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	bool on;

	if (!strcmp(v, "always"))
		c->a->delay = BNB_DELAY_ALWAYS;
	else if (!parse_bool(v, &on))
		c->a->delay = on ? BNB_DELAY_VERIFIED : BNB_DELAY_OFF;
	else
		return bad(c, o, v);
	return 0;
}

static int opt_map(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	if (!strcmp(v, "qemu72"))
		c->a->map = BNB_MAP_QEMU72;
	else if (!strcmp(v, "linear"))
		c->a->map = BNB_MAP_LINEAR;
	else
		return bad(c, o, v);
	return 0;
}

static int opt_map_fail(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	if (strcmp(v, "exit") && strcmp(v, "flag"))
		return bad(c, o, v);
	c->a->map_fail_exit = !strcmp(v, "exit");
	return 0;
}

static int opt_mem_from(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	if (strcmp(v, "boot") && strcmp(v, "calib"))
		return bad(c, o, v);
	c->a->mem_from_calib = !strcmp(v, "calib");
	return 0;
}

/* icount_shift= says the launcher runs QEMU under icount: keeper on. */
static int opt_icount(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	if (opt_num(c, o, v))
		return -1;
	c->a->have_icount = true;
	c->a->timekeeper = !c->keeper_off;
	return 0;
}

static int opt_keeper(struct parse_ctx *c, const struct option_desc *o, const char *v)
{
	bool on;

	if (parse_bool(v, &on))
		return bad(c, o, v);
	c->keeper_off = !on;
	c->keeper_on = on;
	c->a->timekeeper = on && c->a->have_icount;
	return 0;
}

#define ARG(f) offsetof(struct bnb_plugin_args, f)

static const struct option_desc options[] = {
	{ "nodes", opt_nodes, 0, 0, 0, "a node count 1..64" },
	{ "cpus", opt_list, 0, 0, 0, "vCPU counts split by ':'" },
	{ "mem_mib", opt_list, 0, 0, 0, "MiB sizes split by ':'" },
	{ "dist", opt_list, 0, 0, 0, "a row-major distance matrix split by ':'" },
	{ "shm", opt_path, ARG(shm_path), 0, 0, "a file path" },
	{ "ksym", opt_path, ARG(ksym_map), 0, 0, "the guest kernel's System.map" },
	{ "ksym_out", opt_path, ARG(ksym_out), 0, 0, "a file path" },
	{ "trace", opt_path, ARG(trace_path), 0, 0, "a file path" },
	{ "trace_clock", opt_hex, ARG(trace_clock), 0, 0, "QEMU's timers_state symbol value in hex (nm)" },
	{ "count", opt_bool, ARG(count), 0, 0, "on or off" },
	{ "delay", opt_delay, 0, 0, 0, "on, off or always" },
	{ "verbose", opt_bool, ARG(verbose), 0, 0, "on or off" },
	{ "base_ns", opt_base, ARG(base_ns), 1, 100000, "auto or nanoseconds 1..100000" },
	{ "cap_ns", opt_num, ARG(cap_ns), 10, 1000000, "nanoseconds 10..1000000" },
	{ "cache_kib", opt_num, ARG(cache_kib), 0, 1UL << 20, "KiB 0..1048576 (0 = no cache filter)" },
	{ "cache_ways", opt_num, ARG(cache_ways), 1, 16, "1..16 ways" },
	{ "map", opt_map, 0, 0, 0, "qemu72 or linear" },
	{ "map_min_pct", opt_num, ARG(map_min_pct), 1, 100, "a percentage 1..100" },
	{ "map_fail", opt_map_fail, 0, 0, 0, "exit or flag" },
	{ "mem_from", opt_mem_from, 0, 0, 0, "boot or calib" },
	{ "icount_shift", opt_icount, ARG(icount_shift), 0, 10, "QEMU's icount shift 0..10" },
	{ "timekeeper", opt_keeper, 0, 0, 0, "on or off" },
	{ "insn_ps", opt_num, ARG(insn_ps), 1, 1000000, "picoseconds 1..1000000" },
	{ "hw_insn_ps", opt_num, ARG(hw_insn_ps), 1, 1000000, "picoseconds 1..1000000" },
	{ "tk_quantum_ns", opt_num, ARG(tk_quantum_ns), 1, 1000000000, "nanoseconds 1..1e9" },
	{ "tk_batch", opt_num, ARG(tk_batch), 64, 1UL << 24, "instructions 64..16777216" },
	{ "model", opt_bool, ARG(model), 0, 0, "on or off" },
	{ "model_name", opt_name, 0, 0, 0, "a word of up to 31 characters" },
	{ "lat_ns", opt_num, ARG(lat_ns), 1, 100000, "nanoseconds 1..100000" },
	{ "lat", opt_list, 0, 0, 0, "a row-major latency matrix in ns split by ':'" },
	{ "node_mbs", opt_num, ARG(node_mbs), 1, 100000000, "MB/s 1..1e8" },
	{ "link_mbs", opt_num, ARG(link_mbs), 1, 100000000, "MB/s 1..1e8" },
	{ "hw_cpus", opt_num, ARG(hw_cpus), 1, 4096, "CPUs per node 1..4096" },
	{ "mlp", opt_num, ARG(mlp), 1, 256, "misses in flight 1..256" },
	{ "window_ns", opt_num, ARG(window_ns), 1, 100000000, "nanoseconds 1..1e8" },
};

static int parse_one(struct parse_ctx *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char key[32];
	size_t klen;

	if (!eq || eq == arg || (klen = eq - arg) >= sizeof(key))
		return fail(c, "bnb-plugin: argument '%s' is not key=value", arg);
	memcpy(key, arg, klen);
	key[klen] = '\0';
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (!strcmp(key, options[i].key))
			return options[i].parse(c, &options[i], eq + 1);
	return fail(c, "bnb-plugin: unknown option '%s' (in '%s')", key, arg);
}

static int check_topology(struct parse_ctx *c)
{
	struct bnb_plugin_args *a = c->a;
	unsigned int n = a->n_nodes, total = 0;

	if (!c->have_nodes)
		return fail(c, "bnb-plugin: missing nodes= (the launcher passes the topology)");
	if (c->n_cpus != (int)n)
		return fail(c, "bnb-plugin: cpus= must list one vCPU count per node (%u nodes)", n);
	if (c->n_mem != (int)n)
		return fail(c, "bnb-plugin: mem_mib= must list one size per node (%u nodes)", n);
	if (c->n_dist != (int)(n * n))
		return fail(c, "bnb-plugin: dist= must hold nodes*nodes values (%u nodes)", n);
	for (unsigned int i = 0; i < n; i++) {
		if (c->mem[i] < 1 || c->mem[i] > (1UL << 24))
			return fail(c, "bnb-plugin: mem_mib: node %u: %lu MiB is out of range", i, c->mem[i]);
		a->cpus[i] = c->cpus[i];
		a->mem_bytes[i] = (uint64_t)c->mem[i] << 20;
		total += c->cpus[i];
		for (unsigned int j = 0; j < n; j++) {
			unsigned long d = c->dist[i * n + j];

			if (d < 10 || d > 255 || (i == j) != (d == 10))
				return fail(c, "bnb-plugin: dist: row %u column %u is %lu; want 10 on the diagonal, 11..255 elsewhere", i, j, d);
			a->dist[i][j] = d;
		}
	}
	if (total < 1 || total > BNB_SHM_MAX_VCPUS)
		return fail(c, "bnb-plugin: cpus: %u vCPUs in all; want 1..256", total);
	return 0;
}

/* lat= is optional; when given it must fit the topology, in ns. */
static int check_lat(struct parse_ctx *c)
{
	unsigned int n = c->a->n_nodes;

	if (!c->n_lat)
		return 0;
	if (c->n_lat != (int)(n * n))
		return fail(c, "bnb-plugin: lat= must hold nodes*nodes values (%u nodes), not %d", n, c->n_lat);
	for (unsigned int i = 0; i < n * n; i++) {
		if (c->lat[i] < 1 || c->lat[i] > 100000)
			return fail(c, "bnb-plugin: lat: row %u column %u is %lu; want 1..100000 ns",
				    i / n, i % n, c->lat[i]);
		c->a->lat[i / n][i % n] = c->lat[i];
	}
	c->a->have_lat = true;
	return 0;
}

static int check_model(struct parse_ctx *c)
{
	struct bnb_model_params p;
	char why[200];

	if (!c->a->model)
		return 0;
	if (!c->a->timekeeper)
		return fail(c, "bnb-plugin: model=on needs the time keeper (icount_shift=: bnb-vm --timing deterministic)");
	if (c->a->delay == BNB_DELAY_OFF)
		return fail(c, "bnb-plugin: model=on charges misses once the map check passed (delay=on) or from boot (delay=always), not with delay=off");
	bnb_args_model(c->a, &p);
	if (bnb_model_check(&p, why, sizeof(why)))
		return fail(c, "bnb-plugin: %s", why);
	return 0;
}

void bnb_args_model(const struct bnb_plugin_args *a, struct bnb_model_params *p)
{
	memset(p, 0, sizeof(*p));
	p->n_nodes = a->n_nodes;
	for (unsigned int i = 0; i < a->n_nodes; i++)
		p->cpus[i] = a->cpus[i];
	if (a->have_lat) {
		for (unsigned int i = 0; i < a->n_nodes; i++)
			for (unsigned int j = 0; j < a->n_nodes; j++)
				p->lat_ps[i][j] = (uint64_t)a->lat[i][j] * 1000;
	} else {
		bnb_model_lat_from_dist(p, (uint64_t)a->lat_ns * 1000, a->dist);
	}
	p->node_mbs = a->node_mbs;
	p->link_mbs = a->link_mbs;
	p->hw_cpus_per_node = a->hw_cpus;
	p->mlp = a->mlp;
	p->window_ps = (uint64_t)a->window_ns * 1000;
}

static void set_defaults(struct bnb_plugin_args *a)
{
	memset(a, 0, sizeof(*a));
	a->count = true;
	a->delay = BNB_DELAY_VERIFIED;
	a->base_ns = BNB_DEF_BASE_NS;
	a->cap_ns = BNB_DEF_CAP_NS;
	a->cache_kib = BNB_DEF_CACHE_KIB;
	a->cache_ways = BNB_DEF_CACHE_WAYS;
#ifdef BNB_QEMU72
	a->map = BNB_MAP_QEMU72;	/* 7.2 reports RAM block offsets */
#else
	a->map = BNB_MAP_LINEAR;	/* QEMU 10 reports guest-physical */
#endif
	a->map_min_pct = BNB_DEF_MAP_MIN_PCT;
	a->map_fail_exit = true;
	a->mem_from_calib = true;
	a->hw_insn_ps = BNB_DEF_HW_INSN_PS;
	a->tk_quantum_ns = BNB_DEF_TK_QUANTUM_NS;
	a->tk_batch = 0;	/* the mode's default, once model= is known */
	a->lat_ns = BNB_DEF_LAT_NS;
	a->node_mbs = BNB_DEF_NODE_MBS;
	a->link_mbs = BNB_DEF_LINK_MBS;
	a->hw_cpus = BNB_DEF_HW_CPUS;
	a->mlp = BNB_DEF_MLP;
	a->window_ns = BNB_DEF_WINDOW_NS;
	strcpy(a->model_name, "default");
}

int bnb_args_parse(struct bnb_plugin_args *a, int argc, char **argv,
		   char *err, size_t errlen)
{
	struct parse_ctx c = { .a = a, .err = err, .errlen = errlen };

	set_defaults(a);
	for (int i = 0; i < argc; i++)
		if (parse_one(&c, argv[i]))
			return -1;
	if (c.keeper_on && !a->have_icount)
		return fail(&c, "bnb-plugin: timekeeper=on needs icount_shift= (deterministic timing: bnb-vm --timing deterministic)");
	if (check_topology(&c) || check_lat(&c))
		return -1;
	if (!a->tk_batch)
		a->tk_batch = a->model ? BNB_DEF_TK_BATCH_MODEL : BNB_DEF_TK_BATCH;
	return check_model(&c);
}

unsigned int bnb_args_n_vcpus(const struct bnb_plugin_args *a)
{
	unsigned int total = 0;

	for (unsigned int i = 0; i < a->n_nodes; i++)
		total += a->cpus[i];
	return total;
}
