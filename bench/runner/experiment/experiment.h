/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Experiment files: fio-style INI with a [global] section and one section
 * per variant. A variant inherits every global key and may override it.
 * Sysctl keys may hold a list or a range; those variants are expanded into
 * one concrete variant per combination (a sweep). Each concrete variant's
 * keys are then read into typed fields through the key table (keys.c).
 */
#ifndef BNB_EXPERIMENT_H
#define BNB_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep.h"
#include "variant.h"

/*
 * Parse and validate PATH. On error, writes one line naming file, line and
 * key to ERR (size ERRLEN) and returns -1; nothing is half-filled then.
 */
int experiment_load(const char *path, struct experiment *exp,
		    char *err, size_t errlen);

/*
 * A results folder's copy of an experiment: its relative kernel paths
 * start at BASEDIR, the source's folder that jobs.conf records (not the
 * results folder). With KERNEL_GONE_OK a bzImage named by a bare file
 * name need not be there: a report reads the runs, and the file checked
 * when they ran may have moved since.
 */
struct exp_origin {
	const char *basedir;
	bool kernel_gone_ok;
};

int experiment_load_copy(const char *path, const struct exp_origin *o, struct experiment *exp,
			 char *err, size_t errlen);
void experiment_free(struct experiment *exp);

const struct variant *experiment_variant(const struct experiment *exp,
					 const char *name);

#endif
