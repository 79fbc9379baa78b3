/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the machine model charged in a run (modelrun.c), from the plugin's
 * counters file RUN_DIR/plugin.shm (bench/include/bnb_plugin_shm.h).
 */
#ifndef BNB_MODELRUN_H
#define BNB_MODELRUN_H

#include "extract.h"

#define MODELRUN_SHM "plugin.shm"

/*
 * Add model_stall_share (the model's stall over the vCPUs' busy guest
 * time), model_stall_s (guest seconds, all vCPUs), model_misses and
 * model_bw_share (of the stall, the part bandwidth set) to X; nothing
 * when the run had no model.
 */
void modelrun_add(const char *rundir, struct xmetrics *x);

#endif
