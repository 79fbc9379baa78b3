// SPDX-License-Identifier: GPL-2.0
/* The engine behind every option table; the model is in opt.h. */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "opt.h"
#include "parse.h"

#define HELP_COL	28	/* where help text starts in --help */
#define HELP_WIDTH	80
#define VAL_BASE	256	/* getopt_long values: row index + this */

const struct opt_def *opt_find(const struct opt_def *t, size_t n, const char *name)
{
	size_t i, len;

	for (i = 0; i < n; i++) {
		if (!(t[i].flags & OPTF_PREFIX)) {
			if (!strcmp(t[i].name, name))
				return &t[i];
			continue;
		}
		len = strlen(t[i].name) - 1;	/* "sysctl.*" matches "sysctl.X" */
		if (!strncmp(t[i].name, name, len) && name[len])
			return &t[i];
	}
	return NULL;
}

static int set_str(const struct opt_def *o, const char *value, char **field,
		   char *err, size_t errlen)
{
	char *copy;

	if ((o->flags & OPTF_NONEMPTY) && !*value)
		return errf(err, errlen, "empty value");
	if (o->parse && o->parse(o, value, NULL, err, errlen) < 0)
		return -1;
	if (!field)
		return 0;
	copy = strdup(value);
	if (!copy)
		return errf(err, errlen, "out of memory");
	free(*field);
	*field = copy;
	return 0;
}

int opt_set(const struct opt_def *o, const char *value, void *base, char *err, size_t errlen)
{
	void *field = base ? (char *)base + o->off : NULL;
	union { bool b; int i; uint64_t u; double d; } v;
	int rc = 0;

	switch (o->type) {
	case OPT_FLAG:
		v.b = !(o->flags & OPTF_CLEAR);
		break;
	case OPT_BOOL:
		rc = parse_bool(value, &v.b, err, errlen);
		break;
	case OPT_INT:
		rc = parse_int(value, (int)o->min, (int)o->max, &v.i, err, errlen);
		break;
	case OPT_U64:
		rc = parse_u64(value, o->min, o->max, &v.u, err, errlen);
		break;
	case OPT_SIZE:
		rc = parse_size(value, o->min, o->max, &v.u, err, errlen);
		break;
	case OPT_DOUBLE:
		rc = parse_double(value, o->dmin, o->dmax, &v.d, err, errlen);
		break;
	case OPT_CHOICE:
		v.i = parse_choice(value, o->choices, err, errlen);
		rc = v.i < 0 ? -1 : 0;
		break;
	case OPT_STR:
		return set_str(o, value, field, err, errlen);
	case OPT_FUNC:
		return o->parse(o, value, field, err, errlen);
	}
	if (rc || !field)
		return rc;
	switch (o->type) {
	case OPT_FLAG:
	case OPT_BOOL:
		*(bool *)field = v.b;
		break;
	case OPT_INT:
	case OPT_CHOICE:
		*(int *)field = v.i;
		break;
	case OPT_U64:
	case OPT_SIZE:
		*(uint64_t *)field = v.u;
		break;
	case OPT_DOUBLE:
		*(double *)field = v.d;
		break;
	default:
		break;
	}
	return 0;
}

int opt_defaults(const struct opt_def *t, size_t n, void *base, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].def && opt_set(&t[i], t[i].def, base, err, errlen))
			return errf_prefix(err, errlen, "default of '%s'", t[i].name);
	return 0;
}

void opt_free_one(const struct opt_def *o, void *base)
{
	void *field = (char *)base + o->off;

	if (o->type == OPT_STR) {
		free(*(char **)field);
		*(char **)field = NULL;
	} else if (o->type == OPT_FUNC && o->free) {
		o->free(field);
	}
}

void opt_free(const struct opt_def *t, size_t n, void *base)
{
	size_t i;

	for (i = 0; i < n; i++)
		opt_free_one(&t[i], base);
}

const char *opt_values(const struct opt_def *o, char *buf, size_t len)
{
	static const char *const words[] = {
		[OPT_FLAG] = "", [OPT_BOOL] = "on|off", [OPT_SIZE] = "SIZE",
		[OPT_DOUBLE] = "X", [OPT_STR] = "TEXT", [OPT_FUNC] = "VALUE",
	};

	if (o->metavar)
		return o->metavar;
	if (o->type == OPT_CHOICE)
		return o->choices;
	if (o->type == OPT_INT || o->type == OPT_U64) {
		snprintf(buf, len, "%lld..%lld", o->min, o->max);
		return buf;
	}
	return words[o->type];
}

static int getopt_error(const struct opt_def *t, size_t n, int c, char **argv,
			char *err, size_t errlen)
{
	if (c == ':' && optopt >= VAL_BASE && optopt < VAL_BASE + (int)n)
		return errf(err, errlen, "option '--%s' needs a value", t[optopt - VAL_BASE].name);
	return errf(err, errlen, "unknown option '%s' (see --help)", argv[optind - 1]);
}

static int help_kind(const char *arg, char *err, size_t errlen)
{
	if (!arg)
		return OPT_HELP;
	if (!strcmp(arg, "markdown"))
		return OPT_HELP_MARKDOWN;
	return errf(err, errlen, "--help='%s': want --help or --help=markdown", arg);
}

int opt_getopt(const struct opt_def *t, size_t n, int argc, char **argv, void *base,
	       bool stop_at_arg, char *err, size_t errlen)
{
	struct option *longopts = calloc(n + 2, sizeof(*longopts));
	int c, rc = 0;
	size_t i;

	if (!longopts)
		return errf(err, errlen, "out of memory");
	for (i = 0; i < n; i++)
		longopts[i] = (struct option){ t[i].name,
			t[i].type == OPT_FLAG ? no_argument : required_argument,
			NULL, VAL_BASE + (int)i };
	longopts[n] = (struct option){ "help", optional_argument, NULL, 'h' };
	optind = 0;	/* a full reset: tests parse several command lines */
	opterr = 0;
	while (!rc && (c = getopt_long(argc, argv, stop_at_arg ? "+:h" : ":h",
				       longopts, NULL)) != -1) {
		if (c == 'h')
			rc = help_kind(optarg, err, errlen);
		else if (c < VAL_BASE)
			rc = getopt_error(t, n, c, argv, err, errlen);
		else if (opt_set(&t[c - VAL_BASE], optarg, base, err, errlen))
			rc = errf_prefix(err, errlen, "--%s", t[c - VAL_BASE].name);
	}
	free(longopts);
	return rc ? rc : optind;
}

int opt_help(int rc, void (*usage)(FILE *f), void (*markdown)(FILE *f))
{
	if (rc != OPT_HELP && rc != OPT_HELP_MARKDOWN)
		return rc;
	(rc == OPT_HELP ? usage : markdown)(stdout);
	exit(0);
}

void opt_tool_usage(FILE *f, const struct opt_tool *tool)
{
	fprintf(f, "usage: %s\n\n%s%s", tool->synopsis, tool->about, *tool->about ? "\n" : "");
	opt_usage(f, tool->opts, tool->n, "--");
	if (tool->epilog)
		fprintf(f, "\n%s", tool->epilog);
}

void opt_tool_markdown(FILE *f, const struct opt_tool *tool)
{
	opt_markdown(f, tool->opts, tool->n, "--", "option");
}

int opt_tool_help(int rc, const struct opt_tool *tool)
{
	if (rc != OPT_HELP && rc != OPT_HELP_MARKDOWN)
		return rc;
	if (rc == OPT_HELP)
		opt_tool_usage(stdout, tool);
	else
		opt_tool_markdown(stdout, tool);
	exit(0);
}

int opt_tool_main(const struct opt_tool *tool, int argc, char **argv, void *base,
		  bool stop_at_arg)
{
	char err[ERRLEN];
	int first;

	if (opt_defaults(tool->opts, tool->n, base, err, sizeof(err))) {
		prog_error("%s", err);
		return -1;
	}
	first = opt_getopt(tool->opts, tool->n, argc, argv, base, stop_at_arg, err, sizeof(err));
	first = opt_tool_help(first, tool);
	if (first < 0)
		prog_error("%s", err);
	return first;
}

static void default_text(const struct opt_def *o, char *buf, size_t len)
{
	buf[0] = '\0';
	if (o->def && *o->def)
		snprintf(buf, len, " (default %s)", o->def);
}

/* TEXT from column COL, wrapped at HELP_WIDTH, continuation at HELP_COL. */
static void wrap(FILE *f, const char *text, int col)
{
	const char *p = text;

	while (*p) {
		int room = HELP_WIDTH - col, len = (int)strlen(p), cut = len;

		if (len > room) {
			for (cut = room; cut > 0 && p[cut] != ' '; cut--)
				;
			if (!cut)
				for (cut = room; p[cut] && p[cut] != ' '; cut++)
					;
		}
		fprintf(f, "%.*s\n", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		if (*p)
			fprintf(f, "%*s", HELP_COL, "");
		col = HELP_COL;
	}
}

void opt_usage(FILE *f, const struct opt_def *t, size_t n, const char *prefix)
{
	char left[300], vals[128], def[160], *text;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *v = opt_values(&t[i], vals, sizeof(vals));
		int col;

		snprintf(left, sizeof(left), "  %s%s%s%s", prefix, t[i].name, *v ? " " : "", v);
		col = fprintf(f, "%s", left);
		if (col >= HELP_COL - 1) {
			fputc('\n', f);
			col = 0;
		}
		col += fprintf(f, "%*s", HELP_COL - col, "");
		default_text(&t[i], def, sizeof(def));
		if (asprintf(&text, "%s%s", t[i].help, def) < 0)
			continue;
		wrap(f, text, col);
		free(text);
	}
	if (!strcmp(prefix, "--"))
		fprintf(f, "  --help%*sprint this text and exit\n", HELP_COL - 8, "");
}

/* TEXT with '|' escaped, for a Markdown table cell. */
static void cell(FILE *f, const char *text)
{
	fputs("| ", f);
	for (; *text; text++) {
		if (*text == '|')
			fputc('\\', f);
		fputc(*text, f);
	}
	fputc(' ', f);
}

void opt_markdown(FILE *f, const struct opt_def *t, size_t n, const char *prefix,
		  const char *first_column)
{
	char name[160], vals[128];
	size_t i;

	fprintf(f, "| %s | value | default | meaning |\n|---|---|---|---|\n", first_column);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "`%s%s`", prefix, t[i].name);
		cell(f, name);
		cell(f, opt_values(&t[i], vals, sizeof(vals)));
		cell(f, t[i].def ? t[i].def : "");
		cell(f, t[i].help);
		fputs("|\n", f);
	}
}
