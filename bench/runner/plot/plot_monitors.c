// SPDX-License-Identifier: GPL-2.0
/*
 * Plots of the monitors (monitors.h): what balancing did over time, one
 * line per run in its variant's colour. trace: pages migrated per second
 * (NUMA-misplaced and all reasons) and task moves, swaps and sticks per
 * second; sched: the workload tasks' mean numa_scan_period; perfstat: the
 * rate of each counted event.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract/csv.h"
#include "lib/util.h"
#include "plot_gp.h"

#define MAX_PANELS 8

/* One plotted quantity: a sum of CSV columns (by name or name prefix). */
struct quantity {
	const char *title;
	const char *cols[4];	/* summed; "x*" is every column starting with x */
	const char *skip;	/* a column the prefixes must not take */
};

struct panel {
	const char *ylabel;
	struct quantity q[4];
};

struct mon_plot {
	const char *name, *file, *what;
	struct panel panel[MAX_PANELS];	/* up to the first without a ylabel */
};

#define Q(t, ...) { .title = t, .cols = { __VA_ARGS__ } }

static const struct mon_plot plots[] = {
	{ "monitor-trace", "trace-rates.csv", "what NUMA balancing did (tracepoints)", {
		{ "pages migrated per second", {
			Q("NUMA misplaced", "pages_numa_misplaced_per_s"),
			{ .title = "all reasons", .cols = { "pages_*" }, .skip = "pages_failed_per_s" },
		} },
		{ "task placements per second", {
			Q("moves", "sched_move_numa_per_s"),
			Q("swaps", "sched_swap_numa_per_s"),
			Q("sticks (no CPU found)", "sched_stick_numa_per_s"),
		} },
	} },
	{ "monitor-sched", "sched-series.csv", "NUMA scan period of the workload tasks", {
		{ "numa_scan_period (ms), mean over tasks", { Q("mean", "scan_period_mean_ms") } },
		{ "preferred-node changes per second", { Q("changes", "preferred_nid_changes_per_s") } },
	} },
};

static bool takes(const struct quantity *q, const char *col)
{
	size_t i, n;

	if (q->skip && !strcmp(col, q->skip))
		return false;
	for (i = 0; i < ARRAY_SIZE(q->cols) && q->cols[i]; i++) {
		n = strlen(q->cols[i]);
		if (q->cols[i][n - 1] == '*' ? !strncmp(col, q->cols[i], n - 1) :
		    !strcmp(col, q->cols[i]))
			return true;
	}
	return false;
}

/* data/VARIANT-repN.NAME.dat: t, then each quantity of each panel. */
static bool write_data(struct plot_ctx *p, const char *in, const char *out,
		       const struct mon_plot *m)
{
	char err[256];
	struct csv t;
	int r, c, pi, qi, rows = 0;
	FILE *f;

	if (csv_load(in, &t, err, sizeof(err)))
		return false;
	f = fopen(out, "w");
	for (r = 0; f && r < t.nrows; r++) {
		if (!isfinite(csv_at(&t, r, 0)))
			continue;
		fprintf(f, "%.6g", csv_at(&t, r, 0));
		for (pi = 0; pi < MAX_PANELS && m->panel[pi].ylabel; pi++)
			for (qi = 0; qi < 4 && m->panel[pi].q[qi].title; qi++) {
				double sum = NAN;

				for (c = 1; c < t.ncols; c++)
					if (takes(&m->panel[pi].q[qi], t.names[c]) &&
					    isfinite(csv_at(&t, r, c)))
						sum = (isfinite(sum) ? sum : 0) + csv_at(&t, r, c);
				fprintf(f, isfinite(sum) ? " %.6g" : " ?", sum);
			}
		fputc('\n', f);
		rows++;
	}
	if (!plot_file_done(p, f, out))
		rows = 0;
	csv_free(&t);
	return rows > 0;
}

static const char *const dashes[] = { "dt 1", "dt 2", "dt 3", "dt 4" };

static int count_panels(const struct mon_plot *m)
{
	int n = 0;

	while (n < MAX_PANELS && m->panel[n].ylabel)
		n++;
	return n;
}

/*
 * The lines of RUN in every panel, titled when TITLED is false (the first
 * run of its variant: runs come grouped by variant); false without data.
 */
static bool run_lines(struct plot_ctx *p, const struct mon_plot *m, const struct run *run,
		      bool titled, struct gp_elems *e)
{
	char in[PATH_MAX * 2], rel[PATH_MAX], abs[PATH_MAX * 3], q[3][GP_STR_MAX];
	int pi, qi, col = 2;
	bool any = false;

	snprintf(in, sizeof(in), "%s/monitor/%s", run->dir, m->file);
	snprintf(rel, sizeof(rel), "data/%s-rep%d.%s.dat", run->variant, run->rep, m->name);
	snprintf(abs, sizeof(abs), "%s/%s", p->dir, rel);
	if (!write_data(p, in, abs, m))
		return false;
	for (pi = 0; pi < count_panels(m); pi++)
		for (qi = 0; qi < 4 && m->panel[pi].q[qi].title; qi++, col++) {
			if (!plot_data_has(p, rel, col))
				continue;
			gp_elem(&e[pi], "'%s' using 1:%d with lines lw 1 %s lc rgb '%s' ",
			     gp_str(q[0], GP_STR_MAX, rel), col, dashes[qi],
			     plot_color(p->r, run->variant));
			if (titled)
				fputs("notitle", e[pi].f);
			else
				fprintf(e[pi].f, "title '%s%s%s'",
					gp_str(q[1], GP_STR_MAX, run->variant),
					m->panel[pi].q[1].title ? ": " : "",
					gp_str(q[2], GP_STR_MAX, m->panel[pi].q[1].title ?
					       m->panel[pi].q[qi].title : ""));
			any = true;
		}
	return any;
}

static void plot_one(struct plot_ctx *p, const struct mon_plot *m)
{
	struct gp_elems e[MAX_PANELS];
	const char *titled = "";
	int i, pi, n = 0, panels = count_panels(m);
	char *body, q[3][GP_STR_MAX];
	size_t len;
	FILE *f;

	for (pi = 0; pi < panels; pi++)
		gp_elems_open(&e[pi]);
	for (i = 0; i < p->r->n_runs; i++) {
		const struct run *run = &p->r->runs[i];

		if (run->status != RUN_OK ||
		    !run_lines(p, m, run, !strcmp(titled, run->variant), e))
			continue;
		titled = run->variant;
		n++;
	}
	for (pi = 0; pi < panels; pi++)
		gp_elems_close(&e[pi]);
	if (n) {
		f = open_memstream(&body, &len);
		fprintf(f, "set multiplot layout %d,1 title '%s: %s'\n"
			"set xlabel 'time since the workload started (s)'\nset yrange [0:*]\n",
			panels, gp_str(q[0], GP_STR_MAX, p->r->exp.name),
			gp_str(q[1], GP_STR_MAX, m->what));
		for (pi = 0; pi < panels; pi++)
			fprintf(f, "set ylabel '%s'\n%s",
				gp_str(q[2], GP_STR_MAX, m->panel[pi].ylabel),
				e[pi].n ? e[pi].buf : "plot 1/0 notitle\n");
		fprintf(f, "unset multiplot\n");
		fclose(f);
		gp_emit(p, m->name, body, 150 + 300 * panels);
	}
	for (pi = 0; pi < panels; pi++)
		free(e[pi].buf);
}

/* perf stat: one panel per event, the events of the first run that has them. */
static void plot_perfstat(struct plot_ctx *p)
{
	struct mon_plot m = { .name = "monitor-perfstat", .file = "perfstat-rates.csv",
			      .what = "perf stat event rates" };
	char in[PATH_MAX * 2], err[256];
	struct csv t;
	int i, c;

	for (i = 0; i < p->r->n_runs; i++) {
		if (p->r->runs[i].status != RUN_OK)
			continue;
		snprintf(in, sizeof(in), "%s/monitor/%s", p->r->runs[i].dir, m.file);
		if (!csv_load(in, &t, err, sizeof(err)))
			break;
	}
	if (i == p->r->n_runs)
		return;
	for (c = 1; c < t.ncols && c <= MAX_PANELS; c++)
		m.panel[c - 1] = (struct panel){ t.names[c], { Q(t.names[c], t.names[c]) } };
	plot_one(p, &m);
	csv_free(&t);
}

void plot_monitors(struct plot_ctx *p)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(plots); i++)
		plot_one(p, &plots[i]);
	plot_perfstat(p);
}
