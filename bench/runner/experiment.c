// SPDX-License-Identifier: GPL-2.0
/*
 * Experiment file parser: libinih reads the INI syntax, this file keeps the
 * line numbers (inih's Debian build does not pass them to the handler, so
 * our reader counts lines), validates every key against keys.c, applies
 * inheritance from [global] and expands sweeps into concrete variants.
 */
#include <ctype.h>
#include <ini.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "keys.h"

struct parse_state {
	struct experiment *exp;
	FILE *file;
	int line;
	bool line_too_long;
	char *err;
	size_t errlen;
	bool failed;
};

static void fail(struct parse_state *ps, int line, const char *key,
		 const char *fmt, const char *what)
{
	if (ps->failed)
		return;		/* keep the first error: it is the cause */
	ps->failed = true;
	if (key)
		snprintf(ps->err, ps->errlen, "%s:%d: key '%s': %s%s", ps->exp->path,
			 line, key, fmt, what ? what : "");
	else
		snprintf(ps->err, ps->errlen, "%s:%d: %s%s", ps->exp->path, line, fmt,
			 what ? what : "");
}

static struct section *section_for(struct parse_state *ps, const char *name);
static bool variant_name_ok(const char *name);

/*
 * Section headers are noted here as the line is read: inih reports only
 * key=value lines, and a variant section may have no keys at all.
 */
static void note_section(struct parse_state *ps, const char *line)
{
	char name[EXP_NAME_MAX];
	const char *p = line + strspn(line, " \t"), *end;

	if (*p != '[')
		return;
	end = strchr(p, ']');
	if (!end || (size_t)(end - p - 1) >= sizeof(name))
		return;		/* inih reports the syntax error, or the name is too long */
	memcpy(name, p + 1, end - p - 1);
	name[end - p - 1] = 0;
	if (strcmp(name, "global") && !variant_name_ok(name)) {
		fail(ps, ps->line, NULL, "bad section name (letters, digits, _ - . + only, at most 63): ", name);
		return;
	}
	if (!section_for(ps, name))
		fail(ps, ps->line, NULL, "too many sections", NULL);
}

/* inih reader that counts lines and catches lines longer than its buffer. */
static char *counting_reader(char *buf, int size, void *stream)
{
	struct parse_state *ps = stream;
	char *s = fgets(buf, size, ps->file);
	size_t len;

	if (!s)
		return NULL;
	ps->line++;
	len = strlen(s);
	if (len == (size_t)size - 1 && s[len - 1] != '\n' && !feof(ps->file))
		ps->line_too_long = true;
	note_section(ps, s);
	return s;
}

static struct section *section_for(struct parse_state *ps, const char *name)
{
	struct experiment *exp = ps->exp;
	struct section *sec;
	int i;

	if (!*name || !strcmp(name, "global"))
		return &exp->global;
	for (i = 0; i < exp->n_sections; i++)
		if (!strcmp(exp->sections[i].name, name))
			return &exp->sections[i];
	if (exp->n_sections >= EXP_MAX_VARIANTS)
		return NULL;
	sec = realloc(exp->sections, (exp->n_sections + 1) * sizeof(*sec));
	if (!sec)
		return NULL;
	exp->sections = sec;
	sec = &exp->sections[exp->n_sections++];
	memset(sec, 0, sizeof(*sec));
	snprintf(sec->name, sizeof(sec->name), "%s", name);
	sec->line = ps->line;
	return sec;
}

static bool variant_name_ok(const char *name)
{
	const char *p;

	if (strlen(name) >= EXP_NAME_MAX / 2 || !*name || *name == '.')
		return false;
	for (p = name; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.+", *p))
			return false;
	return true;
}

static int on_key(void *user, const char *section, const char *key,
		  const char *value)
{
	struct parse_state *ps = user;
	const struct key_def *def;
	struct section *sec;
	struct setting *s;
	char why[256];
	int i;

	if (ps->failed)
		return 0;
	if (ps->line_too_long)
		return fail(ps, ps->line, NULL, "line too long", NULL), 0;
	if (*section && strcmp(section, "global") && !variant_name_ok(section))
		return fail(ps, ps->line, NULL, "bad section name (letters, digits, _ - . + only, at most 63): ", section), 0;
	def = key_lookup(key);
	if (!def)
		return fail(ps, ps->line, key, "unknown key", NULL), 0;
	if (key_validate(def, key, value, why, sizeof(why)))
		return fail(ps, ps->line, key, why, NULL), 0;
	sec = section_for(ps, section);
	if (!sec)
		return fail(ps, ps->line, NULL, "too many sections", NULL), 0;
	if (def->global_only && sec != &ps->exp->global)
		return fail(ps, ps->line, key, "allowed only in [global]", NULL), 0;
	for (i = 0; i < sec->n_settings; i++)
		if (!strcmp(sec->settings[i].key, key))
			return fail(ps, ps->line, key, "duplicate key (first set on an earlier line)", NULL), 0;
	if (sec->n_settings >= EXP_MAX_SETTINGS)
		return fail(ps, ps->line, key, "too many keys in section", NULL), 0;
	s = &sec->settings[sec->n_settings++];
	s->key = strdup(key);
	s->value = strdup(value);
	s->line = ps->line;
	return 1;
}

static const struct setting *find_setting(const struct setting *s, int n, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(s[i].key, key))
			return &s[i];
	return NULL;
}

static const struct setting *section_get(const struct section *sec, const char *key)
{
	return find_setting(sec->settings, sec->n_settings, key);
}

const char *variant_get(const struct variant *v, const char *key)
{
	const struct setting *s = find_setting(v->settings, v->n_settings, key);

	return s ? s->value : NULL;
}

const char *experiment_global(const struct experiment *exp, const char *key)
{
	const struct setting *s = section_get(&exp->global, key);
	const struct key_def *def;

	if (s)
		return s->value;
	def = key_lookup(key);
	return def ? def->def : NULL;
}

const struct variant *experiment_variant(const struct experiment *exp,
					 const char *name)
{
	int i;

	for (i = 0; i < exp->n_variants; i++)
		if (!strcmp(exp->variants[i].name, name))
			return &exp->variants[i];
	return NULL;
}

int variant_repetitions(const struct variant *v)
{
	long reps = 1;

	parse_long(variant_get(v, "repetitions"), 1, 1000, &reps);
	return (int)reps;
}

static void put(struct variant *v, const char *key, const char *value, int line)
{
	struct setting *s;
	int i;

	for (i = 0; i < v->n_settings; i++) {
		if (strcmp(v->settings[i].key, key))
			continue;
		s = &v->settings[i];
		free(s->value);
		s->value = strdup(value);
		s->line = line;
		return;
	}
	s = &v->settings[v->n_settings++];
	s->key = strdup(key);
	s->value = strdup(value);
	s->line = line;
}

/* Without a distance key: 10 on the diagonal, 20 elsewhere, for any node count. */
static void default_distance(struct variant *v)
{
	char buf[64 * 64 * 3 + 64];
	long nodes = 2, i, j;
	size_t used = 0;

	parse_long(variant_get(v, "nodes"), 1, 64, &nodes);
	for (i = 0; i < nodes; i++)
		for (j = 0; j < nodes; j++)
			used += snprintf(buf + used, sizeof(buf) - used, "%s%d",
					 j ? "," : i ? ";" : "", i == j ? 10 : 20);
	put(v, "distance", buf, 0);
}

/* Defaults, then [global], then the section's own keys. */
static void inherit(const struct experiment *exp, const struct section *sec,
		    struct variant *v)
{
	const struct key_def *table;
	size_t n, i;
	int j;

	memset(v, 0, sizeof(*v));
	snprintf(v->base, sizeof(v->base), "%s", sec->name);
	snprintf(v->name, sizeof(v->name), "%s", sec->name);
	table = key_table(&n);
	for (i = 0; i < n; i++)
		if (table[i].def && table[i].type != KT_SYSCTL)
			put(v, table[i].name, table[i].def, 0);
	for (j = 0; j < exp->global.n_settings; j++)
		put(v, exp->global.settings[j].key, exp->global.settings[j].value,
		    exp->global.settings[j].line);
	for (j = 0; j < sec->n_settings; j++)
		put(v, sec->settings[j].key, sec->settings[j].value, sec->settings[j].line);
	if (!variant_get(v, "distance"))
		default_distance(v);
}

static const struct setting *variant_setting(const struct variant *v, const char *key)
{
	return find_setting(v->settings, v->n_settings, key);
}

/* Keys whose list length must match the node count. */
static int check_topology(struct parse_state *ps, const struct variant *v)
{
	static const struct { const char *key; char sep; bool square; } per_node[] = {
		{ "cpus", ',', false }, { "mem", ',', false }, { "distance", ';', true },
	};
	long nodes = 0;
	size_t i;

	parse_long(variant_get(v, "nodes"), 1, 64, &nodes);
	for (i = 0; i < sizeof(per_node) / sizeof(per_node[0]); i++) {
		const struct setting *s = variant_setting(v, per_node[i].key);
		int n = count_list(s->value, per_node[i].sep);
		char what[400];

		if (n == nodes || (!per_node[i].square && n == 1))
			continue;
		snprintf(what, sizeof(what), "has %d entries but variant '%s' has %ld nodes",
			 n, v->name, nodes);
		fail(ps, s->line, s->key, what, NULL);
		return -1;
	}
	return 0;
}

static int check_required(struct parse_state *ps, const struct section *sec,
			  const struct variant *v)
{
	if (variant_get(v, "workload"))
		return 0;
	fail(ps, sec->line, "workload", "missing required key in section [", sec->name);
	snprintf(ps->err + strlen(ps->err), ps->errlen - strlen(ps->err),
		 "] (set it there or in [global])");
	return -1;
}

static void variant_copy(struct variant *dst, const struct variant *src)
{
	int i;

	*dst = *src;
	for (i = 0; i < src->n_settings; i++) {
		dst->settings[i].key = strdup(src->settings[i].key);
		dst->settings[i].value = strdup(src->settings[i].value);
	}
	for (i = 0; i < src->n_sweep; i++) {
		dst->sweep[i].key = strdup(src->sweep[i].key);
		dst->sweep[i].value = strdup(src->sweep[i].value);
	}
}

static void variant_free_strings(struct variant *v)
{
	int i;

	for (i = 0; i < v->n_settings; i++) {
		free(v->settings[i].key);
		free(v->settings[i].value);
	}
	for (i = 0; i < v->n_sweep; i++) {
		free(v->sweep[i].key);
		free(v->sweep[i].value);
	}
}

/* Appends a deep copy of V; the caller keeps V. */
static int add_variant(struct parse_state *ps, const struct variant *v, int line)
{
	struct experiment *exp = ps->exp;
	struct variant *vs;

	if (experiment_variant(exp, v->name)) {
		fail(ps, line, NULL, "variant name clash after sweep expansion: ", v->name);
		return -1;
	}
	if (exp->n_variants >= EXP_MAX_VARIANTS) {
		fail(ps, line, NULL, "more than 256 variants after sweep expansion", NULL);
		return -1;
	}
	vs = realloc(exp->variants, (exp->n_variants + 1) * sizeof(*vs));
	if (!vs)
		return -1;
	exp->variants = vs;
	variant_copy(&exp->variants[exp->n_variants++], v);
	return 0;
}

/*
 * Expand the swept sysctls of V, one key at a time (index K), into the
 * cartesian product; each leaf becomes a variant named
 * base-key=value-key=value.
 */
static int expand(struct parse_state *ps, struct variant *v, int k)
{
	const struct setting *s = NULL;
	char **values, why[256];
	int n, i, rc = 0;

	for (; k < v->n_settings; k++) {
		s = &v->settings[k];
		if (!strncmp(s->key, SYSCTL_PREFIX, strlen(SYSCTL_PREFIX)) &&
		    (strchr(s->value, ',') || strchr(s->value, ':')))
			break;
	}
	if (k == v->n_settings)
		return add_variant(ps, v, ps->line);
	n = sweep_values(s->value, &values, why, sizeof(why));
	if (n < 0)
		return fail(ps, s->line, s->key, why, NULL), -1;
	for (i = 1; i < n; i++) {
		int j;

		for (j = 0; j < i && strcmp(values[i], values[j]); j++)
			;
		if (j < i) {
			fail(ps, s->line, s->key, "value listed twice: ", values[i]);
			sweep_values_free(values, n);
			return -1;
		}
	}
	for (i = 0; i < n && !rc; i++) {
		struct variant *leaf = malloc(sizeof(*leaf));

		variant_copy(leaf, v);
		put(leaf, s->key, values[i], s->line);
		snprintf(leaf->name + strlen(leaf->name), sizeof(leaf->name) - strlen(leaf->name),
			 "-%s=%s", s->key + strlen(SYSCTL_PREFIX), values[i]);
		leaf->sweep[leaf->n_sweep].key = strdup(s->key);
		leaf->sweep[leaf->n_sweep++].value = strdup(values[i]);
		rc = expand(ps, leaf, k + 1);
		variant_free_strings(leaf);
		free(leaf);
	}
	sweep_values_free(values, n);
	return rc;
}

static int build_variants(struct parse_state *ps)
{
	struct experiment *exp = ps->exp;
	struct variant v;
	int i, rc;

	if (!exp->n_sections) {
		fail(ps, ps->line, NULL, "no variant sections (add at least one [name] section)", NULL);
		return -1;
	}
	for (i = 0; i < exp->n_sections; i++) {
		inherit(exp, &exp->sections[i], &v);
		rc = check_required(ps, &exp->sections[i], &v);
		if (!rc)
			rc = check_topology(ps, &v);
		if (!rc)
			rc = expand(ps, &v, 0);
		variant_free_strings(&v);
		if (rc)
			return -1;
	}
	return 0;
}

static void set_name(struct experiment *exp, const char *path)
{
	char *copy = strdup(path), *base = basename(copy), *dot;

	dot = strrchr(base, '.');
	if (dot && !strcmp(dot, ".ini"))
		*dot = 0;
	snprintf(exp->name, sizeof(exp->name), "%s", base);
	free(copy);
	/* the name goes into folder names, gnuplot strings and tables */
	for (dot = exp->name; *dot; dot++)
		if (!isalnum((unsigned char)*dot) && !strchr("_.+-", *dot))
			*dot = '_';
}

int experiment_load(const char *path, struct experiment *exp,
		    char *err, size_t errlen)
{
	struct parse_state ps = { .exp = exp, .err = err, .errlen = errlen };
	int rc;

	memset(exp, 0, sizeof(*exp));
	exp->path = strdup(path);
	set_name(exp, path);
	ps.file = fopen(path, "r");
	if (!ps.file) {
		snprintf(err, errlen, "%s: cannot open: %m", path);
		experiment_free(exp);
		return -1;
	}
	rc = ini_parse_stream(counting_reader, &ps, on_key, &ps);
	fclose(ps.file);
	if (rc > 0 && !ps.failed)
		fail(&ps, rc, NULL, "syntax error (want [section] or key = value)", NULL);
	if (!ps.failed && ps.line_too_long)
		fail(&ps, ps.line, NULL, "line too long", NULL);
	if (!ps.failed && rc < 0)
		fail(&ps, 0, NULL, "read error", NULL);
	if (!ps.failed)
		build_variants(&ps);
	if (ps.failed) {
		experiment_free(exp);
		return -1;
	}
	return 0;
}

static void section_free(struct section *sec)
{
	int i;

	for (i = 0; i < sec->n_settings; i++) {
		free(sec->settings[i].key);
		free(sec->settings[i].value);
	}
}

void experiment_free(struct experiment *exp)
{
	int i;

	section_free(&exp->global);
	for (i = 0; i < exp->n_sections; i++)
		section_free(&exp->sections[i]);
	for (i = 0; i < exp->n_variants; i++)
		variant_free_strings(&exp->variants[i]);
	free(exp->sections);
	free(exp->variants);
	free(exp->path);
	memset(exp, 0, sizeof(*exp));
}
