/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mapcheck.h - judge the address-to-node map from the guest's calibration.
 *
 * The guest touches memory bound to node 0, then node 1, ... (one phase
 * per node, see bnb_marker.h).  In phase k the plugin counts the calibrating
 * vCPU's user-space accesses and how many of them it attributed to node k;
 * each node must reach min_pct, and every node must have had its phase.
 */
#ifndef BNB_PLUGIN_MAPCHECK_H
#define BNB_PLUGIN_MAPCHECK_H

#include <stdint.h>

#include "bnb_plugin_shm.h"

/* Fewer accesses than this in a phase prove nothing. */
#define BNB_MAPCHECK_MIN_ACCESSES 10000

struct bnb_mapcheck {
	unsigned int n_nodes;
	unsigned int min_pct;
	unsigned int phases;		/* BEGINs since START */
	unsigned int checked;		/* ENDs judged */
	enum bnb_shm_map_status status;
	struct bnb_shm_map_check res[BNB_SHM_MAX_NODES];
	char msg[BNB_SHM_MSG_LEN];
};

void bnb_mapcheck_init(struct bnb_mapcheck *mc, unsigned int n_nodes,
		       unsigned int min_pct);
void bnb_mapcheck_start(struct bnb_mapcheck *mc);
/* The node whose phase begins, or -1 (and FAILED) when all had one. */
int bnb_mapcheck_begin(struct bnb_mapcheck *mc);
/* Judge node's phase; returns the status (FAILED with msg on failure). */
enum bnb_shm_map_status bnb_mapcheck_end(struct bnb_mapcheck *mc, int node,
					 uint64_t total, uint64_t on_node);
/* All phases over: OK only if every node was checked and passed. */
enum bnb_shm_map_status bnb_mapcheck_done(struct bnb_mapcheck *mc);

#endif /* BNB_PLUGIN_MAPCHECK_H */
