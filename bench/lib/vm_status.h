/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What bnb-vm and its callers (the runner, the tests) agree on: its exit
 * statuses, the word it writes for each as status= in RUN_DIR/result, and
 * the accelerators and timing modes it knows.
 */
#ifndef BNB_LIB_VM_STATUS_H
#define BNB_LIB_VM_STATUS_H

enum vm_status {
	VM_OK = 0,		/* guest command exited 0 */
	VM_GUEST_FAILED = 1,	/* guest command exited non-zero */
	VM_USAGE = 2,		/* bad arguments: nothing launched */
	VM_TIMEOUT = 3,		/* hang or --timeout */
	VM_PANIC = 4,		/* kernel panic, oops, BUG */
	VM_LAUNCH_ERROR = 5,	/* QEMU could not run */
	VM_PLUGIN_FAILED = 6,	/* the plugin's map check failed, or its model
				 * charged nothing: no emulated figures */
	VM_N_STATUS
};

/* Indexed like the choices "tcg|kvm" of --accel and the accel key. */
enum vm_accel { ACCEL_TCG, ACCEL_KVM };
#define VM_ACCEL_CHOICES "tcg|kvm"

/*
 * wall: multi-threaded TCG, guest time follows the host's clock.
 * deterministic: icount (one host thread, 2^shift ns per instruction,
 * idle time skipped); with the plugin its time keeper runs the vCPUs in
 * parallel at the modelled instruction time (bench/model/timekeeper.h).
 * Indexed like --timing's and the timing key's choices.
 */
enum vm_timing { TIMING_WALL, TIMING_DETERMINISTIC };
#define VM_TIMING_CHOICES "wall|deterministic"

/* "ok", "failed", ...: the result file's status= word; "?" when out of range. */
const char *vm_status_word(int status);
/* "guest timeout or hang", ...: for messages; "?" when out of range. */
const char *vm_status_meaning(int status);

#endif
