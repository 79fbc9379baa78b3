/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The account of balancing of one run (bench/collector/account.h) from
 * its files: the collector's intervals (timeseries.csv), the work's start
 * and end (summary.json), the plugin's counters file (the time factor D,
 * the window before the balancer acted, the vCPUs' busy time) and the
 * balancer's measured work (numawork.c's metrics, already in X).
 */
#ifndef BNB_ACCOUNT_RUN_H
#define BNB_ACCOUNT_RUN_H

#include "extract/extract.h"

#define ACCOUNT_CSV "account.csv"

/*
 * Add the account_* metrics and model_stall_hw_s to X and write
 * RUN_DIR/account.csv (its course over the work); without a machine
 * model only account_cost_s (the balancer's work in the whole run).
 * Call after numawork_add() and modelrun_add().
 */
void accountrun_add(const char *rundir, struct xmetrics *x);

/*
 * The seed's unit u in hardware ns as the class prices it: one CPU
 * streaming one 8-byte word from its own node's memory (a page copy is
 * PAGE_SIZE / u words in the seed's Cpagerw). LAT_NS the local latency,
 * MLP the misses in flight, NODE_MBS the node's bandwidth shared by
 * HW_CPUS CPUs. NAN when a figure is missing.
 */
double account_ns_per_u(double lat_ns, unsigned int mlp, double node_mbs, unsigned int hw_cpus);

#endif
