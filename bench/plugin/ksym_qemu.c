// SPDX-License-Identifier: GPL-2.0
/*
 * ksym_qemu.c - the balancer's work by kernel function (ksym.h), counted
 * in the guest: only kernel blocks are instrumented, user code runs as
 * before.
 *
 * Project QEMU (API 5): a block that begins or ends a kind stores the kind
 * into the vCPU's scoreboard slot inline, and every kernel block calls
 * on_block() only while the slot is not BNB_KSYM_NONE (a conditional
 * callback), so the rest of the kernel costs an inline compare. QEMU 7.2
 * (API 1) has neither: every kernel block calls on_block_v1(), which does
 * both in C. At exit the totals go to ksym_out=PATH as key=value lines.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu.h"
#include "ksym_qemu.h"

static struct bnb_ksym ksym;
static unsigned int n_vcpus;
static char out_path[PATH_MAX];
static char map_path[PATH_MAX];
static unsigned long hw_insn_ps;
static bool watching = true;	/* bnb_plugin_balancer_ran() still wants to know */

#ifdef BNB_QEMU72
static struct bnb_ksym_vcpu *state;

static struct bnb_ksym_vcpu *vcpu_state(unsigned int i)
{
	return &state[i];
}

/* udata: the action + 1 in the low byte, the block's instructions above. */
static void on_block_v1(unsigned int vcpu_index, void *udata)
{
	uintptr_t u = (uintptr_t)udata;

	if (vcpu_index >= n_vcpus)
		return;
	bnb_ksym_block(&state[vcpu_index], (int)(u & 0xff) - 1, u >> 8);
	if (__builtin_expect(watching, 0) && state[vcpu_index].kind != BNB_KSYM_NONE)
		watching = bnb_plugin_balancer_ran();
}

static int alloc_state(void)
{
	state = aligned_alloc(64, n_vcpus * sizeof(*state));
	if (state)
		memset(state, 0, n_vcpus * sizeof(*state));
	return state ? 0 : -1;
}

static void instrument(struct qemu_plugin_tb *tb, int action, size_t n)
{
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block_v1, QEMU_PLUGIN_CB_NO_REGS,
		(void *)(((uintptr_t)n << 8) | (uintptr_t)(action + 1)));
}
#else
static struct qemu_plugin_scoreboard *board;
static qemu_plugin_u64 kind_slot;

static struct bnb_ksym_vcpu *vcpu_state(unsigned int i)
{
	return qemu_plugin_scoreboard_find(board, i);
}

/* Only while the vCPU does NUMA work: the kind is already stored. */
static void on_block(unsigned int vcpu_index, void *udata)
{
	struct bnb_ksym_vcpu *v = vcpu_state(vcpu_index);

	bnb_ksym_block(v, BNB_KSYM_INHERIT, (uintptr_t)udata);
	if (__builtin_expect(watching, 0))
		watching = bnb_plugin_balancer_ran();
}

static int alloc_state(void)
{
	board = qemu_plugin_scoreboard_new(sizeof(struct bnb_ksym_vcpu));
	if (!board)
		return -1;
	kind_slot = qemu_plugin_scoreboard_u64_in_struct(board, struct bnb_ksym_vcpu, kind);
	return 0;
}

static void instrument(struct qemu_plugin_tb *tb, int action, size_t n)
{
	if (action != BNB_KSYM_INHERIT)
		qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb,
			QEMU_PLUGIN_INLINE_STORE_U64, kind_slot, action);
	qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS,
		QEMU_PLUGIN_COND_NE, kind_slot, BNB_KSYM_NONE, (void *)(uintptr_t)n);
}
#endif

int bnb_ksym_setup(const struct bnb_plugin_args *a, unsigned int vcpus, char *err,
		   size_t errlen)
{
	char why[PATH_MAX + 128];

	if (!a->ksym_map[0])
		return 0;
	if (!a->ksym_out[0])
		return snprintf(err, errlen, "bnb-plugin: ksym= needs ksym_out=PATH"), -1;
	if (bnb_ksym_load(&ksym, a->ksym_map, why, sizeof(why)))
		return snprintf(err, errlen, "bnb-plugin: ksym=%s", why), -1;
	n_vcpus = vcpus;
	strcpy(out_path, a->ksym_out);
	strcpy(map_path, a->ksym_map);
	hw_insn_ps = a->hw_insn_ps;
	if (alloc_state())
		return snprintf(err, errlen, "bnb-plugin: ksym: out of memory"), -1;
	return 0;
}

void bnb_ksym_translate(struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);

	if (!ksym.n || vaddr < ksym.text_start || vaddr >= ksym.text_end)
		return;
	instrument(tb, bnb_ksym_action(&ksym, vaddr), qemu_plugin_tb_n_insns(tb));
}

void bnb_ksym_charge(unsigned int vcpu_index, uint64_t ps)
{
	if (ksym.n && vcpu_index < n_vcpus)
		bnb_ksym_stall(vcpu_state(vcpu_index), ps);
}

void bnb_ksym_write(void)
{
	uint64_t insns[BNB_KSYM_KINDS] = { 0 }, stall[BNB_KSYM_KINDS] = { 0 };
	FILE *f;

	if (!ksym.n)
		return;
	for (unsigned int i = 0; i < n_vcpus; i++)
		for (int k = 0; k < BNB_KSYM_KINDS; k++) {
			insns[k] += vcpu_state(i)->insns[k];
			stall[k] += vcpu_state(i)->stall_ps[k];
		}
	f = fopen(out_path, "w");
	if (!f) {
		fprintf(stderr, "bnb-plugin: ksym_out=%s: %s\n", out_path, strerror(errno));
		return;
	}
	fprintf(f, "# bnb-plugin: the balancer's work by kernel function (ksym.h)\n"
		"system_map=%s\nfunctions_found=%u\nhw_insn_ps=%lu\n", map_path, ksym.found,
		hw_insn_ps);
	for (int k = BNB_KSYM_SCAN; k < BNB_KSYM_KINDS; k++)
		fprintf(f, "%s_insns=%llu\n%s_stall_ps=%llu\n", bnb_ksym_kind_names[k],
			(unsigned long long)insns[k], bnb_ksym_kind_names[k],
			(unsigned long long)stall[k]);
	if (fclose(f))
		fprintf(stderr, "bnb-plugin: ksym_out=%s: %s\n", out_path, strerror(errno));
}
