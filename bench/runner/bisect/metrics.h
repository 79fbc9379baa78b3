/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether a variant's runs give a metric, known before anything is built
 * or booted: the report's fixed metrics (results.c's metric_defs), the
 * ones the runner derives from every run (extract/: the scan passes, the
 * true locality's rise, the balancer's work, the machine model, memory
 * tiering; account/: the account of balancing), a monitor's MONITOR.NAME where the variant runs that
 * monitor, and for a foreign tool (perf bench numa, stress-ng) whatever
 * it prints, which only its first run shows.
 */
#ifndef BNB_BISECT_METRICS_H
#define BNB_BISECT_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "experiment/variant.h"

/*
 * 0 when V's runs can give metric NAME; -1 with WHY when they cannot
 * (no such metric, or one that needs the plugin or a monitor V lacks).
 * *LATER is set when only a run can tell (a foreign tool's metric).
 */
int bisect_metric_check(const struct variant *v, const char *name, bool *later, char *why,
			size_t whylen);

/* Whether NAME is a metric the runner derives from a run (the catalogue). */
bool bisect_metric_derived(const char *name);

#endif
