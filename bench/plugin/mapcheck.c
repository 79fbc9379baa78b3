// SPDX-License-Identifier: GPL-2.0
/* mapcheck.c - the map check's verdicts; no QEMU calls, unit-tested. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mapcheck.h"

__attribute__((format(printf, 2, 3)))
static enum bnb_shm_map_status fail(struct bnb_mapcheck *mc, const char *fmt, ...)
{
	va_list ap;

	if (mc->status == BNB_MAP_FAILED)
		return mc->status;	/* keep the first reason */
	va_start(ap, fmt);
	vsnprintf(mc->msg, sizeof(mc->msg), fmt, ap);
	va_end(ap);
	mc->status = BNB_MAP_FAILED;
	return mc->status;
}

void bnb_mapcheck_init(struct bnb_mapcheck *mc, unsigned int n_nodes,
		       unsigned int min_pct)
{
	memset(mc, 0, sizeof(*mc));
	mc->n_nodes = n_nodes;
	mc->min_pct = min_pct;
	mc->status = BNB_MAP_UNCHECKED;
}

void bnb_mapcheck_start(struct bnb_mapcheck *mc)
{
	bnb_mapcheck_init(mc, mc->n_nodes, mc->min_pct);
	mc->status = BNB_MAP_CHECKING;
}

int bnb_mapcheck_begin(struct bnb_mapcheck *mc)
{
	if (mc->status != BNB_MAP_CHECKING) {
		fail(mc, "map check: calibration phase began without a start marker");
		return -1;
	}
	if (mc->phases >= mc->n_nodes) {
		fail(mc, "map check: guest checked more nodes than the plugin's %u",
		     mc->n_nodes);
		return -1;
	}
	return mc->phases++;
}

enum bnb_shm_map_status bnb_mapcheck_end(struct bnb_mapcheck *mc, int node,
					 uint64_t total, uint64_t on_node)
{
	if (node < 0 || (unsigned int)node >= mc->n_nodes)
		return fail(mc, "map check: phase end without a phase");
	mc->res[node].total = total;
	mc->res[node].on_node = on_node;
	mc->checked++;
	if (total < BNB_MAPCHECK_MIN_ACCESSES)
		return fail(mc, "map check: node %d: only %llu accesses seen in its phase (need %d)",
			    node, (unsigned long long)total, BNB_MAPCHECK_MIN_ACCESSES);
	/* on_node / total >= min_pct / 100, in integers */
	if (on_node * 100 < total * mc->min_pct)
		return fail(mc, "map check FAILED: node %d: %llu.%02llu%% of %llu accesses to memory bound to node %d were attributed to it (need >= %u%%): the plugin's address-to-node map is wrong, emulated figures are invalid",
			    node, (unsigned long long)(on_node * 100 / total),
			    (unsigned long long)(on_node * 10000 / total % 100),
			    (unsigned long long)total,
			    node, mc->min_pct);
	return mc->status;
}

enum bnb_shm_map_status bnb_mapcheck_done(struct bnb_mapcheck *mc)
{
	if (mc->status != BNB_MAP_CHECKING)
		return mc->status == BNB_MAP_FAILED ? mc->status :
		       fail(mc, "map check: done marker without a start marker");
	if (mc->checked != mc->n_nodes)
		return fail(mc, "map check: the guest checked %u of %u nodes",
			    mc->checked, mc->n_nodes);
	mc->status = BNB_MAP_OK;
	return mc->status;
}
