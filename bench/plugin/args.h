/* SPDX-License-Identifier: GPL-2.0 */
/*
 * args.h - the plugin's key=value arguments: topology and emulation knobs.
 *
 * One table of struct opt_def rows (bench/lib/opt.h, the option engine of
 * every tool) parses them, checks their bounds and holds their help; the
 * .so links bench/lib's parsing part as libbnb-pic.a.
 */
#ifndef BNB_PLUGIN_ARGS_H
#define BNB_PLUGIN_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>

#include "bnb_plugin_shm.h"
#include "lib/opt.h"
#include "model/machine.h"

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

/* A ':'-separated list as given; checked against nodes= once all are read. */
struct bnb_args_list {
	int n;
	uint32_t v[BNB_SHM_MAX_NODES * BNB_SHM_MAX_NODES + 1];
};

struct bnb_plugin_args {
	unsigned int n_nodes;
	unsigned int cpus[BNB_SHM_MAX_NODES];		/* vCPUs per node */
	uint64_t mem_bytes[BNB_SHM_MAX_NODES];		/* RAM per node */
	uint8_t dist[BNB_SHM_MAX_NODES][BNB_SHM_MAX_NODES];
	struct bnb_args_list cpus_list, mem_list, dist_list;	/* as given */
	char shm_path[PATH_MAX];			/* "" = private counters */
	char ksym_map[PATH_MAX];			/* System.map: NUMA work by function */
	char ksym_out[PATH_MAX];			/* where it is written at exit */
	char trace_path[PATH_MAX];			/* divergence log (divlog.h), "" = none */
	uint64_t trace_clock;				/* QEMU's timers_state, 0 = no clock */
	bool count;					/* count accesses per node */
	enum bnb_delay_mode delay;			/* delay remote misses */
	uint64_t base_ns;				/* local miss latency, 0 = measured */
	uint64_t cap_ns;				/* longest interval believed */
	uint64_t cache_kib;				/* model cache per vCPU, 0 = off */
	uint64_t cache_ways;
	enum bnb_map_mode map;
	uint64_t map_min_pct;				/* map check pass mark */
	bool map_fail_exit;				/* stop QEMU on a failed check */
	bool mem_from_calib;				/* instrument accesses from the map check on */
	bool verbose;
	/* time keeper (timekeeper.h), deterministic timing only */
	bool timekeeper;				/* on when icount_shift= is given */
	bool have_icount;				/* icount_shift= was given */
	int keeper_asked;				/* timekeeper=: -1 not given, 0 off, 1 on */
	uint64_t icount_shift;				/* QEMU's -icount shift */
	uint64_t insn_ps;				/* modelled instruction time, 0 = least */
	uint64_t hw_insn_ps;				/* hardware instruction time, for D */
	uint64_t tk_quantum_ns;				/* lag bound; 0: the keeper's */
	uint64_t tk_batch;				/* instructions per sync */
	/* machine model (bench/model), deterministic timing only */
	struct bnb_machine_spec machine;
};

/* Defaults; see bench/plugin/README.md for how they were chosen. */
#define BNB_DEF_BASE_NS		0	/* measure it as the vCPU runs (delay.h) */
#define BNB_DEF_CAP_NS		2000
#define BNB_DEF_CACHE_KIB	1024
#define BNB_DEF_CACHE_WAYS	8
#define BNB_DEF_MAP_MIN_PCT	99
#define BNB_DEF_TK_BATCH	16384
/*
 * With the machine model a batch also carries the misses' stalls, which the
 * keeper sees only at the batch's end: at 16 K instructions the busy vCPUs'
 * local times spread by 52 ms on average on a 2-node numa02 (46 us without
 * the model), so that vCPUs missing to one node fell in different bandwidth
 * windows and never shared it; at 1 K, 68 us (README, reference suite).
 */
#define BNB_DEF_TK_BATCH_MODEL	1024
/*
 * Who sets a key (its row's .scope): the launcher derives every key but
 * BNB_ARG_USER's itself.  The one list of them: bnb-vm refuses
 * --plugin-opt words it derives, the runner plugin_opts words it or bnb-vm
 * derives, each saying what to use instead.
 */
enum bnb_arg_owner {
	BNB_ARG_USER,		/* anyone: bnb-vm --plugin-opt, the runner's plugin_opts */
	BNB_ARG_TOPOLOGY,	/* bnb-vm, from --nodes, --cpus, --mem, --distance */
	BNB_ARG_TIMING,		/* bnb-vm, from --icount-shift and --insn-time */
	BNB_ARG_KEEPER,		/* on with --timing deterministic; bnb-vm lets it be turned off */
	BNB_ARG_MODEL,		/* bnb-vm, from its options of the same names ([machine]) */
	BNB_ARG_RUN,		/* the runner, per run (bnb-vm leaves it to the user) */
};

/* The keys, one row each; .help is the plugin README's table. */
extern const struct opt_def bnb_args_keys[];
extern const size_t bnb_args_n_keys;

/* The owner of word's key ("KEY=VALUE" or "KEY"); BNB_ARG_USER when unknown. */
enum bnb_arg_owner bnb_args_owner(const char *word);

/*
 * Parse argv ("key=value" each).  A key given twice keeps the last value,
 * so a --plugin-opt can override what the launcher derived.  Returns 0, or
 * -1 with a one-line reason in err (lib/err.h: no program name).
 */
int bnb_args_parse(struct bnb_plugin_args *a, int argc, char **argv,
		   char *err, size_t errlen);

unsigned int bnb_args_n_vcpus(const struct bnb_plugin_args *a);

struct bnb_model_params;
/*
 * The model's parameters from the arguments (bench/model's one check, which
 * bnb_args_parse has passed): 0, or -1 with err and *key the key at fault.
 */
int bnb_args_model(const struct bnb_plugin_args *a, struct bnb_model_params *p,
		   const char **key, char *err, size_t errlen);

#endif /* BNB_PLUGIN_ARGS_H */
