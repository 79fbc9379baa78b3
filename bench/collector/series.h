/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time series: turns a sequence of parsed replies into per-sample
 * deltas, rates, cost and convergence.  All state is fixed-size apart
 * from the convergence window, allocated once.
 */
#ifndef BNB_COLLECTOR_SERIES_H
#define BNB_COLLECTOR_SERIES_H

#include <stdbool.h>
#include <stdint.h>

#include "cost.h"
#include "plugin.h"
#include "reply.h"
#include "tiering.h"
#include "window.h"

/*
 * A delta larger than this in one sample is not a counter increasing but a
 * hostile or broken agent; it is treated like a counter going backwards.
 */
#define SERIES_MAX_DELTA	(1ULL << 48)

/* Base pages of a huge PMD on the guest (x86-64: 2 MiB of 4 KiB). */
#define SERIES_HUGE_PAGES	512

struct counter_col {
	char name[BNB_WIRE_MAX_NAME + 1];
	bool present;		/* in the current sample */
	bool ever;		/* in some sample */
	bool warned;		/* absence already reported */
	unsigned long long prev;	/* last raw value */
	unsigned long long total;	/* sum of deltas since the first sample */
	unsigned long long delta;	/* this sample */
};

/* Host and guest clocks of one sample, CLOCK_MONOTONIC ns. */
struct sample_time {
	uint64_t req_ns;	/* host, request sent */
	uint64_t rep_ns;	/* host, reply complete */
	uint64_t guest_ns;	/* guest, snapshot taken */
};

struct series {
	int nr_cols;
	struct counter_col cols[BNB_WIRE_MAX_COUNTERS];
	int pte, hint, local, migrated;	/* indexes of the model's counters */
	uint64_t nodes;			/* nodes of the first reply */

	bool guest_clock;		/* t_s is guest time (streamed samples) */
	uint64_t t0_ns;			/* host time of the first request, or the
					 * guest time of the first sample */
	unsigned long long samples;	/* good samples so far */
	struct sample_time now, prev;
	double t_s;			/* sample midpoint (or guest instant) since t0 */
	double dt_s;			/* since the previous sample */
	double guest_t_s;		/* sum of dt_s: the guest's time since t0 */
	const struct bnb_reply *reply;	/* the current sample's reply */

	struct cost_params seed, mmtests;
	bool cost_defined;		/* the three counters are present */
	struct cost_terms cost_cum;
	double cost_d;
	double mmtests_cum, mmtests_d;

	unsigned long long remote_total, remote_d;
	struct conv_window win;
	bool conv_defined;
	double conv;			/* now, over the window */
	bool conv_end_defined;
	double conv_end;		/* at the end of the workload's work */
	double conv_time, conv_weighted;	/* time-weighted mean parts */
	double t_conv90, t_conv95;	/* since when at or above; < 0: not now */
	unsigned long long n_min, n_max, n_sum, n_count;	/* the window's N, where defined */
	/*
	 * The same weighted by pages: a hinting fault on a huge PMD
	 * (numa_huge_hint_faults, the patch series' counter) counts its
	 * SERIES_HUGE_PAGES base pages; undefined on kernels without it.
	 */
	int huge, huge_local;		/* indexes of its counters */
	struct conv_window win_pages;
	bool conv_pages_defined;
	double conv_pages;
	bool conv_pages_end_defined;
	double conv_pages_end;
	double t_conv90_pages;

	struct tiering tier;		/* promotion and demotion */
	struct plugin_state plugin;
	unsigned long long warnings;
};

/* The convergence window: N >= MIN_HINTS, the hints of the last SPAN_S s. */
int series_init(struct series *s, double wnuma, unsigned long long min_hints, double span_s);
void series_free(struct series *s);

/* Fix the columns from the first good reply. */
void series_columns(struct series *s, const struct bnb_reply *first);

/* Account one good sample; warns about what the guest got wrong. */
void series_update(struct series *s, const struct bnb_reply *r,
		   const struct sample_time *t);

/* One warning line, "bnb-collect: sample N: ...", rate-limited. */
void series_warn(struct series *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* BNB_COLLECTOR_SERIES_H */
