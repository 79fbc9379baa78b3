// SPDX-License-Identifier: GPL-2.0
/*
 * account_run.c - the account of balancing of one run from its files
 * (account_run.h). Every file is the guest's work or a program's that read
 * the guest: rows whose time does not move on are skipped, negative
 * counts count nothing (account.c), and a figure that is not finite is
 * refused by xm_add.
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "account_run.h"
#include "collector/account.h"
#include "extract/csv.h"
#include "extract/jsonnum.h"
#include "extract/modelrun.h"
#include "extract/wlout.h"
#include "run/fsio.h"

double account_ns_per_u(double lat_ns, unsigned int mlp, double node_mbs, unsigned int hw_cpus)
{
	double line_ns;

	if (!(lat_ns > 0) || !mlp || !(node_mbs > 0) || !hw_cpus)
		return NAN;
	/* a line's turn: latency over the misses in flight, or the CPU's share of the node */
	line_ns = fmax(lat_ns / mlp, 64.0 / (node_mbs / hw_cpus * 1e-3));
	return line_ns / 8;
}

/* The columns of the intervals, in the order struct acct_interval reads them. */
static const char *const cols[] = {
	"t_s", "miss_local_d", "miss_remote_d", "stall_local_hw_ns_d", "stall_remote_hw_ns_d",
	"cost_d", "numa_pte_updates_d", "busy_sum_d", "busy_max_d",
};

/* RUNDIR's intervals into *IV (malloc'd); their number, or -1. */
static int load_intervals(const char *rundir, struct acct_interval **iv)
{
	char path[PATH_MAX + 32], err[256];
	int c[sizeof(cols) / sizeof(cols[0])], n = 0;
	double prev = -INFINITY;
	struct csv t;

	snprintf(path, sizeof(path), "%s/timeseries.csv", rundir);
	if (csv_load(path, &t, err, sizeof(err)))
		return -1;
	for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
		if ((c[k] = csv_col(&t, cols[k])) < 0) {
			csv_free(&t);
			return -1;	/* a collector without the model's columns */
		}
	*iv = calloc(t.nrows ? t.nrows : 1, sizeof(**iv));
	for (int r = 0; *iv && r < t.nrows; r++) {
		double ts = csv_at(&t, r, c[0]);

		if (!isfinite(ts) || ts <= prev)
			continue;
		prev = ts;
		(*iv)[n++] = (struct acct_interval){
			.t_s = ts, .miss_local = csv_at(&t, r, c[1]),
			.miss_remote = csv_at(&t, r, c[2]), .stall_local_ns = csv_at(&t, r, c[3]),
			.stall_remote_ns = csv_at(&t, r, c[4]), .cost_u = csv_at(&t, r, c[5]),
			.pte_updates = csv_at(&t, r, c[6]), .busy_sum_s = csv_at(&t, r, c[7]),
			.busy_max_s = csv_at(&t, r, c[8]),
		};
	}
	csv_free(&t);
	return *iv ? n : -1;
}

/* The work's start and end (the collector's), and the seed's cost in all. */
static void read_summary(const char *rundir, struct acct_params *p, double *cost_total)
{
	char path[PATH_MAX + 32];
	struct json_object *o, *plugin = NULL;

	p->work_from_s = p->work_to_s = NAN;
	*cost_total = NAN;
	snprintf(path, sizeof(path), "%s/summary.json", rundir);
	o = json_object_from_file(path);
	if (!o)
		return;
	*cost_total = json_num(o, "cost_total");
	if (json_object_object_get_ex(o, "plugin", &plugin)) {
		p->work_from_s = json_num(plugin, "work_start_s");
		p->work_to_s = json_num(plugin, "work_end_s");
	}
	json_object_put(o);
}

/* The workload's own time: its summary line, else the command's elapsed time. */
static double work_seconds(const char *rundir, const struct xmetrics *x)
{
	char path[PATH_MAX + 32];
	const struct xmetric *e;
	struct wl_summary s;

	snprintf(path, sizeof(path), "%s/out.log", rundir);
	if (!wl_scan(path, &s) && s.n_lines == 1 && isfinite(s.work_s))
		return s.work_s;
	e = xm_find(x, XM_ELAPSED);
	return e ? e->value : NAN;
}

/* The unit of the cost: the run's measured work per u, else the class's u. */
static double hw_s_per_u(const char *rundir, const struct xmetrics *x, double cost_total,
			 double *class_ns)
{
	const struct xmetric *work = xm_find(x, "numa_work_hw_s");
	struct modelrun_config c;

	*class_ns = NAN;
	if (!modelrun_config(rundir, &c))
		*class_ns = account_ns_per_u(c.lat_ns[0][0], c.mlp, c.node_mbs, c.hw_cpus);
	if (work && cost_total > 0)
		return work->value / cost_total;
	return *class_ns * 1e-9;
}

static void add_if(struct xmetrics *x, const char *name, const char *unit, double v,
		   enum better better)
{
	if (isfinite(v))
		xm_add(x, name, unit, v, better);
}

/*
 * The model's stall in hardware s, and of it what is not the balancer's
 * own (its migrations' copies stall too, and count in its cost): the
 * memory time the placement cost the rest of the run.
 */
static void add_metrics(const struct account *a, const struct modelrun_acct *m,
			double cost_total, double class_ns, double work_s, struct xmetrics *x)
{
	const struct xmetric *own = xm_find(x, "numa_work_stall_hw_s");
	double stall_s = m->stall_ps * 1e-12 / m->d, balancer_stall_s = own ? own->value : 0;

	add_if(x, "model_stall_hw_s", "s", stall_s, BETTER_LOWER);
	add_if(x, "account_stall_s", "s", stall_s - balancer_stall_s, BETTER_LOWER);
	/* what placement and balancing cost the run: a sweep's net objective */
	add_if(x, "account_spent_s", "s", stall_s - balancer_stall_s + a->cost_all_s,
	       BETTER_LOWER);
	add_if(x, "account_work_s", "s", work_s / m->d, BETTER_LOWER);
	add_if(x, "account_vcpus", "", a->vcpus, BETTER_NONE);
	add_if(x, "account_cost_s", "s", a->cost_s, BETTER_LOWER);
	add_if(x, "account_cost_run_s", "s", a->cost_all_s, BETTER_LOWER);
	add_if(x, "account_cost_model_s", "s", cost_total * class_ns * 1e-9, BETTER_LOWER);
	add_if(x, "account_ns_per_u", "ns/u", class_ns, BETTER_NONE);
	add_if(x, "account_remote_before", "", a->r0, BETTER_NONE);
	add_if(x, "account_window_misses", "", a->r0_misses, BETTER_NONE);
	if (!a->priced)
		return;
	/* a miss made local has a price only where balancing made some */
	if (a->r0_from != ACCT_R0_WORK)
		add_if(x, "account_miss_extra_ns", "+-ns", a->price_remote_ns - a->price_local_ns,
		       BETTER_NONE);
	add_if(x, "account_benefit_s", "+-s", a->benefit_s, BETTER_HIGHER);
	add_if(x, "account_net_s", "+-s", a->net_s, BETTER_HIGHER);
	add_if(x, "account_breakeven_s", "s", a->breakeven_s, BETTER_LOWER);
}

/* account.csv, written whole or not at all (a full disk leaves no half file). */
static void write_course(const char *rundir, const struct acct_interval *iv, int n,
			 const struct acct_params *p, struct account *a)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 40], why[256];
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "%s/" ACCOUNT_CSV, rundir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (f)
		fprintf(f, "# bnb-run account of balancing: hardware s since the work's start; "
			"cumulative cost and benefit, hardware s (bench/collector/FORMAT.md)\n"
			"t_hw_s,cost_hw_s,benefit_hw_s\n");
	account_compute(iv, n, p, a, f);
	if (!f)
		return;
	bad = fclose_checked(f);
	if (!bad)
		bad = rename(tmp, path);
	if (bad) {
		fprintf(stderr, "bnb-run: cannot write %s: %s\n", path,
			write_errstr(tmp, errno, why, sizeof(why)));
		unlink(tmp);
	}
}

void accountrun_add(const char *rundir, struct xmetrics *x)
{
	struct acct_params p = { 0 };
	struct acct_interval *iv = NULL;
	struct modelrun_acct m;
	double cost_total, class_ns;
	struct account a;
	int n;

	if (modelrun_account(rundir, &m) || !(m.d > 0)) {
		/* no machine model: remote memory cost nothing; the cost alone */
		const struct xmetric *work = xm_find(x, "numa_work_hw_s");

		if (work)
			xm_add(x, "account_cost_s", "s", work->value, BETTER_LOWER);
		return;
	}
	read_summary(rundir, &p, &cost_total);
	p.d = m.d;
	p.win_local = m.win_local;
	p.win_remote = m.win_remote;
	p.acted = m.acted;
	p.hw_s_per_u = hw_s_per_u(rundir, x, cost_total, &class_ns);
	memset(&a, 0, sizeof(a));
	a.r0 = a.r0_misses = a.cost_s = a.cost_all_s = a.vcpus = NAN;
	n = load_intervals(rundir, &iv);
	if (n > 0 && isfinite(p.work_from_s))
		write_course(rundir, iv, n, &p, &a);
	add_metrics(&a, &m, cost_total, class_ns, work_seconds(rundir, x), x);
	free(iv);
}
