// SPDX-License-Identifier: GPL-2.0
/*
 * The end-of-run summary, also rewritten periodically during the run so
 * that an interrupted run still has one.  Undefined values are JSON null.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <unistd.h>

#include "summary.h"

static struct json_object *opt_double(bool defined, double v)
{
	return defined ? json_object_new_double(v) : NULL;
}

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static struct json_object *counters(const struct series *s)
{
	struct json_object *o = json_object_new_object();

	for (int i = 0; i < s->nr_cols; i++) {
		const struct counter_col *c = &s->cols[i];

		add(o, c->name, c->ever ? json_object_new_uint64(c->total) : NULL);
	}
	return o;
}

static struct json_object *params(const struct cost_params *p)
{
	struct json_object *o = json_object_new_object();
	const struct { const char *key; double v; } rows[] = {
		{ "u", p->u }, { "page_size", p->page_size },
		{ "struct_page", p->struct_page }, { "Ca", p->Ca },
		{ "Cpte", p->Cpte }, { "Wlock", p->Wlock }, { "Cupdate", p->Cupdate },
		{ "Cnumahint", p->Cnumahint }, { "Cpagerw", p->Cpagerw },
		{ "Wi", p->Wi }, { "Ci", p->Ci }, { "Wnuma", p->Wnuma },
		{ "Cpagecopy", p->page_copy ? p->Cpagecopy : 0 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		add(o, rows[i].key, json_object_new_double(rows[i].v));
	add(o, "page_copy_term", json_object_new_boolean(p->page_copy));
	return o;
}

static struct json_object *cost_terms(const struct series *s)
{
	struct json_object *o = json_object_new_object();

	add(o, "pte", json_object_new_double(s->cost_cum.pte));
	add(o, "hint", json_object_new_double(s->cost_cum.hint));
	add(o, "isolate", json_object_new_double(s->cost_cum.isolate));
	add(o, "copy", json_object_new_double(s->cost_cum.copy));
	return o;
}

static struct json_object *opt_u64(bool defined, unsigned long long v)
{
	return defined ? json_object_new_uint64(v) : NULL;
}

static struct json_object *plugin(const struct series *s)
{
	const struct plugin_state *p = &s->plugin;
	struct json_object *o = json_object_new_object();
	unsigned long long all = p->local + p->remote;
	unsigned long long work = p->work_local + p->work_remote;
	unsigned long long work_tiers = p->work_fast + p->work_slow, tiers = p->fast + p->slow;

	add(o, "acc_local", json_object_new_uint64(p->local));
	add(o, "acc_remote", json_object_new_uint64(p->remote));
	add(o, "true_locality", opt_double(work > 0, (double)p->work_local / work));
	add(o, "true_locality_run", opt_double(all > 0, (double)p->local / all));
	add(o, "acc_fast_tier", opt_u64(p->tiered, p->fast));
	add(o, "acc_slow_tier", opt_u64(p->tiered, p->slow));
	add(o, "fast_tier_share", opt_double(p->tiered && work_tiers > 0,
					     (double)p->work_fast / work_tiers));
	add(o, "fast_tier_share_run", opt_double(p->tiered && tiers > 0,
						 (double)p->fast / tiers));
	add(o, "benefit_cum", opt_double(p->baseline_set, p->benefit_cum));
	add(o, "acc_avoided_cum", opt_double(p->baseline_set, p->acc_avoided_cum));
	add(o, "remote_share_before", opt_double(p->baseline_set, p->remote_share0));
	add(o, "excess_per_miss_before", opt_double(p->baseline_set, p->excess0));
	add(o, "work_marked", json_object_new_boolean(p->work_seen));
	add(o, "work_start_s", opt_double(p->work_seen, p->t_work));
	add(o, "work_ended", json_object_new_boolean(p->work_over));
	add(o, "work_end_s", opt_double(p->work_over, p->t_work_end));
	return o;
}

/* Pages over S seconds in MB/s (2^20 bytes, as the kernel's rate limit). */
static struct json_object *opt_mbps(const struct series *s, bool defined,
				    unsigned long long pages, double span)
{
	return opt_double(defined && span > 0, pages * s->seed.page_size / TIERING_MB / span);
}

/*
 * Promotion and demotion: totals over the run, mean rates over the
 * workload's work when the plugin saw its markers, else over the run.
 */
static struct json_object *tiering(const struct series *s)
{
	const struct tiering *t = &s->tier;
	const struct counter_col *cand = t->col[TIER_CANDIDATES] >= 0 ?
					 &s->cols[t->col[TIER_CANDIDATES]] : NULL;
	const struct counter_col *prom = t->col[TIER_PROMOTED] >= 0 ?
					 &s->cols[t->col[TIER_PROMOTED]] : NULL;
	unsigned long long promoted = prom ? prom->total : 0;
	bool work = t->work_s > 0;
	double span = work ? t->work_s : s->guest_t_s;
	unsigned long long span_promoted = work ? t->work_promoted : promoted;
	unsigned long long span_demoted = work ? t->work_demoted : t->demoted;
	struct json_object *o;

	if (!t->promote_ever && !t->demote_ever)
		return NULL;
	o = json_object_new_object();
	add(o, "promoted_pages", opt_u64(t->promote_ever, promoted));
	add(o, "promote_candidates", opt_u64(cand && cand->ever, cand ? cand->total : 0));
	add(o, "demoted_pages", opt_u64(t->demote_ever, t->demoted));
	add(o, "rates_over", json_object_new_string(work ? "work" : "run"));
	add(o, "rates_span_s", json_object_new_double(span));
	add(o, "promote_pages_per_s", opt_double(t->promote_ever && span > 0,
						 span_promoted / span));
	add(o, "promote_mbps_mean", opt_mbps(s, t->promote_ever, span_promoted, span));
	add(o, "promote_mbps_max", opt_double(t->promote_ever, t->promote_mbps_max));
	add(o, "demote_mbps_mean", opt_mbps(s, t->demote_ever, span_demoted, span));
	return o;
}

/*
 * Time to converge counts from the workload's WORK marker when the plugin
 * saw one: guest setup and first touch are not the balancer's doing. A
 * stretch that began before the work did counts as 0.
 */
static struct json_object *time_to_conv(const struct series *s, double since)
{
	double from = s->plugin.work_seen ? s->plugin.t_work : 0;

	if (since < 0)
		return NULL;
	return json_object_new_double(since > from ? since - from : 0);
}

struct json_object *summary_build(const struct series *s, const struct run_info *run)
{
	struct json_object *o = json_object_new_object();
	bool cost = s->samples > 0 && s->pte >= 0 && s->cols[s->pte].ever &&
		    s->cols[s->hint].ever && s->cols[s->migrated].ever;
	double span = s->samples > 1 ? s->t_s : 0;

	add(o, "format", json_object_new_int(1));
	add(o, "end", json_object_new_string(run->end));
	add(o, "samples", json_object_new_uint64(s->samples));
	add(o, "dropped", json_object_new_uint64(run->dropped));
	add(o, "late", json_object_new_uint64(run->late));
	add(o, "warnings", json_object_new_uint64(s->warnings));
	add(o, "interval_ms", json_object_new_int(run->interval_ms));
	add(o, "duration_s", json_object_new_double(run->duration_s));
	add(o, "sampled_s", json_object_new_double(span));
	add(o, "counters", counters(s));
	add(o, "numa_hint_faults_remote", json_object_new_uint64(s->remote_total));
	add(o, "cost_total", opt_double(cost, s->cost_cum.total));
	add(o, "cost_per_s", opt_double(cost && span > 0, s->cost_cum.total / span));
	add(o, "cost_terms", cost_terms(s));
	add(o, "cost_params", params(&s->seed));
	add(o, "mmtests_cost_total", opt_double(cost, s->mmtests_cum));
	add(o, "mmtests_autonuma_cost", opt_double(cost, s->mmtests_cum / 1e6));
	add(o, "mmtests_cost_params", params(&s->mmtests));
	add(o, "window_hints", json_object_new_uint64(s->win.min_hints));
	add(o, "window_s", json_object_new_double(s->win.span_s));
	add(o, "window_n_min", s->n_count ? json_object_new_uint64(s->n_min) : NULL);
	add(o, "window_n_mean", opt_double(s->n_count, (double)s->n_sum / s->n_count));
	add(o, "window_n_max", s->n_count ? json_object_new_uint64(s->n_max) : NULL);
	add(o, "convergence_final", opt_double(s->conv_end_defined, s->conv_end));
	add(o, "convergence_time_weighted",
	    opt_double(s->conv_time > 0, s->conv_weighted / s->conv_time));
	add(o, "time_to_conv_90_s", time_to_conv(s, s->t_conv90));
	add(o, "time_to_conv_95_s", time_to_conv(s, s->t_conv95));
	add(o, "convergence_pages_final", opt_double(s->conv_pages_end_defined,
						     s->conv_pages_end));
	add(o, "time_to_conv_90_pages_s", time_to_conv(s, s->t_conv90_pages));
	add(o, "time_to_conv_from", json_object_new_string(s->plugin.work_seen ? "work_start" :
							   "first_sample"));
	add(o, "tiering", tiering(s));
	if (s->plugin.path)
		add(o, "plugin", plugin(s));
	return o;
}

int summary_write(const char *dir, const struct series *s, const struct run_info *run)
{
	char path[4096], tmp[4096 + 8];
	struct json_object *o = summary_build(s, run);
	int ret;

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	ret = json_object_to_file_ext(tmp, o, JSON_C_TO_STRING_PRETTY |
				      JSON_C_TO_STRING_NOSLASHESCAPE);
	json_object_put(o);
	if (ret || rename(tmp, path)) {
		fprintf(stderr, "bnb-collect: cannot write %s\n", path);
		unlink(tmp);
		return -1;
	}
	return 0;
}
