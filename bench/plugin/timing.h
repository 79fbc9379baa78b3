/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timing.h - the time keeper's QEMU side (timing.c): counts each vCPU's
 * instructions with inline per-vCPU counters, runs the keeper
 * (timekeeper.h) every batch of instructions, sees vCPUs halt and resume,
 * and moves the guest's clock with qemu_plugin_add_ns().
 *
 * Only under icount (-icount shift=N, single-threaded TCG), with the
 * project's QEMU (API version 8: qemu_plugin_add_ns, the interrupt
 * callback and hold, the clock taken off the instruction count and the
 * yield): the launcher passes icount_shift= and the
 * modelled instruction time.
 */
#ifndef BNB_PLUGIN_TIMING_H
#define BNB_PLUGIN_TIMING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "qemu.h"
#include "args.h"
#include "model/timekeeper.h"

struct bnb_model;

#ifdef BNB_QEMU72
/* QEMU 7.2 has no time control: the keeper cannot run there. */
static inline int bnb_timing_setup(const struct bnb_plugin_args *a, unsigned int n_vcpus,
				   struct bnb_shm_header *shm, struct bnb_model *model,
				   char *err, size_t errlen)
{
	if (!a->timekeeper)
		return 0;
	snprintf(err, errlen, "bnb-plugin: the time keeper needs the project's QEMU (bench/qemu), not 7.2");
	return -1;
}
static inline void bnb_timing_translate(struct qemu_plugin_tb *tb) { }
static inline void bnb_timing_model_miss(unsigned int v, unsigned int mem, uint64_t line) { }
static inline void bnb_timing_publish(void) { }
static inline void bnb_timing_vcpu_init(unsigned int v) { }
static inline void bnb_timing_register(qemu_plugin_id_t id) { }
static inline void bnb_timing_flush(void) { }
#else

/*
 * Check the arguments, take time control.  shm (may be NULL) gets the
 * keeper's figures; vcpus its per-vCPU ones, and the machine model's
 * (model, NULL when off: the model needs the keeper).  0, or -1 with err
 * set.
 */
int bnb_timing_setup(const struct bnb_plugin_args *a, unsigned int n_vcpus,
		     struct bnb_shm_header *shm, struct bnb_model *model,
		     char *err, size_t errlen);

/* Write out the divergence log's buffer (trace=), at exit. */
void bnb_timing_flush(void);

/* Instrument one translation block (call from the tb_trans callback). */
void bnb_timing_translate(struct qemu_plugin_tb *tb);

/*
 * vCPU v missed line (virtual address / 64) on memory node mem, from its
 * own access callback: the machine model's stall (bnb_model_miss()) at
 * v's local time in hardware ps (local time / D, counting the
 * instructions of its current batch), scaled by D with the remainder
 * carried per vCPU (a run's sum is exact), delays v's local time, and
 * the clock once v leads.  One call per miss; the model's counters reach
 * the counters file with the keeper's, at every sync and at exit.
 */
void bnb_timing_model_miss(unsigned int v, unsigned int mem, uint64_t line);

/* vCPU v is initialised (from the plugin's vcpu_init callback). */
void bnb_timing_vcpu_init(unsigned int v);

/* Register the keeper's own QEMU callbacks (wake-ups), at install. */
void bnb_timing_register(qemu_plugin_id_t id);

/* Bring the figures in the counters file up to date (at exit). */
void bnb_timing_publish(void);
#endif

#endif /* BNB_PLUGIN_TIMING_H */
