// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "lib/err.h"

int wl_check_opt(const struct opt_def *o, const char *value, void *field, char *err,
		 size_t errlen)
{
	struct wl_topo topo;

	return wl_topo_parse(value, &topo, err, errlen);
}

void wl_parse_or_exit(const char *name, const struct opt_tool *tool, void *opts,
		      int argc, char **argv)
{
	char err[ERRLEN];
	int first;

	if (opt_defaults(tool->opts, tool->n, opts, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", name, err);	/* a bug in the table */
		exit(1);
	}
	first = opt_getopt(tool->opts, tool->n, argc, argv, opts, false, err, sizeof(err));
	first = opt_tool_help(first, tool);
	if (first >= 0 && first < argc) {
		snprintf(err, sizeof(err), "unexpected argument '%s' (see --help)", argv[first]);
		first = -1;
	}
	if (first >= 0)
		return;
	fprintf(stderr, "%s: %s\n", name, err);
	exit(WL_EXIT_USAGE);
}
