/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time dilation: how much slower the guest does the workload's work than
 * the host does natively (host rate / guest rate), and scaling the NUMA
 * scan tunables by it (the scale_scan key) so that the scanner fires as
 * often per unit of work as it would on real hardware.
 */
#ifndef BNB_DILATION_H
#define BNB_DILATION_H

#include <stdbool.h>
#include <stddef.h>

#include "model/machine.h"

#define HOST_ARGS_MAX 48

/* The workload as a host command: argv of the native binary, placement free. */
struct host_cmd {
	char *argv[HOST_ARGS_MAX + 1];
	int argc;
	char line[1024];	/* the same by program name, as the guest runs it */
};

/*
 * Turn the guest workload WORKLOAD into a host command run from BINDIR
 * with `--placement free` (replacing any placement, or added) and without
 * node options (--node, --mem-node, ...: the host may lack the node). Only a
 * single project binary with plain arguments qualifies; otherwise writes
 * why to WHY and returns -1.
 */
int host_cmd_build(const char *workload, const char *bindir, struct host_cmd *c,
		   char *why, size_t whylen);
void host_cmd_free(struct host_cmd *c);

/* host / guest, or NAN unless both are finite and positive. */
double dilation_ratio(double host_rate, double guest_rate);

/*
 * Deterministic timing's D, fixed by the configuration rather than
 * measured: with the time keeper (keeper) every vCPU runs at the machine
 * class's instruction time whatever the vCPU count (bench/model/README.md,
 * "The time factor"; the model off takes the default class's), without
 * it one busy vCPU runs at 2^shift ns; hardware at hw_insn_ps.
 */
double icount_dilation(const struct bnb_machine_spec *m, int shift, bool keeper,
		       unsigned long hw_insn_ps);

/*
 * The scale_scan key: off, auto (the measured dilation), a factor, or
 * hardware: the plan of scale.h, which keeps the hardware run's passes.
 */
enum scan_scale_mode { SCALE_OFF, SCALE_AUTO, SCALE_FIXED, SCALE_HARDWARE };
struct scan_scale {
	enum scan_scale_mode mode;
	double factor;		/* SCALE_FIXED only */
};
#define SCALE_FACTOR_MAX 100000.0

int scan_scale_parse(const char *value, struct scan_scale *s);
/* FACTOR in thousandths, as the guest shell's integer arithmetic wants it. */
long scale_milli(double factor);
/*
 * The patch series bounds the scan periods to one hour; a scaled period
 * is clamped to it (longer than any run, so the clamp changes nothing the
 * run could see).
 */
#define SCAN_PERIOD_LIMIT_MS 3600000

/* MS scaled by MILLI/1000 and clamped, as the guest computes it; -1 on bad input. */
long scale_ms(long ms, long milli);

/*
 * The scan tunables that are periods and so get scaled (not scan_size_mb),
 * in the order that keeps min <= max when growing; shrinking swaps the two.
 */
extern const char *const scaled_tunables[3];

#endif
