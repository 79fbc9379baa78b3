/* SPDX-License-Identifier: GPL-2.0 */
/* args.h - the plugin's key=value arguments: topology and emulation knobs. */
#ifndef BNB_PLUGIN_ARGS_H
#define BNB_PLUGIN_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <limits.h>

#include "bnb_plugin_shm.h"

/* How QEMU's hwaddr_phys_addr values map onto node memory blocks. */
enum bnb_map_mode {
	BNB_MAP_QEMU72,		/* node i at [2*B_i, 2*B_i + S_i): 7.2 RAM offsets */
	BNB_MAP_LINEAR,		/* node i at [B_i, B_i + S_i): true guest-physical */
};

/* When remote misses start to pay the delay. */
enum bnb_delay_mode {
	BNB_DELAY_OFF,		/* never: counting only */
	BNB_DELAY_VERIFIED,	/* once the guest's map check passed */
	BNB_DELAY_ALWAYS,	/* from the first instruction, boot included */
};

struct bnb_plugin_args {
	unsigned int n_nodes;
	unsigned int cpus[BNB_SHM_MAX_NODES];		/* vCPUs per node */
	uint64_t mem_bytes[BNB_SHM_MAX_NODES];		/* RAM per node */
	uint8_t dist[BNB_SHM_MAX_NODES][BNB_SHM_MAX_NODES];
	char shm_path[PATH_MAX];			/* "" = private counters */
	char ksym_map[PATH_MAX];			/* System.map: NUMA work by function */
	char ksym_out[PATH_MAX];			/* where it is written at exit */
	char trace_path[PATH_MAX];			/* divergence log (divlog.h), "" = none */
	unsigned long trace_clock;			/* QEMU's timers_state, 0 = no clock */
	bool count;					/* count accesses per node */
	enum bnb_delay_mode delay;			/* delay remote misses */
	unsigned long base_ns;				/* local miss latency, 0 = measured */
	unsigned long cap_ns;				/* longest interval believed */
	unsigned long cache_kib;			/* model cache per vCPU, 0 = off */
	unsigned long cache_ways;
	enum bnb_map_mode map;
	unsigned long map_min_pct;			/* map check pass mark */
	bool map_fail_exit;				/* stop QEMU on a failed check */
	bool mem_from_calib;				/* instrument accesses from the map check on */
	bool verbose;
	/* time keeper (timekeeper.h), deterministic timing only */
	bool timekeeper;				/* on when icount_shift= is given */
	bool have_icount;				/* icount_shift= was given */
	unsigned long icount_shift;			/* QEMU's -icount shift */
	unsigned long insn_ps;				/* modelled instruction time, 0 = least */
	unsigned long hw_insn_ps;			/* hardware instruction time, for D */
	unsigned long tk_quantum_ns;			/* lag bound */
	unsigned long tk_batch;				/* instructions per sync */
	/* machine model (model.h), deterministic timing only */
	bool model;					/* misses cost the model's stall */
	unsigned long lat_ns;				/* local miss latency */
	bool have_lat;					/* lat= gave the whole matrix */
	uint32_t lat[BNB_SHM_MAX_NODES][BNB_SHM_MAX_NODES];	/* ns, row = initiator */
	unsigned long node_mbs;				/* one node's memory bandwidth */
	unsigned long link_mbs;				/* one link's bandwidth */
	unsigned long hw_cpus;				/* modelled machine's CPUs per node */
	unsigned long mlp;				/* sequential misses in flight */
	unsigned long window_ns;			/* bandwidth sharing window */
	char model_name[32];				/* what the launcher called it */
};

/* Defaults; see bench/plugin/README.md for how they were chosen. */
#define BNB_DEF_BASE_NS		0	/* measure it as the vCPU runs (delay.h) */
#define BNB_DEF_CAP_NS		2000
#define BNB_DEF_CACHE_KIB	1024
#define BNB_DEF_CACHE_WAYS	8
#define BNB_DEF_MAP_MIN_PCT	99
#define BNB_DEF_HW_INSN_PS	300	/* 0.3 ns, BNB_TK_DEF_HW_INSN_PS */
#define BNB_DEF_TK_QUANTUM_NS	100000
#define BNB_DEF_TK_BATCH	16384
/*
 * With the machine model a batch also carries the misses' stalls, which the
 * keeper sees only at the batch's end: at 16 K instructions the busy vCPUs'
 * local times spread by 52 ms on average on a 2-node numa02 (46 us without
 * the model), so that vCPUs missing to one node fell in different bandwidth
 * windows and never shared it; at 1 K, 68 us (README, reference suite).
 */
#define BNB_DEF_TK_BATCH_MODEL	1024
/* Model defaults: the 2-socket class of docs/machine-model.md. */
#define BNB_DEF_LAT_NS		108	/* MLC idle latency, 2-socket Intel */
#define BNB_DEF_NODE_MBS	69300	/* local read bandwidth, 2-socket Xeon */
#define BNB_DEF_LINK_MBS	34400	/* remote read bandwidth, same machine */
#define BNB_DEF_HW_CPUS		16	/* cores per socket of that class */
#define BNB_DEF_MLP		10	/* line fill buffers per core */
#define BNB_DEF_WINDOW_NS	20000	/* longer than the keeper's lag in hw time */

/*
 * Parse argv ("key=value" each).  A key given twice keeps the last value,
 * so a --plugin-opt can override what the launcher derived.  Returns 0, or
 * -1 with a one-line reason in err.
 */
int bnb_args_parse(struct bnb_plugin_args *a, int argc, char **argv,
		   char *err, size_t errlen);

unsigned int bnb_args_n_vcpus(const struct bnb_plugin_args *a);

struct bnb_model_params;
/* The model's parameters from the arguments (checked by bnb_args_parse). */
void bnb_args_model(const struct bnb_plugin_args *a, struct bnb_model_params *p);

#endif /* BNB_PLUGIN_ARGS_H */
