/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The balancer's own work in a run (numawork.c): the plugin writes
 * RUN_DIR/numawork (key=value lines, bench/plugin/ksym_qemu.c) from the
 * kernel's System.map; the runner adds it to the run's metrics.
 */
#ifndef BNB_NUMAWORK_H
#define BNB_NUMAWORK_H

#include "extract.h"

#define NUMAWORK_FILE "numawork"

struct argv;

/* The plugin options for it, when a System.map lies beside KERNEL. */
void numawork_plugin_args(struct argv *a, const char *kernel, const char *rundir);

/*
 * Add numa_{scan,fault,migrate,work}_hw_s (hardware-equivalent seconds:
 * guest seconds / D), numa_work_stall_hw_s (of the work, the model's
 * stalls), numa_work_s (guest seconds, deterministic timing)
 * and numa_work_ns_per_cost_u (against the seed's cost) to X; nothing
 * when the run has no such file.
 */
void numawork_add(const char *rundir, struct xmetrics *x);

#endif
