// SPDX-License-Identifier: GPL-2.0
/*
 * The balancer on the hardware's time scale. A scaled-down run (a smaller
 * working set, a few guest seconds) with the kernel's scan tunables as they
 * are holds a handful of scan passes where the hardware run held tens or
 * hundreds, so convergence, scan adaptation and a period sweep show
 * nothing of what they show on hardware. Multiplying every period by the
 * time factor and the scan size by the size factor keeps the passes per
 * run and the windows per pass; where the guest kernel's tick or its huge
 * pages cannot follow, the plan says what it gave up.
 *
 * The kernel's own arithmetic (6.1 kernel/sched/fair.c) that this follows:
 * a pass over the address space is cut into windows of scan_size_mb
 * (task_nr_scan_windows: RSS / scan size, rounded up); one window is
 * scanned every scan_period_min_ms / windows, but never more than
 * MAX_SCAN_WINDOW MB/s (task_scan_min's floor); so a pass at the minimum
 * period takes about scan_period_min_ms, at the maximum scan_period_max_ms.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "knobs.h"
#include "lib/err.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "scale.h"
#include "variant.h"

#define HOUR_MS 3600000L

const struct scale_knob scale_knobs[SCALE_N_KNOBS] = {
	[SK_DELAY] = { "scan_delay_ms", SD_TIME, "ms", 1000, 0, HOUR_MS,
		       NULL, true },
	[SK_MIN] = { "scan_period_min_ms", SD_TIME, "ms", 1000, 1, HOUR_MS,
		     NULL, true },
	[SK_MAX] = { "scan_period_max_ms", SD_TIME, "ms", 60000, 1, HOUR_MS,
		     NULL, true },
	[SK_SIZE] = { "scan_size_mb", SD_SIZE, "MB", 256, SCALE_HUGE_MB, 1048576,
		      "one huge page", true },
	[SK_RESET] = { "scan_period_reset_ms", SD_TIME, "ms", 60000, 1, HOUR_MS,
		       NULL, false },
	[SK_MIG_INTERVAL] = { "migrate_interval_ms", SD_TIME, "ms", 100, 1, 60000,
			      NULL, false },
	[SK_MIG_LIMIT] = { "migrate_ratelimit_mb", SD_SIZE, "MB", 0, 1, 1048576,
			   "1 MB (0 turns the limit off)", false },
};

void scale_input_init(struct scale_input *in)
{
	memset(in, 0, sizeof(*in));
	in->hw_s = in->guest_s = in->time = NAN;
	in->hw_ws_mb = in->guest_ws_mb = in->size = NAN;
	for (int i = 0; i < SCALE_N_KNOBS; i++)
		in->hw[i] = scale_knobs[i].def;
}

long scale_windows(double ws_mb, long size_mb)
{
	long w;

	if (size_mb <= 0 || !(ws_mb > 0))
		return 1;
	w = (long)ceil(ws_mb / size_mb - 1e-9);
	return w < 1 ? 1 : w;
}

/* task_scan_min(): never more than MAX_SCAN_WINDOW MB/s, in integer ms. */
long scale_window_min_ms(long min_ms, long size_mb, long windows)
{
	long per_s = size_mb < SCALE_MAX_SCAN_MBS ? SCALE_MAX_SCAN_MBS / size_mb : 1;
	long floor_ms = 1000 / per_s, scan = min_ms / (windows > 0 ? windows : 1);

	return scan > floor_ms ? scan : floor_ms;
}

double scale_tick_round_ms(long ms)
{
	return ceil(ms / SCALE_TICK_MS - 1e-9) * SCALE_TICK_MS;
}

/* The factor from a stated one or a ratio; -1 when neither is usable. */
static int factor(double given, double num, double den, const char *given_key,
		  const char *num_key, const char *den_key, double *f, const char **key,
		  char *err, size_t errlen)
{
	if (!isnan(given)) {
		*key = given_key;
		*f = given;
	} else if (isnan(den)) {
		*key = den_key;
		return errf(err, errlen, "scale_scan=hardware needs the hardware run's %s",
			    den_key);
	} else if (isnan(num)) {
		*key = num_key;
		return errf(err, errlen, "scale_scan=hardware needs %s (or %s)", num_key,
			    given_key);
	} else {
		*key = num_key;
		*f = num / den;
	}
	if (!(*f > 0) || !isfinite(*f))
		return errf(err, errlen, "the factor %g is not above 0", *f);
	return 0;
}

/* The hardware's passes: the kernel's windows, floor and both periods. */
static void hardware_passes(const struct scale_input *in, struct scale_plan *p)
{
	long w = scale_windows(in->hw_ws_mb, in->hw[SK_SIZE]);
	long wmin = scale_window_min_ms(in->hw[SK_MIN], in->hw[SK_SIZE], w);
	long wmax = in->hw[SK_MAX] / w > wmin ? in->hw[SK_MAX] / w : wmin;
	double run_ms = in->hw_s * 1000 - in->hw[SK_DELAY];

	p->hw_windows = w;
	p->hw_pass_ms = (double)w * wmin;
	p->hw_pass_max_ms = (double)w * wmax;
	p->hw_passes_max = run_ms > 0 ? run_ms / p->hw_pass_ms : 0;
	p->hw_passes_min = run_ms > 0 ? run_ms / p->hw_pass_max_ms : 0;
}

/* One more thing the plan does not keep, "; "-separated. */
#define give_up(p, ...) errf_append((p)->given_up, sizeof((p)->given_up), __VA_ARGS__)

/*
 * Windows per pass: the hardware's, unless a window would then last under
 * SCALE_WINDOW_TICKS guest ticks; fewer, larger windows keep the pass's
 * period (passes per run come first) at the cost of windows per pass.
 */
static long guest_windows(const struct scale_plan *p, double pass_ms)
{
	long fit = (long)floor(pass_ms / (SCALE_WINDOW_TICKS * SCALE_TICK_MS));

	if (fit < 1)
		fit = 1;
	return p->hw_windows < fit ? p->hw_windows : fit;
}

/*
 * The guest's value of knob K, from BASE on the hardware (the knob, or the
 * pass it sets), against the kernel's bounds.
 */
static int check_knob(const struct scale_plan *p, int k, double base, const char **key,
		      char *err, size_t errlen)
{
	const struct scale_knob *kn = &scale_knobs[k];
	bool time = kn->dim == SD_TIME;
	double f = time ? p->time : p->size;
	bool under = base * f < kn->min;	/* before rounding: 0.6 ms is not 1 ms */

	if (!under && base * f <= kn->max)
		return 0;
	*key = time ? p->time_key : p->size_key;
	return errf(err, errlen, "%s: %.6g %s on the hardware x %s factor %.4g = %.3g %s, "
		    "%s the kernel's %s of %ld %s%s%s%s", kn->name, base, kn->unit,
		    time ? "time" : "size", f, base * f, kn->unit, under ? "under" : "over",
		    under ? "minimum" : "maximum", under ? kn->min : kn->max, kn->unit,
		    under && kn->min_why ? " (" : "", under && kn->min_why ? kn->min_why : "",
		    under && kn->min_why ? ")" : "");
}

/* The scanner's four: the pass keeps its period in hardware proportion. */
static int scanner_knobs(const struct scale_input *in, struct scale_plan *p, const char **key,
			 char *err, size_t errlen)
{
	double pass_ms = p->time * p->hw_pass_ms, size_base = in->hw[SK_SIZE];
	long w = guest_windows(p, pass_ms), per;

	p->guest[SK_DELAY] = lround(p->time * in->hw[SK_DELAY]);
	p->guest[SK_MIN] = lround(pass_ms);
	p->guest[SK_MAX] = lround(p->time * p->hw_pass_max_ms);
	if (p->guest[SK_MAX] < p->guest[SK_MIN])
		p->guest[SK_MAX] = p->guest[SK_MIN];
	if (w == p->hw_windows) {
		p->guest[SK_SIZE] = lround(p->size * in->hw[SK_SIZE]);
	} else {
		long mb = (long)ceil(p->guest_ws_mb / w - 1e-9);

		mb = (mb + SCALE_HUGE_MB - 1) / SCALE_HUGE_MB * SCALE_HUGE_MB;
		p->guest[SK_SIZE] = mb < SCALE_HUGE_MB ? SCALE_HUGE_MB : mb;
		size_base = p->guest[SK_SIZE] / p->size;	/* never under the minimum */
	}
	if (check_knob(p, SK_DELAY, in->hw[SK_DELAY], key, err, errlen) ||
	    check_knob(p, SK_MIN, p->hw_pass_ms, key, err, errlen) ||
	    check_knob(p, SK_MAX, p->hw_pass_max_ms, key, err, errlen) ||
	    check_knob(p, SK_SIZE, size_base, key, err, errlen))
		return -1;
	p->guest_windows = scale_windows(p->guest_ws_mb, p->guest[SK_SIZE]);
	per = scale_window_min_ms(p->guest[SK_MIN], p->guest[SK_SIZE], p->guest_windows);
	p->guest_pass_ms = p->guest_windows * scale_tick_round_ms(per);
	if (w != p->hw_windows)
		give_up(p, "windows per pass: %ld on hardware, %ld here (a window of %.3g ms "
			"would be under %d ticks of %.0f ms)", p->hw_windows, p->guest_windows,
			pass_ms / p->hw_windows, SCALE_WINDOW_TICKS, SCALE_TICK_MS);
	else if (p->guest_windows != p->hw_windows)
		give_up(p, "windows per pass: %ld on hardware, %ld here (scan_size_mb %.3g "
			"rounded to %ld)", p->hw_windows, p->guest_windows,
			p->size * in->hw[SK_SIZE], p->guest[SK_SIZE]);
	if (fabs(p->guest_pass_ms - pass_ms) > 0.1 * pass_ms)
		give_up(p, "pass period: %.3g ms wanted, %.3g ms after the guest's %.0f ms "
			"ticks and scan floor", pass_ms, p->guest_pass_ms, SCALE_TICK_MS);
	return 0;
}

/* The series' own: the reset period, and the rate limit when it is on. */
static int series_knobs(const struct scale_input *in, struct scale_plan *p, const char **key,
			char *err, size_t errlen)
{
	p->guest[SK_RESET] = lround(p->time * in->hw[SK_RESET]);
	p->set[SK_RESET] = true;
	if (check_knob(p, SK_RESET, in->hw[SK_RESET], key, err, errlen))
		return -1;
	if (!in->hw[SK_MIG_LIMIT])
		return 0;	/* off: neither means anything */
	p->guest[SK_MIG_INTERVAL] = lround(p->time * in->hw[SK_MIG_INTERVAL]);
	p->guest[SK_MIG_LIMIT] = lround(p->size * in->hw[SK_MIG_LIMIT]);
	p->set[SK_MIG_INTERVAL] = p->set[SK_MIG_LIMIT] = true;
	if (check_knob(p, SK_MIG_INTERVAL, in->hw[SK_MIG_INTERVAL], key, err, errlen) ||
	    check_knob(p, SK_MIG_LIMIT, in->hw[SK_MIG_LIMIT], key, err, errlen))
		return -1;
	return 0;
}

int scale_plan_build(const struct scale_input *in, struct scale_plan *p, const char **key,
		     char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	for (int k = 0; k < SCALE_N_KNOBS; k++)
		p->guest[k] = in->hw[k];
	if (factor(in->time, in->guest_s, in->hw_s, SCALE_KEY_TIME, SCALE_KEY_GUEST_S,
		   SCALE_KEY_HW_S, &p->time, key, err, errlen))
		return -1;
	p->time_key = *key;
	if (factor(in->size, in->guest_ws_mb, in->hw_ws_mb, SCALE_KEY_SIZE, SCALE_KEY_GUEST_WS,
		   SCALE_KEY_HW_WS, &p->size, key, err, errlen))
		return -1;
	p->size_key = *key;
	if (isnan(in->hw_s) || isnan(in->hw_ws_mb)) {
		*key = isnan(in->hw_s) ? SCALE_KEY_HW_S : SCALE_KEY_HW_WS;
		return errf(err, errlen, "scale_scan=hardware needs the hardware run's %s", *key);
	}
	p->hw_s = in->hw_s;
	p->hw_ws_mb = in->hw_ws_mb;
	p->guest_s = isnan(in->guest_s) || !isnan(in->time) ? p->time * in->hw_s : in->guest_s;
	p->guest_ws_mb = isnan(in->guest_ws_mb) || !isnan(in->size) ? p->size * in->hw_ws_mb :
			 in->guest_ws_mb;
	p->set[SK_DELAY] = p->set[SK_MIN] = p->set[SK_MAX] = p->set[SK_SIZE] = true;
	hardware_passes(in, p);
	if (scanner_knobs(in, p, key, err, errlen) || series_knobs(in, p, key, err, errlen))
		return -1;
	if (p->guest_s * 1000 > p->guest[SK_DELAY])
		p->guest_passes_max = (p->guest_s * 1000 - p->guest[SK_DELAY]) / p->guest_pass_ms;
	*key = NULL;
	return 0;
}

void scale_plan_describe(const struct scale_plan *p, char *buf, size_t len)
{
	snprintf(buf, len, "time=%.6g size=%.6g hw_s=%.6g hw_ws_mb=%.6g guest_s=%.6g "
		 "guest_ws_mb=%.6g hw_windows=%ld guest_windows=%ld hw_pass_ms=%.6g "
		 "guest_pass_ms=%.6g hw_passes_max=%.6g hw_passes_min=%.6g guest_passes_max=%.6g",
		 p->time, p->size, p->hw_s, p->hw_ws_mb, p->guest_s, p->guest_ws_mb,
		 p->hw_windows, p->guest_windows, p->hw_pass_ms, p->guest_pass_ms,
		 p->hw_passes_max, p->hw_passes_min, p->guest_passes_max);
}

/* Whether the sysctl key SETTING names the knob K (short or dotted). */
static bool names_knob(const char *setting, int k)
{
	struct sysctl_target t;
	char want[128];

	if (sysctl_target(setting, &t))
		return false;
	snprintf(want, sizeof(want), "kernel.numa_balancing_%s", scale_knobs[k].name);
	return !strcmp(t.sysctl, want);
}

/* The hardware's knobs: the experiment's sysctl.NAME, else the default. */
static int hardware_knobs(const struct variant *v, struct scale_input *in, const char **key,
			  char *err, size_t errlen)
{
	for (int i = 0; i < v->n_sysctls; i++) {
		for (int k = 0; k < SCALE_N_KNOBS; k++) {
			char why[128];
			long long val;

			if (!names_knob(v->sysctls[i].key, k))
				continue;
			if (parse_ll(v->sysctls[i].value, 0, LONG_MAX, &val, why, sizeof(why))) {
				*key = v->sysctls[i].key;
				return errf(err, errlen, "'%s' is not a whole number of %s to scale",
					    v->sysctls[i].value, scale_knobs[k].unit);
			}
			in->hw[k] = (long)val;
			in->hw_set[k] = true;
		}
	}
	return 0;
}

static double given(double v)
{
	return v > 0 ? v : NAN;
}

int scale_plan_variant(const struct variant *v, struct scale_plan *p, const char **key,
		       char *err, size_t errlen)
{
	struct scale_input in;

	scale_input_init(&in);
	in.hw_s = given(v->scale_hw_s);
	in.guest_s = given(v->scale_guest_s);
	in.time = given(v->scale_time);
	in.hw_ws_mb = given(v->scale_hw_ws / (double)(1 << 20));
	in.guest_ws_mb = given(v->scale_guest_ws / (double)(1 << 20));
	in.size = given(v->scale_size);
	if (hardware_knobs(v, &in, key, err, errlen))
		return -1;
	return scale_plan_build(&in, p, key, err, errlen);
}

bool scale_plan_sets(const struct scale_plan *p, const char *sysctl_key)
{
	for (int k = 0; k < SCALE_N_KNOBS; k++)
		if (p->set[k] && names_knob(sysctl_key, k))
			return true;
	return false;
}
