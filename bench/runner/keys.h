/* SPDX-License-Identifier: GPL-2.0 */
/* The keys an experiment file may use: one table, one validator per type. */
#ifndef BNB_KEYS_H
#define BNB_KEYS_H

#include <stdbool.h>
#include <stddef.h>

enum key_type {
	KT_INT,		/* decimal integer within [min, max] */
	KT_CHOICE,	/* one word of choices, '|' separated */
	KT_TEXT,	/* free text (commands, descriptions) */
	KT_INTLIST,	/* "1" or "1,2,..." */
	KT_SIZELIST,	/* "512M" or "512M,1G" */
	KT_MATRIX,	/* "10,20;20,10" */
	KT_KERNEL,	/* "default" or a path to a bzImage */
	KT_SYSCTL,	/* a value, a list "a,b" or a range "start:end:step" */
	KT_SCALE,	/* "off", "auto" or a positive factor */
};

struct key_def {
	const char *name;
	enum key_type type;
	long min, max;
	const char *choices;
	const char *def;	/* default, NULL = required or unset */
	bool global_only;
	const char *help;
};

#define SYSCTL_PREFIX "sysctl."

/* Definition of KEY (sysctl.* keys share one entry), or NULL if unknown. */
const struct key_def *key_lookup(const char *key);
const struct key_def *key_table(size_t *n);

/* Check VALUE against DEF; on error writes why (without file/line). */
int key_validate(const struct key_def *def, const char *key,
		 const char *value, char *why, size_t whylen);

/* Parse helpers shared with the run path. */
int parse_long(const char *s, long min, long max, long *out);
int parse_size_mib(const char *s, long *mib);
int count_list(const char *s, char sep);

/*
 * Where a sysctl key is written in the guest: SYSCTL is the dotted name
 * under /proc/sys, DEBUGFS a fallback file for kernels whose scan tunables
 * live in debugfs only (6.1 without the patch series), or NULL.
 */
struct sysctl_target {
	char sysctl[128];
	const char *debugfs;
};
int sysctl_target(const char *key, struct sysctl_target *t);

#endif
