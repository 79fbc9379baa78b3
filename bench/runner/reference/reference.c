// SPDX-License-Identifier: GPL-2.0
/*
 * reference.c - `bnb-run reference`: the upstream autonuma-benchmark
 * programs on a 2-node (and 4- and 8-node) guest, each with balancing off and
 * on, HARD_BIND and INVERSE_BIND, held against published figures from
 * real machines (reference_eval.c). Each program and topology is an
 * ordinary experiment, bench/experiments/reference/TOPO-PROGRAM.ini, run
 * into OUT/TOPO-PROGRAM/; the table is rewritten after each, so that an
 * interrupted suite keeps what finished, and `--table OUT` redraws it.
 */
#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "extract/locrise.h"
#include "lib/err.h"
#include "lib/opt.h"
#include "lib/path.h"
#include "lib/util.h"
#include "model/timekeeper.h"
#include "reference.h"
#include "report/results.h"
#include "runner.h"

#define REF_DIR		"bench/experiments/reference"

struct ref_opts {
	bool quick;
	int topology;		/* 0: auto, else 1 + index in topologies[] */
	char *out;
	char *table;
	char *published;
	char *suite;
	int reps;
	int jobs;		/* 0: JOBS_AUTO */
	bool no_plots;
	bool slurm;
	struct slurm_opts sl;
	struct slurm_batch *batch;	/* --slurm: every experiment's runs, one array */
};

#define RO(f) OPT_FIELD(struct ref_opts, f)

static const struct opt_def ref_options[] = {
	{ "quick", OPT_FLAG, RO(quick),
	  .help = "1 repetition, the 2-node guest only (default: 3 repetitions, 2, 4 and 8 "
		  "nodes)" },
	{ "topology", OPT_CHOICE, RO(topology), .choices = "auto|2n|4n|8n",
	  .help = "the guests to run: 2n (2 nodes x 2 vCPUs, 2socket model), 4n (4 nodes x "
		  "2 vCPUs, 4node model), 8n (8 nodes x 1 vCPU, 2 for numa02_SMT, 8node "
		  "model); auto: 2n with --quick, else all three" },
	{ "reps", OPT_INT, RO(reps), .min = 1, .max = 1000,
	  .help = "repetitions per variant (overrides the suite's)" },
	{ "out", OPT_STR, RO(out), .metavar = "DIR",
	  .help = "results folder (default results/<UTC time>-reference); an existing one "
		  "is resumed: finished experiments are kept" },
	{ "table", OPT_STR, RO(table), .metavar = "DIR",
	  .help = "only redraw DIR's reference table from the runs it holds" },
	{ "suite", OPT_STR, RO(suite), .metavar = "DIR",
	  .help = "the experiments TOPO-PROGRAM.ini and calibration/ from DIR (default "
		  REF_DIR "), e.g. a copy with timing = deterministic" },
	{ "published", OPT_STR, RO(published), .metavar = "FILE",
	  .help = "published figures (default " REF_DIR "/published.ini)" },
	{ "jobs", OPT_INT, RO(jobs), .min = 1, .max = 1000,
	  .help = "guests at once (default: the host's CPUs when the suite's experiments are all "
		  "deterministic, as the shipped ones are: each is one TCG thread and its "
		  "results do not depend on what runs beside it; else 1)" },
	{ "no-plots", OPT_FLAG, RO(no_plots), .help = "skip gnuplot" },
	{ "slurm", OPT_FLAG, RO(slurm),
	  .help = "build and check every experiment here, then submit all their runs as one "
		  "Slurm job array (options after -- go to sbatch); an existing --out DIR "
		  "submits what it lacks" },
	{ "wait", OPT_FLAG, RO(sl.wait),
	  .help = "with --slurm: follow the array until it ends, then write the reports and "
		  "the table" },
};

/* Guest topologies: the TOPO of TOPO-PROGRAM.ini, and the machine model
 * class of their experiments, which names their calibrations. */
static const char *const topologies[] = { "2n", "4n", "8n" };
static const char *const topology_class[] = { "2socket", "4node", "8node" };

/* ---- what one experiment measured -------------------------------------- */

/* The run's time dilation D: insn_ps / hw_insn_ps under deterministic
 * timing (bnb-vm's result), else the measured one (NAN: unknown). */
static double run_dilation(const struct run *run, const struct variant *v)
{
	char path[PATH_MAX + 1100], val[64];
	double hw = BNB_TK_DEF_HW_INSN_PS;

	snprintf(path, sizeof(path), "%s/result", run->dir);
	if (results_kv_get(path, "timing", val, sizeof(val)) || strcmp(val, "deterministic"))
		return run->m[M_DILATION];
	if (results_kv_get(path, "insn_ps", val, sizeof(val)))
		return NAN;
	for (int i = 0; v && i < v->plugin_opts.n; i++)
		if (!strncmp(v->plugin_opts.v[i], "hw_insn_ps=", 11))
			hw = atof(v->plugin_opts.v[i] + 11);
	return atof(val) / hw;
}

static const struct variant *find_variant(const struct experiment *exp, const char *name)
{
	for (int i = 0; i < exp->n_variants; i++)
		if (!strcmp(exp->variants[i].name, name))
			return &exp->variants[i];
	return NULL;
}

static double mean(const double *x, int n)
{
	double s = 0;
	int k = 0;

	for (int i = 0; i < n; i++)
		if (isfinite(x[i])) {
			s += x[i];
			k++;
		}
	return k ? s / k : NAN;
}

/* Per hardware-equivalent second of VARIANT's runs: counts / (work_s / D). */
static void measure_rates(const struct results *r, int var, struct ref_measured *m)
{
	const struct variant *v = find_variant(&r->exp, ref_variant_names[var]);
	double pte[64], hints[64], share[64], d[64], pass[64], p90[64], pte_hw[64], hints_hw[64];
	double from[64], to[64], l90[64];
	int n = 0;

	for (int i = 0; i < r->n_runs && n < 64; i++) {
		const struct run *run = &r->runs[i];
		double hw_s, time = run_metric(run, "scale_time"), size;

		if (run->status != RUN_OK || strcmp(run->variant, ref_variant_names[var]))
			continue;
		d[n] = run_dilation(run, v);
		hw_s = run->m[M_WORK_S] / d[n];
		pte[n] = run->m[M_PTE_UPDATES] / hw_s;
		hints[n] = run->m[M_HINT_FAULTS] / hw_s;
		share[n] = run_metric(run, "numa_work_hw_s") / (hw_s * m->vcpus);
		pass[n] = run_metric(run, "scan_passes");
		p90[n] = run_metric(run, "passes_to_conv_90");
		from[n] = run_metric(run, "locality_start");
		to[n] = run_metric(run, "locality_peak");
		l90[n] = run_metric(run, "passes_to_locality_90");
		/* the plan's hardware run: its counts over its seconds */
		size = run_metric(run, "scale_size");
		hw_s = run->m[M_WORK_S] / time;
		pte_hw[n] = run->m[M_PTE_UPDATES] / size / hw_s;
		hints_hw[n] = run->m[M_HINT_FAULTS] / size / hw_s;
		if (isfinite(time)) {
			m->time_factor = time;
			m->size_factor = size;
			m->hw_passes_min = run_metric(run, "hw_passes_min");
			m->hw_passes_max = run_metric(run, "hw_passes_max");
		}
		n++;
	}
	m->pte_per_s[var] = mean(pte, n);
	m->hints_per_s[var] = mean(hints, n);
	m->work_share[var] = mean(share, n);
	m->dilation[var] = mean(d, n);
	m->passes[var] = mean(pass, n);
	m->passes_to90[var] = mean(p90, n);
	m->loc_start[var] = mean(from, n);
	m->loc_peak[var] = mean(to, n);
	m->passes_to_loc90[var] = mean(l90, n);
	m->pte_hw_per_s[var] = mean(pte_hw, n);
	m->hints_hw_per_s[var] = mean(hints_hw, n);
}

static void measure(const struct results *r, struct ref_measured *m)
{
	double x[256];

	memset(m, 0, sizeof(*m));
	m->time_factor = m->size_factor = m->hw_passes_min = m->hw_passes_max = NAN;
	if (r->exp.n_variants)
		m->vcpus = topo_total_cpus(&r->exp.variants[0].topo);
	for (int var = 0; var < RV_N; var++) {
		m->n[var] = results_values(r, ref_variant_names[var], M_WORK_S, x, 256);
		m->mean[var] = mean(x, m->n[var]);
		measure_rates(r, var, m);
	}
}

/* ---- the table ---------------------------------------------------------- */

struct ref_table {
	const struct ref_published *p;
	const char *dir;
	FILE *md;
	struct json_object *root;
	int orders, orders_yes, ratios, ratios_yes;
};

static const char *fmt(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, len, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
	return buf;
}

static const char *mark(enum ref_verdict v)
{
	return v == REF_YES ? "yes" : v == REF_NO ? "**no**" : "-";
}

static struct json_object *jnum(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static struct json_object *jverdict(enum ref_verdict v)
{
	return v == REF_UNKNOWN ? NULL : json_object_new_boolean(v == REF_YES);
}

static void md_program(struct ref_table *t, const struct ref_program *prog, int machine,
		       const struct ref_measured *m, const struct ref_eval *e)
{
	int n_order;
	const struct ref_order *order = ref_orders(prog, machine, &n_order);
	char b[4][32];

	fprintf(t->md, "| %s |", prog->name);
	for (int v = 0; v < RV_N; v++)
		fprintf(t->md, " %s |", fmt(m->mean[v], b[0], 32));
	for (int i = 0; i < t->p->n_ratios; i++)
		fprintf(t->md, " %s (%s) %s |", fmt(e->ratio[i].measured, b[1], 32),
			fmt(e->ratio[i].published, b[2], 32), mark(e->ratio[i].holds));
	for (int i = 0; i < n_order; i++) {
		fprintf(t->md, "%s %s: %s", i ? "," : "", ref_order_text(&order[i], b[3], 32),
			mark(e->order[i].holds));
	}
	fprintf(t->md, " |\n");
}

static struct json_object *json_program(struct ref_table *t, const struct ref_program *prog,
					int machine, const struct ref_measured *m,
					const struct ref_eval *e, const char *dir)
{
	int n_order;
	const struct ref_order *order = ref_orders(prog, machine, &n_order);
	struct json_object *o = json_object_new_object(), *means = json_object_new_object();
	struct json_object *ratios = json_object_new_array(), *orders = json_object_new_array();
	struct json_object *rates = json_object_new_object();
	char b[64];

	json_object_object_add(o, "program", json_object_new_string(prog->name));
	json_object_object_add(o, "results", json_object_new_string(dir));
	for (int v = 0; v < RV_N; v++) {
		struct json_object *rv = json_object_new_object();

		json_object_object_add(means, ref_variant_names[v], jnum(m->mean[v]));
		json_object_object_add(rv, "pte_updates_per_hw_s", jnum(m->pte_per_s[v]));
		json_object_object_add(rv, "hint_faults_per_hw_s", jnum(m->hints_per_s[v]));
		json_object_object_add(rv, "numa_work_share", jnum(m->work_share[v]));
		json_object_object_add(rv, "dilation", jnum(m->dilation[v]));
		json_object_object_add(rv, "scan_passes", jnum(m->passes[v]));
		json_object_object_add(rv, "passes_to_conv_90", jnum(m->passes_to90[v]));
		json_object_object_add(rv, "locality_start", jnum(m->loc_start[v]));
		json_object_object_add(rv, "locality_peak", jnum(m->loc_peak[v]));
		json_object_object_add(rv, "passes_to_locality_90", jnum(m->passes_to_loc90[v]));
		json_object_object_add(rv, "pte_updates_per_s_as_hw", jnum(m->pte_hw_per_s[v]));
		json_object_object_add(rv, "hint_faults_per_s_as_hw", jnum(m->hints_hw_per_s[v]));
		json_object_object_add(rates, ref_variant_names[v], rv);
	}
	json_object_object_add(o, "work_s_mean", means);
	json_object_object_add(o, "scale_time", jnum(m->time_factor));
	json_object_object_add(o, "scale_size", jnum(m->size_factor));
	json_object_object_add(o, "hw_passes_min", jnum(m->hw_passes_min));
	json_object_object_add(o, "hw_passes_max", jnum(m->hw_passes_max));
	for (int i = 0; i < t->p->n_ratios; i++) {
		const struct ref_ratio *r = &t->p->ratio[i];
		struct json_object *x = json_object_new_object();

		json_object_object_add(x, "ratio", json_object_new_string(ref_ratio_text(r, b, 64)));
		json_object_object_add(x, "measured", jnum(e->ratio[i].measured));
		json_object_object_add(x, "published", jnum(e->ratio[i].published));
		json_object_object_add(x, "published_machine",
				       json_object_new_string(t->p->machine[e->ratio[i].machine].name));
		json_object_object_add(x, "source",
				       json_object_new_string(t->p->machine[e->ratio[i].machine].source));
		json_object_object_add(x, "within_factor", jverdict(e->ratio[i].holds));
		json_object_array_add(ratios, x);
	}
	for (int i = 0; i < n_order; i++) {
		struct json_object *x = json_object_new_object();

		json_object_object_add(x, "ordering",
				       json_object_new_string(ref_order_text(&order[i], b, 64)));
		json_object_object_add(x, "matches", jverdict(e->order[i].holds));
		json_object_array_add(orders, x);
	}
	json_object_object_add(o, "ratios", ratios);
	json_object_object_add(o, "orderings", orders);
	json_object_object_add(o, "rates", rates);
	return o;
}

static void count(struct ref_table *t, const struct ref_program *prog, int machine,
		  const struct ref_eval *e)
{
	int n_order;

	ref_orders(prog, machine, &n_order);
	for (int i = 0; i < t->p->n_ratios; i++) {
		t->ratios += e->ratio[i].holds != REF_UNKNOWN;
		t->ratios_yes += e->ratio[i].holds == REF_YES;
	}
	for (int i = 0; i < n_order; i++) {
		t->orders += e->order[i].holds != REF_UNKNOWN;
		t->orders_yes += e->order[i].holds == REF_YES;
	}
}

static const char *pct(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, len, "%.3f %%", v * 100);
	return buf;
}

/* The balancer's own work against the published system time. */
static void md_work(struct ref_table *t, const struct ref_measured *ms, const bool *have)
{
	const struct ref_published *p = t->p;
	int m = p->rates.machine < 0 ? 0 : p->rates.machine;
	char b[4][32];

	fprintf(t->md, "\nThe balancer's own work (numa_work_hw_s: the kernel's scan, "
		"hinting-fault and migration functions, bench/plugin/ksym.h) over the vCPUs' "
		"hardware-equivalent time; published: system CPU seconds over the CPUs' "
		"elapsed time on %s:\n\n| program | guest on | guest off | published on | "
		"published off |\n|---|---|---|---|---|\n", p->machine[m].name);
	for (int i = 0; i < p->n_progs; i++) {
		if (!have[i])
			continue;
		fprintf(t->md, "| %s | %s | %s | %s | %s |\n", p->prog[i].name,
			pct(ms[i].work_share[RV_ON], b[0], 32), pct(ms[i].work_share[RV_OFF], b[1], 32),
			pct(ref_sys_share(&p->prog[i], m, RV_ON), b[2], 32),
			pct(ref_sys_share(&p->prog[i], m, RV_OFF), b[3], 32));
	}
}

/* A factor: three significant digits, "-" without the plan. */
static const char *fmt_factor(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, len, "%.3g", v);
	return buf;
}

/* "0.12 -> 0.81", or "-" */
static const char *locality_span(double from, double to, char *buf, size_t len)
{
	if (isnan(from) || isnan(to))
		return "-";
	snprintf(buf, len, "%.2f -> %.2f", from, to);
	return buf;
}

/* The "on" runs' passes to 90 % of the locality's rise: flat, never, or the mean. */
static const char *loc90_cell(const struct ref_measured *m, char *buf, size_t len)
{
	if (isnan(m->loc_start[RV_ON]) || isnan(m->loc_peak[RV_ON]))
		return "-";
	if (m->loc_peak[RV_ON] - m->loc_start[RV_ON] < LOCRISE_MIN_GAIN)
		return "flat";
	if (isnan(m->passes_to_loc90[RV_ON]))
		return "never";
	return fmt(m->passes_to_loc90[RV_ON], buf, len);
}

/*
 * The scanner's passes with balancing on beside the hardware run the plan
 * (scale_scan = hardware) scales to: its passes at the maximum and the
 * minimum period, from the published duration. Passes to 90 % are "never"
 * where the runs held passes but their convergence never held.
 */
static void md_passes(struct ref_table *t, const struct ref_measured *ms, const bool *have)
{
	const struct ref_published *p = t->p;
	char b[8][64];

	fprintf(t->md, "\nScan passes with balancing on (the scanner's sweeps over a process, "
		"mm->numa_scan_seq), and the hardware run each program stands for under "
		"scale_scan = hardware (docs/time-scale.md): its passes at the maximum and at the "
		"minimum scan period, from the published duration; the hint-fault convergence's "
		"passes to 90 %%, and where the accesses went (the plugin's true locality from "
		"its first window of a twentieth of the work to its best, and the passes until "
		"it first reached 90 %% of that rise; flat: it rose by under %.2f):\n\n"
		"| program | time factor | size factor | passes | passes to 90 %% | "
		"true locality | passes to 90 %% of its rise | hardware run: passes |\n"
		"|---|---|---|---|---|---|---|---|\n", LOCRISE_MIN_GAIN);
	for (int i = 0; i < p->n_progs; i++) {
		const struct ref_measured *m = &ms[i];
		bool never = isfinite(m->passes[RV_ON]) && isnan(m->passes_to90[RV_ON]);

		if (!have[i])
			continue;
		fprintf(t->md, "| %s | %s | %s | %s | %s | %s | %s | ", p->prog[i].name,
			fmt_factor(m->time_factor, b[0], 32), fmt_factor(m->size_factor, b[1], 32),
			fmt(m->passes[RV_ON], b[2], 32),
			never ? "never" : fmt(m->passes_to90[RV_ON], b[3], 32),
			locality_span(m->loc_start[RV_ON], m->loc_peak[RV_ON], b[6], 64),
			loc90_cell(m, b[7], 32));
		if (isfinite(m->hw_passes_min))
			fprintf(t->md, "%s..%s |\n", fmt(m->hw_passes_min, b[4], 32),
				fmt(m->hw_passes_max, b[5], 32));
		else
			fprintf(t->md, "- |\n");
	}
}

/* The published rate over the measured one: "yes" within the factor. */
static const char *within(const struct ref_published *p, double measured, double published)
{
	double r = measured / published;

	if (!isfinite(r) || r <= 0)
		return "";
	return r <= p->within && r >= 1 / p->within ? " yes" : " no";
}

/*
 * Under scale_scan = hardware the same rates as the hardware run has them:
 * the counts over the size factor (a pass updates and faults the working
 * set's pages) per second of that run (work_s / time factor), per CPU of
 * the published suite's machine.
 */
static void md_rates_hw(struct ref_table *t, const struct ref_measured *ms, const bool *have)
{
	const struct ref_published *p = t->p;
	double cpus = p->rates.machine < 0 ? NAN : p->machine[p->rates.machine].cpus;
	double pte = ref_rate_per_cpu(p, p->rates.pte_updates);
	double hints = ref_rate_per_cpu(p, p->rates.hint_faults);
	char b[4][32];
	int any = 0;

	for (int i = 0; i < p->n_progs; i++)
		any += have[i] && isfinite(ms[i].time_factor);
	if (!any)
		return;
	fprintf(t->md, "\nThe same with balancing on as the hardware run the plan scales to "
		"(scale_scan = hardware): counts / size factor per second of that run (work_s / "
		"time factor), per CPU of %s (%g); \"yes\" within %gx of 2012's %s and %s:\n\n"
		"| program | PTE updates on | hint faults on |\n|---|---|---|\n",
		p->rates.machine < 0 ? "-" : p->machine[p->rates.machine].name, cpus, p->within,
		fmt(pte, b[0], 32), fmt(hints, b[1], 32));
	for (int i = 0; i < p->n_progs; i++) {
		const struct ref_measured *m = &ms[i];
		double pm = m->pte_hw_per_s[RV_ON] / cpus, hm = m->hints_hw_per_s[RV_ON] / cpus;

		if (!have[i] || !isfinite(m->time_factor))
			continue;
		fprintf(t->md, "| %s | %s%s | %s%s |\n", p->prog[i].name, fmt(pm, b[2], 32),
			within(p, pm, pte), fmt(hm, b[3], 32), within(p, hm, hints));
	}
}

/* The rates of item 7 for one topology: off and on, against 2012's. */
static void md_rates(struct ref_table *t, const char *topo, const struct ref_measured *ms,
		     const bool *have)
{
	const struct ref_published *p = t->p;
	char b[5][32];

	fprintf(t->md, "\nPTE updates and hint faults per hardware-equivalent second "
		"(guest seconds / D), per vCPU, %s; published: %s per CPU-second "
		"(%s, %s):\n\n| program | PTE updates off | on | hint faults off | on | D on |\n"
		"|---|---|---|---|---|---|\n", topo,
		p->rates.machine < 0 ? "-" : "the 2012 suite's vmstat totals",
		p->rates.machine < 0 ? "-" : p->machine[p->rates.machine].name,
		p->rates.source);
	for (int i = 0; i < p->n_progs; i++) {
		const struct ref_measured *m = &ms[i];
		double c = m->vcpus ? m->vcpus : NAN;

		if (!have[i])
			continue;
		fprintf(t->md, "| %s | %s | %s | %s | %s | %s |\n", p->prog[i].name,
			fmt(m->pte_per_s[RV_OFF] / c, b[0], 32), fmt(m->pte_per_s[RV_ON] / c, b[1], 32),
			fmt(m->hints_per_s[RV_OFF] / c, b[2], 32),
			fmt(m->hints_per_s[RV_ON] / c, b[3], 32), fmt(m->dilation[RV_ON], b[4], 32));
	}
	fprintf(t->md, "| published (2012, balancing on) | | %s | | %s | 1 |\n",
		fmt(ref_rate_per_cpu(p, p->rates.pte_updates), b[0], 32),
		fmt(ref_rate_per_cpu(p, p->rates.hint_faults), b[1], 32));
	md_rates_hw(t, ms, have);
	md_work(t, ms, have);
}

/* Append " PROG VARIANT/repN" to LIST for every run of R that scanned nothing. */
static void list_unscanned(const struct results *r, const char *prog, char *list, size_t len)
{
	for (int i = 0; i < r->n_runs; i++) {
		size_t used = strlen(list);

		if (run_unscanned(r, &r->runs[i]))
			snprintf(list + used, len - used, "%s%s %s/rep%d", used ? ", " : "", prog,
				 r->runs[i].variant, r->runs[i].rep);
	}
}

static void table_topology(struct ref_table *t, const char *topo, struct json_object *arr)
{
	struct json_object *jt = json_object_new_object(), *progs = json_object_new_array();
	struct ref_measured ms[REF_PROGRAMS];
	bool have[REF_PROGRAMS] = { 0 };
	int machine = ref_topology_machine(t->p, topo);
	int orders = t->orders, orders_yes = t->orders_yes;
	int ratios = t->ratios, ratios_yes = t->ratios_yes;
	char b[64], unscanned[1024] = "";
	int found = 0;

	for (int i = 0; i < t->p->n_progs; i++) {
		const struct ref_program *prog = &t->p->prog[i];
		char dir[PATH_MAX], err[PATH_MAX + 256];
		struct results r;
		struct ref_eval e;

		snprintf(dir, sizeof(dir), "%s/%s-%s", t->dir, topo, prog->name);
		if (access(dir, F_OK) || results_load(dir, &r, err, sizeof(err)))
			continue;
		if (!found++) {
			fprintf(t->md, "\n## %s: %d nodes, %d vCPUs\n\n", topo,
				r.exp.variants[0].topo.nodes, topo_total_cpus(&r.exp.variants[0].topo));
			if (machine >= 0)
				fprintf(t->md, "Held against %s alone: every ratio and ordering "
					"from its own figures.\n\n", t->p->machine[machine].name);
			fprintf(t->md, "| program |");
			for (int v = 0; v < RV_N; v++)
				fprintf(t->md, " %s s |", ref_variant_names[v]);
			for (int k = 0; k < t->p->n_ratios; k++)
				fprintf(t->md, " %s (published) within %gx |",
					ref_ratio_text(&t->p->ratio[k], b, 64), t->p->within);
			fprintf(t->md, " orderings |\n|---|---|---|---|---|");
			for (int k = 0; k < t->p->n_ratios; k++)
				fprintf(t->md, "---|");
			fprintf(t->md, "---|\n");
		}
		measure(&r, &ms[i]);
		have[i] = true;
		ref_evaluate_on(t->p, prog, machine, &ms[i], &e);
		md_program(t, prog, machine, &ms[i], &e);
		json_object_array_add(progs, json_program(t, prog, machine, &ms[i], &e, dir));
		count(t, prog, machine, &e);
		list_unscanned(&r, prog->name, unscanned, sizeof(unscanned));
		results_free(&r);
	}
	if (found) {
		fprintf(t->md, "\n%s: orderings matching %d of %d; ratios within %gx: %d of %d.\n",
			topo, t->orders_yes - orders_yes, t->orders - orders, t->p->within,
			t->ratios_yes - ratios_yes, t->ratios - ratios);
		if (unscanned[0])
			fprintf(t->md, "\nNo balancing happened in %s: balancing was on but the "
				"scanner changed no PTE, so those figures are the workload without "
				"balancing (the run's report says why it can be).\n", unscanned);
		md_passes(t, ms, have);
		md_rates(t, topo, ms, have);
	}
	json_object_object_add(jt, "topology", json_object_new_string(topo));
	if (machine >= 0)
		json_object_object_add(jt, "held_against",
				       json_object_new_string(t->p->machine[machine].name));
	json_object_object_add(jt, "programs", progs);
	json_object_array_add(arr, jt);
}

static void md_header(struct ref_table *t)
{
	const struct ref_published *p = t->p;

	fprintf(t->md, "# Reference suite\n\nResults in `%s`. Published figures: `%s`; "
		"each ratio is the guest's (mean workload seconds) with the published one in "
		"brackets, \"yes\" when within %gx of it; an ordering \"A <= B\" holds within "
		"%g %%.\n\nPublished machines:\n\n", t->dir, p->path, p->within,
		p->tolerance * 100);
	for (int i = 0; i < p->n_machines; i++)
		fprintf(t->md, "- %s: %s (%s)\n", p->machine[i].name, p->machine[i].what,
			p->machine[i].source);
	for (int i = 0; i < p->n_ratios; i++) {
		char b[64];

		fprintf(t->md, "%s- %s: published by %s", i ? "" : "\nRatios:\n\n",
			ref_ratio_text(&p->ratio[i], b, 64), p->machine[p->ratio[i].machine].name);
		fprintf(t->md, "\n");
	}
	for (int i = 0; i < p->n_topologies; i++)
		fprintf(t->md, "%s- the %s guest: every ratio and ordering from %s's own figures\n",
			i ? "" : "\nGuests held against one machine alone:\n\n", p->topology[i].name,
			p->machine[p->topology[i].machine].name);
}

/* Write DIR/reference.{md,json} and print the Markdown. */
static int table_write(const char *dir, const struct ref_published *p, bool print)
{
	struct ref_table t = { .p = p, .dir = dir };
	struct json_object *arr = json_object_new_array();
	char path[PATH_MAX + 32], final[PATH_MAX + 32];
	size_t n = 0;
	char *buf = NULL;
	FILE *f;
	int rc;

	t.md = open_memstream(&buf, &n);
	if (!t.md)
		return -1;
	t.root = json_object_new_object();
	md_header(&t);
	for (size_t i = 0; i < ARRAY_SIZE(topologies); i++)
		table_topology(&t, topologies[i], arr);
	ref_calib_table(t.md, t.root, dir);
	fprintf(t.md, "\nOrderings matching: %d of %d; ratios within %gx: %d of %d.\n",
		t.orders_yes, t.orders, p->within, t.ratios_yes, t.ratios);
	fclose(t.md);
	json_object_object_add(t.root, "published", json_object_new_string(p->path));
	json_object_object_add(t.root, "topologies", arr);
	json_object_object_add(t.root, "orderings_matching", json_object_new_int(t.orders_yes));
	json_object_object_add(t.root, "orderings_evaluated", json_object_new_int(t.orders));
	json_object_object_add(t.root, "ratios_within", json_object_new_int(t.ratios_yes));
	json_object_object_add(t.root, "ratios_evaluated", json_object_new_int(t.ratios));
	if (print)
		fputs(buf, stdout);
	snprintf(path, sizeof(path), "%s/reference.md.tmp", dir);
	snprintf(final, sizeof(final), "%s/reference.md", dir);
	f = fopen(path, "w");

	rc = !f || fputs(buf, f) < 0;
	rc |= f && fclose(f);
	rc |= !rc && rename(path, final);
	free(buf);
	snprintf(path, sizeof(path), "%s/reference.json", dir);
	rc |= json_object_to_file_ext(path, t.root, JSON_C_TO_STRING_PRETTY |
				      JSON_C_TO_STRING_NOSLASHESCAPE);
	json_object_put(t.root);
	if (rc)
		fprintf(stderr, "bnb-run: reference: cannot write %s/reference.{md,json}\n", dir);
	return rc ? -1 : 0;
}

/* ---- running the suite -------------------------------------------------- */

/* Run EXPERIMENT into DIR, or resume DIR when an earlier suite began it. */
static int run_one(const char *experiment, const char *dir, const struct ref_opts *o, int reps)
{
	int jobs = o->jobs ? o->jobs : JOBS_AUTO;
	struct run_opts ro = { .experiment = experiment, .reps = reps, .jobs = jobs,
			       .no_plots = o->no_plots, .slurm = o->slurm, .sl = o->sl,
			       .batch = o->batch };
	char runs[PATH_MAX + 8];

	snprintf(runs, sizeof(runs), "%s/runs", dir);
	if (!access(runs, F_OK)) {
		ro.resume = (char *)dir;
		return cmd_resume(&ro);
	}
	ro.out = (char *)dir;
	return cmd_run(&ro);
}

static const char *suite_dir(const struct ref_opts *o)
{
	static char def[PATH_MAX];

	return o->suite ? o->suite : root_path(def, sizeof(def), REF_DIR);
}

/*
 * Calibrations (the machine model's, when shipped): every .ini of
 * REF_DIR/calibration named after the class of a topology the suite runs
 * (2socket*.ini for 2n, 4node*.ini for 4n), run once into
 * OUT/calibration-NAME before the programs. None: nothing to do.
 */
/* Whether the topologies run [FIRST, END) include calibration NAME's class. */
static bool calibration_wanted(const char *name, size_t first, size_t end)
{
	for (size_t t = first; t < end; t++) {
		size_t len = strlen(topology_class[t]);

		if (!strncmp(name, topology_class[t], len) &&
		    (name[len] == '.' || name[len] == '-'))
			return true;
	}
	return false;
}

static int run_calibrations(const char *out, const struct ref_opts *o, size_t first,
			    size_t end)
{
	char cdir[PATH_MAX + 16], exp[PATH_MAX * 2], dir[PATH_MAX * 2];
	struct dirent *de;
	int rc = 0, one;
	DIR *d;

	snprintf(cdir, sizeof(cdir), "%s/calibration", suite_dir(o));
	d = opendir(cdir);
	if (!d)
		return 0;
	while (rc != 130 && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 5 || strcmp(de->d_name + len - 4, ".ini") ||
		    !calibration_wanted(de->d_name, first, end))
			continue;
		snprintf(exp, sizeof(exp), "%s/%s", cdir, de->d_name);
		snprintf(dir, sizeof(dir), "%s/calibration-%.*s", out, (int)len - 4, de->d_name);
		one = run_one(exp, dir, o, 1);
		/* a suite for Slurm is submitted whole or not at all */
		rc = one == 130 ? 130 : o->batch && one && !rc ? one : rc;
	}
	closedir(d);
	return rc;
}

static int run_suite(const char *out, const struct ref_published *p, const struct ref_opts *o)
{
	int reps = o->reps ? o->reps : o->quick ? 1 : 3, rc = 0;
	size_t first = o->topology ? o->topology - 1 : 0;
	size_t end = o->topology ? first + 1 : o->quick ? 1 : ARRAY_SIZE(topologies);

	rc = run_calibrations(out, o, first, end);
	if (rc == 130)
		return 130;
	for (size_t t = first; t < end; t++)
		for (int i = 0; i < p->n_progs; i++) {
			char exp[PATH_MAX + 256], dir[PATH_MAX + 256];
			int one;

			snprintf(exp, sizeof(exp), "%s/%s-%s.ini", suite_dir(o), topologies[t],
				 p->prog[i].name);
			snprintf(dir, sizeof(dir), "%s/%s-%s", out, topologies[t], p->prog[i].name);
			one = run_one(exp, dir, o, reps);
			table_write(out, p, false);
			if (one == 130)
				return 130;
			rc = rc ? rc : one;
		}
	return rc;
}

static int out_dir(const struct ref_opts *o, char *dir, size_t len)
{
	char stamp[32], *abs;
	time_t now = time(NULL);

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", gmtime(&now));
	if (o->out)
		snprintf(dir, len, "%s", o->out);
	else
		snprintf(dir, len, "%s/results/%s-reference%s%s%s", bnb_root(), stamp,
			 o->quick ? "-quick" : "", o->topology ? "-" : "",
			 o->topology ? topologies[o->topology - 1] : "");
	if (mkdir_p(dir, 0755)) {
		fprintf(stderr, "bnb-run: reference: cannot create %s: %s\n", dir, strerror(errno));
		return -1;
	}
	abs = realpath(dir, NULL);
	if (abs) {
		snprintf(dir, len, "%s", abs);
		free(abs);
	}
	return 0;
}

/*
 * --slurm: every experiment prepared and checked (its folder, job list and
 * kernels), then all their runs as one array, followed with --wait.
 */
static int suite_slurm(const char *out, const struct ref_published *p, struct ref_opts *o)
{
	struct slurm_batch b = { 0 };
	bool written;
	int rc;

	snprintf(b.name, sizeof(b.name), "bnb-reference");
	o->batch = &b;
	rc = run_suite(out, p, o);
	if (!rc && b.n)
		rc = slurm_submit(&b, out, &o->sl);
	if (rc && rc != 130)
		fprintf(stderr, "bnb-run: reference: nothing was submitted; `bnb-run reference "
			"--out %s --slurm` submits what %s lacks once the cause is fixed\n", out, out);
	if (!rc && !b.n)
		printf("bnb-run: reference: every run in %s ended ok: nothing to submit\n", out);
	if (!rc && b.n && !o->sl.wait)
		printf("bnb-run: afterwards: bnb-run reference --table %s (the table), bnb-run "
		       "report %s/EXPERIMENT (an experiment's summary)\n", out, out);
	if (!rc && b.n && o->sl.wait) {
		runner_catch_signals();
		rc = slurm_wait(&b, &runner_interrupted);
		for (int i = 0; rc != 130 && i < b.n; i++)
			if (report_folder(b.parts[i].dir, !o->no_plots, &written) && !rc)
				rc = 1;
	}
	if (!rc || rc == 1) {
		rc = table_write(out, p, true) && !rc ? 1 : rc;
		printf("bnb-run: reference table in %s/reference.md\n", out);
	}
	slurm_batch_free(&b);
	o->batch = NULL;
	return rc;
}

/* Why the suite's Slurm options do not go together, or NULL. */
static const char *slurm_misuse(const struct ref_opts *o)
{
	if (o->slurm && o->jobs)
		return "--slurm and --jobs: Slurm decides how many runs go at once and where";
	if (o->sl.wait && !o->slurm)
		return "--wait follows a Slurm array: it goes with --slurm";
	if (o->sl.n_sbatch && !o->slurm)
		return "options after -- are sbatch's: they go with --slurm";
	if (o->slurm && o->table)
		return "--table only redraws the table: no --slurm with it";
	return NULL;
}

int cmd_reference(int argc, char **argv)
{
	struct ref_opts o = { 0 };
	char err[PATH_MAX + 512], path[PATH_MAX], out[PATH_MAX];
	static struct ref_published p;
	int first, rc;

	argc = slurm_opts_split(&o.sl, argc, argv);
	first = opt_getopt(ref_options, ARRAY_SIZE(ref_options), argc, argv, &o, false, err,
			   sizeof(err));
	if (first == OPT_HELP || first == OPT_HELP_MARKDOWN) {
		printf("usage: bnb-run reference [--quick] [--topology 2n|4n|8n] [--out DIR] [--reps N]\n"
		       "                         [--jobs N | --slurm [--wait]] [--suite DIR]\n"
		       "                         [-- SBATCH OPTIONS]\n"
		       "       bnb-run reference --table DIR\n\n");
		opt_usage(stdout, ref_options, ARRAY_SIZE(ref_options), "--");
		rc = 0;
	} else if (first < 0 || first < argc) {
		fprintf(stderr, "bnb-run: reference: %s\n",
			first < 0 ? err : "no arguments besides the options");
		rc = 2;
	} else if (slurm_misuse(&o)) {
		fprintf(stderr, "bnb-run: reference: %s\n", slurm_misuse(&o));
		rc = 2;
	} else if (o.slurm && slurm_check(&o.sl)) {
		rc = 2;
	} else if (ref_published_load(o.published ? o.published :
				      root_path(path, sizeof(path), REF_DIR "/published.ini"),
				      &p, err, sizeof(err))) {
		fprintf(stderr, "bnb-run: reference: %s\n", err);
		rc = 2;
	} else if (o.table) {
		rc = table_write(o.table, &p, true) ? 1 : 0;
	} else if (out_dir(&o, out, sizeof(out))) {
		rc = 2;
	} else if (o.slurm) {
		rc = suite_slurm(out, &p, &o);
	} else {
		runner_catch_signals();
		rc = run_suite(out, &p, &o);
		rc = table_write(out, &p, true) && !rc ? 1 : rc;
		printf("bnb-run: reference table in %s/reference.md%s\n", out,
		       rc == 130 ? " (interrupted: finished runs kept)" : "");
	}
	opt_free(ref_options, ARRAY_SIZE(ref_options), &o);
	return rc;
}
