/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tieringrun.c - promotion and demotion per run, from the collector's
 * summary.json "tiering" object (bench/collector/FORMAT.md), and the fast
 * tier's share of the accesses from its "plugin" object, as metrics of
 * the reports once the experiment tiers at all.
 */
#ifndef BNB_TIERINGRUN_H
#define BNB_TIERINGRUN_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;
struct xmetrics;

/* promoted, candidates, demoted, their MB/s, and the fast tier's share */
#define TIERING_FIGURES 6

/* One run's figures; NAN where its summary has none. */
struct tiering {
	double figure[TIERING_FIGURES];
};

/*
 * Read a run's figures from summary.json's TIERING and PLUGIN objects
 * (NULL: none); a value that is not a sane number is left NAN and named
 * in REFUSED.
 */
void tiering_load(struct tiering *t, char *refused, size_t len, struct json_object *tiering,
		  struct json_object *plugin);

/* Pages moved between tiers, or a slow tier the plugin saw. */
bool tiering_moved(const struct tiering *t);

/*
 * Add the figures it has to *X as metrics (allocated when NULL and there
 * is one). The reports do it for every
 * run of an experiment once some run tiered at all (tiering_moved): in
 * one where nothing tiers (two nodes) they would be rows of zeros; in one
 * that does, the variant without tiering needs its zeros to be compared
 * with.
 */
void tiering_add(const struct tiering *t, struct xmetrics **x);

#endif
