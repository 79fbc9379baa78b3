// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-collect - pull NUMA balancing counters from the guest agent and
 * write a time series with the seed's cost model and convergence.
 * The options are in options.c; the output in FORMAT.md.
 */
#include <signal.h>
#include <stdio.h>

#include "lib/err.h"
#include "lib/signals.h"
#include "sampler.h"

static volatile sig_atomic_t stop;


int main(int argc, char **argv)
{
	struct sampler_opts o;
	char err[ERRLEN];
	int rc;

	rc = opt_tool_help(collect_parse(&o, argc, argv, err, sizeof(err)), &collect_tool);
	if (rc) {
		prog_error("%s", err);
		return 2;
	}
	catch_stop_signals(&stop);	/* cuts short poll() and the sleep */
	signal(SIGPIPE, SIG_IGN);
	rc = sampler_run(&o, &stop);
	opt_free(collect_options, collect_n_options, &o);
	return rc;
}
