/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the machine model charged in a run (modelrun.c), from the plugin's
 * counters file RUN_DIR/plugin.shm (bench/include/bnb_plugin_shm.h).
 */
#ifndef BNB_MODELRUN_H
#define BNB_MODELRUN_H

#include <stdbool.h>

#include "bnb_plugin_shm.h"
#include "extract.h"

#define MODELRUN_SHM "plugin.shm"

/*
 * Add model_stall_share (the model's stall over the vCPUs' busy guest
 * time), model_stall_s (guest seconds, all vCPUs), model_misses and
 * model_bw_share (of the stall, the part bandwidth set) to X; nothing
 * when the run had no model.
 */
void modelrun_add(const char *rundir, struct xmetrics *x);

/* What the run's model was configured with, in hardware units. */
struct modelrun_config {
	char name[32];
	unsigned int n_nodes;
	unsigned int cpus[BNB_SHM_MAX_NODES];	/* guest vCPUs per node */
	double lat_ns[BNB_SHM_MAX_NODES][BNB_SHM_MAX_NODES];
	double node_mbs, link_mbs;		/* the modelled machine's */
	unsigned int hw_cpus, mlp;
	double d;				/* insn_ps / hw_insn_ps */
	/*
	 * Each pair's route (from the run's [machine], not the counters
	 * file): links crossed, and its slowest link's MB/s as the model
	 * gives it (the machine's per CPU x the vCPUs of the node that
	 * link's lines enter); 0: not known, one link at link_mbs.
	 */
	unsigned int hops[BNB_SHM_MAX_NODES][BNB_SHM_MAX_NODES];
	double path_mbs[BNB_SHM_MAX_NODES][BNB_SHM_MAX_NODES];
};

/* Fill C from RUNDIR's counters file: 0, or -1 when it has no model. */
int modelrun_config(const char *rundir, struct modelrun_config *c);

/* What the account of balancing (accountrun.h) takes from the file. */
struct modelrun_acct {
	double d;				/* insn_ps / hw_insn_ps */
	double win_local, win_remote;		/* misses before the balancer acted; NAN: none */
	bool acted;				/* it worked after the WORK marker */
	double stall_ps;			/* the model's stall, all vCPUs, guest ps */
};

/* Fill A from RUNDIR's counters file: 0, or -1 when it has no model. */
int modelrun_account(const char *rundir, struct modelrun_acct *a);

#endif
