// SPDX-License-Identifier: GPL-2.0
/*
 * The time series columns.  The fixed ones are a table of (name, unit,
 * writer); per-counter and per-node columns are generated from the
 * columns fixed by the first reply.
 */
#include <stdio.h>

#include "timeseries.h"

typedef void (*col_writer)(struct csv *, const struct series *);

struct column {
	const char *name;
	const char *unit;
	col_writer put;
};

static void put_opt(struct csv *c, bool defined, double v)
{
	if (defined)
		csv_double(c, v);
	else
		csv_empty(c);
}

static void put_sample(struct csv *c, const struct series *s) { csv_u64(c, s->samples); }
static void put_t(struct csv *c, const struct series *s) { csv_double(c, s->t_s); }
static void put_req(struct csv *c, const struct series *s) { csv_u64(c, s->now.req_ns); }
static void put_rep(struct csv *c, const struct series *s) { csv_u64(c, s->now.rep_ns); }
static void put_guest(struct csv *c, const struct series *s) { csv_double(c, s->now.guest_ns / 1e9); }
static void put_status(struct csv *c, const struct series *s) { csv_str(c, "ok"); }

static void put_rtt(struct csv *c, const struct series *s)
{
	csv_double(c, (s->now.rep_ns - s->now.req_ns) / 1e3);
}

static void put_dt(struct csv *c, const struct series *s)
{
	put_opt(c, s->samples > 1, s->dt_s);
}

static bool hints_known(const struct series *s)
{
	return s->hint >= 0 && s->cols[s->hint].present &&
	       s->local >= 0 && s->cols[s->local].present;
}

static void put_remote(struct csv *c, const struct series *s)
{
	put_opt(c, hints_known(s), s->remote_total);
}

static void put_remote_d(struct csv *c, const struct series *s)
{
	put_opt(c, hints_known(s), s->remote_d);
}

static void put_cost_pte(struct csv *c, const struct series *s) { put_opt(c, s->cost_defined, s->cost_cum.pte); }
static void put_cost_hint(struct csv *c, const struct series *s) { put_opt(c, s->cost_defined, s->cost_cum.hint); }
static void put_cost_iso(struct csv *c, const struct series *s) { put_opt(c, s->cost_defined, s->cost_cum.isolate); }
static void put_cost_copy(struct csv *c, const struct series *s) { put_opt(c, s->cost_defined, s->cost_cum.copy); }
static void put_cost_cum(struct csv *c, const struct series *s) { put_opt(c, s->cost_defined, s->cost_cum.total); }
static void put_cost_d(struct csv *c, const struct series *s) { put_opt(c, s->cost_defined, s->cost_d); }
static void put_mm_cum(struct csv *c, const struct series *s) { put_opt(c, s->cost_defined, s->mmtests_cum); }

static void put_cost_rate(struct csv *c, const struct series *s)
{
	put_opt(c, s->cost_defined && s->dt_s > 0, s->cost_d / s->dt_s);
}

static void put_mm_rate(struct csv *c, const struct series *s)
{
	put_opt(c, s->cost_defined && s->dt_s > 0, s->mmtests_d / s->dt_s);
}

static void put_conv(struct csv *c, const struct series *s) { put_opt(c, s->conv_defined, s->conv); }
static void put_window(struct csv *c, const struct series *s) { csv_u64(c, window_hints(&s->win)); }

static void put_conv_pages(struct csv *c, const struct series *s)
{
	put_opt(c, s->conv_pages_defined, s->conv_pages);
}

static void put_walked(struct csv *c, const struct series *s)
{
	put_opt(c, s->reply->has_maps, s->reply->pids_walked);
}

static const struct column head_cols[] = {
	{ "sample", "count", put_sample },
	{ "t_s", "s", put_t },
	{ "host_req_ns", "ns", put_req },
	{ "host_rep_ns", "ns", put_rep },
	{ "rtt_us", "us", put_rtt },
	{ "guest_s", "s", put_guest },
	{ "dt_s", "s", put_dt },
	{ "status", "text", put_status },
};

static void put_promote_mbps(struct csv *c, const struct series *s)
{
	put_opt(c, s->tier.promote_known && s->dt_s > 0, s->tier.promote_mbps);
}

static void put_demote_mbps(struct csv *c, const struct series *s)
{
	put_opt(c, s->tier.demote_known && s->dt_s > 0, s->tier.demote_mbps);
}

static const struct column model_cols[] = {
	{ "numa_hint_faults_remote", "faults", put_remote },
	{ "numa_hint_faults_remote_d", "faults", put_remote_d },
	{ "cost_pte_cum", "u", put_cost_pte },
	{ "cost_hint_cum", "u", put_cost_hint },
	{ "cost_isolate_cum", "u", put_cost_iso },
	{ "cost_copy_cum", "u", put_cost_copy },
	{ "cost_cum", "u", put_cost_cum },
	{ "cost_d", "u", put_cost_d },
	{ "cost_rate", "u/s", put_cost_rate },
	{ "mmtests_cost_cum", "u", put_mm_cum },
	{ "mmtests_cost_rate", "u/s", put_mm_rate },
	{ "convergence", "ratio", put_conv },
	{ "window_hints", "faults", put_window },
	{ "convergence_pages", "ratio", put_conv_pages },
	{ "pids_walked", "count", put_walked },
	{ "promote_mbps", "MB/s", put_promote_mbps },
	{ "demote_mbps", "MB/s", put_demote_mbps },
};

static void put_acc_local(struct csv *c, const struct series *s) { put_opt(c, s->plugin.valid, s->plugin.local); }
static void put_acc_remote(struct csv *c, const struct series *s) { put_opt(c, s->plugin.valid, s->plugin.remote); }
static void put_acc_local_d(struct csv *c, const struct series *s) { put_opt(c, s->plugin.valid, s->plugin.d_local); }
static void put_acc_remote_d(struct csv *c, const struct series *s) { put_opt(c, s->plugin.valid, s->plugin.d_remote); }

static void put_locality(struct csv *c, const struct series *s)
{
	put_opt(c, s->plugin.locality_defined, s->plugin.true_locality);
}

static void put_tier_share(struct csv *c, const struct series *s)
{
	put_opt(c, s->plugin.tier_share_defined, s->plugin.fast_tier_share);
}

static void put_benefit(struct csv *c, const struct series *s)
{
	put_opt(c, s->plugin.baseline_set, s->plugin.benefit_cum);
}

static void put_avoided(struct csv *c, const struct series *s)
{
	put_opt(c, s->plugin.baseline_set, s->plugin.acc_avoided_cum);
}

static void put_miss_local(struct csv *c, const struct series *s) { put_opt(c, s->plugin.valid, s->plugin.d_miss_local); }
static void put_miss_remote(struct csv *c, const struct series *s) { put_opt(c, s->plugin.valid, s->plugin.d_miss_remote); }

static void put_stall_local(struct csv *c, const struct series *s)
{
	put_opt(c, s->plugin.valid && s->plugin.model, s->plugin.d_stall_local_ns);
}

static void put_stall_remote(struct csv *c, const struct series *s)
{
	put_opt(c, s->plugin.valid && s->plugin.model, s->plugin.d_stall_remote_ns);
}

static void put_busy_sum(struct csv *c, const struct series *s)
{
	put_opt(c, s->plugin.valid && s->plugin.n_busy, s->plugin.d_busy_sum_s);
}

static void put_busy_max(struct csv *c, const struct series *s)
{
	put_opt(c, s->plugin.valid && s->plugin.n_busy, s->plugin.d_busy_max_s);
}

static const struct column plugin_cols[] = {
	{ "acc_local", "accesses", put_acc_local },
	{ "acc_remote", "accesses", put_acc_remote },
	{ "acc_local_d", "accesses", put_acc_local_d },
	{ "acc_remote_d", "accesses", put_acc_remote_d },
	{ "true_locality", "ratio", put_locality },
	{ "fast_tier_share", "ratio", put_tier_share },
	{ "benefit_cum", "u", put_benefit },
	{ "acc_avoided_cum", "accesses", put_avoided },
	{ "miss_local_d", "misses", put_miss_local },
	{ "miss_remote_d", "misses", put_miss_remote },
	{ "stall_local_hw_ns_d", "ns", put_stall_local },
	{ "stall_remote_hw_ns_d", "ns", put_stall_remote },
	{ "busy_sum_d", "s", put_busy_sum },
	{ "busy_max_d", "s", put_busy_max },
};

#define NCOLS(t) (sizeof(t) / sizeof((t)[0]))

static void names(struct csv *c, const struct column *cols, size_t n)
{
	for (size_t i = 0; i < n; i++)
		csv_str(c, cols[i].name);
}

static void values(struct csv *c, const struct column *cols, size_t n,
		   const struct series *s)
{
	for (size_t i = 0; i < n; i++)
		cols[i].put(c, s);
}

static void units(FILE *f, const struct column *cols, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, " %s=%s", cols[i].name, cols[i].unit);
}

static void node_names(struct csv *c, uint64_t nodes, const char *suffix)
{
	char name[48];

	for (int n = 0; n < BNB_WIRE_MAX_NODES; n++) {
		if (!(nodes & (1ULL << n)))
			continue;
		snprintf(name, sizeof(name), "node%d_%s", n, suffix);
		csv_str(c, name);
	}
}

void timeseries_header(struct csv *c, const struct series *s)
{
	char name[BNB_WIRE_MAX_NAME + 8];

	csv_comment(c, "bnb-collect timeseries format %d; columns: bench/collector/FORMAT.md",
		    TIMESERIES_FORMAT);
	fputs("# units:", c->f);
	units(c->f, head_cols, NCOLS(head_cols));
	fputs(" COUNTER=events COUNTER_d=events COUNTER_ps=events/s", c->f);
	units(c->f, model_cols, NCOLS(model_cols));
	fputs(" nodeN_mem_total_kb=KiB nodeN_mem_used_kb=KiB nodeN_pages=4KiB-pages", c->f);
	if (s->plugin.path)
		units(c->f, plugin_cols, NCOLS(plugin_cols));
	fputs(" end=text\n", c->f);

	names(c, head_cols, NCOLS(head_cols));
	for (int i = 0; i < s->nr_cols; i++) {
		csv_str(c, s->cols[i].name);
		snprintf(name, sizeof(name), "%s_d", s->cols[i].name);
		csv_str(c, name);
		snprintf(name, sizeof(name), "%s_ps", s->cols[i].name);
		csv_str(c, name);
	}
	names(c, model_cols, NCOLS(model_cols));
	node_names(c, s->nodes, "mem_total_kb");
	node_names(c, s->nodes, "mem_used_kb");
	node_names(c, s->nodes, "pages");
	if (s->plugin.path)
		names(c, plugin_cols, NCOLS(plugin_cols));
	csv_str(c, "end");
	csv_end_row(c);
}

static void counter_values(struct csv *c, const struct series *s)
{
	for (int i = 0; i < s->nr_cols; i++) {
		const struct counter_col *col = &s->cols[i];

		put_opt(c, col->present, col->total);
		put_opt(c, col->present, col->delta);
		put_opt(c, col->present && s->dt_s > 0, col->delta / s->dt_s);
	}
}

static void node_values(struct csv *c, uint64_t nodes, uint64_t have,
			const unsigned long long *v, bool zero_if_missing)
{
	for (int n = 0; n < BNB_WIRE_MAX_NODES; n++) {
		if (!(nodes & (1ULL << n)))
			continue;
		if (have & (1ULL << n))
			csv_u64(c, v[n]);
		else if (zero_if_missing)
			csv_u64(c, 0);
		else
			csv_empty(c);
	}
}

void timeseries_row(struct csv *c, const struct series *s)
{
	const struct bnb_reply *r = s->reply;

	values(c, head_cols, NCOLS(head_cols), s);
	counter_values(c, s);
	values(c, model_cols, NCOLS(model_cols), s);
	node_values(c, s->nodes, r->nodes, r->mem_total_kb, false);
	node_values(c, s->nodes, r->nodes, r->mem_used_kb, false);
	/* A walk lists only nodes with pages: the others hold none. */
	node_values(c, s->nodes, r->has_maps ? r->page_nodes : 0, r->node_pages,
		    r->has_maps);
	if (s->plugin.path)
		values(c, plugin_cols, NCOLS(plugin_cols), s);
	csv_empty(c);
	csv_end_row(c);
}

void timeseries_end(struct csv *c, const struct series *s, double t_s,
		    const char *reason)
{
	csv_u64(c, s->samples);
	csv_double(c, t_s);
	for (size_t i = 2; i < NCOLS(head_cols) - 1; i++)
		csv_empty(c);
	csv_str(c, "end");
	while (c->field < c->columns - 1)
		csv_empty(c);
	csv_str(c, reason);
	csv_end_row(c);
}
