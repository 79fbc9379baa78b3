// SPDX-License-Identifier: GPL-2.0
/*
 * numawork.c - the balancer's own work in a run: the plugin's count of the
 * instructions (and modelled stalls) the guest kernel spent scanning,
 * taking hinting faults and migrating (bench/plugin/ksym.h), turned into
 * time and added to the run's metrics beside the seed's cost.
 */
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/argv.h"
#include "numawork.h"
#include "report/results.h"

static const char *const kinds[] = { "scan", "fault", "migrate" };

void numawork_plugin_args(struct argv *a, const char *kernel, const char *rundir)
{
	char map[PATH_MAX + 16], *slash;

	snprintf(map, sizeof(map), "%s", kernel);
	slash = strrchr(map, '/');
	snprintf(slash ? slash + 1 : map, sizeof(map) - (slash ? slash + 1 - map : 0),
		 "System.map");
	if (access(map, R_OK))
		return;		/* a kernel built elsewhere: no attribution */
	argv_add(a, "--plugin-opt=ksym=%s", map);
	argv_add(a, "--plugin-opt=ksym_out=%s/" NUMAWORK_FILE, rundir);
}

static double kv_num(const char *path, const char *key)
{
	char val[64];

	return results_kv_get(path, key, val, sizeof(val)) ? NAN : atof(val);
}

static double collector_cost(const char *rundir)
{
	char path[PATH_MAX + 32];
	struct json_object *o, *c;
	double cost = NAN;

	snprintf(path, sizeof(path), "%s/summary.json", rundir);
	o = json_object_from_file(path);
	if (o && json_object_object_get_ex(o, "cost_total", &c) && c)
		cost = json_object_get_double(c);
	json_object_put(o);
	return cost;
}

/*
 * Hardware-equivalent seconds of KIND: its instructions at hw_insn_ps and,
 * under deterministic timing, its stalls over D = insn_ps / hw_insn_ps
 * (the stalls alone also into *STALL_S).
 */
static double hw_seconds(const char *file, const char *kind, double hw_ps, double insn_ps,
			 double *stall_s)
{
	char key[32];
	double insns, stall;

	snprintf(key, sizeof(key), "%s_insns", kind);
	insns = kv_num(file, key);
	snprintf(key, sizeof(key), "%s_stall_ps", kind);
	stall = kv_num(file, key);
	if (isnan(insns))
		return NAN;
	if (isnan(insn_ps) || isnan(stall))
		stall = 0;	/* wall clock: instructions only */
	else
		stall *= hw_ps / insn_ps;
	*stall_s += stall * 1e-12;
	return (insns * hw_ps + stall) * 1e-12;
}

void numawork_add(const char *rundir, struct xmetrics *x)
{
	char file[PATH_MAX + 32], result[PATH_MAX + 32], timing[32], name[64];
	double hw_ps, insn_ps = NAN, total = 0, stall = 0, cost;

	snprintf(file, sizeof(file), "%s/" NUMAWORK_FILE, rundir);
	hw_ps = kv_num(file, "hw_insn_ps");
	if (!(hw_ps > 0))
		return;
	snprintf(result, sizeof(result), "%s/result", rundir);
	if (!results_kv_get(result, "timing", timing, sizeof(timing)) &&
	    !strcmp(timing, "deterministic"))
		insn_ps = kv_num(result, "insn_ps");
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		double s = hw_seconds(file, kinds[i], hw_ps, insn_ps, &stall);

		snprintf(name, sizeof(name), "numa_%s_hw_s", kinds[i]);
		xm_add(x, name, "s", s, BETTER_LOWER);
		total += s;
	}
	xm_add(x, "numa_work_hw_s", "s", total, BETTER_LOWER);
	/* of it, memory stalls the machine model charged (in model_stall_s too) */
	xm_add(x, "numa_work_stall_hw_s", "s", stall, BETTER_LOWER);
	if (insn_ps > 0)
		xm_add(x, "numa_work_s", "s", total * insn_ps / hw_ps, BETTER_LOWER);
	cost = collector_cost(rundir);
	if (cost > 0)
		xm_add(x, "numa_work_ns_per_cost_u", "ns/u", total * 1e9 / cost, BETTER_NONE);
}
