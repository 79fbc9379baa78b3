/* SPDX-License-Identifier: GPL-2.0 */
/* ksym_qemu.h - the plugin's side of ksym.h: setup, translation, output. */
#ifndef BNB_PLUGIN_KSYM_QEMU_H
#define BNB_PLUGIN_KSYM_QEMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "args.h"
#include "ksym.h"

struct qemu_plugin_tb;

/* Nothing without ksym=; else read the map, or -1 with the reason in err. */
int bnb_ksym_setup(const struct bnb_plugin_args *a, unsigned int n_vcpus, char *err,
		   size_t errlen);
/* Instrument a new translation (kernel blocks only). */
void bnb_ksym_translate(struct qemu_plugin_tb *tb);
/* Modelled stall time of a vCPU, for its current kind. */
void bnb_ksym_charge(unsigned int vcpu_index, uint64_t ps);
/*
 * The plugin's hook, called from a block of the balancer's work (any
 * kind) until it returns false: the account's snapshot (plugin.c).
 */
bool bnb_plugin_balancer_ran(void);
/* Write the totals to ksym_out (at exit). */
void bnb_ksym_write(void);

#endif
