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

#include <stddef.h>

#include "sweep.h"
#include "variant.h"

/*
 * Parse and validate PATH. On error, writes one line naming file, line and
 * key to ERR (size ERRLEN) and returns -1; nothing is half-filled then.
 */
int experiment_load(const char *path, struct experiment *exp,
		    char *err, size_t errlen);
void experiment_free(struct experiment *exp);

const struct variant *experiment_variant(const struct experiment *exp,
					 const char *name);

#endif
