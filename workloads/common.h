/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every workload shares: the start-up sequence (parse with opts.h,
 * read the topology, check, exit 2 on bad input before anything runs),
 * the clock, and registering with the guest agent.
 */
#ifndef WL_COMMON_H
#define WL_COMMON_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "csvout.h"
#include "locality.h"
#include "opts.h"
#include "place.h"
#include "topo.h"

#define WL_EXIT_USAGE 2

/*
 * Zero @c, with -1 (derived) in mem_node: the state before a program's
 * option rows put their defaults in (opts.h).
 */
void wl_common_init(struct wl_common *c);

/*
 * The topology to check against: --check's, else the running system's
 * (exit 1 when it cannot be read).
 */
void wl_topo_or_exit(const char *prog, const struct wl_common *c, struct wl_topo *topo);

/* Every check passed: with --check, exit 0 here, before anything is allocated. */
void wl_check_done(const struct wl_common *c);

/* Resolve @c against @topo (wl_resolve), or exit 2 with one line. */
void wl_resolve_or_exit(const char *prog, struct wl_common *c, const struct wl_topo *topo,
			uint64_t footprint, enum wl_spread spread);

/* Whether row @row (counted from 1) samples page locality. */
static inline bool wl_locality_due(const struct wl_common *c, unsigned int row)
{
	return c->locality_every && row % c->locality_every == 0;
}

/* Sleep until @deadline on CLOCK_MONOTONIC (seconds as from wl_now()). */
void wl_sleep_until(double deadline);

/*
 * The clock of the interval workloads: row k is due at start + k * interval,
 * so a slow row does not shift the ones after it.
 */
struct wl_ticker {
	double start, last, now, interval;
	unsigned int row;
};

void wl_ticker_start(struct wl_ticker *t, unsigned int interval_ms);
/* Wait for the next row; false once @rows rows are done. */
bool wl_ticker_next(struct wl_ticker *t, unsigned int rows);
/* Seconds since the row before (or the start), and since the start. */
double wl_ticker_dt(const struct wl_ticker *t);
double wl_ticker_elapsed(const struct wl_ticker *t);

/*
 * SIGINT and SIGTERM set wl_interrupted instead of killing the run: the
 * workload stops at its next row and still writes its summary (status
 * failed, interrupted=yes). Child processes inherit the handler and are
 * stopped by their parent.
 */
extern volatile sig_atomic_t wl_interrupted;
void wl_catch_signals(void);

/* Seconds on CLOCK_MONOTONIC. */
double wl_now(void);
/*
 * The measured work starts now: returns wl_now() and tells the TCG
 * plugin, if one is loaded, through a no-op marker instruction, so the
 * collector takes its "before balancing" window from here rather than
 * from boot, calibration or the first touch of the memory.
 */
double wl_work_begin(void);
/*
 * The measured work ended: returns wl_now() and tells the plugin, once, so
 * that the collector's final convergence and true locality leave out what
 * follows (a check of the results, the exit).  wl_out_summary() calls it
 * for a workload that did not.
 */
double wl_work_end(void);

/*
 * Append our pid to DIR/pids when DIR exists (DIR is /run/bnb in the guest),
 * so the guest agent follows this process's pages. 1: registered, 0: no
 * DIR, -1: DIR exists but the write failed.
 */
int wl_register_pid(const char *dir);
#define WL_AGENT_DIR "/run/bnb"

/* A counter from /proc/vmstat, or -1 when the kernel does not have it. */
long long wl_vmstat(const char *name);

#endif
