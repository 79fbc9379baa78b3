// SPDX-License-Identifier: GPL-2.0
/* The account of balancing in the report; see account_report.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "account_report.h"
#include "extract/extract.h"
#include "report/variant_info.h"

#define MAX_RUNS 1024

/* The account's per-run metrics (account_run.c). */
#define M_STALL		"account_stall_s"
#define M_COST		"account_cost_s"
#define M_WORK		"account_work_s"
#define M_ESTIMATE	"account_benefit_s"
#define M_BREAKEVEN	"account_breakeven_s"
#define M_COST_MODEL	"account_cost_model_s"
#define M_COST_RUN	"account_cost_run_s"
#define M_VCPUS		"account_vcpus"

static int values(const struct results *r, const char *variant, const char *name, double *x)
{
	return results_values_named(r, variant, name, x, MAX_RUNS);
}

/* Per run: the memory time the run spent, stall and balancing; NAN where unknown. */
static int spent(const struct results *r, const char *variant, double *x)
{
	static double cost[MAX_RUNS];
	int n = values(r, variant, M_STALL, x);

	values(r, variant, M_COST, cost);
	for (int i = 0; i < n; i++)
		x[i] += isnan(cost[i]) ? 0 : cost[i];
	return n;
}

/*
 * mean(B) - mean(A) with its CI: Welch's where both sides have two runs,
 * else the difference alone (one run a side still has an account).
 */
static void diff(const double *a, int na, const double *b, int nb, struct welch *w)
{
	struct describe da, db;

	stats_welch(a, na, b, nb, w);
	if (isfinite(w->diff))
		return;
	stats_describe(a, na, &da);
	stats_describe(b, nb, &db);
	if (da.n && db.n)
		w->diff = db.mean - da.mean;
}

/* mean(B) - mean(A) of NAME. */
static void welch_of(const struct results *ra, const char *va, const struct results *rb,
		     const char *vb, const char *name, struct welch *w)
{
	static double a[MAX_RUNS], b[MAX_RUNS];
	int na = values(ra, va, name, a), nb = values(rb, vb, name, b);

	diff(a, na, b, nb, w);
}

/* The other way round: mean(A) - mean(B), what B spent less. */
static void welch_less(const double *a, int na, const double *b, int nb, struct welch *w)
{
	diff(b, nb, a, na, w);
}

static bool sysctls_differ(const struct variant *a, const struct variant *b)
{
	if (a->n_sysctls != b->n_sysctls)
		return true;
	for (int i = 0; i < a->n_sysctls; i++)
		if (strcmp(a->sysctls[i].key, b->sysctls[i].key) ||
		    strcmp(a->sysctls[i].value, b->sysctls[i].value))
			return true;
	return false;
}

/* Whether some finished run of VARIANT has metric NAME. */
static bool any_has(const struct results *r, const char *variant, const char *name)
{
	static double x[MAX_RUNS];
	int n = values(r, variant, name, x);

	while (n--)
		if (isfinite(x[n]))
			return true;
	return false;
}

static enum acct_against against(const struct results *ra, const char *va,
				 const struct results *rb, const char *vb)
{
	const struct variant *a = experiment_variant(&ra->exp, va);
	const struct variant *b = experiment_variant(&rb->exp, vb);
	char ka[512], kb[512];

	if (!a || !b)
		return ACCT_VS_POLICY;
	if (!a->balancing && b->balancing)
		return ACCT_VS_OFF;
	variant_kernel(ra, va, ka, sizeof(ka));
	variant_kernel(rb, vb, kb, sizeof(kb));
	if (a->balancing != b->balancing || strcmp(ka, kb) || sysctls_differ(a, b))
		return ACCT_VS_POLICY;
	return ACCT_VS_SAME;
}

static void describe_of(const struct results *r, const char *variant, const char *name,
			struct describe *d)
{
	static double x[MAX_RUNS];

	stats_describe(x, values(r, variant, name, x), d);
}

/* The vCPUs busy at once, over both sides' runs. */
static void both_vcpus(const struct results *ra, const char *va, const struct results *rb,
		       const char *vb, struct describe *d)
{
	static double x[2 * MAX_RUNS];
	int n = values(ra, va, M_VCPUS, x);

	n += values(rb, vb, M_VCPUS, x + n);
	stats_describe(x, n, d);
}

/*
 * The generator's fixed time, when either side's runs ran for one (pgbench
 * -T, memaslap -t): NAN when none did.
 */
static double fixed_time(const struct results *ra, const char *va, const struct results *rb,
			 const char *vb)
{
	static double x[MAX_RUNS];
	int n = values(rb, vb, XM_FIXED_TIME, x);

	if (!n)
		n = values(ra, va, XM_FIXED_TIME, x);
	return n ? x[0] : NAN;
}

/*
 * The check: did the workload's time change by what the account says? Not
 * for a generator that runs for a fixed time: its time cannot change, what
 * balancing saved or cost shows in its throughput instead.
 */
static void check(struct acct_pair *p)
{
	double vcpus = p->vcpus.n ? fmax(1, p->vcpus.mean) : 1;

	p->predicted = (p->cost.diff - p->saved.diff) / vcpus;
	p->residual = p->dwork.diff - p->predicted;
	p->share = fabs(p->dwork.diff) > 0 ? fabs(p->residual) / fabs(p->dwork.diff) : NAN;
	/*
	 * Where the change itself is within its noise (its CI spans zero and
	 * the residual): a tenth of it says nothing, the noise is the bound.
	 */
	p->in_noise = isfinite(p->dwork.ci_lo) && p->dwork.ci_lo <= 0 && p->dwork.ci_hi >= 0 &&
		      fabs(p->residual) <= (p->dwork.ci_hi - p->dwork.ci_lo) / 2;
	p->closes = (isfinite(p->share) && p->share <= ACCT_CLOSE_SHARE) || p->in_noise;
	if (isfinite(p->fixed_s))
		p->closes = p->in_noise = false;
}

int account_pair(const struct results *ra, const char *va, const struct results *rb,
		 const char *vb, struct acct_pair *p)
{
	static double a[MAX_RUNS], b[MAX_RUNS];
	int na, nb;

	memset(p, 0, sizeof(*p));
	p->against = against(ra, va, rb, vb);
	na = values(ra, va, M_STALL, a);
	nb = values(rb, vb, M_STALL, b);
	welch_less(a, na, b, nb, &p->saved);
	p->model = isfinite(p->saved.diff);
	welch_of(ra, va, rb, vb, M_COST, &p->cost);
	p->measured = isfinite(p->cost.diff) && any_has(rb, vb, "numa_work_hw_s");
	na = spent(ra, va, a);
	nb = spent(rb, vb, b);
	welch_less(a, na, b, nb, &p->net);
	welch_of(ra, va, rb, vb, M_WORK, &p->dwork);
	describe_of(rb, vb, M_ESTIMATE, &p->estimate);
	describe_of(rb, vb, M_BREAKEVEN, &p->breakeven);
	describe_of(rb, vb, M_COST_MODEL, &p->cost_model);
	describe_of(rb, vb, M_COST_RUN, &p->cost_run);
	both_vcpus(ra, va, rb, vb, &p->vcpus);
	p->runs = values(rb, vb, M_WORK, b);
	p->fixed_s = fixed_time(ra, va, rb, vb);
	p->model_factor = p->cost_model.n && p->cost_run.n && p->cost_run.mean > 0 ?
			  p->cost_model.mean / p->cost_run.mean : NAN;
	check(p);
	return p->model || p->estimate.n || isfinite(p->cost.diff) ? 0 : -1;
}

/* The unit for a time of magnitude M: s, ms or us. */
static double unit_for(double m, const char **name)
{
	if (m >= 1) {
		*name = "s";
		return 1;
	}
	if (m >= 1e-3 || m == 0) {
		*name = "ms";
		return 1e-3;
	}
	*name = "us";
	return 1e-6;
}

/* "474 ms", "1.23 s": a time of the modelled machine */
static const char *dur(double s, char *buf, size_t len)
{
	const char *name;
	double unit = unit_for(fabs(s), &name);

	if (!isfinite(s))
		return "-";
	snprintf(buf, len, "%.3g %s", s / unit, name);
	return buf;
}

/* "-920 us [-3.05, +1.21] ms"-free: the value and its CI in one unit, the largest's */
static void timed(FILE *f, double v, double lo, double hi, bool sign)
{
	bool have_ci = isfinite(lo) && isfinite(hi);
	double m = fabs(v), unit;
	const char *name;

	if (!isfinite(v)) {
		fputc('-', f);
		return;
	}
	if (have_ci)
		m = fmax(m, fmax(fabs(lo), fabs(hi)));
	unit = unit_for(m, &name);
	fprintf(f, sign ? "%+.3g %s" : "%.3g %s", v / unit, name);
	if (have_ci)
		fprintf(f, sign ? " [%+.3g, %+.3g]" : " [%.3g, %.3g]", lo / unit, hi / unit);
}

static void welch_text(FILE *f, const struct welch *w, bool sign)
{
	timed(f, w->diff, w->ci_lo, w->ci_hi, sign);
}

/* After "against BASELINE". */
static const char *const against_text[] = {
	[ACCT_VS_OFF] = " (balancing off)",
	[ACCT_VS_POLICY] = "'s balancing (another policy or kernel)",
	[ACCT_VS_SAME] = ", which balances the same way (the difference is not balancing's)",
};

static void saved_text(FILE *f, const struct acct_pair *p, const char *la, const char *lb)
{
	char b[32];

	if (p->against == ACCT_VS_OFF) {
		fprintf(f, "- account of balancing (hardware time of the modelled machine): %s's "
			"balancing cost ", lb);
		welch_text(f, &p->cost, false);
		if (!p->measured)
			fprintf(f, " (the seed's cost at the class's u: no measured work)");
		fprintf(f, " and saved ");
		welch_text(f, &p->saved, false);
		fprintf(f, " of memory stall against %s%s", la, against_text[p->against]);
	} else {
		fprintf(f, "- account of balancing (hardware time of the modelled machine), %s "
			"against %s%s: its cost differs by ", lb, la, against_text[p->against]);
		welch_text(f, &p->cost, true);
		fprintf(f, " and the memory stall it saved by ");
		welch_text(f, &p->saved, true);
	}
	fprintf(f, " (net ");
	welch_text(f, &p->net, true);
	fprintf(f, ")");
	if (p->breakeven.n)
		fprintf(f, ", paid back %s after its first scan pass in %d of %d runs",
			dur(p->breakeven.mean, b, sizeof(b)), p->breakeven.n, p->runs);
	else if (p->estimate.n)
		fprintf(f, ", never paid back in its %d runs", p->runs);
	if (p->estimate.n) {
		fprintf(f, "; %s's own runs estimate its saving against no balancing at ", lb);
		timed(f, p->estimate.mean, p->estimate.ci_lo, p->estimate.ci_hi, false);
	}
	fprintf(f, "\n");
}

static void check_text(FILE *f, const struct acct_pair *p)
{
	char b[3][32];

	if (!isfinite(p->dwork.diff) || !isfinite(p->predicted))
		return;
	if (isfinite(p->fixed_s)) {
		fprintf(f, "- the account against the workload's time: not checked, the load "
			"generator ran for a fixed %.3g s of its own clock, so what balancing saved "
			"or cost shows in its throughput above, not in its time\n", p->fixed_s);
		return;
	}
	fprintf(f, "- the account against the workload's time: it changed by ");
	welch_text(f, &p->dwork, true);
	fprintf(f, "; cost - saving over the %.3g vCPUs busy at once gives %s: residual %s",
		p->vcpus.n ? fmax(1, p->vcpus.mean) : 1.0, dur(p->predicted, b[0], 32),
		dur(p->residual, b[1], 32));
	if (isfinite(p->share))
		fprintf(f, " (%.2g %% of the change)", 100 * p->share);
	if (!p->closes && !isfinite(p->share)) {
		fprintf(f, "\n");
		return;
	}
	fprintf(f, ": ");
	if (p->in_noise && !(p->share <= ACCT_CLOSE_SHARE))
		fprintf(f, "the change is within its noise, and so is the residual: the account "
			"closes within it\n");
	else if (p->closes)
		fprintf(f, "the account closes\n");
	else
		fprintf(f, "**the account does not close** by %s: something beyond the "
			"balancer's work and the memory it moved changed the time\n",
			dur(fabs(p->residual), b[2], 32));
}

void account_verdict(FILE *f, const struct acct_pair *p, const char *la, const char *lb)
{
	char b[2][32];

	if (!p->model && !p->estimate.n) {
		if (isfinite(p->cost.diff)) {
			fprintf(f, "- account of balancing: no machine model in these runs, so remote "
				"memory cost nothing and balancing saved nothing; its cost alone: ");
			welch_text(f, &p->cost, false);
			fprintf(f, "\n");
		}
		return;
	}
	saved_text(f, p, la, lb);
	check_text(f, p);
	if (isfinite(p->model_factor) &&
	    (p->model_factor > ACCT_MODEL_FACTOR || p->model_factor < 1 / ACCT_MODEL_FACTOR))
		fprintf(f, "- the seed's cost model at the class's u puts %s's cost in the whole "
			"run at %s, %.2gx the %s measured\n", lb, dur(p->cost_model.mean, b[0], 32),
			p->model_factor, dur(p->cost_run.mean, b[1], 32));
}

void account_none(FILE *f, const struct results *rb, const char *vb)
{
	static double x[MAX_RUNS];

	if (!values(rb, vb, "work_s", x) && !values(rb, vb, "elapsed_s", x))
		return;		/* nothing finished: the runs say why */
	fprintf(f, "- account of balancing: none, %s's runs had no TCG plugin, which measures the "
		"balancer's work and the memory it stalled on (the seed's cost in u is all there "
		"is)\n", vb);
}

static struct json_object *jnum(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static struct json_object *welch_json(const struct welch *w)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "value_s", jnum(w->diff));
	json_object_object_add(o, "ci95_lo_s", jnum(w->ci_lo));
	json_object_object_add(o, "ci95_hi_s", jnum(w->ci_hi));
	return o;
}

static const char *const against_names[] = {
	[ACCT_VS_OFF] = "off", [ACCT_VS_POLICY] = "another_policy", [ACCT_VS_SAME] = "same",
};

struct json_object *account_pair_json(const struct acct_pair *p)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "against", json_object_new_string(against_names[p->against]));
	json_object_object_add(o, "cost", welch_json(&p->cost));
	json_object_object_add(o, "cost_measured", json_object_new_boolean(p->measured));
	json_object_object_add(o, "saved", welch_json(&p->saved));
	json_object_object_add(o, "net", welch_json(&p->net));
	json_object_object_add(o, "work_change", welch_json(&p->dwork));
	json_object_object_add(o, "saved_estimate_s", jnum(p->estimate.n ? p->estimate.mean : NAN));
	json_object_object_add(o, "breakeven_s", jnum(p->breakeven.n ? p->breakeven.mean : NAN));
	json_object_object_add(o, "breakeven_runs", json_object_new_int(p->breakeven.n));
	json_object_object_add(o, "vcpus", jnum(p->vcpus.n ? p->vcpus.mean : NAN));
	json_object_object_add(o, "predicted_change_s", jnum(p->predicted));
	json_object_object_add(o, "residual_s", jnum(p->residual));
	json_object_object_add(o, "residual_share", jnum(p->share));
	json_object_object_add(o, "closes", isfinite(p->fixed_s) ? NULL :
			       json_object_new_boolean(p->closes));
	json_object_object_add(o, "workload_fixed_s", jnum(p->fixed_s));
	json_object_object_add(o, "change_in_noise", json_object_new_boolean(p->in_noise));
	json_object_object_add(o, "cost_model_factor", jnum(p->model_factor));
	return o;
}

/* The runs' own account, a row each (the estimate: no baseline needed). */
static const struct {
	const char *metric, *head;
} run_cols[] = {
	{ M_ESTIMATE, "saved (estimate)" },
	{ M_COST, "cost in the work" },
	{ "account_net_s", "net" },
	{ M_BREAKEVEN, "break-even after the first scan" },
	{ M_COST_RUN, "cost in the run" },
	{ M_COST_MODEL, "the seed's cost at the class's u" },
	{ M_STALL, "memory stall" },
};

#define N_RUN_COLS (sizeof(run_cols) / sizeof(run_cols[0]))

static bool any_account(const struct results *r)
{
	for (int i = 0; i < r->n_runs; i++)
		if (r->runs[i].status == RUN_OK && isfinite(run_metric(&r->runs[i], M_COST)))
			return true;
	return false;
}

/* "0.97 (window of 1196 misses)": where the counterfactual share came from */
static void share_cell(FILE *md, const struct run *run)
{
	double r0 = run_metric(run, "account_remote_before");
	double n = run_metric(run, "account_window_misses");

	if (isnan(r0)) {
		fprintf(md, " - |");
		return;
	}
	fprintf(md, " %.3g (%.0f misses) |", r0, n);
}

static void run_row(FILE *md, const struct run *run, struct json_object *arr)
{
	struct json_object *o = json_object_new_object();
	char b[32];

	fprintf(md, "| %s | %d |", run->variant, run->rep);
	json_object_object_add(o, "variant", json_object_new_string(run->variant));
	json_object_object_add(o, "rep", json_object_new_int(run->rep));
	for (size_t c = 0; c < N_RUN_COLS; c++) {
		double v = run_metric(run, run_cols[c].metric);

		if (!strcmp(run_cols[c].metric, M_BREAKEVEN) && isnan(v) &&
		    isfinite(run_metric(run, M_ESTIMATE)))
			fprintf(md, " never |");
		else
			fprintf(md, " %s |", dur(v, b, sizeof(b)));
		json_object_object_add(o, run_cols[c].metric, jnum(v));
	}
	share_cell(md, run);
	json_object_object_add(o, "remote_before", jnum(run_metric(run, "account_remote_before")));
	fprintf(md, "\n");
	json_object_array_add(arr, o);
}

void account_section(FILE *md, const struct results *r, struct json_object *root)
{
	struct json_object *arr;

	if (!any_account(r))
		return;
	arr = json_object_new_array();
	fprintf(md, "## Account of balancing\n\n"
		"Hardware time of the modelled machine (guest time / D). Each run's own "
		"estimate of the memory stall balancing saved: its misses against the remote "
		"share before the balancer first acted in the work (the plugin's window; "
		"else the work's first interval, a lower bound), each miss made local priced "
		"at what the machine model charged a remote miss over a local one in that "
		"run. Cost: the balancer's own work (its scan, fault and migration "
		"functions: numa_work_hw_s), within the work and in the whole run. The "
		"verdict sets the saving against the baseline's stall instead, where there "
		"is one.\n\n| variant | rep |");
	for (size_t c = 0; c < N_RUN_COLS; c++)
		fprintf(md, " %s |", run_cols[c].head);
	fprintf(md, " remote share before |\n|---|---|");
	for (size_t c = 0; c <= N_RUN_COLS; c++)
		fprintf(md, "---|");
	fprintf(md, "\n");
	for (int i = 0; i < r->n_runs; i++)
		if (r->runs[i].status == RUN_OK)
			run_row(md, &r->runs[i], arr);
	fprintf(md, "\n");
	json_object_object_add(root, "account_runs", arr);
}
