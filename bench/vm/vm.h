/* SPDX-License-Identifier: GPL-2.0 */
/* The VM launcher: configuration, QEMU command line, and running a guest. */
#ifndef BNB_VM_H
#define BNB_VM_H

#include <stdbool.h>

#include "bnb_topology.h"
#include "lib/argv.h"

#define VM_MAX_PLUGIN_OPTS 32

enum vm_accel { ACCEL_TCG, ACCEL_KVM };

struct vm_config {
	struct bnb_topology topo;
	const char *qemu;		/* qemu-system-x86_64 */
	const char *bios;		/* NULL: QEMU's default firmware */
	const char *kernel;
	const char *initrd;
	const char *append;		/* extra kernel command line */
	const char *run_dir;
	const char *agent_socket;	/* NULL: no agent port */
	const char *plugin;		/* NULL: no TCG plugin */
	const char *plugin_opts[VM_MAX_PLUGIN_OPTS];
	int n_plugin_opts;
	const char *cmd;		/* guest shell command */
	enum vm_accel accel;
	bool hmat;
	bool balancing;
	int loglevel;
	int timeout_s;
	bool dry_run;
};

/* Exit statuses of bnb-vm, also written to RUN_DIR/result. */
enum vm_status {
	VM_OK = 0,		/* guest command exited 0 */
	VM_GUEST_FAILED = 1,	/* guest command exited non-zero */
	VM_USAGE = 2,
	VM_TIMEOUT = 3,
	VM_PANIC = 4,
	VM_LAUNCH_ERROR = 5,
};

/* The QEMU command line for c; run_dir paths must already be set. */
void qemu_build_args(const struct vm_config *c, struct argv *a);

/* HMAT figures derived from a SLIT distance (nominal, for the guest's view). */
int hmat_latency_ns(int distance);
int hmat_bandwidth_mbps(int distance);

/* Boot the guest, wait for it, classify the outcome. */
enum vm_status vm_run(const struct vm_config *c);

/* What a console line tells about the guest. */
enum console_event {
	CON_NONE,
	CON_RUN,	/* the guest command starts: boot is over */
	CON_EXIT,	/* the guest command exited, *code set */
	CON_PANIC,	/* panic, oops, BUG */
	CON_WARNING,	/* WARN, lockdep splat */
};
enum console_event console_classify(const char *line, int *code);

#endif
