/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The balancer on the hardware's time scale (scale_scan = hardware): the
 * scan tunables of a scaled-down run, chosen so that it keeps the
 * hardware run's number of scan passes and the share of the working set
 * each scan window covers. docs/time-scale.md derives it.
 *
 * Units: periods in ms, sizes in MiB (the kernel's scan_size_mb is MiB:
 * it shifts by 20 - PAGE_SHIFT), run times in seconds. A time factor is
 * guest seconds / hardware seconds, a size factor scaled working set /
 * hardware working set; both are dimensionless.
 */
#ifndef BNB_SCALE_H
#define BNB_SCALE_H

#include <stdbool.h>
#include <stddef.h>

/* The guest kernel's CONFIG_HZ (kernel/config/guest.config): a scan
 * window's period is rounded up to whole ticks by msecs_to_jiffies(). */
#define SCALE_HZ 250
#define SCALE_TICK_MS (1000.0 / SCALE_HZ)
/* A scan window of at least this many ticks: the rounding costs <= 10 %. */
#define SCALE_WINDOW_TICKS 10
/* The scanner ends a window on a huge-page boundary: less scans 2 MiB. */
#define SCALE_HUGE_MB 2
/* The kernel's MAX_SCAN_WINDOW: it never scans more than this, MB/s. */
#define SCALE_MAX_SCAN_MBS 2560

enum scale_knob_id {
	SK_DELAY, SK_MIN, SK_MAX, SK_SIZE,	/* the scanner's: always set */
	SK_RESET,				/* the series' scan_adapt=1 reset */
	SK_MIG_INTERVAL, SK_MIG_LIMIT,		/* the series' migration rate limit */
	SCALE_N_KNOBS
};

enum scale_dim { SD_TIME, SD_SIZE };

struct scale_knob {
	const char *name;	/* as in sysctl.NAME (keys.c, sysctl_target()) */
	enum scale_dim dim;	/* scaled by the time or the size factor */
	const char *unit;	/* "ms" or "MB" */
	long def;		/* the kernel's default: 6.1's, the series' */
	long min, max;		/* what the kernel accepts (sysctl bounds) */
	const char *min_why;	/* what the minimum is, or NULL */
	bool required;		/* a kernel without it cannot run the plan */
};

extern const struct scale_knob scale_knobs[SCALE_N_KNOBS];

/* What a run states about itself and the hardware run it stands for. */
struct scale_input {
	double hw_s;		/* seconds of the hardware run */
	double guest_s;		/* seconds of this run, guest time; NAN: from time */
	double time;		/* time factor given outright; NAN: guest_s / hw_s */
	double hw_ws_mb;	/* the hardware run's working set per process */
	double guest_ws_mb;	/* this run's; NAN: from size */
	double size;		/* size factor given outright; NAN: guest / hw */
	long hw[SCALE_N_KNOBS];	/* the hardware's tunables */
	bool hw_set[SCALE_N_KNOBS];	/* set by the experiment (sysctl.NAME) */
};

/* The names of the keys an input comes from, for error messages. */
#define SCALE_KEY_HW_S "scale_hw_s"
#define SCALE_KEY_GUEST_S "scale_guest_s"
#define SCALE_KEY_TIME "scale_time"
#define SCALE_KEY_HW_WS "scale_hw_ws"
#define SCALE_KEY_GUEST_WS "scale_guest_ws"
#define SCALE_KEY_SIZE "scale_size"

struct scale_plan {
	double time, size;		/* the factors */
	const char *time_key, *size_key;	/* where each came from */
	double hw_s, hw_ws_mb;		/* the hardware run */
	double guest_s, guest_ws_mb;	/* this run, stated or from the factors */
	long guest[SCALE_N_KNOBS];	/* the values to write */
	bool set[SCALE_N_KNOBS];	/* whether to write it at all */
	long hw_windows, guest_windows;	/* scan windows per pass */
	double hw_pass_ms;		/* a pass at the minimum period, hardware */
	double hw_pass_max_ms;		/* ... at the maximum period */
	double guest_pass_ms;		/* a pass at the minimum, after tick rounding */
	double hw_passes_max, hw_passes_min;	/* passes the hardware run holds */
	double guest_passes_max;	/* passes this run holds at most */
	char given_up[512];		/* what is not kept, or "" */
};

/*
 * Build the plan for IN. On bad input returns -1, *KEY the key to blame
 * and ERR one line naming the knob and the limit it would cross.
 */
int scale_plan_build(const struct scale_input *in, struct scale_plan *p, const char **key,
		     char *err, size_t errlen);

/* An input with every number unset (NAN) and the kernel's defaults. */
void scale_input_init(struct scale_input *in);

/* Scan windows the kernel cuts a working set of WS_MB into (task_nr_scan_windows). */
long scale_windows(double ws_mb, long size_mb);
/* One window's period at the minimum, as task_scan_min() computes it, ms. */
long scale_window_min_ms(long min_ms, long size_mb, long windows);
/* MS rounded up to whole guest ticks, as msecs_to_jiffies() does. */
double scale_tick_round_ms(long ms);

struct variant;
/*
 * The plan of variant V (scale_scan = hardware): its scale_* keys, and
 * the hardware's knobs from its sysctl.NAME keys or the defaults. Errors
 * as scale_plan_build(), *KEY possibly a sysctl key.
 */
int scale_plan_variant(const struct variant *v, struct scale_plan *p, const char **key,
		       char *err, size_t errlen);
/* Whether P writes the knob the sysctl key SYSCTL_KEY names. */
bool scale_plan_sets(const struct scale_plan *p, const char *sysctl_key);

/* One line for the run's output: the factors, passes and windows. */
void scale_plan_describe(const struct scale_plan *p, char *buf, size_t len);

#endif
