// SPDX-License-Identifier: GPL-2.0
/*
 * gnuplot plots. For every plot a self-contained script is written to
 * DIR/plots/NAME.gp (re-runnable by hand: cd DIR/plots && gnuplot NAME.gp)
 * that draws the same body once as PNG and once as SVG, from whitespace
 * data files in DIR/plots/data/ derived here from the runs' CSV files.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "account/account_plot.h"
#include "extract/csv.h"
#include "plot.h"
#include "plot_gp.h"
#include "plot_parts.h"
#include "run/fsio.h"
#include "report/report.h"
#include "runner.h"
#include "report/stats.h"
#include "report/sweep_report.h"

/* One run's data files, written once, used by several plots. */
struct run_files {
	const struct run *run;
	char ts[PATH_MAX];	/* relative to the plots dir, "" if no data */
	char wl[PATH_MAX];
};

static int write_wl_data(struct plot_ctx *p, const char *run_dir, const char *path)
{
	char in[PATH_MAX * 2], err[256];
	struct csv t;
	int tc, rc, lc, i, rows = 0;
	FILE *f;

	snprintf(in, sizeof(in), "%s/workload.csv", run_dir);
	if (csv_load(in, &t, err, sizeof(err)))
		return 0;
	tc = csv_col(&t, "t_s");
	rc = csv_col(&t, "rate");
	lc = csv_col(&t, "locality");
	f = fopen(path, "w");
	for (i = 0; f && tc >= 0 && i < t.nrows; i++) {
		double v[3] = { csv_at(&t, i, tc), rc < 0 ? NAN : csv_at(&t, i, rc),
				lc < 0 ? NAN : csv_at(&t, i, lc) };
		int k;

		if (!isfinite(v[0]))
			continue;
		for (k = 0; k < 3; k++)
			fprintf(f, isfinite(v[k]) ? "%s%.6g" : "%s?", k ? " " : "", v[k]);
		fprintf(f, "\n");
		rows++;
	}
	if (!plot_file_done(p, f, path))
		rows = 0;
	csv_free(&t);
	return rows;
}

static void prepare_run(struct plot_ctx *p, const struct run *run, struct run_files *rf)
{
	char abs[PATH_MAX * 3];
	struct series s;

	rf->run = run;
	rf->ts[0] = rf->wl[0] = 0;
	if (!series_load(run->dir, &s)) {
		snprintf(rf->ts, sizeof(rf->ts), "data/%s-rep%d.ts.dat", run->variant, run->rep);
		snprintf(abs, sizeof(abs), "%s/%s", p->dir, rf->ts);
		if (!s.n)
			rf->ts[0] = 0;
		else if (series_write(abs, &s)) {
			plot_write_failed(p, abs, errno);
			rf->ts[0] = 0;
		}
		series_free(&s);
	}
	snprintf(rf->wl, sizeof(rf->wl), "data/%s-rep%d.wl.dat", run->variant, run->rep);
	snprintf(abs, sizeof(abs), "%s/%s", p->dir, rf->wl);
	if (!write_wl_data(p, run->dir, abs))
		rf->wl[0] = 0;
}

/* Median series of VARIANT's runs into data/VARIANT.median.dat. */
static bool prepare_median(struct plot_ctx *p, const char *variant, char *rel, size_t len)
{
	struct series in[256], med;
	char abs[PATH_MAX * 3];
	int i, n = 0;

	for (i = 0; i < p->r->n_runs && n < 256; i++) {
		const struct run *run = &p->r->runs[i];

		if (run->status == RUN_OK && !strcmp(run->variant, variant) &&
		    !series_load(run->dir, &in[n]))
			n++;
	}
	series_median(in, n, &med);
	snprintf(rel, len, "data/%s.median.dat", variant);
	snprintf(abs, sizeof(abs), "%s/%s", p->dir, rel);
	if (med.n == 0)
		rel[0] = 0;
	else if (series_write(abs, &med)) {
		plot_write_failed(p, abs, errno);
		rel[0] = 0;
	}
	series_free(&med);
	for (i = 0; i < n; i++)
		series_free(&in[i]);
	return rel[0];
}

static int count_ok(const struct results *r, const char *variant)
{
	int i, n = 0;

	for (i = 0; i < r->n_runs; i++)
		n += r->runs[i].status == RUN_OK && !strcmp(r->runs[i].variant, variant);
	return n;
}

/* Lines per repetition (thin) and the variant median (thick) of column COL. */
static int ts_lines(struct plot_ctx *p, struct run_files *rf, int n_rf, int col,
		    struct gp_elems *e)
{
	int data = 0;
	const struct results *r = p->r;
	char median[PATH_MAX], file[GP_STR_MAX], name[GP_STR_MAX];
	int v, i;

	for (v = 0; v < r->exp.n_variants; v++) {
		const char *variant = r->exp.variants[v].name, *color = plot_color(r, variant);
		bool titled = false;

		gp_str(name, sizeof(name), variant);
		for (i = 0; i < n_rf; i++) {
			if (strcmp(rf[i].run->variant, variant) || !rf[i].ts[0] ||
			    !plot_data_has(p, rf[i].ts, col + 2))
				continue;
			gp_elem(e, "'%s' using 1:%d with lines lw 1 dt 3 lc rgb '%s' %s%s%s",
			     gp_str(file, sizeof(file), rf[i].ts),
			     col + 2, color, titled ? "notitle" : "title '", titled ? "" : name,
			     titled ? "" : " (each run)'");
			titled = true;
			data++;
		}
		if (titled && prepare_median(p, variant, median, sizeof(median)) &&
		    plot_data_has(p, median, col + 2))
			gp_elem(e, "'%s' using 1:%d with lines lw 3 lc rgb '%s' title '%s median of %d'",
			     gp_str(file, sizeof(file), median), col + 2, color, name,
			     count_ok(r, variant));
		else if (!titled && count_ok(r, variant))
			gp_elem(e, "keyentry with lines lw 3 lc rgb '%s' title '%s: undefined in every run'",
			     color, name);
	}
	return data;
}

static const char *variant_list(const struct results *r, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < r->exp.n_variants && used + 2 < len; i++)
		if (count_ok(r, r->exp.variants[i].name))
			used += snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
					 r->exp.variants[i].name);
	return buf;
}

/* A collector column over time: each run thin, the variant median thick. */
struct ts_plot {
	const char *name;
	int col;
	const char *what, *ylabel, *yrange;
};

static const struct ts_plot ts_plots[] = {
	{ "convergence", TS_CONV, "NUMA convergence over time",
	  "convergence (local / all hinting faults in the window)", "[0:1.05]" },
	{ "true-locality", TS_TRUE_LOC, "true access locality over time, TCG plugin counts",
	  "local / all memory accesses (plugin counts)", "[0:1.05]" },
	{ "convergence-pages", TS_CONV_PAGES, "NUMA convergence by pages over time",
	  "convergence (local / all hinting faults, a huge page's 512 pages)", "[0:1.05]" },
};

/*
 * The convergence window of R's runs, for the plot: N = the hints of the
 * last S seconds, at least M, and the N the runs had on average.
 */
static const char *window_label(const struct results *r, char *buf, size_t len)
{
	double lo = INFINITY, hi = -INFINITY;
	const struct run *first = NULL;
	int i;

	for (i = 0; i < r->n_runs; i++) {
		const struct run *run = &r->runs[i];

		if (run->status != RUN_OK || !isfinite(run->window_hints))
			continue;
		first = first ? first : run;
		if (isfinite(run->window_n)) {
			lo = fmin(lo, run->window_n);
			hi = fmax(hi, run->window_n);
		}
	}
	if (!first) {
		snprintf(buf, len, "the last N hint faults");
		return buf;
	}
	if (first->window_s > 0)
		i = snprintf(buf, len, "the last N hint faults, N = those of the last %g s of guest "
			     "time, at least %.0f", first->window_s, first->window_hints);
	else
		i = snprintf(buf, len, "the last N = %.0f hint faults", first->window_hints);
	if (isfinite(lo) && i > 0 && (size_t)i < len)
		snprintf(buf + i, len - i, lo == hi ? "; mean N %.0f" :
			 "; mean N per run %.0f..%.0f", lo, hi);
	return buf;
}

static void plot_ts(struct plot_ctx *p, struct run_files *rf, int n_rf, const struct ts_plot *t)
{
	char *body, vars[512], sub[256] = "", q[5][GP_STR_MAX];
	struct gp_elems e;

	gp_elems_open(&e);
	if (!ts_lines(p, rf, n_rf, t->col, &e)) {
		free(gp_elems_close(&e));
		return;
	}
	gp_elems_close(&e);
	if (t->col == TS_CONV || t->col == TS_CONV_PAGES)
		window_label(p->r, sub, sizeof(sub));
	if (!e.n || asprintf(&body, "set title '%s: %s (%s)'%s%s%s\n"
			     "set xlabel 'time since the first collector sample (s)'\n"
			     "set ylabel '%s'\nset yrange %s\n%s",
			     gp_str(q[0], GP_STR_MAX, p->r->exp.name), gp_str(q[4], GP_STR_MAX, t->what),
			     gp_str(q[1], GP_STR_MAX, variant_list(p->r, vars, sizeof(vars))),
			     *sub ? ".\"\\n\".'" : "", gp_str(q[2], GP_STR_MAX, sub),
			     *sub ? "'" : "", gp_str(q[3], GP_STR_MAX, t->ylabel), t->yrange,
			     e.buf) < 0)
		body = NULL;
	free(e.buf);
	gp_emit(p, t->name, body, 650);
}

static void plot_cost(struct plot_ctx *p, struct run_files *rf, int n_rf)
{
	struct gp_elems cum, rate;
	char *body, vars[512], name[GP_STR_MAX], list[GP_STR_MAX];
	int n;

	gp_elems_open(&cum);
	gp_elems_open(&rate);
	n = ts_lines(p, rf, n_rf, TS_COST_CUM, &cum);
	n = n && ts_lines(p, rf, n_rf, TS_COST_RATE, &rate);
	gp_elems_close(&cum);
	gp_elems_close(&rate);
	if (!n) {
		free(cum.buf);
		free(rate.buf);
		return;
	}
	if (asprintf(&body, "set multiplot layout 2,1 title '%s: cost of NUMA balancing (%s)'\n"
		     "set title 'cumulative cost'\n"
		     "set xlabel 'time since the first collector sample (s)'\n"
		     "set ylabel 'cost (model units)'\n%s"
		     "set title 'cost rate (1 s averages)'\nset ylabel 'cost rate (model units/s)'\n%s"
		     "unset multiplot\n", gp_str(name, sizeof(name), p->r->exp.name),
		     gp_str(list, sizeof(list), variant_list(p->r, vars, sizeof(vars))),
		     cum.buf, rate.buf) < 0)
		body = NULL;
	free(cum.buf);
	free(rate.buf);
	gp_emit(p, "cost", body, 900);
}

static void plot_faults(struct plot_ctx *p, const char *variant)
{
	static const struct { int col; const char *style, *title; } lines[] = {
		{ TS_LOCAL_PS + 2, "lw 2 lc rgb '#2ca02c'", "local hinting faults/s" },
		{ TS_REMOTE_PS + 2, "lw 2 lc rgb '#d62728'", "remote hinting faults/s" },
		{ TS_MIGRATED_PS + 2, "axes x1y2 lw 1 lc rgb '#1f77b4'", "pages migrated/s (right axis)" },
	};
	char median[PATH_MAX], name[PATH_MAX], *body, q[3][GP_STR_MAX];
	struct gp_elems e;
	size_t i;

	if (!count_ok(p->r, variant) || !prepare_median(p, variant, median, sizeof(median)))
		return;
	gp_elems_open(&e);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (plot_data_has(p, median, lines[i].col))
			gp_elem(&e, "'%s' using 1:%d with lines %s title '%s'",
			     gp_str(q[0], GP_STR_MAX, median), lines[i].col, lines[i].style,
			     gp_str(q[2], GP_STR_MAX, lines[i].title));
	gp_elems_close(&e);
	if (!e.n) {
		free(e.buf);
		return;
	}
	if (asprintf(&body, "set title '%s / %s: hinting faults and migrations "
		     "(1 s averages, median of %d runs)'\n"
		     "set xlabel 'time since the first collector sample (s)'\n"
		     "set ylabel 'hinting faults per second'\nset y2label 'pages migrated per second'\n"
		     "set ytics nomirror\nset y2tics\nset yrange [0:*]\nset y2range [0:*]\n%s",
		     gp_str(q[0], GP_STR_MAX, p->r->exp.name), gp_str(q[1], GP_STR_MAX, variant),
		     count_ok(p->r, variant), e.buf) < 0)
		body = NULL;
	free(e.buf);
	snprintf(name, sizeof(name), "faults-%s", variant);
	gp_emit(p, name, body, 600);
}

/* Horizontal lines at the mean rate of variants marked bound=local|remote. */
static void bound_lines(struct plot_ctx *p, struct gp_elems *e)
{
	const struct results *r = p->r;
	char name[GP_STR_MAX];
	int i;

	for (i = 0; i < r->exp.n_variants; i++) {
		const struct variant *v = &r->exp.variants[i];
		const char *bound = v->bound == BOUND_LOCAL ? "local" : "remote";
		double mean = variant_mean(r, v->name, M_RATE);

		if (v->bound == BOUND_NONE || !isfinite(mean))
			continue;
		gp_elem(e, "%.6g with lines lw 2 dt 4 lc rgb '%s' title '%s bound: %s mean %.4g'",
		     mean, v->bound == BOUND_LOCAL ? "#000000" : "#7f7f7f", bound,
		     gp_str(name, sizeof(name), v->name), mean);
	}
}

static void wl_lines(struct plot_ctx *p, struct run_files *rf, int n_rf, int col,
		     struct gp_elems *e)
{
	bool titled[EXP_MAX_VARIANTS] = { false };
	char file[GP_STR_MAX], title[GP_STR_MAX];
	int i, v;

	for (i = 0; i < n_rf; i++) {
		const char *name = rf[i].run->variant;

		if (!rf[i].wl[0] || !plot_data_has(p, rf[i].wl, col))
			continue;
		for (v = 0; v < p->r->exp.n_variants && strcmp(p->r->exp.variants[v].name, name); v++)
			;
		gp_elem(e, "'%s' using 1:%d with linespoints lw 1 pt 7 ps 0.4 lc rgb '%s' %s%s%s",
		     gp_str(file, sizeof(file), rf[i].wl), col, plot_color(p->r, name),
		     titled[v] ? "notitle" : "title '",
		     titled[v] ? "" : gp_str(title, sizeof(title), name),
		     titled[v] ? "" : " (each run)'");
		titled[v] = true;
	}
}

/* Plots of a workload column over time, one line per run. */
struct wl_plot {
	const char *name;
	int col;		/* in the .wl.dat files */
	const char *what;	/* title */
	const char *yrange;
	bool bounds;		/* draw the bound=local|remote variants' means */
};

static void plot_workload(struct plot_ctx *p, struct run_files *rf, int n_rf,
			  const struct wl_plot *w, const char *ylabel)
{
	char *body, vars[512], q[4][GP_STR_MAX];
	struct gp_elems e;

	gp_elems_open(&e);
	wl_lines(p, rf, n_rf, w->col, &e);
	if (e.n && w->bounds)
		bound_lines(p, &e);
	gp_elems_close(&e);
	if (!e.n) {
		free(e.buf);
		return;
	}
	if (asprintf(&body, "set title '%s: %s (%s)'\nset xlabel 'time since workload start (s)'\n"
		     "set ylabel '%s'\nset yrange %s\n%s", gp_str(q[0], GP_STR_MAX, p->r->exp.name),
		     gp_str(q[3], GP_STR_MAX, w->what),
		     gp_str(q[1], GP_STR_MAX, variant_list(p->r, vars, sizeof(vars))),
		     gp_str(q[2], GP_STR_MAX, ylabel), w->yrange, e.buf) < 0)
		body = NULL;
	free(e.buf);
	gp_emit(p, w->name, body, 650);
}

static void plot_rate(struct plot_ctx *p, struct run_files *rf, int n_rf)
{
	static const struct wl_plot w = { "rate", 2, "workload rate over time", "[0:*]", true };
	const char *unit = "";
	char ylabel[64];
	int i;

	for (i = 0; i < n_rf && !unit[0]; i++)
		unit = rf[i].run->rate_unit;
	snprintf(ylabel, sizeof(ylabel), "workload rate (%s)", unit[0] ? unit : "work/s");
	plot_workload(p, rf, n_rf, &w, ylabel);
}

static void plot_locality(struct plot_ctx *p, struct run_files *rf, int n_rf)
{
	static const struct wl_plot w = {
		"locality", 3, "page locality seen by the workload", "[0:1.05]", false,
	};

	plot_workload(p, rf, n_rf, &w,
		      "page locality (fraction of sampled pages on the local node)");
}

/*
 * ROOT/plots/NAME for the results folder DIR (its last component): a
 * folder that another results folder of the same name, still there,
 * published into is left alone, and NAME-2, -3 ... taken instead. DEST gets the folder,
 * which records whose it is in its .from.
 */
static int publish_dir(const char *dir, char *dest, size_t len)
{
	char *copy = strdup(dir), from[PATH_MAX * 2], owner[PATH_MAX];
	const char *name = copy ? basename(copy) : "results";
	FILE *f;
	int k;

	snprintf(from, sizeof(from), "%s/plots", bnb_root());
	mkdir(from, 0755);
	for (k = 1; k < 100; k++) {
		snprintf(dest, len, k == 1 ? "%s/plots/%s" : "%s/plots/%s-%d", bnb_root(), name, k);
		snprintf(from, sizeof(from), "%s/.from", dest);
		if (mkdir(dest, 0755) && errno != EEXIST)
			break;
		f = fopen(from, "r");
		owner[0] = 0;
		if (f && !fgets(owner, sizeof(owner), f))
			owner[0] = 0;
		if (f)
			fclose(f);
		owner[strcspn(owner, "\n")] = 0;
		/* one published before .from existed, or from a folder since
		 * removed, is taken as this one's */
		if (owner[0] && strcmp(owner, dir) && !access(owner, F_OK))
			continue;
		f = fopen(from, "w");
		if (f)
			fprintf(f, "%s\n", dir);
		if (f && !fclose_checked(f)) {
			free(copy);
			return 0;
		}
		break;
	}
	free(copy);
	return -1;
}

/* Copy the whole images to ROOT/plots/<results folder name>/; DEST gets it. */
static void plot_publish(struct plot_ctx *p, char *dest, size_t len)
{
	char from[PATH_MAX * 2], to[PATH_MAX * 2];
	struct dirent *de;
	DIR *d;

	if (publish_dir(p->r->dir, dest, len)) {
		plot_write_failed(p, dest, errno);
		dest[0] = 0;
		return;
	}
	d = opendir(p->dir);
	while (d && (de = readdir(d))) {
		const char *dot = strrchr(de->d_name, '.');

		if (!dot || (strcmp(dot, ".png") && strcmp(dot, ".svg")))
			continue;
		snprintf(from, sizeof(from), "%s/%s", p->dir, de->d_name);
		snprintf(to, sizeof(to), "%s/%s", dest, de->d_name);
		if (copy_file(from, to)) {
			plot_write_failed(p, to, errno);
			unlink(to);
		}
	}
	if (d)
		closedir(d);
}

int plot_all(const struct results *r)
{
	struct plot_ctx p = { .r = r };
	struct run_files *rf;
	char path[PATH_MAX * 2], dest[PATH_MAX];
	int i, n_rf = 0;

	snprintf(p.dir, sizeof(p.dir), "%s/plots", r->dir);
	snprintf(path, sizeof(path), "%s/data", p.dir);
	if ((mkdir(p.dir, 0755) && errno != EEXIST) || (mkdir(path, 0755) && errno != EEXIST)) {
		fprintf(stderr, "bnb-run: cannot create %s: %s\n", path, strerror(errno));
		return -1;
	}
	rf = calloc(r->n_runs ? r->n_runs : 1, sizeof(*rf));
	for (i = 0; i < r->n_runs; i++)
		if (r->runs[i].status == RUN_OK)
			prepare_run(&p, &r->runs[i], &rf[n_rf++]);
	for (i = 0; i < (int)(sizeof(ts_plots) / sizeof(ts_plots[0])); i++)
		plot_ts(&p, rf, n_rf, &ts_plots[i]);
	plot_cost(&p, rf, n_rf);
	plot_account(&p);
	for (i = 0; i < r->exp.n_variants; i++)
		plot_faults(&p, r->exp.variants[i].name);
	plot_rate(&p, rf, n_rf);
	plot_locality(&p, rf, n_rf);
	plot_sweeps(&p);
	plot_monitors(&p);
	plot_tiering(&p);
	free(rf);
	plot_publish(&p, dest, sizeof(dest));
	printf("bnb-run: %d plots in %s%s%s%s\n", p.made, p.dir, dest[0] ? ", copied to " : "",
	       dest, p.failed ? " (some failed: above, and gnuplot.log)" : "");
	return p.failed ? -1 : 0;
}
