// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-collect - pull NUMA balancing counters from the guest agent and
 * write a time series with the seed's cost model and convergence.
 * The options are in options.c; the output in FORMAT.md.
 */
#include <signal.h>
#include <stdio.h>

#include "lib/err.h"
#include "sampler.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct sampler_opts o;
	char err[ERRLEN];
	int rc;

	rc = opt_help(collect_parse(&o, argc, argv, err, sizeof(err)), collect_usage,
		      collect_markdown);
	if (rc) {
		prog_error("%s", err);
		return 2;
	}
	/* No SA_RESTART: a signal must cut short poll() and the sleep. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	rc = sampler_run(&o, &stop);
	opt_free(collect_options, collect_n_options, &o);
	return rc;
}
