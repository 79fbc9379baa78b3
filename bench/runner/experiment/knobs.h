/* SPDX-License-Identifier: GPL-2.0 */
/*
 * knobs.h - the kernels an experiment can name and where each keeps each
 * NUMA balancing tunable.
 *
 * `kernel = NAME` names a build kernel/build.sh makes from a Debian source
 * package (patched: 6.1 with the series; debian-6.1 and debian-6.12 as
 * Debian ships them); `kernel = ksrc:DIR` a source tree built as is;
 * anything else is a bzImage path. A `sysctl.*` key is looked up in the
 * knob table (knobs.c) for the kernel its variant names, so that a knob
 * the kernel lacks is refused when the experiment file is read, and the
 * guest writes it where that kernel keeps it (a sysctl, or a debugfs file
 * of sched/numa_balancing). For a kernel not in the table (a path, a
 * ksrc tree) the guest tries the sysctl, then the debugfs file, and
 * knobs_check_map() checks what it can against the kernel's System.map.
 */
#ifndef BNB_KNOBS_H
#define BNB_KNOBS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The named kernels, in the knob table's column order. */
enum kernel_id { KERNEL_PATCHED, KERNEL_DEBIAN_61, KERNEL_DEBIAN_612, N_NAMED_KERNELS };

struct named_kernel {
	enum kernel_id id;
	const char *name;	/* kernel = NAME; make kernel K=NAME */
	const char *package;	/* the Debian package of its source */
	const char *release;	/* what its uname -r starts with */
	const char *about;	/* one line for docs and errors */
	/*
	 * Whether it puts a CPU-less node that the HMAT says is slower in a
	 * lower memory tier (6.7+), without which memory tiering promotes
	 * and demotes nothing: 6.1 takes tiers from dax/kmem devices only.
	 */
	bool hmat_tiers;
};

/* NAME's kernel ("default" is patched), or NULL. */
const struct named_kernel *named_kernel(const char *name);
const struct named_kernel *named_kernel_at(enum kernel_id id);

/* What a variant's `kernel =` value names. */
enum kernel_kind { KSPEC_NAMED, KSPEC_KSRC, KSPEC_PATH };
#define KSRC_PREFIX "ksrc:"

struct kernel_spec {
	enum kernel_kind kind;
	const struct named_kernel *named;	/* KSPEC_NAMED */
	char path[PATH_MAX];	/* KSPEC_KSRC: the tree; KSPEC_PATH: the bzImage */
};

/*
 * Read VALUE (paths relative to BASEDIR). A word without a '/' that is no
 * kernel's name and no file is refused with the names there are, so that
 * a misspelt name is not taken for a missing file.
 */
int kernel_spec_parse(const char *value, const char *basedir, struct kernel_spec *s,
		      char *why, size_t whylen);

/* Where a knob of memory tiering lives that is a sysfs file, not a sysctl */
#define SYSFS_NUMA "/sys/kernel/mm/numa/"

/*
 * Where a sysctl key is written in the guest: SYSCTL is the dotted name
 * under /proc/sys ("" for a knob that is a debugfs file only), DEBUGFS a
 * debugfs file (for a tiering knob its file under SYSFS_NUMA), tried when
 * the sysctl is absent (or the only place), or NULL.
 */
struct sysctl_target {
	char sysctl[128];
	const char *debugfs;
};

/*
 * Where KERNEL (NULL: not a named kernel) keeps the knob of KEY
 * ("sysctl.NAME"). -1 when KEY is malformed, or names a NUMA balancing
 * knob KERNEL lacks (WHY says which and what it has instead).
 */
int knob_target(const struct named_kernel *kernel, const char *key, struct sysctl_target *t,
		char *why, size_t whylen);

/*
 * For a kernel not in the table: whether the System.map MAP (of the
 * kernel LABEL) has the variable behind KEY; 0 when it has, or when KEY is
 * not a knob of the table (nothing to check), -1 with WHY when it lacks it.
 */
int knob_check_map(const char *map, const char *label, const char *key, char *why,
		   size_t whylen);

/*
 * VALUE (a value or a list) of KEY ("sysctl.NAME"): -1 with WHY when the
 * knob takes only some values (demotion_enabled: true|false) and VALUE
 * has another, or when memory tiering is asked of a kernel that has no
 * tiers: KEY a tiering knob, or kernel.numa_balancing with 2 or 3 among
 * VALUE's values, and KERNEL (NULL: not a named kernel, not checked)
 * without hmat_tiers; else 0.
 */
int knob_value_check(const struct named_kernel *kernel, const char *key, const char *value,
		     char *why, size_t whylen);

/* The knob table as markdown, for bench/runner/README.md. */
void knobs_markdown(FILE *f);

/* An experiment's sysctl keys: sysctl.NAME */
#define SYSCTL_PREFIX "sysctl."

/*
 * Where a sysctl key is written in the guest of a kernel the knob table
 * does not name (knob_target(NULL, ...)): the sysctl, and for the scan
 * tunables debugfs when the kernel has no such sysctl.
 */
int sysctl_target(const char *key, struct sysctl_target *t);

/* A sysctl name: letters (promote_rate_limit_MBps has capitals), digits, '_' and '.'. */
bool sysctl_name_ok(const char *name);

#endif
