// SPDX-License-Identifier: GPL-2.0
/*
 * ksym.c - the balancer's work by kernel function (ksym.h): which
 * functions begin and end each kind, read against the built kernel's
 * System.map.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksym.h"

const char *const bnb_ksym_kind_names[BNB_KSYM_KINDS] = {
	[BNB_KSYM_NONE] = "none", [BNB_KSYM_SCAN] = "scan",
	[BNB_KSYM_FAULT] = "fault", [BNB_KSYM_MIGRATE] = "migrate",
};

/*
 * Linux 6.1's functions where a kind begins (their every block sets it)
 * or surely ends (BNB_KSYM_NONE). A function the build inlined is not in
 * the map and is skipped; which were found is counted.
 */
static const struct {
	const char *name;
	enum bnb_ksym_kind kind;
} table[] = {
	/* the PTE scan, run from the return to user mode (task_work) */
	{ "task_numa_work", BNB_KSYM_SCAN },
	{ "change_prot_numa", BNB_KSYM_SCAN },
	/* a hinting fault: do_numa_page asks where the page belongs, ... */
	{ "numa_migrate_prep", BNB_KSYM_FAULT },
	{ "do_huge_pmd_numa_page", BNB_KSYM_FAULT },
	/* ... and after any migration records the fault for placement */
	{ "task_numa_fault", BNB_KSYM_FAULT },
	/* moving the page, with its copy, unmapping and TLB flush */
	{ "migrate_misplaced_page", BNB_KSYM_MIGRATE },
	/* ends: back to user mode, another task, a new fault, other task work */
	{ "exit_to_user_mode_prepare", BNB_KSYM_NONE },
	{ "syscall_exit_to_user_mode", BNB_KSYM_NONE },
	{ "irqentry_exit_to_user_mode", BNB_KSYM_NONE },
	{ "swapgs_restore_regs_and_return_to_usermode", BNB_KSYM_NONE },
	{ "__schedule", BNB_KSYM_NONE },
	{ "exc_page_fault", BNB_KSYM_NONE },
	{ "task_work_run", BNB_KSYM_NONE },
};

#define N_TABLE (sizeof(table) / sizeof(table[0]))

struct sym {
	uint64_t addr;
	int action;
};

static int action_of(const char *name)
{
	for (size_t i = 0; i < N_TABLE; i++)
		if (!strcmp(table[i].name, name))
			return table[i].kind;
	return BNB_KSYM_INHERIT;
}

static int by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Keep only the starts where the action changes. */
static void compress(struct bnb_ksym *k, struct sym *s, size_t n)
{
	k->n = 0;
	for (size_t i = 0; i < n; i++) {
		if (k->n && k->r[k->n - 1].action == s[i].action)
			continue;
		k->r[k->n].start = s[i].addr;
		k->r[k->n++].action = s[i].action;
	}
}

/* One "ADDR TYPE NAME" line: text symbols into s, _stext/_etext into k. */
static int parse_line(struct bnb_ksym *k, const char *line, struct sym *s)
{
	char type, name[256];
	uint64_t addr;

	if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3)
		return -1;
	if (!strcmp(name, "_stext"))
		k->text_start = addr;
	else if (!strcmp(name, "_etext"))
		k->text_end = addr;
	if (type != 't' && type != 'T')
		return 0;
	s->addr = addr;
	s->action = action_of(name);
	k->found += s->action != BNB_KSYM_INHERIT;
	return 1;
}

static int read_map(struct bnb_ksym *k, FILE *f, struct sym **syms, size_t *n,
		    char *err, size_t errlen, const char *path)
{
	size_t cap = 0;
	char line[512];
	unsigned int lineno = 0;

	while (fgets(line, sizeof(line), f)) {
		struct sym s;
		int rc;

		lineno++;
		rc = parse_line(k, line, &s);
		if (rc < 0)
			return snprintf(err, errlen, "%s:%u: not a System.map line", path, lineno), -1;
		if (!rc)
			continue;
		if (*n == cap) {
			struct sym *more = realloc(*syms, (cap = cap ? 2 * cap : 4096) * sizeof(**syms));

			if (!more)
				return snprintf(err, errlen, "%s: out of memory", path), -1;
			*syms = more;
		}
		(*syms)[(*n)++] = s;
	}
	return 0;
}

int bnb_ksym_load(struct bnb_ksym *k, const char *path, char *err, size_t errlen)
{
	struct sym *syms = NULL;
	size_t n = 0;
	FILE *f = fopen(path, "r");
	int rc;

	memset(k, 0, sizeof(*k));
	if (!f)
		return snprintf(err, errlen, "%s: %s", path, strerror(errno)), -1;
	rc = read_map(k, f, &syms, &n, err, errlen, path);
	fclose(f);
	if (!rc && (!k->text_start || k->text_end <= k->text_start || !k->found)) {
		snprintf(err, errlen, "%s: no _stext/_etext or none of the NUMA functions: "
			 "not the guest kernel's System.map", path);
		rc = -1;
	}
	if (!rc) {
		qsort(syms, n, sizeof(*syms), by_addr);
		k->r = malloc(n * sizeof(*k->r));
		if (k->r) {
			compress(k, syms, n);
		} else {
			snprintf(err, errlen, "%s: out of memory", path);
			rc = -1;
		}
	}
	free(syms);
	return rc;
}

void bnb_ksym_free(struct bnb_ksym *k)
{
	free(k->r);
	k->r = NULL;
	k->n = 0;
}

int bnb_ksym_action(const struct bnb_ksym *k, uint64_t vaddr)
{
	size_t lo = 0, hi = k->n;

	if (vaddr < k->text_start || vaddr >= k->text_end || !k->n || vaddr < k->r[0].start)
		return BNB_KSYM_INHERIT;
	/* the last range starting at or before vaddr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->r[mid].start <= vaddr)
			lo = mid;
		else
			hi = mid;
	}
	return k->r[lo].action;
}
