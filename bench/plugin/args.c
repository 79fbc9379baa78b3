// SPDX-License-Identifier: GPL-2.0
/*
 * args.c - parse the plugin's arguments.
 *
 * The launcher appends nodes=N,cpus=C0:C1,mem_mib=M0:M1,dist=d00:d01:...
 * and then every --plugin-opt; lists use ':' because ',' separates plugin
 * arguments on QEMU's command line.  Topology keys are checked against
 * each other only after all arguments are read, since their order is free.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "lib/err.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "model/model.h"
#include "model/timekeeper.h"

#define STR(x)	#x
#define XSTR(x)	STR(x)
#define NOT_GIVEN	UINT64_MAX	/* a number key no argument set */

/* "a:b:c" into a struct bnb_args_list of at most o->max items. */
static int parse_list(const struct opt_def *o, const char *value, void *field,
		      char *err, size_t errlen)
{
	struct bnb_args_list *l = field;
	const char *s = value;
	int n = 0;

	for (;;) {
		size_t len = strcspn(s, ":");
		char item[24];
		uint64_t v;

		if (n == o->max || !len || len >= sizeof(item))
			return errf(err, errlen, "want at most %lld numbers split by ':'", o->max);
		memcpy(item, s, len);
		item[len] = '\0';
		if (parse_u64(item, 0, UINT32_MAX, &v, err, errlen))
			return -1;
		if (l)
			l->v[n] = v;
		n++;
		if (!s[len])
			break;
		s += len + 1;
	}
	if (l)
		l->n = n;
	return 0;
}

/* A path into a PATH_MAX field. */
static int parse_path(const struct opt_def *o, const char *value, void *field,
		      char *err, size_t errlen)
{
	if (!*value || strlen(value) >= PATH_MAX)
		return errf(err, errlen, "want a path of 1 to %d characters", PATH_MAX - 1);
	if (field)
		strcpy(field, value);
	return 0;
}

static int parse_hex(const struct opt_def *o, const char *value, void *field,
		     char *err, size_t errlen)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(value, &end, 16);
	if (!*value || *value == '-' || *value == '+' || errno || *end)
		return errf(err, errlen, "'%s' is not a hexadecimal address", value);
	if (field)
		*(uint64_t *)field = v;
	return 0;
}

/* Two words: the first false, the second true (.choices). */
static int parse_choice_bool(const struct opt_def *o, const char *value, void *field,
			     char *err, size_t errlen)
{
	int i = parse_choice(value, o->choices, err, errlen);

	if (i < 0)
		return -1;
	if (field)
		*(bool *)field = i == 1;
	return 0;
}

/* on|off (any spelling of parse_bool) or always. */
static int parse_delay(const struct opt_def *o, const char *value, void *field,
		       char *err, size_t errlen)
{
	enum bnb_delay_mode d = BNB_DELAY_ALWAYS;
	bool on;

	if (strcmp(value, "always")) {
		if (parse_bool(value, &on, NULL, 0))
			return errf(err, errlen, "'%s' is not on, off or always", value);
		d = on ? BNB_DELAY_VERIFIED : BNB_DELAY_OFF;
	}
	if (field)
		*(enum bnb_delay_mode *)field = d;
	return 0;
}

/* auto (0: measured as the guest runs, delay.h) or nanoseconds. */
static int parse_base(const struct opt_def *o, const char *value, void *field,
		      char *err, size_t errlen)
{
	uint64_t v = 0;

	if (strcmp(value, "auto") && parse_u64(value, o->min, o->max, &v, err, errlen))
		return errf_prefix(err, errlen, "want auto or nanoseconds");
	if (field)
		*(uint64_t *)field = v;
	return 0;
}

static int parse_keeper(const struct opt_def *o, const char *value, void *field,
			char *err, size_t errlen)
{
	bool on;

	if (parse_bool(value, &on, err, errlen))
		return -1;
	if (field)
		*(int *)field = on;
	return 0;
}

#define ARG(f) OPT_FIELD(struct bnb_plugin_args, f)
#define MACHINE_ARG(f) ARG(machine.f)
#define MACHINE_KEY(key, option, text, offset, ...) \
	{ key, .off = offset, .scope = BNB_ARG_MODEL, .help = text, __VA_ARGS__ },

const struct opt_def bnb_args_keys[] = {
	{ "nodes", OPT_INT, ARG(n_nodes), .min = 1, .max = BNB_SHM_MAX_NODES, .metavar = "N",
	  .scope = BNB_ARG_TOPOLOGY,
	  .help = "guest nodes; the launcher passes the topology (nodes, cpus, mem_mib, dist) "
		  "from the description that builds the -numa lines" },
	{ "cpus", OPT_FUNC, ARG(cpus_list), .parse = parse_list, .max = BNB_SHM_MAX_NODES,
	  .scope = BNB_ARG_TOPOLOGY,
	  .metavar = "C0:C1:...", .help = "vCPUs of each node; vCPUs are numbered node by node" },
	{ "mem_mib", OPT_FUNC, ARG(mem_list), .parse = parse_list, .max = BNB_SHM_MAX_NODES,
	  .scope = BNB_ARG_TOPOLOGY,
	  .metavar = "M0:M1:...", .help = "MiB of each node" },
	{ "dist", OPT_FUNC, ARG(dist_list), .parse = parse_list,
	  .max = BNB_SHM_MAX_NODES * BNB_SHM_MAX_NODES, .metavar = "d00:d01:...",
	  .scope = BNB_ARG_TOPOLOGY,
	  .help = "the SLIT distances, row-major" },
	{ "shm", OPT_FUNC, ARG(shm_path), .parse = parse_path, .metavar = "PATH",
	  .scope = BNB_ARG_RUN,
	  .help = "counters file the collector maps; created and truncated at start "
		  "(default private memory)" },
	{ "count", OPT_BOOL, ARG(count), .def = "on", .help = "per-node access counters" },
	{ "delay", OPT_FUNC, ARG(delay), .parse = parse_delay, .def = "on",
	  .metavar = "on|off|always",
	  .help = "on: remote misses are delayed once the guest's map check passed; always: "
		  "from boot (slower boot, unverified); off: counting only" },
	{ "base_ns", OPT_FUNC, ARG(base_ns), .parse = parse_base, .min = 1, .max = 100000,
	  .def = "auto", .metavar = "auto|N",
	  .help = "local miss latency the delay is a multiple of; auto measures it per vCPU "
		  "as the guest runs (The delay, below); N fixes it" },
	{ "cap_ns", OPT_U64, ARG(cap_ns), .min = 10, .max = 1000000, .def = XSTR(BNB_DEF_CAP_NS),
	  .help = "longest gap between two accesses believed when measuring the base "
		  "(halts, host preemption)" },
	{ "cache_kib", OPT_U64, ARG(cache_kib), .min = 0, .max = 1 << 20,
	  .def = XSTR(BNB_DEF_CACHE_KIB),
	  .help = "model cache per vCPU, 64-byte lines; 0: every access is a miss" },
	{ "cache_ways", OPT_U64, ARG(cache_ways), .min = 1, .max = 16,
	  .def = XSTR(BNB_DEF_CACHE_WAYS),
	  .help = "its associativity (KiB*1024/64/ways must be a power of two)" },
	{ "map", OPT_CHOICE, ARG(map), .choices = "qemu72|linear",
#ifdef BNB_QEMU72
	  .def = "qemu72",	/* 7.2 reports RAM block offsets */
#else
	  .def = "linear",	/* QEMU 10 reports guest-physical */
#endif
	  .help = "how QEMU's addresses map to nodes (Address decoding, below); qemu72 is "
		  "the 7.2 build's default" },
	{ "map_min_pct", OPT_U64, ARG(map_min_pct), .min = 1, .max = 100,
	  .def = XSTR(BNB_DEF_MAP_MIN_PCT),
	  .help = "share of a node's calibration accesses that must be attributed to it" },
	{ "map_fail", OPT_FUNC, ARG(map_fail_exit), .parse = parse_choice_bool,
	  .choices = "flag|exit", .def = "exit", .metavar = "exit|flag",
	  .help = "on a failed map check: stop QEMU (exit status 1), or only record it" },
	{ "mem_from", OPT_FUNC, ARG(mem_from_calib), .parse = parse_choice_bool,
	  .choices = "boot|calib", .def = "calib", .metavar = "calib|boot",
	  .help = "calib: no memory callbacks until the guest starts the map check, then "
		  "QEMU's translation cache is dropped (qemu_plugin_reset) and every block is "
		  "translated again with them, so the boot runs at plain TCG speed (8 s instead "
		  "of 55 s for bnb-vm's 81 MB initramfs here) and counters start at the "
		  "calibration; boot: count from the first instruction (forced by delay=always)" },
	{ "verbose", OPT_BOOL, ARG(verbose), .def = "off",
	  .help = "settings, map verdict and totals on QEMU's stderr" },
	{ "icount_shift", OPT_U64, ARG(icount_shift), .min = 0, .max = BNB_TK_MAX_SHIFT,
	  .scope = BNB_ARG_TIMING,
	  .help = "QEMU runs under -icount shift=N: turns the time keeper on. bnb-vm passes "
		  "it with --timing deterministic and refuses it otherwise" },
	{ "insn_ps", OPT_U64, ARG(insn_ps), .min = 1, .max = BNB_TK_MAX_INSN_PS,
	  .scope = BNB_ARG_TIMING,
	  .help = "modelled instruction time, ps (bnb-vm --insn-time NS): D = insn_ps / "
		  "hw_insn_ps, whatever the vCPU count, at least 1 (default the machine "
		  "class's, bench/model/README.md)" },
	{ "hw_insn_ps", OPT_U64, ARG(hw_insn_ps), .min = 1, .max = 1000000,
	  .def = XSTR(BNB_TK_DEF_HW_INSN_PS),
	  .help = "hardware instruction time it stands for: D = insn_ps / hw_insn_ps" },
	{ "timekeeper", OPT_FUNC, ARG(keeper_asked), .parse = parse_keeper, .metavar = "on|off",
	  .scope = BNB_ARG_KEEPER,
	  .help = "off: plain icount, the vCPUs time-sliced on one clock (default on with "
		  "icount_shift)" },
	{ "tk_quantum_ns", OPT_U64, ARG(tk_quantum_ns), .min = 1, .max = 1000000000,
	  .help = "lead over the slowest busy vCPU past which a vCPU yields its turn "
		  "(default " XSTR(BNB_TK_QUANTUM_INSNS) " instructions' time)" },
	{ "tk_batch", OPT_U64, ARG(tk_batch), .min = 64, .max = 1 << 24,
	  .help = "instructions of a vCPU between two runs of the keeper (default "
		  XSTR(BNB_DEF_TK_BATCH) ", " XSTR(BNB_DEF_TK_BATCH_MODEL) " with the model)" },
	{ "ksym", OPT_FUNC, ARG(ksym_map), .parse = parse_path, .metavar = "PATH",
	  .help = "the guest kernel's System.map: count the balancer's own work by kernel "
		  "function (below); the runner passes the one beside the kernel" },
	{ "ksym_out", OPT_FUNC, ARG(ksym_out), .parse = parse_path, .metavar = "PATH",
	  .help = "where that count is written at exit (key=value lines; needed with ksym=)" },
	{ "trace", OPT_FUNC, ARG(trace_path), .parse = parse_path, .metavar = "PATH",
	  .help = "the divergence log (Sources of variation in multi-vCPU deterministic "
		  "runs): a line per vCPU turn switch and time keeper event; a call per block, "
		  "a diagnostic" },
	{ "trace_clock", OPT_FUNC, ARG(trace_clock), .parse = parse_hex, .metavar = "HEX",
	  .help = "with trace=: QEMU's timers_state as nm prints it; turn lines then carry "
		  "the guest clock (reads QEMU 10.0's struct layout: diagnostic only)" },
	/* the machine model's: bench/model/machine.h */
	BNB_MACHINE_KEYS(MACHINE_KEY, MACHINE_ARG)
};
const size_t bnb_args_n_keys = ARRAY_SIZE(bnb_args_keys);

enum bnb_arg_owner bnb_args_owner(const char *word)
{
	size_t len = strcspn(word, "=");

	for (size_t i = 0; i < bnb_args_n_keys; i++)
		if (strlen(bnb_args_keys[i].name) == len && !strncmp(word, bnb_args_keys[i].name, len))
			return bnb_args_keys[i].scope;
	return BNB_ARG_USER;
}

static int parse_one(struct bnb_plugin_args *a, const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	const struct opt_def *o;
	char key[32];
	size_t klen;

	if (!eq || eq == arg || (klen = eq - arg) >= sizeof(key))
		return errf(err, errlen, "argument '%s' is not key=value", arg);
	memcpy(key, arg, klen);
	key[klen] = '\0';
	o = opt_find(bnb_args_keys, bnb_args_n_keys, key);
	if (!o)
		return errf(err, errlen, "unknown option '%s' (in '%s')", key, arg);
	if (opt_set(o, eq + 1, a, err, errlen))
		return errf_prefix(err, errlen, "%s", arg);
	return 0;
}

/* vCPUs and memory per node, distances: one each per node, as nodes= says. */
static int check_topology(struct bnb_plugin_args *a, char *err, size_t errlen)
{
	unsigned int n = a->n_nodes, total = 0;

	if (!n)
		return errf(err, errlen, "missing nodes= (the launcher passes the topology)");
	if (a->cpus_list.n != (int)n)
		return errf(err, errlen, "cpus= must list one vCPU count per node (%u nodes)", n);
	if (a->mem_list.n != (int)n)
		return errf(err, errlen, "mem_mib= must list one size per node (%u nodes)", n);
	if (a->dist_list.n != (int)(n * n))
		return errf(err, errlen, "dist= must hold nodes*nodes values (%u nodes)", n);
	for (unsigned int i = 0; i < n; i++) {
		uint32_t mib = a->mem_list.v[i];

		if (mib < 1 || mib > (1U << 24))
			return errf(err, errlen, "mem_mib: node %u: %u MiB is out of range", i, mib);
		a->cpus[i] = a->cpus_list.v[i];
		a->mem_bytes[i] = (uint64_t)mib << 20;
		total += a->cpus[i];
		for (unsigned int j = 0; j < n; j++) {
			uint32_t d = a->dist_list.v[i * n + j];

			if (d < 10 || d > 255 || (i == j) != (d == 10))
				return errf(err, errlen, "dist: row %u column %u is %u; want 10 on the diagonal, 11..255 elsewhere",
					    i, j, d);
			a->dist[i][j] = d;
		}
	}
	if (total < 1 || total > BNB_SHM_MAX_VCPUS)
		return errf(err, errlen, "cpus: %u vCPUs in all; want 1..%d", total,
			    BNB_SHM_MAX_VCPUS);
	return 0;
}

/*
 * icount_shift= says the launcher runs QEMU under icount: the keeper runs
 * then, unless timekeeper=off.
 */
static int check_keeper(struct bnb_plugin_args *a, char *err, size_t errlen)
{
	a->have_icount = a->icount_shift != NOT_GIVEN;
	if (!a->have_icount)
		a->icount_shift = 0;
	if (a->keeper_asked == 1 && !a->have_icount)
		return errf(err, errlen, "timekeeper=on needs icount_shift= (deterministic timing: bnb-vm --timing deterministic)");
	a->timekeeper = a->have_icount && a->keeper_asked != 0;
	/* model=auto: the default class under the keeper, off elsewhere */
	bnb_machine_resolve(&a->machine, a->timekeeper);
	if (!a->tk_batch)
		a->tk_batch = bnb_machine_class(&a->machine) ? BNB_DEF_TK_BATCH_MODEL :
			      BNB_DEF_TK_BATCH;
	return 0;
}

/* bench/model's one check, for the guest and the time keeper the plugin has. */
static int check_model(struct bnb_plugin_args *a, char *err, size_t errlen)
{
	struct bnb_model_params p;
	const char *key;

	if (bnb_args_model(a, &p, &key, err, errlen))
		return errf_prefix(err, errlen, "%s", key);
	if (bnb_machine_class(&a->machine) && a->delay == BNB_DELAY_OFF)
		return errf(err, errlen, "model=%s charges misses once the map check passed (delay=on) or from boot (delay=always), not with delay=off (model=off counts only)",
			    bnb_machine_class(&a->machine)->name);
	return 0;
}

int bnb_args_model(const struct bnb_plugin_args *a, struct bnb_model_params *p,
		   const char **key, char *err, size_t errlen)
{
	struct bnb_topology t = { .nodes = (int)a->n_nodes };

	for (unsigned int i = 0; i < a->n_nodes; i++) {
		t.cpus[i] = a->cpus[i];
		t.mem[i] = a->mem_bytes[i];
		for (unsigned int j = 0; j < a->n_nodes; j++)
			t.dist[i][j] = a->dist[i][j];
	}
	return bnb_machine_check(&a->machine, &t, a->timekeeper, p, key, err, errlen);
}

int bnb_args_parse(struct bnb_plugin_args *a, int argc, char **argv,
		   char *err, size_t errlen)
{
	memset(a, 0, sizeof(*a));
	a->keeper_asked = -1;
	a->icount_shift = NOT_GIVEN;
	if (opt_defaults(bnb_args_keys, bnb_args_n_keys, a, err, errlen))
		return -1;
	for (int i = 0; i < argc; i++)
		if (parse_one(a, argv[i], err, errlen))
			return -1;
	if (check_keeper(a, err, errlen) || check_topology(a, err, errlen))
		return -1;
	return check_model(a, err, errlen);
}

unsigned int bnb_args_n_vcpus(const struct bnb_plugin_args *a)
{
	unsigned int total = 0;

	for (unsigned int i = 0; i < a->n_nodes; i++)
		total += a->cpus[i];
	return total;
}
