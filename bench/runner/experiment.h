/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Experiment files: fio-style INI with a [global] section and one section
 * per variant. A variant inherits every global key and may override it.
 * Sysctl keys may hold a list or a range; those variants are expanded into
 * one concrete variant per combination (a sweep).
 */
#ifndef BNB_EXPERIMENT_H
#define BNB_EXPERIMENT_H

#include <stdbool.h>
#include <stdio.h>

#define EXP_MAX_SETTINGS 64
#define EXP_MAX_VARIANTS 256
#define EXP_MAX_SWEEP 64
#define EXP_NAME_MAX 128

struct setting {
	char *key;
	char *value;
	int line;
};

struct section {
	char name[EXP_NAME_MAX];
	int line;			/* line of the [header], 0 for global */
	struct setting settings[EXP_MAX_SETTINGS];
	int n_settings;
};

/* One swept sysctl of an expanded variant: which key and which value. */
struct sweep_point {
	char *key;			/* e.g. "sysctl.scan_period_min_ms" */
	char *value;
};

/*
 * A concrete variant after inheritance and sweep expansion: every key has
 * exactly one value. It remembers which section it came from and, for a
 * sweep, which point it is.
 */
struct variant {
	char name[EXP_NAME_MAX * 2];
	char base[EXP_NAME_MAX];
	struct setting settings[EXP_MAX_SETTINGS];
	int n_settings;
	struct sweep_point sweep[EXP_MAX_SWEEP];
	int n_sweep;
};

struct experiment {
	char *path;
	char name[EXP_NAME_MAX];	/* file name without .ini */
	struct section global;
	struct section *sections;
	int n_sections;
	struct variant *variants;
	int n_variants;
};

/*
 * Parse and validate PATH. On error, writes one line naming file, line and
 * key to ERR (size ERRLEN) and returns -1; nothing is half-filled then.
 */
int experiment_load(const char *path, struct experiment *exp,
		    char *err, size_t errlen);
void experiment_free(struct experiment *exp);

/* Value of KEY in V (after inheritance), or NULL when unset. */
const char *variant_get(const struct variant *v, const char *key);
const char *experiment_global(const struct experiment *exp, const char *key);
const struct variant *experiment_variant(const struct experiment *exp,
					 const char *name);
int variant_repetitions(const struct variant *v);

/* Split "a,b,c" or "start:end:step" into values; returns count or -1. */
int sweep_values(const char *spec, char ***values, char *err, size_t errlen);
void sweep_values_free(char **values, int n);

#endif
