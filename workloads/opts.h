/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Table-driven command line parsing for the workloads.
 *
 * A workload describes its options as a table of struct wl_opt, each entry
 * naming the variable it fills; wl_parse() turns the table into a
 * getopt_long() option array, parses argv and reports the first problem as
 * one line of text, so every workload rejects bad input the same way.
 */
#ifndef WL_OPTS_H
#define WL_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum wl_opt_kind {
	WL_OPT_FLAG,	/* no argument; dst is a bool, set to true */
	WL_OPT_UINT,	/* dst is an unsigned int */
	WL_OPT_NODE,	/* dst is an int, a NUMA node number (>= 0) */
	WL_OPT_SIZE,	/* dst is a uint64_t, bytes with K/M/G suffix */
	WL_OPT_CHOICE,	/* dst is an int, the index of the word in choices */
};

struct wl_opt {
	const char *name;
	enum wl_opt_kind kind;
	void *dst;
	const char *const *choices;	/* NULL-terminated, WL_OPT_CHOICE only */
	const char *help;
};

struct wl_prog {
	const char *name;
	const char *summary;
	const struct wl_opt *opts;	/* ends with an entry whose name is NULL */
};

enum wl_parse_result {
	WL_PARSE_OK,
	WL_PARSE_HELP,		/* --help was given; usage is printed */
	WL_PARSE_ERROR,		/* err holds one line saying what was wrong */
};

enum wl_parse_result wl_parse(const struct wl_prog *prog, int argc, char **argv,
			      char *err, size_t errlen);
void wl_usage(const struct wl_prog *prog, FILE *out);

#endif
