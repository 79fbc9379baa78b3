/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A variant's workload, checked on the host before anything boots: a
 * program the guest does not have, or a project workload's options that
 * the program itself refuses for the variant's topology, would otherwise
 * be found only after a guest booted, as "guest command exited non-zero".
 */
#ifndef BNB_WLCHECK_H
#define BNB_WLCHECK_H

#include <stddef.h>

#include "experiment/experiment.h"

/*
 * 0, or -1 with "PATH:LINE: key 'workload': variant 'V': reason" in err.
 * Each command of the workload line must name a program of the guest's
 * archives (build/guest/ARCHIVE.list), a shell builtin or a path in the guest;
 * a project workload (workloads/registry.def) whose command is plain words
 * is run here as build/guest/bin/NAME ARGS --check NODES:CPUS:MEM and the
 * reason is the program's own message. Without the guest's lists or
 * programs (not built) that part is not checked.
 */
int workload_check(const struct experiment *exp, const struct variant *v, char *err,
		   size_t errlen);

/* The same, the reason printed as "bnb-run: REASON" on stderr. */
int workload_preflight(const struct experiment *exp, const struct variant *v);

#endif
