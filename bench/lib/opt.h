/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed option tables, after fio's options table: one row per option
 * names its type, the field it fills (an offset into the caller's struct),
 * its bounds, default and help. The same table drives parsing (command
 * lines and experiment files alike), validation, --help and the
 * documentation's tables, so they cannot drift apart.
 *
 * Adding an option is one row plus one field:
 *
 *	struct cfg { int timeout_s; ... };
 *	#define CFG(f) OPT_FIELD(struct cfg, f)
 *	{ "timeout", OPT_INT, CFG(timeout_s), .min = 1, .max = 86400,
 *	  .def = "300", .help = "bound on the whole run, seconds" },
 */
#ifndef BNB_LIB_OPT_H
#define BNB_LIB_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum opt_type {
	OPT_FLAG,	/* no value: bool set true (OPTF_CLEAR: false); command lines */
	OPT_BOOL,	/* bool: on|off (parse.h) */
	OPT_INT,	/* int within [min, max] */
	OPT_U64,	/* uint64_t within [min, max] */
	OPT_SIZE,	/* uint64_t bytes within [min, max]; a bare number is bytes */
	OPT_DOUBLE,	/* double within [dmin, dmax] */
	OPT_STR,	/* char *, a copy of the text (OPTF_NONEMPTY refuses ""; .parse,
			 * when set, checks the text first with a NULL field) */
	OPT_CHOICE,	/* int: index of the word in choices ("tcg|kvm"), in enum order */
	OPT_FUNC,	/* .parse does it */
};

#define OPTF_CLEAR	(1u << 0)	/* OPT_FLAG clears instead of setting */
#define OPTF_NONEMPTY	(1u << 1)	/* OPT_STR: "" is an error */
#define OPTF_REQUIRED	(1u << 2)	/* must be given; the caller checks */
#define OPTF_PREFIX	(1u << 3)	/* name "foo.*" matches every "foo.X" */

struct opt_def;
/*
 * Parse VALUE for O into FIELD; FIELD is NULL when the caller only checks
 * the value. 0, or -1 with err (lib/err.h).
 */
typedef int (*opt_parse_fn)(const struct opt_def *o, const char *value, void *field,
			    char *err, size_t errlen);

struct opt_def {
	const char *name;
	enum opt_type type;
	size_t off;			/* the field, from OPT_FIELD() */
	long long min, max;		/* OPT_INT, OPT_U64, OPT_SIZE */
	double dmin, dmax;		/* OPT_DOUBLE */
	const char *choices;		/* OPT_CHOICE */
	const char *def;		/* default, parsed like input; NULL: none */
	const char *metavar;		/* value shown in help; NULL: from the type */
	opt_parse_fn parse;		/* OPT_FUNC; OPT_STR: a check */
	void (*free)(void *field);	/* OPT_FUNC fields that own memory */
	unsigned flags;			/* OPTF_* */
	unsigned scope;			/* free for the table's owner (sections) */
	const char *help;
};

#define OPT_FIELD(type, field) offsetof(type, field)

/* The row named NAME (OPTF_PREFIX rows match by prefix), or NULL. */
const struct opt_def *opt_find(const struct opt_def *t, size_t n, const char *name);

/* Parse VALUE into O's field of BASE (NULL: check only). */
int opt_set(const struct opt_def *o, const char *value, void *base, char *err, size_t errlen);
/* Every row's default into BASE; an error here is a bug in the table. */
int opt_defaults(const struct opt_def *t, size_t n, void *base, char *err, size_t errlen);
/* Free what O's field in BASE owns (a string, OPT_FUNC's .free). */
void opt_free_one(const struct opt_def *o, void *base);
/* The same for every row. */
void opt_free(const struct opt_def *t, size_t n, void *base);

/* What O accepts, for help and tables: "1..64", "tcg|kvm", "SIZE". */
const char *opt_values(const struct opt_def *o, char *buf, size_t len);

/*
 * Command line: every row is --NAME[=VALUE] (also --NAME VALUE), plus
 * --help (and --help=markdown: the documentation's table). Parsing stops
 * at "--" or, with STOP_AT_ARG, at the first argument that is not an
 * option. Returns the index of the first remaining argument, OPT_HELP or
 * OPT_HELP_MARKDOWN when asked for help, or -1 with err.
 */
#define OPT_HELP (-2)
#define OPT_HELP_MARKDOWN (-3)
int opt_getopt(const struct opt_def *t, size_t n, int argc, char **argv, void *base,
	       bool stop_at_arg, char *err, size_t errlen);

/*
 * For a tool's main(): when RC is OPT_HELP print USAGE, when it is
 * OPT_HELP_MARKDOWN print MARKDOWN, on stdout, and exit 0; else return RC.
 */
int opt_help(int rc, void (*usage)(FILE *f), void (*markdown)(FILE *f));

/* A tool's command line: what --help prints around its options table. */
struct opt_tool {
	const char *synopsis;		/* "bnb-agent [options] PORT" */
	const char *about;		/* what it does, lines ending in \n */
	const struct opt_def *opts;
	size_t n;
	const char *epilog;		/* after the options, or NULL */
};

/* "usage: SYNOPSIS", the text, the options; and the options as Markdown. */
void opt_tool_usage(FILE *f, const struct opt_tool *tool);
void opt_tool_markdown(FILE *f, const struct opt_tool *tool);
/* opt_help() for a tool described by TOOL. */
int opt_tool_help(int rc, const struct opt_tool *tool);
/*
 * The whole of a tool's option parsing: defaults, opt_getopt(), --help;
 * an error is printed as "PROGRAM: message" and gives -1.
 */
int opt_tool_main(const struct opt_tool *tool, int argc, char **argv, void *base,
		  bool stop_at_arg);

/* Help lines: "  PREFIX+NAME VALUES  help (default D)", wrapped at 80 columns. */
void opt_usage(FILE *f, const struct opt_def *t, size_t n, const char *prefix);
/* The same as a Markdown table: | option | value | default | meaning |. */
void opt_markdown(FILE *f, const struct opt_def *t, size_t n, const char *prefix,
		  const char *first_column);

#endif
