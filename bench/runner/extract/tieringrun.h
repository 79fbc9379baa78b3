/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tieringrun.c - promotion and demotion per run, from the collector's
 * summary.json "tiering" object (bench/collector/FORMAT.md), and the fast
 * tier's share of the accesses from its "plugin" object, as metrics of
 * the reports once the experiment tiers at all.
 */
#ifndef BNB_TIERINGRUN_H
#define BNB_TIERINGRUN_H

#include "report/results.h"

struct json_object;

/*
 * Keep RUN's tiering figures from summary.json's TIERING and PLUGIN
 * objects (NULL: none).
 */
void tiering_load(struct run *run, struct json_object *tiering, struct json_object *plugin);

/*
 * Make them metrics of every run that has them, when some run of R
 * promoted, demoted or found a candidate, or had a slow tier (a node
 * without vCPUs, whose accesses the plugin counts apart): in an
 * experiment where nothing tiers (two nodes) they would be rows of zeros;
 * in one that does, the variant without tiering needs its zeros to be
 * compared with.
 */
void tiering_metrics(struct results *r);

#endif
