// SPDX-License-Identifier: GPL-2.0
/*
 * reference_eval.c - the published figures (published.ini) and the
 * guest's results held against them: ratios within a factor, orderings.
 * No I/O beyond reading the data file; the suite's runs and tables are in
 * reference.c.
 */
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "lib/err.h"
#include "lib/util.h"

const char *const ref_variant_names[RV_N] = {
	[RV_OFF] = "off", [RV_ON] = "on", [RV_HARD] = "HARD_BIND",
	[RV_INVERSE] = "INVERSE_BIND",
};

struct load_state {
	struct ref_published *p;
	char *err;
	size_t errlen;
	bool failed;
	void *current;			/* the section being read */
	char current_name[128];
};

static int variant_index(const char *s, size_t len)
{
	for (int i = 0; i < RV_N; i++)
		if (strlen(ref_variant_names[i]) == len && !strncmp(s, ref_variant_names[i], len))
			return i;
	return -1;
}

static int machine_index(const struct ref_published *p, const char *s, size_t len)
{
	for (int i = 0; i < p->n_machines; i++)
		if (strlen(p->machine[i].name) == len && !strncmp(s, p->machine[i].name, len))
			return i;
	return -1;
}

static int positive(const char *value, double *out, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	*out = strtod(value, &end);
	if (errno || end == value || *end || !(*out > 0) || !isfinite(*out))
		return errf(err, errlen, "'%s' is not a positive number", value);
	return 0;
}

static int copy_name(char *dst, size_t len, const char *value, char *err, size_t errlen)
{
	if (!*value || strlen(value) >= len)
		return errf(err, errlen, "'%s' is empty or too long", value);
	strcpy(dst, value);
	return 0;
}

/* "A < B, B <= C": each a pair of variant names, into order[], *n of them. */
static int parse_orders(struct ref_order *order, int *n, const char *value, char *err,
			size_t errlen)
{
	const char *s = value;

	*n = 0;
	while (*s) {
		struct ref_order o = { 0 };
		char a[32], op[3], b[32];
		int used = 0, ia, ib;

		if (sscanf(s, " %31[A-Za-z_] %2[<=] %31[A-Za-z_] %n", a, op, b, &used) != 3)
			return errf(err, errlen, "'%s': want 'VARIANT < VARIANT, ...'", s);
		ia = variant_index(a, strlen(a));
		ib = variant_index(b, strlen(b));
		if (ia < 0 || ib < 0 || ia == ib)
			return errf(err, errlen, "'%s %s %s': want two different variants of off, on, HARD_BIND, INVERSE_BIND",
				    a, op, b);
		if (strcmp(op, "<") && strcmp(op, "<="))
			return errf(err, errlen, "'%s': the operator is < or <=", op);
		if (*n == REF_ORDERS)
			return errf(err, errlen, "more than %d orderings", REF_ORDERS);
		o.a = ia;
		o.b = ib;
		o.or_equal = op[1] == '=';
		order[(*n)++] = o;
		s += used;
		if (*s == ',')
			s++;
		else if (*s)
			return errf(err, errlen, "'%s': orderings are separated by ','", s);
	}
	return 0;
}

/* MACHINE.VARIANT, MACHINE.sys.VARIANT or busy_cpus.MACHINE */
static int program_key(struct ref_published *p, struct ref_program *prog, const char *key,
		       const char *value, char *err, size_t errlen)
{
	const char *dot = strchr(key, '.');
	double v, *slot;
	int m, var;

	if (!strcmp(key, "order"))
		return parse_orders(prog->order, &prog->n_order, value, err, errlen);
	if (!dot)
		return errf(err, errlen, "unknown key (want MACHINE.VARIANT, MACHINE.sys.VARIANT, busy_cpus.MACHINE, order or order.MACHINE)");
	if (!strncmp(key, "order.", 6)) {
		m = machine_index(p, dot + 1, strlen(dot + 1));
		if (m < 0)
			return errf(err, errlen, "no [machine] section of that name before it");
		return parse_orders(prog->order_on[m], &prog->n_order_on[m], value, err, errlen);
	}
	if (!strncmp(key, "busy_cpus.", 10)) {
		m = machine_index(p, dot + 1, strlen(dot + 1));
		slot = m < 0 ? NULL : &prog->busy_cpus[m];
	} else {
		m = machine_index(p, key, dot - key);
		if (m >= 0 && !strncmp(dot + 1, "sys.", 4)) {
			var = variant_index(dot + 5, strlen(dot + 5));
			slot = var < 0 ? NULL : &prog->sys[m][var];
		} else {
			var = variant_index(dot + 1, strlen(dot + 1));
			slot = m < 0 || var < 0 ? NULL : &prog->elapsed[m][var];
		}
	}
	if (m < 0)
		return errf(err, errlen, "no [machine] section of that name before it");
	if (!slot)
		return errf(err, errlen, "unknown variant (off, on, HARD_BIND, INVERSE_BIND)");
	if (positive(value, &v, err, errlen))
		return -1;
	*slot = v;
	return 0;
}

static int machine_key(struct ref_machine *m, const char *key, const char *value,
		       char *err, size_t errlen)
{
	double v;

	if (!strcmp(key, "source"))
		return copy_name(m->source, sizeof(m->source), value, err, errlen);
	if (!strcmp(key, "what"))
		return copy_name(m->what, sizeof(m->what), value, err, errlen);
	if (strcmp(key, "nodes") && strcmp(key, "cpus"))
		return errf(err, errlen, "unknown key (source, what, nodes, cpus)");
	if (positive(value, &v, err, errlen))
		return -1;
	*(strcmp(key, "nodes") ? &m->cpus : &m->nodes) = (int)v;
	return 0;
}

static int ratio_key(struct ref_published *p, struct ref_ratio *r, const char *key,
		     const char *value, char *err, size_t errlen)
{
	if (strcmp(key, "machine"))
		return errf(err, errlen, "unknown key (machine)");
	r->machine = machine_index(p, value, strlen(value));
	if (r->machine < 0)
		return errf(err, errlen, "'%s': no [machine] section of that name before it", value);
	return 0;
}

static int topology_key(struct ref_published *p, struct ref_topology *t, const char *key,
			const char *value, char *err, size_t errlen)
{
	if (strcmp(key, "machine"))
		return errf(err, errlen, "unknown key (machine)");
	t->machine = machine_index(p, value, strlen(value));
	if (t->machine < 0)
		return errf(err, errlen, "'%s': no [machine] section of that name before it", value);
	return 0;
}

static int rates_key(struct ref_rates *r, const char *key, const char *value,
		     char *err, size_t errlen)
{
	if (!strcmp(key, "source"))
		return copy_name(r->source, sizeof(r->source), value, err, errlen);
	if (!strcmp(key, "seconds"))
		return positive(value, &r->seconds, err, errlen);
	if (!strcmp(key, "pte_updates"))
		return positive(value, &r->pte_updates, err, errlen);
	if (!strcmp(key, "hint_faults"))
		return positive(value, &r->hint_faults, err, errlen);
	return errf(err, errlen, "unknown key (source, seconds, pte_updates, hint_faults)");
}

static int evaluation_key(struct ref_published *p, const char *key, const char *value,
			  char *err, size_t errlen)
{
	double v;

	if (strcmp(key, "tolerance") && strcmp(key, "within"))
		return errf(err, errlen, "unknown key (tolerance, within)");
	if (positive(value, &v, err, errlen))
		return -1;
	if (!strcmp(key, "within") && v < 1)
		return errf(err, errlen, "'%s': a factor of at least 1", value);
	*(strcmp(key, "within") ? &p->tolerance : &p->within) = v;
	return 0;
}

static void program_init(struct ref_program *prog)
{
	memset(prog, 0, sizeof(*prog));
	for (int m = 0; m < REF_MACHINES; m++) {
		prog->busy_cpus[m] = NAN;
		for (int v = 0; v < RV_N; v++)
			prog->elapsed[m][v] = prog->sys[m][v] = NAN;
	}
}

/* A new [kind NAME] section: its slot, or NULL with the reason in err. */
static void *new_section(struct ref_published *p, const char *kind, const char *name,
			 char *err, size_t errlen)
{
	if (!strcmp(kind, "machine") && p->n_machines < REF_MACHINES &&
	    strlen(name) < REF_NAME_MAX) {
		struct ref_machine *m = &p->machine[p->n_machines++];

		strcpy(m->name, name);
		return m;
	}
	if (!strcmp(kind, "program") && p->n_progs < REF_PROGRAMS &&
	    strlen(name) < REF_NAME_MAX) {
		struct ref_program *prog = &p->prog[p->n_progs++];

		program_init(prog);
		strcpy(prog->name, name);
		return prog;
	}
	if (!strcmp(kind, "ratio") && p->n_ratios < REF_RATIOS) {
		const char *slash = strchr(name, '/');
		int num = slash ? variant_index(name, slash - name) : -1;
		int den = slash ? variant_index(slash + 1, strlen(slash + 1)) : -1;
		struct ref_ratio *r = &p->ratio[p->n_ratios];

		if (num < 0 || den < 0 || num == den) {
			errf(err, errlen, "'%s': want VARIANT/VARIANT", name);
			return NULL;
		}
		*r = (struct ref_ratio){ .num = num, .den = den, .machine = -1 };
		p->n_ratios++;
		return r;
	}
	if (!strcmp(kind, "topology") && p->n_topologies < REF_TOPOLOGIES &&
	    strlen(name) < REF_NAME_MAX) {
		struct ref_topology *t = &p->topology[p->n_topologies++];

		strcpy(t->name, name);
		t->machine = -1;
		return t;
	}
	if (!strcmp(kind, "rates") && p->rates.machine < 0) {
		p->rates.machine = machine_index(p, name, strlen(name));
		if (p->rates.machine < 0) {
			errf(err, errlen, "'%s': no [machine] section of that name before it", name);
			return NULL;
		}
		return &p->rates;
	}
	errf(err, errlen, "unknown, repeated or one too many sections");
	return NULL;
}

static int dispatch(struct load_state *st, const char *section, const char *key,
		    const char *value, char *err, size_t errlen)
{
	struct ref_published *p = st->p;
	void *current = st->current;
	char kind[16], name[112];

	if (!strcmp(section, "evaluation"))
		return evaluation_key(p, key, value, err, errlen);
	if (sscanf(section, "%15s %111s", kind, name) != 2)
		return errf(err, errlen, "unknown section (evaluation, machine NAME, program NAME, ratio A/B, rates MACHINE, topology NAME)");
	if (!current || strcmp(st->current_name, section)) {
		current = st->current = new_section(p, kind, name, err, errlen);
		if (!current)
			return -1;
		snprintf(st->current_name, sizeof(st->current_name), "%s", section);
	}
	if (!strcmp(kind, "machine"))
		return machine_key(current, key, value, err, errlen);
	if (!strcmp(kind, "program"))
		return program_key(p, current, key, value, err, errlen);
	if (!strcmp(kind, "ratio"))
		return ratio_key(p, current, key, value, err, errlen);
	if (!strcmp(kind, "topology"))
		return topology_key(p, current, key, value, err, errlen);
	return rates_key(current, key, value, err, errlen);
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
	struct load_state *st = user;
	char why[512];

	if (st->failed)
		return 0;
	if (!dispatch(st, section, key, value, why, sizeof(why)))
		return 1;
	snprintf(st->err, st->errlen, "%s: [%s] key '%s': %s", st->p->path, section, key, why);
	st->failed = true;
	return 0;
}

/* What the sections must hold once read. */
static int check_published(const struct ref_published *p, char *err, size_t errlen)
{
	for (int i = 0; i < p->n_ratios; i++)
		if (p->ratio[i].machine < 0)
			return errf(err, errlen, "%s: a [ratio] section without machine", p->path);
	for (int i = 0; i < p->n_topologies; i++)
		if (p->topology[i].machine < 0)
			return errf(err, errlen, "%s: [topology %s] without machine", p->path,
				    p->topology[i].name);
	if (!p->n_progs || !p->n_ratios)
		return errf(err, errlen, "%s: no [program] or no [ratio] section", p->path);
	return 0;
}

int ref_published_load(const char *path, struct ref_published *p, char *err, size_t errlen)
{
	struct load_state st = { .p = p, .err = err, .errlen = errlen };
	int rc;

	memset(p, 0, sizeof(*p));
	p->tolerance = 0.05;
	p->within = 2;
	p->rates.machine = -1;
	if (strlen(path) >= sizeof(p->path))
		return errf(err, errlen, "'%s': path too long", path);
	strcpy(p->path, path);
	rc = ini_parse(path, on_key, &st);
	if (st.failed)
		return -1;
	if (rc < 0)
		return errf(err, errlen, "%s: cannot read it", path);
	if (rc > 0)
		return errf(err, errlen, "%s:%d: syntax error (want [section] or key = value)", path, rc);
	return check_published(p, err, errlen);
}

const struct ref_program *ref_program_find(const struct ref_published *p, const char *name)
{
	for (int i = 0; i < p->n_progs; i++)
		if (!strcmp(p->prog[i].name, name))
			return &p->prog[i];
	return NULL;
}

double ref_published_ratio(const struct ref_program *prog, const struct ref_ratio *r)
{
	return prog->elapsed[r->machine][r->num] / prog->elapsed[r->machine][r->den];
}

int ref_topology_machine(const struct ref_published *p, const char *topo)
{
	for (int i = 0; i < p->n_topologies; i++)
		if (!strcmp(p->topology[i].name, topo))
			return p->topology[i].machine;
	return -1;
}

const struct ref_order *ref_orders(const struct ref_program *prog, int machine, int *n)
{
	if (machine >= 0 && prog->n_order_on[machine]) {
		*n = prog->n_order_on[machine];
		return prog->order_on[machine];
	}
	*n = prog->n_order;
	return prog->order;
}

int ref_ratio_machine(const struct ref_program *prog, const struct ref_ratio *r, int machine)
{
	if (machine >= 0 && isfinite(prog->elapsed[machine][r->num]) &&
	    isfinite(prog->elapsed[machine][r->den]))
		return machine;
	return r->machine;
}

static enum ref_verdict within(double measured, double published, double factor)
{
	double q = measured / published;

	if (!isfinite(q))
		return REF_UNKNOWN;
	return q >= 1 / factor && q <= factor ? REF_YES : REF_NO;
}

static enum ref_verdict order_holds(const struct ref_order *o, const double *mean,
				    double tolerance)
{
	double a = mean[o->a], b = mean[o->b];

	if (isnan(a) || isnan(b))
		return REF_UNKNOWN;
	if (o->or_equal)
		return a <= b * (1 + tolerance) ? REF_YES : REF_NO;
	return a < b ? REF_YES : REF_NO;
}

void ref_evaluate_on(const struct ref_published *p, const struct ref_program *prog, int machine,
		     const struct ref_measured *m, struct ref_eval *e)
{
	const struct ref_order *order;
	int n;

	memset(e, 0, sizeof(*e));
	for (int i = 0; i < p->n_ratios; i++) {
		struct ref_ratio r = p->ratio[i];
		struct ref_ratio_eval *re = &e->ratio[i];

		r.machine = ref_ratio_machine(prog, &r, machine);
		re->machine = r.machine;
		re->measured = m->mean[r.num] / m->mean[r.den];
		re->published = ref_published_ratio(prog, &r);
		re->holds = within(re->measured, re->published, p->within);
	}
	order = ref_orders(prog, machine, &n);
	for (int i = 0; i < n; i++)
		e->order[i].holds = order_holds(&order[i], m->mean, p->tolerance);
}

void ref_evaluate(const struct ref_published *p, const struct ref_program *prog,
		  const struct ref_measured *m, struct ref_eval *e)
{
	ref_evaluate_on(p, prog, -1, m, e);
}

const char *ref_order_text(const struct ref_order *o, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s %s", ref_variant_names[o->a], o->or_equal ? "<=" : "<",
		 ref_variant_names[o->b]);
	return buf;
}

const char *ref_ratio_text(const struct ref_ratio *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", ref_variant_names[r->num], ref_variant_names[r->den]);
	return buf;
}

double ref_rate_per_cpu(const struct ref_published *p, double count)
{
	if (p->rates.machine < 0 || !p->rates.seconds)
		return NAN;
	return count / p->rates.seconds / p->machine[p->rates.machine].cpus;
}

double ref_sys_share(const struct ref_program *prog, int m, enum ref_variant v)
{
	return prog->sys[m][v] / (prog->elapsed[m][v] * prog->busy_cpus[m]);
}
