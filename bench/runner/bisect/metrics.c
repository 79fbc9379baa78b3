// SPDX-License-Identifier: GPL-2.0
/* Which metrics a variant's runs give, before anything runs (metrics.h). */
#include <stdio.h>
#include <string.h>

#include "extract/extract.h"
#include "lib/err.h"
#include "lib/util.h"
#include "metrics.h"
#include "report/results.h"

/* What a metric needs beyond a run. */
enum need {
	NEED_NONE,
	NEED_PLUGIN,		/* the TCG plugin's counts (latency not off, TCG) */
};

/*
 * The metrics the runner derives from a run (extract/, account/), by
 * name; the unit test test_runner_bisect holds this table against every
 * literal name the rooms add (a foreign tool's extractor aside), so that
 * a new one cannot be refused here.
 */
static const struct derived {
	const char *name;
	enum need need;
} derived[] = {
	{ XM_ELAPSED, NEED_NONE },
	/* scalerun.c: the scan passes and the time scale */
	{ "scan_passes", NEED_NONE },
	{ "hint_faults_per_pass", NEED_NONE },
	{ "pte_updates_per_pass", NEED_NONE },
	{ "passes_to_conv_90", NEED_NONE },
	{ "passes_to_conv_95", NEED_NONE },
	{ "phases_moved", NEED_NONE },
	{ "phases_caught_up", NEED_NONE },
	{ "phase_to90_s", NEED_NONE },
	{ "phase_passes_to90", NEED_NONE },
	{ "phase_to90_hw_s", NEED_NONE },
	{ "scale_time", NEED_NONE },
	{ "scale_size", NEED_NONE },
	{ "hw_passes_max", NEED_NONE },
	{ "hw_passes_min", NEED_NONE },
	{ "time_to_conv_90_hw_s", NEED_NONE },
	{ "time_to_conv_95_hw_s", NEED_NONE },
	{ "work_hw_s", NEED_NONE },
	{ "scale_time_achieved", NEED_NONE },
	/* locrise.c through scalerun.c: where the accesses went */
	{ "locality_start", NEED_PLUGIN },
	{ "locality_peak", NEED_PLUGIN },
	{ "locality_to90_s", NEED_PLUGIN },
	{ "passes_to_locality_90", NEED_PLUGIN },
	{ "locality_to90_hw_s", NEED_PLUGIN },
	/* numawork.c: the balancer's own work */
	{ "numa_scan_hw_s", NEED_PLUGIN },
	{ "numa_fault_hw_s", NEED_PLUGIN },
	{ "numa_migrate_hw_s", NEED_PLUGIN },
	{ "numa_work_hw_s", NEED_PLUGIN },
	{ "numa_work_s", NEED_PLUGIN },
	{ "numa_work_ns_per_cost_u", NEED_PLUGIN },
	{ "numa_work_per_pass_s", NEED_PLUGIN },
	{ "numa_work_stall_hw_s", NEED_PLUGIN },
	/* modelrun.c: the machine model */
	{ "model_stall_share", NEED_PLUGIN },
	{ "model_stall_s", NEED_PLUGIN },
	{ "model_misses", NEED_PLUGIN },
	{ "model_bw_share", NEED_PLUGIN },
	{ "model_stall_hw_s", NEED_PLUGIN },
	/* account/account_run.c: the account of balancing, on the model */
	{ "account_stall_s", NEED_PLUGIN },
	{ "account_work_s", NEED_PLUGIN },
	{ "account_vcpus", NEED_PLUGIN },
	{ "account_cost_s", NEED_PLUGIN },
	{ "account_spent_s", NEED_PLUGIN },
	{ "account_cost_run_s", NEED_PLUGIN },
	{ "account_cost_model_s", NEED_PLUGIN },
	{ "account_ns_per_u", NEED_PLUGIN },
	{ "account_remote_before", NEED_PLUGIN },
	{ "account_window_misses", NEED_PLUGIN },
	{ "account_miss_extra_ns", NEED_PLUGIN },
	{ "account_benefit_s", NEED_PLUGIN },
	{ "account_net_s", NEED_PLUGIN },
	{ "account_breakeven_s", NEED_PLUGIN },
	/* tieringrun.c: memory tiering */
	{ "promoted_pages", NEED_NONE },
	{ "promote_candidates", NEED_NONE },
	{ "demoted_pages", NEED_NONE },
	{ "promote_mbps_mean", NEED_NONE },
	{ "demote_mbps_mean", NEED_NONE },
	{ "fast_tier_share", NEED_PLUGIN },
};

/* The fixed metrics that only the plugin's counts give. */
static enum need fixed_need(int m)
{
	return m == M_TRUE_LOCALITY || m == M_BENEFIT ? NEED_PLUGIN : NEED_NONE;
}

bool bisect_metric_derived(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(derived); i++)
		if (!strcmp(derived[i].name, name))
			return true;
	return false;
}

/* NEED of NAME in the catalogue: 0 when found. */
static int lookup(const char *name, enum need *need)
{
	for (int m = 0; m < N_METRICS; m++)
		if (!strcmp(metric_defs[m].name, name)) {
			*need = fixed_need(m);
			return 0;
		}
	for (size_t i = 0; i < ARRAY_SIZE(derived); i++)
		if (!strcmp(derived[i].name, name)) {
			*need = derived[i].need;
			return 0;
		}
	return -1;
}

/* Whether V runs the monitor whose metrics are named "MONITOR.NAME". */
static bool monitor_of(const struct variant *v, const char *name)
{
	const char *dot = strchr(name, '.'), *p = v->monitors;
	size_t len = dot ? (size_t)(dot - name) : 0;

	for (; len && p && *p; p += strcspn(p, ", "), p += strspn(p, ", "))
		if (strcspn(p, ", ") == len && !strncmp(p, name, len))
			return true;
	return false;
}

int bisect_metric_check(const struct variant *v, const char *name, bool *later, char *why,
			size_t whylen)
{
	const struct extractor *e = extractor_for(v->workload, v->metrics);
	enum need need;

	*later = false;
	if (!lookup(name, &need)) {
		if (need == NEED_PLUGIN && (v->latency == LATENCY_OFF || v->accel != ACCEL_TCG))
			return errf(why, whylen, "'%s' comes from the TCG plugin's counts, which "
				    "variant %s does not load (latency = off or accel = kvm)",
				    name, v->name);
		return 0;
	}
	if (monitor_of(v, name)) {
		*later = true;	/* the monitor's totals show in its first run */
		return 0;
	}
	if (strcmp(e->name, EXTRACT_SUMMARY) && strcmp(e->name, EXTRACT_ELAPSED)) {
		/* perf bench numa, stress-ng: their names show in their output */
		*later = true;
		return 0;
	}
	return errf(why, whylen, "'%s' is no metric of variant %s (its runs give the report's "
		    "metrics, work_s, rate_mean, cost_total, numa_pte_updates, ...; `bnb-run report "
		    "DIR` lists them for a folder of its runs)", name, v->name);
}
