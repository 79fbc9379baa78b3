/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksym.h - the guest kernel's NUMA-balancing work, from the instructions
 * its functions execute.
 *
 * The built kernel's System.map gives every function's start; the table in
 * ksym.c names the functions where each kind of the balancer's work
 * begins (task_numa_work: the PTE scan; numa_migrate_prep,
 * task_numa_fault: a hinting fault; migrate_misplaced_page: a migration)
 * and those where it surely has ended (the return to user mode,
 * __schedule). A vCPU's current kind is set by the first and cleared by
 * the second; every other kernel block inherits it, so that the callees a
 * kind shares with the rest of the kernel (change_protection, copy_page,
 * the TLB flush) count as its work while it runs. User code never changes
 * it (it is only reached through the return to user mode), so only kernel
 * blocks are instrumented.
 *
 * What this misses, by construction: a hinting fault's exception entry and
 * the generic walk up to do_numa_page (inlined into __handle_mm_fault in
 * this build, so its first part counts as page-fault work), and the rest
 * of a scan step that was rescheduled in a callee (until task_numa_work
 * runs again). What it adds: interrupts taken while a kind runs.
 *
 * No QEMU calls: ksym_qemu.c instruments translations with it; unit-tested
 * on a made-up System.map (tests/unit/test_plugin_ksym.c).
 */
#ifndef BNB_PLUGIN_KSYM_H
#define BNB_PLUGIN_KSYM_H

#include <stddef.h>
#include <stdint.h>

enum bnb_ksym_kind {
	BNB_KSYM_NONE,		/* not the balancer's work */
	BNB_KSYM_SCAN,		/* task_numa_work: PTE updates */
	BNB_KSYM_FAULT,		/* hinting faults and their placement decisions */
	BNB_KSYM_MIGRATE,	/* migrating misplaced pages */
	BNB_KSYM_KINDS
};

extern const char *const bnb_ksym_kind_names[BNB_KSYM_KINDS];

/* What a block starting at an address does to the vCPU's kind. */
#define BNB_KSYM_INHERIT	(-1)	/* keep it; else set it to the kind */

/* Address ranges where the action changes, sorted by start. */
struct bnb_ksym_range {
	uint64_t start;
	int action;		/* BNB_KSYM_INHERIT or an enum bnb_ksym_kind */
};

struct bnb_ksym {
	struct bnb_ksym_range *r;
	size_t n;
	uint64_t text_start, text_end;	/* _stext.._etext */
	unsigned int found;		/* table functions found in the map */
};

/* Read a System.map; 0, or -1 with the reason (naming the file) in err. */
int bnb_ksym_load(struct bnb_ksym *k, const char *path, char *err, size_t errlen);
void bnb_ksym_free(struct bnb_ksym *k);

/* The action of a block starting at vaddr: INHERIT outside the kernel text. */
int bnb_ksym_action(const struct bnb_ksym *k, uint64_t vaddr);

/* Per vCPU: the current kind and what each kind executed and stalled. */
struct bnb_ksym_vcpu {
	uint64_t kind;			/* enum bnb_ksym_kind */
	uint64_t insns[BNB_KSYM_KINDS];
	uint64_t stall_ps[BNB_KSYM_KINDS];
} __attribute__((aligned(64)));

/* A kernel block of n instructions with this action ran. */
static inline void bnb_ksym_block(struct bnb_ksym_vcpu *v, int action, unsigned int n)
{
	if (action != BNB_KSYM_INHERIT)
		v->kind = action;
	v->insns[v->kind] += n;
}

/* Modelled stall time of the vCPU: the current kind's. */
static inline void bnb_ksym_stall(struct bnb_ksym_vcpu *v, uint64_t ps)
{
	v->stall_ps[v->kind < BNB_KSYM_KINDS ? v->kind : 0] += ps;
}

#endif
