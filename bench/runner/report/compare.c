// SPDX-License-Identifier: GPL-2.0
/* N results folders in MMTests-style tables; see compare.h. */
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <sys/stat.h>
#include <time.h>

#include "report.h"
#include "fmt.h"
#include "compare.h"
#include "experiment/keys.h"
#include "html/html.h"
#include "lib/err.h"
#include "lib/path.h"
#include "lib/util.h"
#include "verdict.h"
#include "versus.h"

#define MAX_REPS 1024

const char *const cmp_stat_names[N_CS] = {
	[CS_AMEAN] = "Amean", [CS_STDDEV] = "Stddev", [CS_CV] = "CoeffVar",
	[CS_MIN] = "Min", [CS_MAX] = "Max",
};

/* Variants of the first folder that every folder has, else by position. */
static void match_variants(struct cmp *c)
{
	const struct experiment *e0 = &c->r[0].exp;
	int i, k, n_min = e0->n_variants;

	c->pairs = calloc((size_t)e0->n_variants, sizeof(*c->pairs));
	for (i = 0; i < e0->n_variants; i++) {
		const char *name = e0->variants[i].name;
		struct cmp_pair *p = &c->pairs[c->n_pairs];

		for (k = 0; k < c->n && experiment_variant(&c->r[k].exp, name) &&
		     results_has_runs(&c->r[k], name); k++)
			p->name[k] = name;
		if (k == c->n)
			c->n_pairs++;
	}
	if (c->n_pairs)
		return;
	for (k = 1; k < c->n; k++)
		if (c->r[k].exp.n_variants < n_min)
			n_min = c->r[k].exp.n_variants;
	for (i = 0; i < n_min; i++, c->n_pairs++)
		for (k = 0; k < c->n; k++)
			c->pairs[i].name[k] = c->r[k].exp.variants[i].name;
}

/* Folder K again (by its real path): comparing it with itself says nothing. */
static int same_folder(const struct cmp *c, int k, char *err, size_t errlen)
{
	char quoted[PATH_MAX];

	for (int i = 0; i < k; i++)
		if (!strcmp(c->r[i].dir, c->r[k].dir))
			return errf(err, errlen, "%s is given twice (as folders %c and %c): compare "
				    "needs different folders", printable(c->r[k].dir, quoted,
				    sizeof(quoted)), 'A' + i, 'A' + k);
	return 0;
}

int cmp_load(struct cmp *c, const char *const *dirs, int n, char *err, size_t errlen)
{
	char why[512];
	int k;

	memset(c, 0, sizeof(*c));
	if (n < 2 || n > CMP_MAX_DIRS) {
		snprintf(err, errlen, "compare wants 2 to %d folders, got %d", CMP_MAX_DIRS, n);
		return -1;
	}
	for (k = 0; k < n; k++, c->n++) {
		c->dir[k] = dirs[k];
		if (results_load(dirs[k], &c->r[k], why, sizeof(why))) {
			snprintf(err, errlen, "%s: %s", dirs[k], why);
			cmp_free(c);
			return -1;
		}
		if (same_folder(c, k, err, errlen)) {
			c->n++;
			cmp_free(c);
			return -1;
		}
	}
	match_variants(c);
	return 0;
}

static double pct(double v, double base)
{
	return isfinite(v) && isfinite(base) && base != 0 ? 100 * (v - base) / fabs(base) : NAN;
}

static void fill_cell(struct cmp_cell *cell, const double *base, int nb, const double *v, int n)
{
	struct describe d;

	stats_describe(v, n, &d);
	cell->n = d.n;
	cell->v[CS_AMEAN] = d.mean;
	cell->v[CS_STDDEV] = d.stddev;
	cell->v[CS_CV] = isfinite(d.cv) ? 100 * d.cv : NAN;
	cell->v[CS_MIN] = d.min;
	cell->v[CS_MAX] = d.max;
	stats_welch(base, nb, v, n, &cell->w);
}

/* The union of the metrics of pair P over every folder. */
static int pair_metrics(const struct cmp *c, int p, struct metric_info *out)
{
	static struct metric_info more[METRICS_MAX];
	int k, i, j, n, m;

	n = results_metrics(&c->r[0], c->pairs[p].name[0], out, METRICS_MAX);
	for (k = 1; k < c->n; k++) {
		m = results_metrics(&c->r[k], c->pairs[p].name[k], more, METRICS_MAX);
		for (i = 0; i < m && n < METRICS_MAX; i++) {
			for (j = 0; j < n && strcmp(out[j].name, more[i].name); j++)
				;
			if (j == n)
				out[n++] = more[i];
		}
	}
	return n;
}

static bool row_has_data(const struct cmp_row *row, int n)
{
	int k;

	for (k = 0; k < n; k++)
		if (isfinite(row->cell[k].v[CS_AMEAN]))
			return true;
	return false;
}

/*
 * Each folder against the first, per variant pair: the primary metrics
 * tested as they are, the others one family under Holm's correction.
 */
static void correct(struct cmp *c)
{
	struct family_test *t = calloc(c->n_rows ? c->n_rows : 1, sizeof(*t));
	int p, k, i, n;

	for (p = 0; p < c->n_pairs; p++) {
		for (k = 0; k < c->n; k++) {
			for (i = n = 0; i < c->n_rows; i++)
				if (c->rows[i].pair == p && t)
					t[n++] = (struct family_test) { .p = c->rows[i].cell[k].w.p,
									.primary = c->rows[i].primary };
			/* folder A against itself, or out of memory: nothing is tested */
			if (k && t)
				stats_family(t, n);
			for (i = n = 0; i < c->n_rows; i++) {
				if (c->rows[i].pair != p)
					continue;
				c->rows[i].cell[k].t = k && t ? t[n] :
					(struct family_test) { NAN, c->rows[i].primary, NAN, false };
				n++;
			}
		}
	}
	free(t);
}

void cmp_build(struct cmp *c)
{
	static struct metric_info metrics[METRICS_MAX];
	static double base[MAX_REPS], v[MAX_REPS];
	int p, i, k, s, nb, nv, n_metrics;

	for (p = 0; p < c->n_pairs; p++) {
		n_metrics = pair_metrics(c, p, metrics);
		c->rows = realloc(c->rows, (size_t)(c->n_rows + n_metrics) * sizeof(*c->rows));
		for (i = 0; i < n_metrics; i++) {
			struct cmp_row *row = &c->rows[c->n_rows];

			memset(row, 0, sizeof(*row));
			row->pair = p;
			row->m = metrics[i];
			row->primary = metric_is_primary(&c->r[0].exp.primary, row->m.name);
			nb = results_values_named(&c->r[0], c->pairs[p].name[0], row->m.name, base,
						  MAX_REPS);
			for (k = 0; k < c->n; k++) {
				nv = results_values_named(&c->r[k], c->pairs[p].name[k], row->m.name,
							  v, MAX_REPS);
				fill_cell(&row->cell[k], base, nb, v, nv);
				for (s = 0; s < N_CS; s++)
					row->cell[k].pct[s] = pct(row->cell[k].v[s], row->cell[0].v[s]);
			}
			c->n_rows += row_has_data(row, c->n);
		}
	}
	correct(c);
}

/* Experiment keys whose value differs between two variants, each a pattern list. */
static const struct {
	const char *key;
	const char *prov[12];
} explained[] = {
	/* another kernel has other knobs, defaults and sysfs switches */
	{ "kernel", { "kernel", "kernel_*", "series_hash", "config_fragments_hash",
		      "guest.uname_*", "guest.sysctl.*", "guest.debugfs.*", "guest.sysfs.*",
		      NULL } },
	{ "balancing", { "guest.cmdline", "guest.sysctl.kernel.numa_balancing", NULL } },
	{ "append", { "guest.cmdline", NULL } },
	/* bnb-vm picks the QEMU and the plugin build by plugin, accel and timing */
	{ "latency", { "plugin*", "qemu*", NULL } },
	{ "plugin_opts", { "plugin_opts", NULL } },
	{ "accel", { "accel", "plugin*", "qemu*", NULL } },
	{ "timing", { "timing", "icount_shift", "insn_ps", "plugin*", "qemu*", NULL } },
	{ "icount_shift", { "icount_shift", "insn_ps", NULL } },
	{ "scale_scan", { "guest.sysctl.kernel.numa_balancing_scan_*",
			  "guest.debugfs.numa_balancing.scan_*", NULL } },
};

#define MAX_IGNORED 128

static void ignore(const char **list, int *n, const char *pattern)
{
	if (*n < MAX_IGNORED - 1)
		list[(*n)++] = pattern;
	list[*n] = NULL;
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* KEY's text in V as the experiment file gave it (inherited), or NULL. */
static const char *setting(const struct variant *v, const char *key)
{
	int i;

	for (i = 0; i < v->n_settings; i++)
		if (!strcmp(v->settings[i].key, key))
			return v->settings[i].value;
	return NULL;
}

/*
 * The provenance key bnb-monitor records the knob file PATH under: a
 * debugfs scan tunable, or a switch of /sys/kernel/mm/numa (bench/monitor/prov.c).
 */
static void prov_file_key(const char *path, char *key, size_t len)
{
	const char *name = strrchr(path, '/') + 1;

	if (!strncmp(path, SYSFS_NUMA, strlen(SYSFS_NUMA)))
		snprintf(key, len, "guest.sysfs.kernel.mm.numa.%s", name);
	else
		snprintf(key, len, "guest.debugfs.numa_balancing.%s", name);
}

/* The sysctl.* keys of V and W whose values differ, as provenance keys. */
static void sysctl_differences(const struct variant *v, const struct variant *w,
			       const char **list, int *n, char names[][160], int *n_names)
{
	const struct variant *both[2] = { v, w };
	struct sysctl_target t;
	int side, i;

	for (side = 0; side < 2; side++) {
		for (i = 0; i < both[side]->n_settings && *n_names < 32; i++) {
			const char *key = both[side]->settings[i].key;

			if (strncmp(key, SYSCTL_PREFIX, strlen(SYSCTL_PREFIX)) ||
			    same(setting(v, key), setting(w, key)) || sysctl_target(key, &t))
				continue;
			snprintf(names[*n_names], 160, "guest.sysctl.%s", t.sysctl);
			ignore(list, n, names[(*n_names)++]);
			if (t.debugfs) {
				prov_file_key(t.debugfs, names[*n_names], 160);
				ignore(list, n, names[(*n_names)++]);
			}
		}
	}
}

/*
 * Whether V and W differ in a [machine] key: the machine model's
 * parameters reach the plugin as its options (bench/model/machine.h).
 */
static bool machine_differs(const struct variant *v, const struct variant *w)
{
	size_t n, i;
	const struct opt_def *keys = key_table(&n);

	for (i = 0; i < n; i++)
		if (keys[i].scope == KS_MACHINE &&
		    !same(setting(v, keys[i].name), setting(w, keys[i].name)))
			return true;
	return false;
}

/* What the experiments set differently explains these provenance keys. */
static void explained_keys(const struct variant *v, const struct variant *w, const char **list,
			   int *n, char names[][160], int *n_names)
{
	size_t i, j;

	ignore(list, n, "host_loadavg_*");	/* conditions, reported per folder */
	if (machine_differs(v, w))
		ignore(list, n, "plugin_opts");
	for (i = 0; i < ARRAY_SIZE(explained); i++) {
		if (same(setting(v, explained[i].key), setting(w, explained[i].key)))
			continue;
		for (j = 0; explained[i].prov[j]; j++)
			ignore(list, n, explained[i].prov[j]);
	}
	sysctl_differences(v, w, list, n, names, n_names);
}

/* The provenance of the first finished run of VARIANT (any run if none). */
static struct json_object *prov_of(const struct results *r, const char *variant)
{
	struct json_object *any = NULL;
	int i;

	for (i = 0; i < r->n_runs; i++) {
		if (strcmp(r->runs[i].variant, variant) || !r->runs[i].prov)
			continue;
		if (r->runs[i].status == RUN_OK)
			return r->runs[i].prov;
		any = any ? any : r->runs[i].prov;
	}
	return any;
}

/* The kernel's path means nothing when both name the same cached build. */
static bool same_build(struct json_object *a, struct json_object *b)
{
	struct json_object *ka, *kb;

	return json_object_object_get_ex(a, "kernel_key", &ka) &&
	       json_object_object_get_ex(b, "kernel_key", &kb) &&
	       strcmp(json_object_get_string(ka), "unknown") &&
	       !strcmp(json_object_get_string(ka), json_object_get_string(kb));
}

void cmp_provenance(struct cmp *c)
{
	static char names[32][160];
	static struct prov_diff d[CMP_MAX_WARN];
	const char *ignored[MAX_IGNORED];
	int p, k, i, n, n_ignored, n_names;

	for (p = 0; p < c->n_pairs; p++) {
		const struct variant *v0 = experiment_variant(&c->r[0].exp, c->pairs[p].name[0]);
		struct json_object *a = prov_of(&c->r[0], c->pairs[p].name[0]);

		for (k = 1; k < c->n && a; k++) {
			const struct variant *vk = experiment_variant(&c->r[k].exp,
								      c->pairs[p].name[k]);
			struct json_object *b = prov_of(&c->r[k], c->pairs[p].name[k]);

			if (!b || !v0 || !vk)
				continue;
			c->prov_compared++;
			n_ignored = n_names = 0;
			explained_keys(v0, vk, ignored, &n_ignored, names, &n_names);
			if (same_build(a, b))
				ignore(ignored, &n_ignored, "kernel");
			n = prov_compare(a, b, ignored, d, CMP_MAX_WARN);
			for (i = 0; i < n && i < CMP_MAX_WARN && c->n_warn < CMP_MAX_WARN; i++)
				c->warn[c->n_warn++] = (struct cmp_warning){ k, p, d[i] };
		}
	}
}

static const char *folder_label(const struct cmp *c, int k, char *buf, size_t len)
{
	snprintf(buf, len, "%c: %s", 'A' + k, c->dir[k]);
	return buf;
}

static const char *better_text(enum better b)
{
	return b == BETTER_LOWER ? ", lower is better" : b == BETTER_HIGHER ?
	       ", higher is better" : "";
}

/* "12.3 (-4.07%)", with " *" on a significant mean */
static void md_cell(FILE *f, const struct cmp_cell *cell, int s, bool first)
{
	char v[32], d[32];

	fmt_num(cell->v[s], v, sizeof(v));
	if (first || !isfinite(cell->pct[s])) {
		fprintf(f, " %s%s |", v, s == CS_CV && isfinite(cell->v[s]) ? "%" : "");
		return;
	}
	snprintf(d, sizeof(d), "%+.2f%%", cell->pct[s]);
	fprintf(f, " %s%s (%s)%s |", v, s == CS_CV ? "%" : "", d,
		s == CS_AMEAN && cell->t.significant ? " *" : "");
}

static void md_warnings(const struct cmp *c, FILE *f)
{
	char label[PATH_MAX + 8];
	int i;

	if (!c->prov_compared) {
		fprintf(f, "Provenance: not recorded in these folders (runs made before the "
			"runner kept it), so nothing could be checked.\n\n");
		return;
	}
	if (!c->n_warn) {
		fprintf(f, "Provenance: no difference between the folders beyond what their "
			"experiment files set.\n\n");
		return;
	}
	fprintf(f, "**Warning: provenance differs beyond what the experiment files set** "
		"(the numbers may not be comparable):\n\n| folder | variant | key | %s | this folder |\n"
		"|---|---|---|---|---|\n", folder_label(c, 0, label, sizeof(label)));
	for (i = 0; i < c->n_warn; i++) {
		const struct cmp_warning *w = &c->warn[i];

		fprintf(f, "| %c | %s | %s | %s | %s |\n", 'A' + w->dir,
			c->pairs[w->pair].name[w->dir], w->d.key, w->d.a, w->d.b);
	}
	fprintf(f, "\n");
}

static void md_load(const struct cmp *c, FILE *f)
{
	int k, i;

	fprintf(f, "Host load average (1, 5, 15 min) at the start of each folder's first run "
		"and the end of its last:\n\n");
	for (k = 0; k < c->n; k++) {
		const char *start = NULL, *end = NULL;

		for (i = 0; i < c->r[k].n_runs; i++) {
			struct json_object *p = c->r[k].runs[i].prov, *v;

			if (p && !start && json_object_object_get_ex(p, "host_loadavg_start", &v))
				start = json_object_get_string(v);
			if (p && json_object_object_get_ex(p, "host_loadavg_end", &v))
				end = json_object_get_string(v);
		}
		fprintf(f, "- %c: %s .. %s\n", 'A' + k, start ? start : "unknown",
			end ? end : "unknown");
	}
	fprintf(f, "\n");
}

/* The latency mode of R's first run that recorded one. */
static const char *folder_latency(const struct results *r)
{
	int i;

	for (i = 0; i < r->n_runs; i++)
		if (r->runs[i].latency[0])
			return r->runs[i].latency;
	return "unknown";
}

/* Diff [95 % CI], then the p-values: the effect before the test. */
static void md_tests(FILE *f, const struct cmp_row *row, int n)
{
	char a[32], b[32], d[32];
	int k;

	fprintf(f, "| Diff [95%% CI] | |");
	for (k = 1; k < n; k++) {
		const struct welch *w = &row->cell[k].w;

		if (isfinite(w->diff))
			fprintf(f, " %s [%s, %s] |", fmt_num(w->diff, d, sizeof(d)),
				fmt_num(w->ci_lo, a, sizeof(a)), fmt_num(w->ci_hi, b, sizeof(b)));
		else
			fprintf(f, " - |");
	}
	fprintf(f, "\n| p (Welch) | |");
	for (k = 1; k < n; k++)
		fprintf(f, " %s |", fmt_p(row->cell[k].w.p, a, sizeof(a)));
	fprintf(f, "\n| p (Holm) | |");
	for (k = 1; k < n; k++)
		fprintf(f, " %s |", row->primary ? "primary" :
			fmt_p(row->cell[k].t.p_adj, a, sizeof(a)));
	fprintf(f, "\n");
}

/* Each folder against A, variant by variant: the verdict first. */
static void md_verdict(const struct cmp *c, FILE *f)
{
	char la[EXP_NAME_MAX * 2 + 8], lb[EXP_NAME_MAX * 2 + 8];
	struct json_object *o;
	int p, k;

	fprintf(f, "## Verdict\n\n");
	for (p = 0; p < c->n_pairs; p++)
		for (k = 1; k < c->n; k++) {
			snprintf(la, sizeof(la), "A %s", c->pairs[p].name[0]);
			snprintf(lb, sizeof(lb), "%c %s", 'A' + k, c->pairs[p].name[k]);
			o = verdict_pair(&c->r[0], c->pairs[p].name[0], &c->r[k],
					 c->pairs[p].name[k], la, lb, f);
			json_object_put(o);
		}
}

static bool any_refused(const struct results *r)
{
	for (int i = 0; i < r->n_runs; i++)
		if (r->runs[i].refused[0])
			return true;
	return false;
}

/* Refused values and damaged files, per folder: never left out quietly. */
static void md_problems(const struct cmp *c, FILE *f)
{
	int k;

	for (k = 0; k < c->n; k++) {
		if (!report_problems(&c->r[k], NULL, NULL) && !any_refused(&c->r[k]))
			continue;
		fprintf(f, "In folder %c:\n\n", 'A' + k);
		report_problems(&c->r[k], f, NULL);
		fprintf(f, "\n");
	}
}

void cmp_markdown(const struct cmp *c, FILE *f)
{
	char label[PATH_MAX + 8];
	int i, k, s, pair = -1;

	char note[1024];

	fprintf(f, "# Compare %d folders\n\n", c->n);
	for (k = 0; k < c->n; k++)
		fprintf(f, "- %s (%s). %s %s\n", folder_label(c, k, label, sizeof(label)),
			c->r[k].exp.name, latency_note(folder_latency(&c->r[k])),
			time_dilation_note(&c->r[k], note, sizeof(note)));
	fprintf(f, "\n");
	md_verdict(c, f);
	md_warnings(c, f);
	md_problems(c, f);
	md_load(c, f);
	for (i = 0; i < c->n_rows; i++) {
		const struct cmp_row *row = &c->rows[i];

		if (row->pair != pair) {
			pair = row->pair;
			fprintf(f, "## Variant %s\n\n", c->pairs[pair].name[0]);
		}
		fprintf(f, "### %s (%s%s%s)\n\n| |", row->m.label, row->m.unit[0] ? row->m.unit : "-",
			better_text(row->m.better), row->primary ? "; primary" : "");
		for (k = 0; k < c->n; k++)
			fprintf(f, " %c %s |", 'A' + k, c->pairs[pair].name[k]);
		fprintf(f, "\n|---|");
		for (k = 0; k < c->n; k++)
			fprintf(f, "---|");
		fprintf(f, "\n");
		for (s = 0; s < N_CS; s++) {
			fprintf(f, "| %s |", cmp_stat_names[s]);
			for (k = 0; k < c->n; k++)
				md_cell(f, &row->cell[k], s, k == 0);
			fprintf(f, "\n");
		}
		fprintf(f, "| n |");
		for (k = 0; k < c->n; k++)
			fprintf(f, " %d |", row->cell[k].n);
		fprintf(f, "\n");
		md_tests(f, row, c->n);
		fprintf(f, "\n");
	}
	fprintf(f, "Percentages are differences from folder A. Diff is the difference of the "
		"means from A's with its 95 %% confidence interval (Welch). `*` marks a mean "
		"that differs from A's significantly, p < %.2f (Welch's t-test, two-sided): for "
		"the primary metrics of A's experiment (", STATS_ALPHA);
	for (i = 0; i < c->r[0].exp.primary.n; i++)
		fprintf(f, "%s`%s`", i ? ", " : "", c->r[0].exp.primary.v[i]);
	fprintf(f, ") as tested; for every other metric by Holm's adjusted p, one family per "
		"folder and variant, which keeps the chance of any false alarm among them at "
		"5 %%. CoeffVar is Stddev / Amean in percent.\n");
}

static void csv_text(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.10g", v);
	else
		fputc(',', f);
}

/* p_holm, diff and its CI on a folder's Amean line */
static void csv_tests(FILE *f, const struct cmp_cell *cell, bool tested, bool primary)
{
	csv_num(f, tested && !primary ? cell->t.p_adj : NAN);
	csv_num(f, tested ? cell->w.diff : NAN);
	csv_num(f, tested ? cell->w.ci_lo : NAN);
	csv_num(f, tested ? cell->w.ci_hi : NAN);
}

void cmp_csv(const struct cmp *c, FILE *f)
{
	int i, k, s;

	fprintf(f, "variant,metric,unit,better,folder,dir,stat,value,diff_pct,p_value,significant,"
		"primary,p_holm,diff,diff_ci95_lo,diff_ci95_hi\n");
	for (i = 0; i < c->n_rows; i++) {
		const struct cmp_row *row = &c->rows[i];

		for (k = 0; k < c->n; k++) {
			for (s = 0; s < N_CS; s++) {
				csv_text(f, c->pairs[row->pair].name[k]);
				fputc(',', f);
				csv_text(f, row->m.name);
				fputc(',', f);
				csv_text(f, row->m.unit);
				fprintf(f, ",%s,%c,", row->m.better == BETTER_LOWER ? "lower" :
					row->m.better == BETTER_HIGHER ? "higher" : "none", 'A' + k);
				csv_text(f, c->dir[k]);
				fprintf(f, ",%s", cmp_stat_names[s]);
				csv_num(f, row->cell[k].v[s]);
				csv_num(f, k ? row->cell[k].pct[s] : NAN);
				csv_num(f, s == CS_AMEAN && k ? row->cell[k].w.p : NAN);
				fprintf(f, ",%s,%s", s == CS_AMEAN && k && row->cell[k].t.significant ?
					"yes" : "", row->primary ? "yes" : "");
				csv_tests(f, &row->cell[k], s == CS_AMEAN && k, row->primary);
				fputc('\n', f);
			}
		}
	}
}

static struct json_object *jnum(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static struct json_object *cell_json(const struct cmp *c, const struct cmp_row *row, int k)
{
	struct json_object *o = json_object_new_object();
	const struct cmp_cell *cell = &row->cell[k];
	char key[32];
	int s;

	json_object_object_add(o, "folder", json_object_new_string(c->dir[k]));
	json_object_object_add(o, "variant", json_object_new_string(c->pairs[row->pair].name[k]));
	json_object_object_add(o, "n", json_object_new_int(cell->n));
	for (s = 0; s < N_CS; s++) {
		json_object_object_add(o, cmp_stat_names[s], jnum(cell->v[s]));
		if (!k)
			continue;
		snprintf(key, sizeof(key), "%s_diff_pct", cmp_stat_names[s]);
		json_object_object_add(o, key, jnum(cell->pct[s]));
	}
	if (k) {
		json_object_object_add(o, "diff", jnum(cell->w.diff));
		json_object_object_add(o, "diff_ci95_lo", jnum(cell->w.ci_lo));
		json_object_object_add(o, "diff_ci95_hi", jnum(cell->w.ci_hi));
		json_object_object_add(o, "p_value", jnum(cell->w.p));
		json_object_object_add(o, "p_holm", row->primary ? NULL : jnum(cell->t.p_adj));
		json_object_object_add(o, "significant",
				       json_object_new_boolean(cell->t.significant));
	}
	return o;
}

/* The verdicts' JSON; their text goes nowhere here. */
static struct json_object *verdicts_json(const struct cmp *c)
{
	struct json_object *arr = json_object_new_array(), *o;
	char la[EXP_NAME_MAX * 2 + 8], lb[EXP_NAME_MAX * 2 + 8], *buf = NULL;
	size_t len = 0;
	FILE *sink = open_memstream(&buf, &len);
	int p, k;

	for (p = 0; sink && p < c->n_pairs; p++)
		for (k = 1; k < c->n; k++) {
			snprintf(la, sizeof(la), "A %s", c->pairs[p].name[0]);
			snprintf(lb, sizeof(lb), "%c %s", 'A' + k, c->pairs[p].name[k]);
			o = verdict_pair(&c->r[0], c->pairs[p].name[0], &c->r[k],
					 c->pairs[p].name[k], la, lb, sink);
			if (!o)
				continue;
			json_object_object_add(o, "folder", json_object_new_string(c->dir[k]));
			json_object_array_add(arr, o);
		}
	if (sink)
		fclose(sink);
	free(buf);
	return arr;
}

struct json_object *cmp_json(const struct cmp *c)
{
	struct json_object *root = json_object_new_object(), *a = json_object_new_array();
	struct json_object *tables = json_object_new_array(), *warn = json_object_new_array();
	int i, k;

	for (k = 0; k < c->n; k++)
		json_object_array_add(a, json_object_new_string(c->dir[k]));
	json_object_object_add(root, "folders", a);
	for (i = 0; i < c->n_warn; i++) {
		struct json_object *w = json_object_new_object();

		json_object_object_add(w, "folder", json_object_new_string(c->dir[c->warn[i].dir]));
		json_object_object_add(w, "variant", json_object_new_string(
			c->pairs[c->warn[i].pair].name[c->warn[i].dir]));
		json_object_object_add(w, "key", json_object_new_string(c->warn[i].d.key));
		json_object_object_add(w, "first", json_object_new_string(c->warn[i].d.a));
		json_object_object_add(w, "this", json_object_new_string(c->warn[i].d.b));
		json_object_array_add(warn, w);
	}
	json_object_object_add(root, "provenance_warnings", warn);
	json_object_object_add(root, "verdict", verdicts_json(c));
	json_object_object_add(root, "correction", json_object_new_string(
		"holm over the metrics that are not primary, per folder and variant"));
	for (i = 0; i < c->n_rows; i++) {
		const struct cmp_row *row = &c->rows[i];
		struct json_object *t = json_object_new_object(), *cells = json_object_new_array();

		json_object_object_add(t, "variant", json_object_new_string(
			c->pairs[row->pair].name[0]));
		json_object_object_add(t, "metric", json_object_new_string(row->m.name));
		json_object_object_add(t, "primary", json_object_new_boolean(row->primary));
		json_object_object_add(t, "unit", json_object_new_string(row->m.unit));
		json_object_object_add(t, "better", json_object_new_string(
			row->m.better == BETTER_LOWER ? "lower" :
			row->m.better == BETTER_HIGHER ? "higher" : "none"));
		for (k = 0; k < c->n; k++)
			json_object_array_add(cells, cell_json(c, row, k));
		json_object_object_add(t, "folders", cells);
		json_object_array_add(tables, t);
	}
	json_object_object_add(root, "tables", tables);
	return root;
}

/* results/<UTC time>-compare-A+B..., named after the folders compared. */
static void default_out(const struct cmp *c, char *buf, size_t len)
{
	char stamp[32];
	time_t now = time(NULL);
	size_t used;
	int k;

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", gmtime(&now));
	used = (size_t)snprintf(buf, len, "%s/results/%s-compare-", bnb_root(), stamp);
	for (k = 0; k < c->n && used < len; k++) {
		char *copy = strdup(c->r[k].dir);

		used += (size_t)snprintf(buf + used, len - used, "%s%.40s", k ? "+" : "",
					 copy ? basename(copy) : "?");
		free(copy);
	}
}

static int errno_fail(const char *dir)
{
	fprintf(stderr, "bnb-run: compare: cannot create %s: %s\n", dir, strerror(errno));
	return -1;
}

/* BASE, or BASE-2, -3 ... when a compare of the same second took it: a new folder. */
static int make_new(const char *base, char *dir, size_t len)
{
	char parent[PATH_MAX];
	int i;

	snprintf(parent, sizeof(parent), "%s", base);
	if (mkdir_p(dirname(parent), 0755))
		return -1;
	for (i = 1; i < 100; i++) {
		if ((i == 1 ? snprintf(dir, len, "%s", base) :
		     snprintf(dir, len, "%s-%d", base, i)) >= (int)len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		if (!mkdir(dir, 0755))
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/* Refuse DIR when it is, or lies in, a folder compared: checked before creating it. */
static int outside_inputs(const struct cmp *c, const char *dir)
{
	char abs[PATH_MAX];
	int k;

	if (path_resolve(dir, abs, sizeof(abs))) {
		fprintf(stderr, "bnb-run: compare: cannot resolve %s\n", dir);
		return -1;
	}
	for (k = 0; k < c->n; k++)
		if (path_inside(abs, c->r[k].dir)) {
			fprintf(stderr, "bnb-run: compare: %s is inside the compared folder %s; "
				"compare never writes into a folder it reads (--out)\n", dir,
				c->r[k].dir);
			return -1;
		}
	return 0;
}

/* Create DIR (OUT, or a new default one) where no compared folder is. */
static int make_out(const struct cmp *c, const char *out, char *dir, size_t len)
{
	char base[PATH_MAX];
	char *abs;

	if (out) {
		snprintf(dir, len, "%s", out);
		if (outside_inputs(c, dir))
			return -1;
		if (mkdir_p(out, 0755))
			return errno_fail(dir);
	} else {
		default_out(c, base, sizeof(base));
		if (outside_inputs(c, base))
			return -1;
		if (make_new(base, dir, len))
			return errno_fail(base);
	}
	abs = realpath(dir, NULL);
	if (!abs)
		return errno_fail(dir);
	snprintf(dir, len, "%s", abs);
	free(abs);
	return 0;
}

int cmp_write(const struct cmp *c, const char *out, char *wrote, size_t len)
{
	char path[PATH_MAX + 16];
	struct json_object *j;
	int rc = 0;
	FILE *f;

	if (make_out(c, out, wrote, len))
		return -1;
	j = cmp_json(c);
	snprintf(path, sizeof(path), "%s/compare.md", wrote);
	f = fopen(path, "w");
	if (f)
		cmp_markdown(c, f);
	rc |= !f || fclose(f);
	snprintf(path, sizeof(path), "%s/compare.csv", wrote);
	f = fopen(path, "w");
	if (f)
		cmp_csv(c, f);
	rc |= !f || fclose(f);
	snprintf(path, sizeof(path), "%s/compare.json", wrote);
	rc |= json_object_to_file_ext(path, j, JSON_C_TO_STRING_PRETTY |
				      JSON_C_TO_STRING_NOSLASHESCAPE) != 0;
	json_object_put(j);
	if (rc)
		fprintf(stderr, "bnb-run: compare: cannot write %s/compare.{md,csv,json}\n", wrote);
	return rc ? -1 : 0;
}

void cmp_free(struct cmp *c)
{
	int k;

	for (k = 0; k < c->n; k++)
		results_free(&c->r[k]);
	free(c->pairs);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

struct compare_opts {
	char *out;
};

static const struct opt_def compare_options[] = {
	{ "out", OPT_STR, OPT_FIELD(struct compare_opts, out), .flags = OPTF_NONEMPTY,
	  .metavar = "DIR", .help = "write compare.{md,csv,json,html} here (default: a new folder "
	  "results/<UTC time>-compare-A+B...); never one of the folders compared" },
};

int cmd_compare(int argc, char **argv)
{
	char err[PATH_MAX + 512], wrote[PATH_MAX];
	struct compare_opts o = { 0 };
	struct cmp c;
	int rc = 0, first;

	first = opt_getopt(compare_options, ARRAY_SIZE(compare_options), argc, argv, &o, false,
			   err, sizeof(err));
	if (first == OPT_HELP || first == OPT_HELP_MARKDOWN) {
		printf("usage: bnb-run compare [--out DIR] DIR1 DIR2 [DIR...]\n\n");
		opt_usage(stdout, compare_options, ARRAY_SIZE(compare_options), "--");
		opt_free(compare_options, ARRAY_SIZE(compare_options), &o);
		return 0;
	}
	if (first < 0 || cmp_load(&c, (const char *const *)argv + first, argc - first, err,
				  sizeof(err))) {
		prog_error("compare: %s", err);
		opt_free(compare_options, ARRAY_SIZE(compare_options), &o);
		return 2;
	}
	if (o.out && outside_inputs(&c, o.out)) {
		cmp_free(&c);
		opt_free(compare_options, ARRAY_SIZE(compare_options), &o);
		return 2;
	}
	cmp_build(&c);
	cmp_provenance(&c);
	for (int k = 0; k < c.n; k++) {
		int lost;

		if (report_problems(&c.r[k], NULL, stderr) && !rc)
			rc = 1;
		/* runs left out are said; one whose status file is damaged is lost */
		report_unfinished(&c.r[k], stderr, &lost);
		if (lost && !rc)
			rc = 1;
	}
	if (!c.n_rows) {
		fprintf(stderr, "bnb-run: compare: no variant with finished runs in every folder\n");
		rc = 1;
	}
	cmp_markdown(&c, stdout);
	if (cmp_write(&c, o.out, wrote, sizeof(wrote)) || html_write(wrote, "compare"))
		rc = rc ? rc : 1;
	else
		fprintf(stderr, "bnb-run: compare: written to %s/compare.{md,csv,json,html}\n",
			wrote);
	cmp_free(&c);
	opt_free(compare_options, ARRAY_SIZE(compare_options), &o);
	return rc;
}
