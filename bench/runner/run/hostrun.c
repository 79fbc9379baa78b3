// SPDX-License-Identifier: GPL-2.0
/*
 * The native host run that time dilation is measured against: the same
 * static workload binary the guest runs, started on the host with free
 * placement (the host may have one node only). It runs once per distinct
 * command per results folder, into DIR/host/, before the guests that need
 * it, and its "# summary" rate_mean per thread is the host's work speed
 * (per thread, as the host may start more workers than the guest has CPUs).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/results.h"
#include "runner.h"
#include "extract/wlout.h"

static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The per-thread rate of a host run's log, or NAN. */
static double logged_rate(const char *log)
{
	struct wl_summary s;
	char why[256];

	if (wl_scan(log, &s) || !s.found || !s.ok || summary_refusal(&s, true, why, sizeof(why)))
		return NAN;
	return wl_thread_rate(&s);
}

static double run_host(const struct host_cmd *c, const char *log, int time_limit,
		       char *why, size_t whylen)
{
	char tmp[PATH_MAX + 128];
	enum stop_cause killed = STOP_NONE;
	double start = runner_now(), rate;
	pid_t pid;
	int st;
	FILE *f;

	/* a private file, renamed into place: parallel jobs may race here */
	snprintf(tmp, sizeof(tmp), "%s.%d", log, (int)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(why, whylen, "host run: cannot write %s: %s", tmp, strerror(errno));
		return NAN;
	}
	fprintf(f, "# bnb-run: host run: %s\n", c->line);
	fclose(f);
	pid = runner_spawn(c->argv, tmp);
	st = runner_wait(pid, start, start + time_limit, NULL, NULL, &killed);
	rate = logged_rate(tmp);
	rename(tmp, log);
	if (killed)
		snprintf(why, whylen, "host run of '%s' took over %d s", c->line, time_limit);
	else if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		snprintf(why, whylen, "host run of '%s' failed (see host/ in the results)", c->line);
	else if (isnan(rate))
		snprintf(why, whylen, "host run of '%s' printed no rate_mean", c->line);
	else
		return rate;
	return NAN;
}

double host_rate(const char *dir, const struct variant *v, int time_limit,
		 char *line, size_t linelen, char *why, size_t whylen)
{
	char bindir[PATH_MAX], log[PATH_MAX + 64];
	struct host_cmd c;
	double rate;

	root_path(bindir, sizeof(bindir), "build/guest/bin");
	if (host_cmd_build(v->workload, bindir, &c, why, whylen))
		return NAN;
	snprintf(line, linelen, "%s", c.line);
	snprintf(log, sizeof(log), "%s/host", dir);
	mkdir(log, 0755);
	snprintf(log, sizeof(log), "%s/host/%08x.log", dir, fnv1a(c.line));
	rate = logged_rate(log);
	if (isnan(rate))
		rate = run_host(&c, log, time_limit, why, whylen);
	host_cmd_free(&c);
	return rate;
}
