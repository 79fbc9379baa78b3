// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/parse.h"
#include "opts.h"

#define WL_MAX_OPTS 64
/* getopt_long() values: table index + base, clear of short options and 0 */
#define WL_VAL_BASE 256
#define WL_HELP_VAL (WL_VAL_BASE + WL_MAX_OPTS)

static int find_choice(const char *const *choices, const char *word)
{
	int i;

	for (i = 0; choices[i]; i++)
		if (!strcmp(choices[i], word))
			return i;
	return -1;
}

static void list_choices(const char *const *choices, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; choices[i] && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? "|" : "",
				 choices[i]);
}

/* Store the argument of one option into its variable. */
/* Numbers and sizes follow the tree's one grammar (bench/lib/parse.h). */
static int store(const struct wl_opt *opt, const char *arg, char *err, size_t errlen)
{
	uint64_t num;
	char words[256];
	int idx;

	switch (opt->kind) {
	case WL_OPT_FLAG:
		*(bool *)opt->dst = true;
		return 0;
	case WL_OPT_UINT:
		if (parse_u64(arg, 0, UINT_MAX, &num, err, errlen))
			break;
		*(unsigned int *)opt->dst = (unsigned int)num;
		return 0;
	case WL_OPT_NODE:
		if (parse_u64(arg, 0, INT_MAX, &num, err, errlen))
			break;
		*(int *)opt->dst = (int)num;
		return 0;
	case WL_OPT_SIZE:
		if (parse_size(arg, 0, UINT64_MAX, (uint64_t *)opt->dst, err, errlen))
			break;
		return 0;
	case WL_OPT_CHOICE:
		idx = find_choice(opt->choices, arg);
		if (idx >= 0) {
			*(int *)opt->dst = idx;
			return 0;
		}
		list_choices(opt->choices, words, sizeof(words));
		snprintf(err, errlen, "--%s '%s': expected one of %s",
			 opt->name, arg, words);
		return -1;
	}
	return errf_prefix(err, errlen, "--%s", opt->name);
}

static size_t count_opts(const struct wl_prog *prog)
{
	size_t n = 0;

	while (prog->opts[n].name)
		n++;
	return n;
}

/* The option that getopt_long() could not match, for the error line. */
static const char *bad_option(int argc, char **argv)
{
	int i = optind - 1;

	if (i < 1 || i >= argc)
		i = argc - 1;
	return argv[i];
}

enum wl_parse_result wl_parse(const struct wl_prog *prog, int argc, char **argv,
			      char *err, size_t errlen)
{
	struct option longopts[WL_MAX_OPTS + 2];
	size_t i, n = count_opts(prog);
	int c;

	if (n > WL_MAX_OPTS) {
		snprintf(err, errlen, "too many options in the table");
		return WL_PARSE_ERROR;
	}
	for (i = 0; i < n; i++) {
		const struct wl_opt *opt = &prog->opts[i];

		longopts[i] = (struct option){ opt->name,
			opt->kind == WL_OPT_FLAG ? no_argument : required_argument,
			NULL, WL_VAL_BASE + (int)i };
	}
	longopts[n] = (struct option){ "help", no_argument, NULL, WL_HELP_VAL };
	longopts[n + 1] = (struct option){ 0 };

	optind = 0;	/* full reset: the tests parse several argv in one process */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h' || c == WL_HELP_VAL) {
			wl_usage(prog, stdout);
			return WL_PARSE_HELP;
		}
		if (c == '?' || c == ':') {
			const char *bad = bad_option(argc, argv);

			if (optopt >= WL_VAL_BASE && optopt < WL_VAL_BASE + (int)n)
				snprintf(err, errlen, "option '--%s' needs a value",
					 prog->opts[optopt - WL_VAL_BASE].name);
			else
				snprintf(err, errlen, "unknown option '%s' (see --help)", bad);
			return WL_PARSE_ERROR;
		}
		if (store(&prog->opts[c - WL_VAL_BASE], optarg, err, errlen))
			return WL_PARSE_ERROR;
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);
		return WL_PARSE_ERROR;
	}
	return WL_PARSE_OK;
}

static void show_default(const struct wl_opt *opt, FILE *out)
{
	char buf[32];

	switch (opt->kind) {
	case WL_OPT_FLAG:
		return;
	case WL_OPT_UINT:
		fprintf(out, " [%u]", *(unsigned int *)opt->dst);
		return;
	case WL_OPT_NODE:
		if (*(int *)opt->dst >= 0)
			fprintf(out, " [%d]", *(int *)opt->dst);
		return;
	case WL_OPT_SIZE:
		format_size(*(uint64_t *)opt->dst, buf, sizeof(buf));
		fprintf(out, " [%s]", buf);
		return;
	case WL_OPT_CHOICE:
		fprintf(out, " [%s]", opt->choices[*(int *)opt->dst]);
		return;
	}
}

static const char *metavar(const struct wl_opt *opt, char *buf, size_t len)
{
	static const char *const names[] = {
		[WL_OPT_FLAG] = "", [WL_OPT_UINT] = " N", [WL_OPT_NODE] = " NODE",
		[WL_OPT_SIZE] = " SIZE",
	};

	if (opt->kind != WL_OPT_CHOICE)
		return names[opt->kind];
	buf[0] = ' ';
	list_choices(opt->choices, buf + 1, len - 1);
	return buf;
}

void wl_usage(const struct wl_prog *prog, FILE *out)
{
	const struct wl_opt *opt;
	char words[256];

	fprintf(out, "usage: %s [options]\n%s\n\noptions:\n", prog->name, prog->summary);
	for (opt = prog->opts; opt->name; opt++) {
		fprintf(out, "  --%s%s\n      %s", opt->name,
			metavar(opt, words, sizeof(words)), opt->help);
		show_default(opt, out);
		fputc('\n', out);
	}
	fprintf(out, "  --help\n      print this text and exit\n"
		"\nSizes are bytes, or take K, M, G, T suffixes (binary). Output: CSV on stdout, "
		"diagnostics on stderr;\nbad arguments exit with status 2.\n");
}
