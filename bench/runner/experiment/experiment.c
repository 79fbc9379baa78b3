// SPDX-License-Identifier: GPL-2.0
/*
 * Experiment file parser: libinih reads the INI syntax, this file keeps the
 * line numbers (inih's Debian build does not pass them to the handler, so
 * our reader counts lines), checks every key against the key table as it
 * reads, applies inheritance from [global], expands sweeps into concrete
 * variants and finally reads each variant's keys into its typed fields.
 */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "experiment.h"
#include "keys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "model/machine.h"
#include "scale.h"

/*
 * Sections with a fixed name and the keys they may hold; every other
 * section is a variant, which holds KS_VARIANT keys. A new section is a
 * row here, a struct section in struct experiment and a scope in keys.h.
 */
static const struct fixed_section {
	const char *name;
	unsigned scopes;
	size_t off;		/* its struct section in struct experiment */
} fixed_sections[] = {
	{ "global", KS_VARIANT | KS_EXPERIMENT, offsetof(struct experiment, global) },
	{ "machine", KS_MACHINE, offsetof(struct experiment, machine) },
};

/* The struct a scope's keys fill (variant keys fill each variant). */
static void *scope_base(struct experiment *exp, unsigned scope)
{
	return scope == KS_EXPERIMENT ? exp : NULL;
}

/*
 * Lines of any length up to this: Debian's libinih reads lines into a
 * 200-byte buffer fixed when it was built, so a longer line reaches it
 * as "KEY=" LONG_VALUE and the value is taken from the whole line here.
 */
#define EXP_LINE_MAX 65536
#define LONG_VALUE "\x01"
/*
 * The whole file at most this: a sweep of a thousand variants is a few
 * hundred KB, and /dev/zero or a FIFO fed by `yes` never ends.
 */
#define EXP_FILE_MAX (16 << 20)

struct parse_state {
	struct experiment *exp;
	FILE *file;
	int line;
	char *text;		/* the line being read, whole */
	size_t text_cap;
	size_t bytes;		/* read so far */
	char *long_value;	/* the value text of a line too long for inih, or NULL */
	int fixed_line[ARRAY_SIZE(fixed_sections)];	/* the header line of each fixed section, 0: none yet */
	char *err;
	size_t errlen;
	bool failed;
	const struct exp_origin *origin;	/* NULL: the file's own folder, kernels checked */
};

/*
 * An error quotes the file's text (names, keys, values), which may be
 * anything, a terminal escape included: its unprintable bytes are escaped.
 */
static void quote_safely(char *msg, size_t len)
{
	char *copy = strdup(msg);

	if (copy)
		printable(copy, msg, len);
	free(copy);
}

/* FILE:LINE: [key 'KEY': ]message; only the first error counts: it is the cause. */
__printf(4, 5)
static int fail(struct parse_state *ps, int line, const char *key, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	if (ps->failed)
		return -1;
	ps->failed = true;
	if (key)
		used = snprintf(ps->err, ps->errlen, "%s:%d: key '%s': ", ps->exp->path, line, key);
	else
		used = snprintf(ps->err, ps->errlen, "%s:%d: ", ps->exp->path, line);
	if (used >= ps->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(ps->err + used, ps->errlen - used, fmt, ap);
	va_end(ap);
	quote_safely(ps->err, ps->errlen);
	return -1;
}

static struct section *section_for(struct parse_state *ps, const char *name);
static bool variant_name_ok(const char *name);

/* The fixed section NAME ("" is inih's name for keys before any header). */
static const struct fixed_section *fixed_section(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fixed_sections); i++)
		if (!strcmp(name, fixed_sections[i].name) || (!*name && !i))
			return &fixed_sections[i];
	return NULL;
}

/* The section NAME if it exists, without creating it. */
static const struct section *find_section(const struct experiment *exp, const char *name)
{
	for (int i = 0; i < exp->n_sections; i++)
		if (!strcmp(exp->sections[i].name, name))
			return &exp->sections[i];
	return NULL;
}

/*
 * A header for a section seen before: the two would be merged in silence.
 * Also a name that is a fixed section's but for case ([Global]), which
 * would silently be a variant, and the baseline.
 */
static int check_header(struct parse_state *ps, const char *name)
{
	const struct fixed_section *fixed = fixed_section(name);
	const struct section *seen;
	size_t i;

	for (i = 0; !fixed && i < ARRAY_SIZE(fixed_sections); i++)
		if (!strcasecmp(name, fixed_sections[i].name))
			return fail(ps, ps->line, NULL, "section [%s]: section names are "
				    "case-sensitive, and [%s] is not [%s]; write [%s], or name the "
				    "variant otherwise", name, name, fixed_sections[i].name,
				    fixed_sections[i].name);
	if (fixed) {
		i = (size_t)(fixed - fixed_sections);
		if (ps->fixed_line[i])
			return fail(ps, ps->line, NULL, "section [%s] again (first on line %d): "
				    "write each section once", name, ps->fixed_line[i]);
		ps->fixed_line[i] = ps->line;
		return 0;
	}
	seen = find_section(ps->exp, name);
	if (seen)
		return fail(ps, ps->line, NULL, "section [%s] again (first on line %d): write "
			    "each section once", name, seen->line);
	return 0;
}

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
	if (!end)
		return;		/* inih reports the syntax error */
	if ((size_t)(end - p - 1) >= sizeof(name)) {
		fail(ps, ps->line, NULL, "section name too long (at most 63 characters)");
		return;
	}
	memcpy(name, p + 1, end - p - 1);
	name[end - p - 1] = 0;
	if (!*name || (!fixed_section(name) && !variant_name_ok(name))) {
		fail(ps, ps->line, NULL, "bad section name (letters, digits, _ - . + only, at most 63): %s", name);
		return;
	}
	if (check_header(ps, name))
		return;
	if (!section_for(ps, name))
		fail(ps, ps->line, NULL, "too many sections");
}

/*
 * A line longer than inih's buffer: inih gets "KEY=" LONG_VALUE (or, for
 * the continuation of a value, " " LONG_VALUE) in BUF, and the value is
 * kept whole in PS for on_key().
 */
static char *stand_in(struct parse_state *ps, char *buf, int size)
{
	char *start = ps->text + strspn(ps->text, " \t"), *eq;
	size_t key_len;

	if (*start == ';' || *start == '#' || *start == '[') {
		snprintf(buf, size, "#\n");	/* a comment, or a header noted already */
		return buf;
	}
	if (start > ps->text) {
		ps->long_value = strdup(start);
		snprintf(buf, size, " " LONG_VALUE "\n");
		return buf;
	}
	eq = start + strcspn(start, "=:");
	key_len = (size_t)(eq - start);
	while (key_len && isspace((unsigned char)start[key_len - 1]))
		key_len--;
	if (!*eq || key_len + 4 > (size_t)size) {
		snprintf(buf, size, "%s\n", *eq ? "#" : "?");	/* '?': inih's syntax error */
		if (*eq)
			fail(ps, ps->line, NULL, "key name too long");
		return buf;
	}
	ps->long_value = strdup(eq + 1);
	snprintf(buf, size, "%.*s=" LONG_VALUE "\n", (int)key_len, start);
	return buf;
}

/* A long line's value as inih reads values: blanks and an inline " ;" comment off. */
static const char *long_value(char *value)
{
	char *p = value + strspn(value, " \t\r\n"), *c;
	size_t n;

	for (c = p + 1; *p && *c; c++)
		if (*c == ';' && isspace((unsigned char)c[-1])) {
			*c = '\0';
			break;
		}
	n = strlen(p);
	while (n && isspace((unsigned char)p[n - 1]))
		p[--n] = '\0';
	return p;
}

/*
 * The next line into PS->text, its newline kept: its length, or -1 at
 * the end of the file. Of a line longer than EXP_LINE_MAX only the first
 * EXP_LINE_MAX + 1 characters are kept and the rest counted, up to
 * EXP_FILE_MAX in all (a file without line breaks, /dev/zero, is not
 * read whole).
 */
static ssize_t read_line(struct parse_state *ps)
{
	size_t n = 0, more = 0;
	int c = 0;

	if (!ps->text_cap) {
		ps->text = malloc(EXP_LINE_MAX + 2);
		if (!ps->text)
			return -1;
		ps->text_cap = EXP_LINE_MAX + 2;
	}
	while (n <= EXP_LINE_MAX && (c = getc(ps->file)) != EOF) {
		ps->text[n++] = (char)c;
		if (c == '\n')
			break;
	}
	ps->text[n] = 0;
	while (n > EXP_LINE_MAX && c != '\n' && ps->bytes + n + more <= EXP_FILE_MAX &&
	       (c = getc(ps->file)) != EOF)
		more++;
	ps->bytes += n + more;
	return n ? (ssize_t)(n + more) : -1;
}

/*
 * inih reader that counts lines, reads each whole (read_line()) and hands
 * on lines too long for inih's buffer as a stand-in (stand_in()). The
 * first error ends the reading: nothing after it is looked at.
 */
static char *counting_reader(char *buf, int size, void *stream)
{
	struct parse_state *ps = stream;
	ssize_t len = ps->failed ? -1 : read_line(ps);

	free(ps->long_value);
	ps->long_value = NULL;
	if (len < 0)
		return NULL;
	ps->line++;
	if (len > EXP_LINE_MAX || memchr(ps->text, '\0', (size_t)len) ||
	    ps->bytes > EXP_FILE_MAX) {
		if (memchr(ps->text, '\0', (size_t)(len < EXP_LINE_MAX ? len : EXP_LINE_MAX)))
			fail(ps, ps->line, NULL, "a NUL byte: this is not a text file");
		else if (ps->bytes > EXP_FILE_MAX)
			fail(ps, ps->line, NULL, "the file goes on past %d MiB: not an experiment "
			     "file", EXP_FILE_MAX >> 20);
		else
			fail(ps, ps->line, NULL, "line too long (%zd characters, at most %d)", len,
			     EXP_LINE_MAX);
		return NULL;
	}
	note_section(ps, ps->text);
	if (len < size) {
		memcpy(buf, ps->text, (size_t)len + 1);
		return buf;
	}
	return stand_in(ps, buf, size);
}

static struct section *section_for(struct parse_state *ps, const char *name)
{
	struct experiment *exp = ps->exp;
	struct section *sec;
	int i;

	const struct fixed_section *fixed = fixed_section(name);

	if (fixed)
		return (struct section *)((char *)exp + fixed->off);
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

/* "[global]", "[global] or a variant section": where DEF may be set, for errors. */
static const char *scope_text(const struct opt_def *def)
{
	size_t i;

	if (def->scope & KS_VARIANT)
		return "[global] or a variant section";
	for (i = 0; i < ARRAY_SIZE(fixed_sections); i++)
		if (fixed_sections[i].scopes & def->scope)
			return fixed_sections[i].name;
	return "no section";
}

static bool allowed_in(const struct opt_def *def, const char *section)
{
	const struct fixed_section *fixed = fixed_section(section);

	return def->scope & (fixed ? fixed->scopes : KS_VARIANT);
}

static int on_key(void *user, const char *section, const char *key,
		  const char *value)
{
	struct parse_state *ps = user;
	const struct opt_def *def;
	struct section *sec;
	struct setting *s;
	char why[ERRLEN];
	int i;

	if (ps->failed)
		return 0;
	if (ps->long_value && !strcmp(value, LONG_VALUE))
		value = long_value(ps->long_value);
	if (!fixed_section(section) && !variant_name_ok(section))
		return fail(ps, ps->line, NULL, "bad section name (letters, digits, _ - . + only, "
			    "at most 63): %s", section), 0;
	def = key_lookup(key);
	if (!def)
		return fail(ps, ps->line, key, "unknown key (bnb-run --help lists them)"), 0;
	if (!allowed_in(def, section))
		return fail(ps, ps->line, key, "allowed only in %s", scope_text(def)), 0;
	if (opt_set(def, value, NULL, why, sizeof(why)))
		return fail(ps, ps->line, key, "%s", why), 0;
	sec = section_for(ps, section);
	if (!sec)
		return fail(ps, ps->line, NULL, "too many sections"), 0;
	for (i = 0; i < sec->n_settings; i++)
		if (!strcmp(sec->settings[i].key, key))
			return fail(ps, ps->line, key, "duplicate key (first set on line %d)",
				    sec->settings[i].line), 0;
	if (sec->n_settings >= EXP_MAX_SETTINGS)
		return fail(ps, ps->line, key, "too many keys in section"), 0;
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

const struct variant *experiment_variant(const struct experiment *exp,
					 const char *name)
{
	int i;

	for (i = 0; i < exp->n_variants; i++)
		if (!strcmp(exp->variants[i].name, name))
			return &exp->variants[i];
	return NULL;
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

/* [machine], [global], then the section's own keys; defaults come with the fill. */
static void inherit(const struct experiment *exp, const struct section *sec,
		    struct variant *v)
{
	int j;

	memset(v, 0, sizeof(*v));
	snprintf(v->base, sizeof(v->base), "%s", sec->name);
	snprintf(v->name, sizeof(v->name), "%s", sec->name);
	for (j = 0; j < exp->machine.n_settings; j++)
		put(v, exp->machine.settings[j].key, exp->machine.settings[j].value,
		    exp->machine.settings[j].line);
	for (j = 0; j < exp->global.n_settings; j++)
		put(v, exp->global.settings[j].key, exp->global.settings[j].value,
		    exp->global.settings[j].line);
	for (j = 0; j < sec->n_settings; j++)
		put(v, sec->settings[j].key, sec->settings[j].value, sec->settings[j].line);
}

static int check_required(struct parse_state *ps, const struct section *sec,
			  const struct variant *v)
{
	size_t n, i;
	const struct opt_def *t = key_table(&n);

	for (i = 0; i < n; i++)
		if ((t[i].flags & OPTF_REQUIRED) && (t[i].scope & KS_VARIANT) &&
		    !find_setting(v->settings, v->n_settings, t[i].name))
			return fail(ps, sec->line, t[i].name, "missing required key in section [%s] "
				    "(set it there or in [global])", sec->name);
	return 0;
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
	const struct opt_def *t;
	size_t n, k;
	int i;

	t = key_table(&n);
	for (k = 0; k < n; k++)
		if (t[k].scope & KS_VARIANT)
			opt_free_one(&t[k], v);

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

	if (experiment_variant(exp, v->name))
		return fail(ps, line, NULL, "variant name clash after sweep expansion: %s", v->name);
	if (exp->n_variants >= EXP_MAX_VARIANTS)
		return fail(ps, line, NULL, "more than %d variants after sweep expansion",
			    EXP_MAX_VARIANTS);
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
	char **values, why[ERRLEN];
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
		return fail(ps, s->line, s->key, "%s", why);
	for (i = 1; i < n; i++) {
		int j;

		for (j = 0; j < i && strcmp(values[i], values[j]); j++)
			;
		if (j < i) {
			fail(ps, s->line, s->key, "value listed twice: %s", values[i]);
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

/*
 * Read SETTINGS into the fields of BASE for the keys of SCOPE, in table
 * order, defaults for keys not set. WHERE names the variant in errors.
 */
static int fill_scope(struct parse_state *ps, const struct setting *settings, int n_settings,
		      unsigned scope, void *base, int section_line, const char *where)
{
	const struct opt_def *t;
	char why[ERRLEN];
	size_t n, i;

	t = key_table(&n);
	for (i = 0; i < n; i++) {
		const struct setting *s = find_setting(settings, n_settings, t[i].name);

		if (!(t[i].scope & scope) || (t[i].flags & OPTF_PREFIX) || (!s && !t[i].def))
			continue;
		if (!opt_set(&t[i], s ? s->value : t[i].def, base, why, sizeof(why)))
			continue;
		if (s)
			return fail(ps, s->line, t[i].name, "%s%s", where, why);
		return fail(ps, section_line, t[i].name, "%sthe default '%s' does not fit: %s",
			    where, t[i].def, why);
	}
	return 0;
}

/* The line of KEY in V, else the line of V's section. */
static int line_of(const struct variant *v, const char *key, int section_line)
{
	const struct setting *s = find_setting(v->settings, v->n_settings, key);

	return s ? s->line : section_line;
}

/* A plugin option that asks for host-time delays, or NULL. */
static const char *delay_option(const struct argv *opts)
{
	static const char *const delay_keys[] = { "delay=", "base_ns=", "cap_ns=" };
	int i;
	size_t k;

	for (i = 0; i < opts->n; i++) {
		if (!strcmp(opts->v[i], "delay=off"))
			continue;
		for (k = 0; k < ARRAY_SIZE(delay_keys); k++)
			if (!strncmp(opts->v[i], delay_keys[k], strlen(delay_keys[k])))
				return opts->v[i];
	}
	return NULL;
}

/*
 * Deterministic timing is icount: TCG only, and the plugin's delays are
 * host-time busy-waits that the guest's instruction-counting clock never
 * sees, so they would cost host time and change nothing.
 */
static int check_timing(struct parse_state *ps, const struct variant *v, int section_line)
{
	const char *opt = delay_option(&v->plugin_opts);

	if (v->timing == TIMING_WALL) {
		if (!v->icount_shift)
			return 0;
		return fail(ps, line_of(v, "icount_shift", section_line), "icount_shift",
			    "variant '%s': icount_shift needs timing=deterministic", v->name);
	}
	if (v->accel != ACCEL_TCG)
		return fail(ps, line_of(v, "timing", section_line), "timing",
			    "variant '%s': timing=deterministic needs accel=tcg (icount is TCG's)",
			    v->name);
	if (opt)
		return fail(ps, line_of(v, "plugin_opts", section_line), "plugin_opts",
			    "variant '%s': '%s' with timing=deterministic: the plugin's delays are "
			    "host-time busy-waits the guest's icount clock does not see, so they "
			    "are off there", v->name, opt);
	return 0;
}

/*
 * [machine]: bench/model's one check, the one bnb-vm and the plugin make.
 * The model charges the vCPUs' own time through the plugin's time keeper,
 * so it needs both.
 */
static int check_machine(struct parse_state *ps, const struct variant *v, int section_line)
{
	bool keeper = v->timing == TIMING_DETERMINISTIC && v->latency != LATENCY_OFF;
	struct bnb_machine_spec m = v->machine;
	const char *key;
	char why[ERRLEN];
	int i;

	if (bnb_machine_check(&v->machine, &v->topo, keeper, NULL, &key, why, sizeof(why)))
		return fail(ps, line_of(v, key, section_line), key, "variant '%s': %s", v->name,
			    why);
	bnb_machine_resolve(&m, keeper);
	for (i = 0; i < v->plugin_opts.n && strcmp(v->plugin_opts.v[i], "delay=off"); i++)
		;
	if (!bnb_machine_class(&m) || i == v->plugin_opts.n)
		return 0;
	return fail(ps, line_of(v, "plugin_opts", section_line), "plugin_opts",
		    "variant '%s': 'delay=off': the machine model (%s) charges every miss; "
		    "model = off in [machine] counts only", v->name, bnb_machine_class(&m)->name);
}

/*
 * scale_scan=hardware: its plan must be buildable, so that a factor at or
 * below 0 or a knob the kernel would refuse fails here, not in the guest;
 * its scale_* keys mean nothing under another scale_scan.
 */
static int check_scale(struct parse_state *ps, const struct variant *v, int section_line)
{
	static const char *const scale_keys[] = { SCALE_KEY_HW_S, SCALE_KEY_HW_WS,
		SCALE_KEY_GUEST_S, SCALE_KEY_GUEST_WS, SCALE_KEY_TIME, SCALE_KEY_SIZE };
	struct scale_plan plan;
	const char *key = NULL;
	char why[ERRLEN];

	if (v->scale_scan.mode != SCALE_HARDWARE) {
		for (size_t k = 0; k < ARRAY_SIZE(scale_keys); k++)
			if (find_setting(v->settings, v->n_settings, scale_keys[k]))
				return fail(ps, line_of(v, scale_keys[k], section_line),
					    scale_keys[k], "variant '%s': needs scale_scan = hardware",
					    v->name);
		return 0;
	}
	if (!scale_plan_variant(v, &plan, &key, why, sizeof(why)))
		return 0;
	if (!key)
		key = "scale_scan";
	return fail(ps, line_of(v, find_setting(v->settings, v->n_settings, key) ? key :
				"scale_scan", section_line), key, "variant '%s': %s", v->name, why);
}

/*
 * The kernel's name, and every sysctl key against the knobs of the kernel
 * the variant names (knobs.c): a knob it lacks is refused here, before
 * anything is built or booted.
 */
static int check_kernel(struct parse_state *ps, const struct variant *v, int section_line)
{
	char why[ERRLEN], *copy = strdup(ps->exp->path);
	const struct exp_origin *o = ps->origin;
	struct kernel_spec ks;
	struct sysctl_target t;
	int rc, i;

	rc = kernel_spec_parse(v->kernel, o && o->basedir ? o->basedir : dirname(copy), &ks,
			       why, sizeof(why));
	free(copy);
	if (rc && o && o->kernel_gone_ok && !named_kernel(v->kernel)) {
		memset(&ks, 0, sizeof(ks));	/* a bzImage gone since: knobs checked in the guest */
		ks.kind = KSPEC_PATH;
		rc = 0;
	}
	if (rc)
		return fail(ps, line_of(v, "kernel", section_line), "kernel", "variant '%s': %s",
			    v->name, why);
	for (i = 0; i < v->n_sysctls; i++)
		if (knob_target(ks.named, v->sysctls[i].key, &t, why, sizeof(why)) ||
		    knob_value_check(ks.named, v->sysctls[i].key, v->sysctls[i].value, why,
				     sizeof(why)))
			return fail(ps, line_of(v, v->sysctls[i].key, section_line),
				    v->sysctls[i].key, "variant '%s': %s", v->name, why);
	return 0;
}

/*
 * A server needs its readiness probe; the server_* keys need a server; a
 * server moved to a node the guest lacks is refused now rather than in
 * every run.
 */
static int check_server(struct parse_state *ps, const struct variant *v, int section_line)
{
	const struct { const char *key; bool set; } needs_server[] = {
		{ "server_ready", *v->server_ready }, { "server_setup", *v->server_setup },
		{ "server_user", *v->server_user }, { "server_load", *v->server_load },
		{ "server_move", v->server_move >= 0 },
	};
	size_t i;

	if (!*v->server) {
		for (i = 0; i < ARRAY_SIZE(needs_server); i++)
			if (needs_server[i].set)
				return fail(ps, line_of(v, needs_server[i].key, section_line),
					    needs_server[i].key, "variant '%s': %s without a server",
					    v->name, needs_server[i].key);
		return 0;
	}
	if (!*v->server_ready)
		return fail(ps, line_of(v, "server", section_line), "server",
			    "variant '%s': a server needs server_ready, the command that says "
			    "it answers", v->name);
	if (v->server_move >= v->topo.nodes)
		return fail(ps, line_of(v, "server_move", section_line), "server_move",
			    "variant '%s': node %d, but the guest has %d", v->name,
			    v->server_move, v->topo.nodes);
	return 0;
}

/* Checks across keys, once a variant's fields are read. */
static int check_variant(struct parse_state *ps, const struct variant *v, int section_line)
{
	static const char *const topo_keys[] = { "nodes", "cpus", "mem", "distance" };
	char why[ERRLEN];
	size_t i, len;

	if (v->latency == LATENCY_EMULATED && v->accel != ACCEL_TCG)
		return fail(ps, line_of(v, "latency", section_line), "latency",
			    "variant '%s': latency=emulated needs accel=tcg (plugins are TCG only)",
			    v->name);
	if (check_timing(ps, v, section_line) || check_machine(ps, v, section_line) ||
	    check_scale(ps, v, section_line) || check_kernel(ps, v, section_line) ||
	    check_server(ps, v, section_line))
		return -1;
	if (!topo_validate(&v->topo, why, sizeof(why)))
		return 0;
	/* topology messages start with the field they are about */
	for (i = 0; i < ARRAY_SIZE(topo_keys); i++) {
		len = strlen(topo_keys[i]);
		if (!strncmp(why, topo_keys[i], len) && why[len] == ':')
			return fail(ps, line_of(v, topo_keys[i], section_line), topo_keys[i],
				    "variant '%s': %s", v->name, why + len + 2);
	}
	return fail(ps, section_line, NULL, "variant '%s': %s", v->name, why);
}

static void gather_sysctls(struct variant *v)
{
	int i;

	for (i = 0; i < v->n_settings; i++) {
		if (strncmp(v->settings[i].key, SYSCTL_PREFIX, strlen(SYSCTL_PREFIX)))
			continue;
		v->sysctls[v->n_sysctls].key = v->settings[i].key;
		v->sysctls[v->n_sysctls++].value = v->settings[i].value;
	}
}

static int fill_variant(struct parse_state *ps, struct variant *v, int section_line)
{
	char where[EXP_NAME_MAX * 2 + 16];

	snprintf(where, sizeof(where), "variant '%s': ", v->name);
	if (fill_scope(ps, v->settings, v->n_settings, KS_VARIANT | KS_MACHINE, v,
		       section_line, where))
		return -1;
	gather_sysctls(v);
	return check_variant(ps, v, section_line);
}

/* Keys of the fixed sections that fill struct experiment. */
static int fill_fixed(struct parse_state *ps)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fixed_sections); i++) {
		const struct section *sec = (void *)((char *)ps->exp + fixed_sections[i].off);
		unsigned scope = fixed_sections[i].scopes & ~KS_VARIANT;

		if (scope && fill_scope(ps, sec->settings, sec->n_settings, scope,
					scope_base(ps->exp, scope), sec->line, ""))
			return -1;
	}
	return 0;
}

static int build_variants(struct parse_state *ps)
{
	struct experiment *exp = ps->exp;
	struct variant v;
	int i, j, first, rc;

	if (!exp->n_sections)
		return fail(ps, ps->line, NULL, "no variant sections (add at least one [name] section)");
	for (i = 0; i < exp->n_sections; i++) {
		first = exp->n_variants;
		inherit(exp, &exp->sections[i], &v);
		rc = check_required(ps, &exp->sections[i], &v);
		if (!rc)
			rc = expand(ps, &v, 0);
		variant_free_strings(&v);
		for (j = first; !rc && j < exp->n_variants; j++)
			rc = fill_variant(ps, &exp->variants[j], exp->sections[i].line);
		if (rc)
			return -1;
	}
	return fill_fixed(ps);
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

/* PATH opened for reading; NULL with ERR when it cannot be, or is a folder. */
static FILE *open_experiment(const char *path, char *err, size_t errlen)
{
	char quoted[PATH_MAX];
	struct stat st;
	FILE *f = fopen(path, "r");

	printable(path, quoted, sizeof(quoted));
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", quoted, strerror(errno));
		return NULL;
	}
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory, not an experiment file", quoted);
		fclose(f);
		return NULL;
	}
	return f;
}

int experiment_load(const char *path, struct experiment *exp,
		    char *err, size_t errlen)
{
	return experiment_load_copy(path, NULL, exp, err, errlen);
}

int experiment_load_copy(const char *path, const struct exp_origin *o, struct experiment *exp,
			 char *err, size_t errlen)
{
	struct parse_state ps = { .exp = exp, .err = err, .errlen = errlen, .origin = o };
	int rc;

	memset(exp, 0, sizeof(*exp));
	exp->path = strdup(path);
	set_name(exp, path);
	ps.file = open_experiment(path, err, errlen);
	if (!ps.file) {
		experiment_free(exp);
		return -1;
	}
	rc = ini_parse_stream(counting_reader, &ps, on_key, &ps);
	if (!ps.failed && ferror(ps.file))
		fail(&ps, ps.line + 1, NULL, "read error: %s", strerror(errno));
	fclose(ps.file);
	free(ps.text);
	free(ps.long_value);
	if (rc > 0 && !ps.failed)
		fail(&ps, rc, NULL, "syntax error (want [section] or key = value)");
	if (!ps.failed && rc < 0)
		fail(&ps, 0, NULL, "read error");
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
	const struct opt_def *t;
	size_t n, k;
	int i;

	t = key_table(&n);
	for (k = 0; k < n; k++)
		if (t[k].scope & KS_EXPERIMENT)
			opt_free_one(&t[k], exp);

	section_free(&exp->global);
	section_free(&exp->machine);
	for (i = 0; i < exp->n_sections; i++)
		section_free(&exp->sections[i]);
	for (i = 0; i < exp->n_variants; i++)
		variant_free_strings(&exp->variants[i]);
	free(exp->sections);
	free(exp->variants);
	free(exp->path);
	memset(exp, 0, sizeof(*exp));
}
