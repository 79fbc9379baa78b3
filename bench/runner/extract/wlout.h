/* SPDX-License-Identifier: GPL-2.0 */
/* The workload output contract (docs/HACKING.md): CSV plus comment lines. */
#ifndef BNB_WLOUT_H
#define BNB_WLOUT_H

#include <stdbool.h>
#include <stddef.h>

struct wl_summary {
	bool found;		/* a "# summary" line was seen */
	int n_lines;		/* how many: one run has one, more are refused */
	int line[2];		/* where the first two are in the file, from 1 */
	char bad[160];		/* the first field of the first line that is not a number */
	bool ok;		/* status=ok */
	double work_s, rate_mean;	/* NAN when missing or malformed */
	double threads;			/* threads=, NAN when not given */
	char unit[32];		/* from "# unit rate=..." */
	char sysctl_error[256];	/* the runner's guest-side sysctl failure */
	long scan_milli;	/* scan periods scaled by this/1000, 0 when not */
};

/*
 * Scan PATH for the "# unit", "# summary" and runner error lines. Only the
 * first "# summary" line is read; the others are counted (n_lines), since
 * a guest program could print a fake one after the real one.
 */
int wl_scan(const char *path, struct wl_summary *s);

/* rate_mean per worker thread when threads= is given, else rate_mean. */
double wl_thread_rate(const struct wl_summary *s);

/* KEY's value in the first line of PATH starting with PREFIX; NAN: none. */
double wl_line_value(const char *path, const char *prefix, const char *key);

/*
 * Copy the CSV part of the guest output IN (header and rows) to OUT; OUT is
 * not written when IN has no workload CSV (a command other than the
 * project's workloads).
 */
int wl_extract_csv(const char *in, const char *out);

/* How every workload's CSV header starts (docs/HACKING.md). */
#define WL_CSV_HEADER "t_s,rate,locality"

/* Marker the guest command prints when a sysctl cannot be set. */
#define WL_SYSCTL_MARK "# bnb-run: sysctl error: "

/* ... and the factor (thousandths) it scaled the scan periods by. */
#define WL_SCALE_MARK "# bnb-run: scan periods scaled, milli="
/* ... scale_scan=hardware: the plan (scale_plan_describe()), and each of
 * its knobs the kernel does not have */
#define WL_SCALE_PLAN_MARK "# bnb-run: scale plan: "
#define WL_SCALE_UNSET_MARK "# bnb-run: scale: not set: "
#define WL_SCALE_GIVEN_UP_MARK "# bnb-run: scale given up: "

#endif
