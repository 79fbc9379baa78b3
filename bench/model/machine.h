/* SPDX-License-Identifier: GPL-2.0 */
/*
 * machine.h - the modelled machines the launcher and the runner offer:
 * named classes of real machines with their published figures (sources
 * in bench/model/README.md, "Classes and their sources"), overridable one parameter
 * at a time, turned into the plugin's model options.
 */
#ifndef BNB_MODEL_MACHINE_H
#define BNB_MODEL_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "bnb_plugin_shm.h"

#define BNB_MACHINE_NAMES "off|2socket|4node"

struct bnb_machine {
	const char *name;
	unsigned long lat_ns;		/* local idle latency */
	unsigned long remote_lat_ns;	/* 2-node remote latency; 0: lat_ns x SLIT / 10 */
	unsigned long node_mbs;		/* one node's memory bandwidth */
	unsigned long link_mbs;		/* one link's bandwidth */
	unsigned long hw_cpus;		/* CPUs per node */
	unsigned long mlp;		/* sequential misses in flight per CPU */
};

/* A class with what was asked of it, for one guest topology. */
struct bnb_machine_cfg {
	struct bnb_machine m;		/* the class, overrides applied */
	const char *lat_table;		/* "108,196;196,108" (ns) or NULL */
	unsigned int n_nodes;
	unsigned int cpus[BNB_SHM_MAX_NODES];
	uint8_t dist[BNB_SHM_MAX_NODES][BNB_SHM_MAX_NODES];
};

/* The class called name ("2socket", "4node"), or NULL (also for "off"). */
const struct bnb_machine *bnb_machine_find(const char *name);

/* The class at index i of BNB_MACHINE_NAMES, or NULL for 0 ("off"). */
const struct bnb_machine *bnb_machine_at(unsigned int i);

/* Apply what was asked (0: keep the class's); a local latency drops the class's remote one. */
void bnb_machine_refine(struct bnb_machine *m, unsigned long lat_ns, unsigned long node_mbs,
			unsigned long link_mbs, unsigned long hw_cpus, unsigned long mlp);

/*
 * Check cfg by the model's rules and hand each plugin option (K=V, the
 * model's keys and delay=on) to add.  0, or -1 with err naming what was
 * wrong: "latency table", "node bandwidth", ...
 */
int bnb_machine_plugin_opts(const struct bnb_machine_cfg *cfg,
			    void (*add)(void *ctx, const char *kv), void *ctx,
			    char *err, size_t errlen);

#endif /* BNB_MODEL_MACHINE_H */
