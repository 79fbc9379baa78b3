/* SPDX-License-Identifier: GPL-2.0 */
/*
 * divlog.h - the divergence log: where two deterministic runs part.
 *
 * Under round-robin icount the same guest run twice should execute the
 * same blocks in the same order on every vCPU and switch vCPUs at the same
 * instruction counts.  The log (plugin option trace=PATH) writes one line
 * per turn switch with the instruction count and a running hash of the
 * executed block addresses of the vCPU whose turn ended, and one line per
 * time keeper event.  Diff two logs: the first differing line is the first
 * switch or event that moved; the lines before it say whether the guests
 * had already run different code (hash) or only switched at a different
 * point (same hash, other count).  With a clock (trace_clock=) the turn
 * line also gives the guest clock as the new turn starts: a clock that
 * parts before the counts do names a host-timed change of guest time.
 */
#ifndef BNB_PLUGIN_DIVLOG_H
#define BNB_PLUGIN_DIVLOG_H

#include <stdint.h>
#include <stdio.h>

#include "bnb_plugin_shm.h"

struct bnb_divlog {
	FILE *out;
	unsigned int n_vcpus;
	uint64_t (*clock_ns)(void);		/* the guest clock, or NULL */
	int last;				/* vCPU of the last block, -1 = none */
	uint64_t turns;
	uint64_t insns[BNB_SHM_MAX_VCPUS];	/* instructions of executed blocks */
	uint64_t hash[BNB_SHM_MAX_VCPUS];	/* FNV-1a over block addresses */
};

void bnb_divlog_init(struct bnb_divlog *d, FILE *out, unsigned int n_vcpus);

/* vCPU v starts a block of n instructions at pc. */
void bnb_divlog_block(struct bnb_divlog *d, unsigned int v, uint64_t pc, unsigned int n);

/* Something happened to v now (what: a short word; arg: its amount). */
void bnb_divlog_event(struct bnb_divlog *d, unsigned int v, const char *what, uint64_t arg);

#endif
