/* SPDX-License-Identifier: GPL-2.0 */
/* The VM launcher: configuration, QEMU command line, and running a guest. */
#ifndef BNB_VM_H
#define BNB_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "bnb_plugin_shm.h"
#include "bnb_topology.h"
#include "lib/argv.h"
#include "lib/host_numa.h"
#include "lib/opt.h"
#include "lib/vm_status.h"
#include "model/machine.h"

/* Deterministic timing's fixed inputs (qemu_args.c add_pinned). */
#define DETERMINISTIC_DATE	"2024-01-01T00:00:00"
#define DETERMINISTIC_CMDLINE	" norandmaps random.trust_cpu=off random.trust_bootloader=off"

/* The plugin API version of the project's QEMU (bench/qemu patch 0002). */
#define BNB_PLUGIN_API 6

/* The emulator and what its cache entry says about it (emulator.c). */
struct vm_emulator {
	char path[4096];
	bool project;			/* a sound entry of the project's QEMU cache */
	bool time_control;		/* has the time-control patches */
	int plugin_api;
	char version[64];		/* upstream version, or "unknown" */
	char patch_hash[32];		/* of bench/qemu's series, or "none" */
	char key[32];			/* cache key, or "none" */
};

struct vm_config {
	struct bnb_topology topo;
	char *qemu;			/* qemu-system-x86_64 */
	char *bios;			/* NULL: QEMU's default firmware */
	char *kernel;
	char *initrd;
	char *append;			/* extra kernel command line */
	char *run_dir;
	char *agent_socket;		/* NULL: no agent port */
	char *plugin;			/* NULL: no TCG plugin */
	struct argv plugin_opts;	/* K=V each, after the topology */
	const char *cmd;		/* guest shell command */
	enum vm_accel accel;
	enum vm_timing timing;
	int icount_shift;		/* deterministic: 2^shift ns per instruction */
	int agent_stream_ms;		/* the agent samples by itself every N ms; 0 asked */
	uint64_t insn_ps;		/* deterministic: modelled instruction time, ps */
	const char *model;		/* the machine model's class, or "off" */
	/* the machine model's parameters when it is on: the HMAT's figures; NULL: none */
	const struct bnb_model_params *model_params;
	const struct vm_emulator *emu;	/* for the result file; may be NULL */
	bool hmat;
	bool balancing;
	int loglevel;
	int timeout_s;
	unsigned long lpj;		/* 0: the guest calibrates its delay loop */
	long tsc_khz;			/* 0: the guest measures its TSC rate */
	bool dry_run;
	enum host_bind { HOST_BIND_AUTO, HOST_BIND_ON, HOST_BIND_OFF } host_bind;
	/* bound: guest node i on host node host->node[host_node[i]] */
	const struct host_numa *host;	/* NULL: not bound */
	int host_node[BNB_MAX_NODES];
};

/*
 * bnb-vm's command line: the configuration, and the per-node texts that
 * are read once all options are in (they need the node count).
 */
struct vm_cli {
	struct vm_config cfg;
	char *cpus, *mem, *distance;
	/* the tools archive: on request, or when the command names a tool */
	enum tools_mode { TOOLS_OFF, TOOLS_ON, TOOLS_AUTO } tools;
	char *packages;			/* Debian packages for the guest, or NULL */
	double insn_ns;			/* --insn-time; 0: the machine class's */
	/* the machine model (bench/model/machine.h) */
	struct bnb_machine_spec machine;
};

/* The options table (options.c): it also makes --help and HACKING's table. */
extern const struct opt_def vm_options[];
extern const size_t vm_n_options;

/*
 * Parse bnb-vm's arguments into C (defaults first). Returns the index of
 * the guest command in argv, OPT_HELP, or -1 with err.
 */
int vm_cli_parse(struct vm_cli *c, int argc, char **argv, char *err, size_t errlen);
void vm_cli_free(struct vm_cli *c);
extern const struct opt_tool vm_tool;	/* --help around the table */

/*
 * 1 when a word of the guest command cmd is a command named in list_path
 * (the tools archive's tools.list, one name a line) and not in have_path
 * (the packages' list: numactl from a package needs no tools archive;
 * NULL: none), 0 when none is, -1 when the list cannot be read.
 */
int cmd_names_tool(const char *cmd, const char *list_path, const char *have_path);

/*
 * The guest's TSC rate in kHz: under deterministic timing QEMU's icount
 * TSC (1 GHz), else the host's (BogoMIPS in /proc/cpuinfo); 0 unknown.
 * lpj= for a kernel from that rate and CONFIG_HZ of the .config beside
 * the kernel; 0 when either is unknown. The parsers return 0 when they
 * find nothing.
 */
#define ICOUNT_TSC_KHZ	1000000L
long guest_tsc_khz(enum vm_timing timing);
unsigned long guest_lpj(const char *kernel, long tsc_khz);
long cpuinfo_tsc_khz(FILE *cpuinfo);
int config_hz(FILE *config);
/* CONFIG_KEY=N of a .config, of the one beside kernel; 0 when absent or not above 0. */
long config_int(FILE *config, const char *key);
long kernel_config_int(const char *kernel, const char *key);

/*
 * Find the emulator: choice is NULL or "project" (build/qemu), "system"
 * (Debian's), or a path.  A cache entry that does not match its info is
 * refused.  0, or -1 with err set.
 */
int emulator_resolve(struct vm_emulator *e, const char *choice, const char *root,
		     char *err, size_t errlen);

/* The build of plugin (bnb-plugin.so) for e's API: malloc'd, or NULL for plugin itself. */
char *emulator_plugin(const struct vm_emulator *e, const char *plugin);

/* Can e serve c (plugin, deterministic timing)?  0, or -1 with err set. */
int emulator_check(const struct vm_emulator *e, const struct vm_config *c,
		   char *err, size_t errlen);

/* The QEMU command line for c; run_dir paths must already be set. */
void qemu_build_args(const struct vm_config *c, struct argv *a);

/*
 * HMAT figures derived from a SLIT distance (nominal, for the guest's
 * view), used when the machine model is off; with it on, the HMAT gives
 * the model's own idle latency and peak bandwidth of each pair
 * (bnb_model_peak_mbs()), CXL nodes' included.
 */
int hmat_latency_ns(int distance);
int hmat_bandwidth_mbps(int distance);

/* One vCPU thread and the host CPUs it is pinned to. */
struct vcpu_pin {
	int cpu_index;
	int thread_id;
	const cpu_set_t *cpus;
};

/*
 * From QEMU's reply to query-cpus-fast, where each vCPU thread of C goes;
 * returns the count, or -1 with err. (pin.c)
 */
int vm_pin_plan(const struct vm_config *c, const char *reply, struct vcpu_pin *pins,
		int max, char *err, size_t errlen);
/* Over QMP: pin every vCPU thread, then let the paused guest run. */
int vm_pin_and_start(const struct vm_config *c, char *err, size_t errlen);

/* hold.c: deterministic runs wait for the collector before the guest runs */
bool vm_holds_for_collector(const struct vm_config *c);
/* From query-chardev's reply: 1 the agent port has its client, 0 not, -1 no such port. */
int agent_client_connected(const char *reply);
/*
 * Over QMP: wait for the collector (at most 30 s), then let the paused
 * guest run; fails at once when QEMU (pid QEMU) has exited.
 */
int vm_start_when_collected(const struct vm_config *c, pid_t qemu, char *err, size_t errlen);
/* Whether QEMU (pid) has exited; it stays a zombie for the caller to reap. */
bool qemu_gone(pid_t pid);
#define QMP_TRY_MS	1000	/* one connection attempt, then is QEMU still there? */

/*
 * layout.c: does the plugin's address map need checking against QEMU's
 * memory map (the project's QEMU, guest-physical addresses)?  Then QEMU
 * starts paused and vm_check_layout() reads its map over QMP (until the
 * run's time limit, or until QEMU (pid) exits), compares, and with cont
 * lets the guest run.  0, or -1 with err.
 */
struct bnb_addrmap;
bool vm_checks_layout(const struct vm_config *c);
int vm_check_layout(const struct vm_config *c, pid_t qemu, bool cont, char *err, size_t errlen);
/* "info mtree -f" text against m: 0, or -1 with err naming the first wrong range. */
int layout_check(const char *mtree, const struct bnb_addrmap *m, unsigned int n_nodes,
		 char *err, size_t errlen);

/*
 * plugin_verdict.c: what the plugin made of the run, from its counters
 * file (bnb_plugin_shm.h) after QEMU exited.  QEMU gets the fw_cfg file
 * VM_FWCFG_MAPCHECK whenever it loads the plugin: the guest's /init then
 * runs the map check before the command.  Without a shm= option bnb-vm
 * gives the plugin RUN_DIR/VM_PLUGIN_SHM.
 */
#define VM_FWCFG_MAPCHECK	"opt/bnb/mapcheck"
#define VM_PLUGIN_SHM		"plugin.shm"

struct plugin_outcome {
	bool read;			/* the counters file was read */
	char why[320];			/* why not */
	uint32_t map_status;		/* enum bnb_shm_map_status */
	char map_message[BNB_SHM_MSG_LEN];
	bool model;			/* the machine model was on */
	uint64_t model_misses;		/* misses it charged */
	double stall_share;		/* its stalls over the vCPUs' busy time */
};

/* The plugin's counters file (the last shm= option), or NULL. */
const char *vm_plugin_shm(const struct vm_config *c);
/* Give the plugin RUN_DIR/VM_PLUGIN_SHM when no shm= was asked for. */
void vm_plugin_default_shm(struct vm_config *c);
/* Read the counters file into po: 0, or -1 with po->why. */
int plugin_outcome_read(const char *path, struct plugin_outcome *po);
/*
 * The run's status with the plugin's verdict: VM_PLUGIN_FAILED, with the
 * reason, when the map check failed (in the guest: guest_check_failed,
 * or in the plugin, which stopped QEMU), when a run that ended well has
 * no readable counters, or when the model was on and charged no miss.
 */
enum vm_status plugin_judge(const struct plugin_outcome *po, enum vm_status st,
			    bool guest_check_failed, char *reason, size_t len);
/* Its key=value lines for the result file; returns snprintf's count. */
int plugin_outcome_lines(const struct plugin_outcome *po, char *text, size_t len);

/* Boot the guest, wait for it, classify the outcome. */
enum vm_status vm_run(const struct vm_config *c);

/* What a console line tells about the guest. */
enum console_event {
	CON_NONE,
	CON_RUN,	/* the guest command starts: boot is over */
	CON_EXIT,	/* the guest command exited, *code set */
	CON_PANIC,	/* panic, oops, BUG */
	CON_WARNING,	/* WARN, lockdep splat */
	CON_STALL,	/* RCU stall, hung task, soft lockup */
	CON_MAPCHECK_FAILED,	/* /init: the plugin's map check failed */
};
enum console_event console_classify(const char *line, int *code);

#endif
