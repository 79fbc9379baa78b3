/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The experiment keys: one table of lib/opt.h rows (keys.c) drives
 * parsing, validation, `bnb-run --help` and the key table in
 * bench/runner/README.md (test_runner_keys checks them against each
 * other). Each row fills one typed field of struct variant, or of struct
 * experiment for keys that belong to [global] alone, so the run path reads
 * v->time_limit, never a string. docs/HACKING.md says how to add a key.
 */
#ifndef BNB_KEYS_H
#define BNB_KEYS_H

#include <stdio.h>

#include "knobs.h"
#include "lib/opt.h"

/* Where a key may be set: opt_def.scope. */
enum key_scope {
	KS_VARIANT = 1,		/* [global] or a variant section; fills struct variant */
	KS_EXPERIMENT = 2,	/* [global] only; fills struct experiment */
	KS_MACHINE = 4,		/* [machine] only; fills every struct variant */
};

const struct opt_def *key_table(size_t *n);
/* The row for KEY (sysctl.* keys share one row), or NULL. */
const struct opt_def *key_lookup(const char *key);

/* `bnb-run --help`'s list of keys, and the README's table. */
void keys_usage(FILE *f);
void keys_markdown(FILE *f);

#endif
