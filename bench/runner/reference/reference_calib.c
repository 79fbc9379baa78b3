// SPDX-License-Identifier: GPL-2.0
/*
 * reference_calib.c - the reference suite's calibrations (the runs in
 * OUT/calibration-NAME) in hardware units next to what the machine model
 * was configured with: a chase's ns per load and a STREAM's MB/s, each
 * converted with the run's D (bench/model/README.md, "The time keeper").
 */
#include <json-c/json.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/machine.h"
#include "model/model.h"
#include "extract/modelrun.h"
#include "reference.h"
#include "report/results.h"
#include "extract/wlout.h"

#define LINE_BYTES	64.0	/* a miss moves one line (bench/model/model.h) */

/* Bandwidth the model gives a guest node of CPUS vCPUs: the machine's per CPU. */
static double per_cpus(const struct modelrun_config *c, double mbs, unsigned int cpus)
{
	unsigned int eff = cpus < 1 ? 1 : cpus > c->hw_cpus ? c->hw_cpus : cpus;

	return mbs * eff / c->hw_cpus;
}

void ref_route_ceilings(struct modelrun_config *c, const struct bnb_model_params *p)
{
	for (unsigned int i = 0; i < p->n_nodes; i++)
		for (unsigned int j = 0; j < p->n_nodes; j++) {
			const unsigned char *r = p->route[i][j];
			double best = 0;

			c->hops[i][j] = i == j ? 0 : p->route_len[i][j] - 1;
			/* the line travels r backwards: into r[h - 1] from r[h] */
			for (unsigned int h = 1; h < p->route_len[i][j]; h++) {
				int k = bnb_model_link_between(p, r[h - 1], r[h]);
				double mbs = per_cpus(c, bnb_model_link_get(p, k).mbs,
						      c->cpus[r[h - 1]]);

				best = h == 1 || mbs < best ? mbs : best;
			}
			c->path_mbs[i][j] = best;
		}
}

double ref_stream_ceiling(const struct modelrun_config *c, unsigned int threads,
			  unsigned int run, unsigned int mem, const char **bound)
{
	double node = per_cpus(c, c->node_mbs, c->cpus[mem]);
	/* mlp lines in flight, each lat ns: 64 B x mlp / lat ns = x 1000 MB/s */
	double lat = threads * LINE_BYTES * c->mlp / c->lat_ns[run][mem] * 1000;
	double link = c->path_mbs[run][mem] > 0 ? c->path_mbs[run][mem] :
		      per_cpus(c, c->link_mbs, c->cpus[run]);
	double best = node;

	*bound = "node bandwidth";
	if (run != mem && link < best) {
		best = link;
		*bound = c->hops[run][mem] > 1 ? "slowest link of the route" : "link bandwidth";
	}
	if (lat < best) {
		best = lat;
		*bound = "latency / mlp";
	}
	return best;
}

struct calib_row {
	char name[EXP_NAME_MAX * 2 + 96];
	const char *figure, *unit, *bound;
	double measured, configured;
};

static const char *value(char *buf, size_t len, double v, const char *unit)
{
	if (!strcmp(unit, "ns"))
		snprintf(buf, len, "%.1f ns", v);
	else if (*unit)
		snprintf(buf, len, "%.0f %s", v, unit);
	else
		snprintf(buf, len, "%.3f", v);
	return buf;
}

static void row_out(FILE *md, struct json_object *arr, const char *calib,
		    const struct calib_row *r)
{
	struct json_object *o = json_object_new_object();
	double ratio = r->measured / r->configured;

	char m[32], c[32];

	fprintf(md, "| %s | %s | %s | %s | %.3f | %s |\n", calib, r->name,
		value(m, sizeof(m), r->measured, r->unit),
		value(c, sizeof(c), r->configured, r->unit), ratio, r->bound);
	json_object_object_add(o, "calibration", json_object_new_string(calib));
	json_object_object_add(o, "run", json_object_new_string(r->name));
	json_object_object_add(o, "figure", json_object_new_string(r->figure));
	json_object_object_add(o, "unit", json_object_new_string(r->unit));
	json_object_object_add(o, "measured", json_object_new_double(r->measured));
	json_object_object_add(o, "configured", json_object_new_double(r->configured));
	json_object_object_add(o, "bound", json_object_new_string(r->bound));
	json_object_array_add(arr, o);
}

/*
 * The main chase's ns per load by (CPU node, memory node): the "# nodeC"
 * rows of the first "# matrix" block.  How many whole rows were read (the
 * guest's output is not trusted: a row short of N figures does not count).
 */
static unsigned int chase_matrix(const char *out, unsigned int n,
				 double ns[][BNB_SHM_MAX_NODES])
{
	char line[1024];
	unsigned int rows = 0;
	bool in = false;
	FILE *f = fopen(out, "r");

	while (f && fgets(line, sizeof(line), f)) {
		unsigned int c, m = 0;
		int used;
		char *at, *end;

		if (!strncmp(line, "# matrix ", 9)) {
			if (rows)
				break;
			in = true;
		} else if (in && !strncmp(line, "# ratios ", 9)) {
			break;
		} else if (in && sscanf(line, "# node%u%n", &c, &used) == 1 && c < n) {
			for (at = line + used; m < n; m++, at = end) {
				ns[c][m] = strtod(at, &end);
				if (end == at || !isfinite(ns[c][m]))
					break;
			}
			rows += m == n;
		}
	}
	if (f)
		fclose(f);
	return rows;
}

unsigned int ref_chase_by_hops(const char *out, const struct modelrun_config *c,
			       unsigned int hops, double cache, double *measured,
			       double *configured)
{
	static double ns[BNB_SHM_MAX_NODES][BNB_SHM_MAX_NODES];
	double sum = 0, cfg = 0;
	unsigned int pairs = 0;

	if (!isfinite(cache) || chase_matrix(out, c->n_nodes, ns) != c->n_nodes)
		return 0;
	for (unsigned int i = 0; i < c->n_nodes; i++)
		for (unsigned int j = 0; j < c->n_nodes; j++)
			if (c->hops[i][j] == hops) {
				sum += (ns[i][j] - cache) / c->d;
				cfg += c->lat_ns[i][j];
				pairs++;
			}
	if (pairs) {
		*measured = sum / pairs;
		*configured = cfg / pairs;
	}
	return pairs;
}

/* A chase's ns per load by hop count (local, 1 hop, ...), less the cache-resident ns. */
static void chase_rows(FILE *md, struct json_object *arr, const char *calib,
		       const struct run *run, const char *out, const struct modelrun_config *c)
{
	static const char *const figure[] = { "chase_local_ns", "chase_1hop_ns", "chase_2hop_ns",
					      "chase_3hop_ns" };
	double cache = wl_line_value(out, "# summary ", "cache_local_ns");

	for (unsigned int hops = 0; hops < ARRAY_SIZE(figure); hops++) {
		struct calib_row r = { .figure = figure[hops], .unit = "ns", .bound = "latency" };
		unsigned int pairs = ref_chase_by_hops(out, c, hops, cache, &r.measured,
						       &r.configured);

		if (!pairs)
			continue;
		snprintf(r.name, sizeof(r.name), "%s rep %d: chase %s (%u pair%s)", run->variant,
			 run->rep, hops ? (hops == 1 ? "1 hop" : hops == 2 ? "2 hops" : "3 hops") :
			 "local", pairs, pairs == 1 ? "" : "s");
		row_out(md, arr, calib, &r);
	}
}

/* Single-thread STREAM, local and remote, for the ratio row. */
struct stream_pair {
	double local, remote, local_cfg, remote_cfg;
};

static void stream_row(FILE *md, struct json_object *arr, const char *calib,
		       const struct run *run, const char *out, const struct modelrun_config *c,
		       struct stream_pair *pair)
{
	bool shared = !strncmp(run->variant, "shared", 6);
	double threads = wl_line_value(out, "# summary ", "threads");
	double run_node = wl_line_value(out, "# stream ", "run_node");
	double mem_node = wl_line_value(out, "# stream ", "mem_node");
	struct calib_row r = { .figure = "stream_mbs", .unit = "MB/s" };

	if (!(threads >= 1 && threads <= BNB_SHM_MAX_VCPUS && run_node >= 0 && run_node < c->n_nodes && mem_node >= 0 &&
	      mem_node < c->n_nodes))
		return;
	r.measured = wl_line_value(out, "# summary ", "rate_mean") * c->d;
	r.configured = ref_stream_ceiling(c, threads, run_node, mem_node, &r.bound);
	if (shared) {
		/* a second flow beside it on its slowest link (the calibration's) */
		r.configured /= 2;
		r.bound = "half its slowest link";
	}
	snprintf(r.name, sizeof(r.name), "%s rep %d: STREAM %d thread%s, node %d -> %d (%u hop%s)",
		 run->variant, run->rep, (int)threads, threads > 1 ? "s" : "", (int)run_node,
		 (int)mem_node, c->hops[(int)run_node][(int)mem_node],
		 c->hops[(int)run_node][(int)mem_node] == 1 ? "" : "s");
	row_out(md, arr, calib, &r);
	if (threads != 1 || shared)
		return;
	if (run_node == mem_node) {
		pair->local = r.measured;
		pair->local_cfg = r.configured;
	} else if (isnan(pair->remote)) {
		pair->remote = r.measured;
		pair->remote_cfg = r.configured;
	}
}

/* The routes of RUN's model, built from its experiment as the plugin built them. */
static void run_routes(const struct results *r, const struct run *run, struct modelrun_config *c)
{
	static struct bnb_model_params p;
	char err[512];
	const char *key;

	for (int i = 0; i < r->exp.n_variants; i++) {
		const struct variant *v = &r->exp.variants[i];

		if (strcmp(v->name, run->variant) ||
		    bnb_machine_check(&v->machine, &v->topo, true, &p, &key, err, sizeof(err)) ||
		    p.n_nodes != c->n_nodes)
			continue;
		ref_route_ceilings(c, &p);
		return;
	}
}

static void one_calibration(FILE *md, struct json_object *arr, const char *dir,
			    const char *calib)
{
	struct stream_pair pair = { NAN, NAN, NAN, NAN };
	char err[PATH_MAX + 256];
	struct results r;

	if (results_load(dir, &r, err, sizeof(err)))
		return;
	for (int i = 0; i < r.n_runs; i++) {
		const struct run *run = &r.runs[i];
		struct modelrun_config c;
		char out[PATH_MAX + 1100];

		if (run->status != RUN_OK || modelrun_config(run->dir, &c))
			continue;
		run_routes(&r, run, &c);
		snprintf(out, sizeof(out), "%s/out.log", run->dir);
		chase_rows(md, arr, calib, run, out, &c);
		stream_row(md, arr, calib, run, out, &c, &pair);
	}
	if (isfinite(pair.local) && isfinite(pair.remote)) {
		struct calib_row q = { .name = "STREAM remote / local, 1 thread",
				       .figure = "stream_remote_over_local", .unit = "",
				       .bound = "goal 0.5-0.8" };

		q.measured = pair.remote / pair.local;
		q.configured = pair.remote_cfg / pair.local_cfg;
		row_out(md, arr, calib, &q);
	}
	results_free(&r);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_calibration(const struct dirent *de)
{
	return !strncmp(de->d_name, "calibration-", 12);
}

void ref_calib_table(FILE *md, struct json_object *root, const char *dir)
{
	struct json_object *arr = json_object_new_array();
	struct dirent **names;
	int n = scandir(dir, &names, is_calibration, by_name);

	if (n > 0)
		fprintf(md, "\n## Calibrations, in hardware units\n\nHardware ns = (guest ns "
			"per load - cache-resident ns) / D, hardware MB/s = guest MB/s x D, D "
			"the run's (insn_ps / hw_insn_ps). Configured: the model's latency (the "
			"mean over the pairs of that many hops); for STREAM the least of the "
			"node's bandwidth and, remote, the slowest link's on the route (each "
			"the machine's per CPU x the vCPUs of the node its lines enter) and "
			"threads x 64 B x mlp / latency; a shared-* run streams beside a second "
			"flow on that link, half of it.\n\n"
			"| calibration | run | measured | configured | measured / configured | "
			"set by |\n|---|---|---|---|---|---|\n");
	for (int i = 0; i < n; i++) {
		char sub[PATH_MAX * 2];

		snprintf(sub, sizeof(sub), "%s/%s", dir, names[i]->d_name);
		one_calibration(md, arr, sub, names[i]->d_name + 12);
		free(names[i]);
	}
	if (n > 0)
		free(names);
	json_object_object_add(root, "calibrations", arr);
}
