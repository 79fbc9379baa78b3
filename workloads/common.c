// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bnb_marker.h"
#include "common.h"
#include "lib/signals.h"

volatile sig_atomic_t wl_interrupted;

void wl_catch_signals(void)
{
	catch_stop_signals(&wl_interrupted);	/* a sleeping monitor wakes up at once */
}

void wl_common_init(struct wl_common *c)
{
	memset(c, 0, sizeof(*c));
	c->mem_node = -1;
}

void wl_topo_or_exit(const char *prog, const struct wl_common *c, struct wl_topo *topo)
{
	char err[512];

	if (c->check) {
		if (!wl_topo_parse(c->check, topo, err, sizeof(err)))
			return;
		fprintf(stderr, "%s: --check: %s\n", prog, err);	/* parsed once already */
		exit(WL_EXIT_USAGE);
	}
	if (!wl_topo_read(topo))
		return;
	fprintf(stderr, "%s: cannot read the NUMA topology\n", prog);
	exit(1);
}

void wl_check_done(const struct wl_common *c)
{
	if (c->check)
		exit(0);
}

void wl_resolve_or_exit(const char *prog, struct wl_common *c, const struct wl_topo *topo,
			uint64_t footprint, enum wl_spread spread)
{
	char err[512];

	if (wl_resolve(c, topo, footprint, spread, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", prog, err);
		exit(WL_EXIT_USAGE);
	}
	wl_catch_signals();
}

double wl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double wl_work_begin(void)
{
	bnb_mark_work();
	return wl_now();
}

double wl_work_end(void)
{
	static bool marked;

	if (!marked)
		bnb_mark_work_end();
	marked = true;
	return wl_now();
}

void wl_sleep_until(double deadline)
{
	struct timespec ts;

	ts.tv_sec = (time_t)deadline;
	ts.tv_nsec = (long)((deadline - (double)ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR &&
	       !wl_interrupted)
		;
}

void wl_ticker_start(struct wl_ticker *t, unsigned int interval_ms)
{
	t->start = t->last = t->now = wl_work_begin();
	t->interval = interval_ms / 1000.0;
	t->row = 0;
}

bool wl_ticker_next(struct wl_ticker *t, unsigned int rows)
{
	if (t->row >= rows || wl_interrupted)
		return false;
	t->row++;
	t->last = t->now;
	wl_sleep_until(t->start + t->row * t->interval);
	t->now = wl_now();
	return !wl_interrupted;
}

double wl_ticker_dt(const struct wl_ticker *t)
{
	return t->now - t->last;
}

double wl_ticker_elapsed(const struct wl_ticker *t)
{
	return t->now - t->start;
}

int wl_register_pid(const char *dir)
{
	char path[4096];
	struct stat st;
	FILE *f;
	int ok;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return 0;
	snprintf(path, sizeof(path), "%s/pids", dir);
	f = fopen(path, "a");
	if (!f) {
		fprintf(stderr, "cannot register with the agent: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	/* one short write, so concurrent registrations do not interleave */
	ok = fprintf(f, "%d\n", (int)getpid()) > 0;
	ok &= fclose(f) == 0;
	return ok ? 1 : -1;
}

long long wl_vmstat(const char *name)
{
	char key[64];
	long long val, found = -1;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &val) == 2) {
		if (!strcmp(key, name)) {
			found = val;
			break;
		}
	}
	fclose(f);
	return found;
}
