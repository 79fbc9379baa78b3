/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference suite: published autonuma-benchmark figures from real
 * machines (bench/experiments/reference/published.ini) and the guest's
 * results held against them, as ratios and orderings.
 */
#ifndef BNB_REFERENCE_H
#define BNB_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

/* The four variants of every reference experiment, by section name. */
enum ref_variant { RV_OFF, RV_ON, RV_HARD, RV_INVERSE, RV_N };
extern const char *const ref_variant_names[RV_N];

#define REF_NAME_MAX	48
#define REF_MACHINES	4
#define REF_PROGRAMS	8
#define REF_RATIOS	4
#define REF_ORDERS	8
#define REF_TOPOLOGIES	4

struct ref_machine {
	char name[REF_NAME_MAX];
	char source[128];
	char what[256];
	int nodes, cpus;
};

/* "a < b", or "a <= b" (holds within the tolerance). */
struct ref_order {
	enum ref_variant a, b;
	bool or_equal;
};

struct ref_program {
	char name[REF_NAME_MAX];
	double elapsed[REF_MACHINES][RV_N];	/* seconds; NAN: not published */
	double sys[REF_MACHINES][RV_N];		/* system CPU seconds; NAN */
	double busy_cpus[REF_MACHINES];		/* NAN: not given */
	struct ref_order order[REF_ORDERS];
	int n_order;
	/* order.MACHINE: the orderings of that machine's own figures */
	struct ref_order order_on[REF_MACHINES][REF_ORDERS];
	int n_order_on[REF_MACHINES];
};

/* num/den, published by one machine. */
struct ref_ratio {
	enum ref_variant num, den;
	int machine;
};

/* vmstat totals of one published suite run. */
struct ref_rates {
	int machine;		/* -1: none in the file */
	char source[128];
	double seconds, pte_updates, hint_faults;
};

/* [topology NAME]: a guest held against one machine's figures alone. */
struct ref_topology {
	char name[REF_NAME_MAX];
	int machine;
};

struct ref_published {
	char path[512];
	double tolerance;	/* "<=": a <= b * (1 + tolerance) */
	double within;		/* a ratio holds within this factor */
	struct ref_machine machine[REF_MACHINES];
	int n_machines;
	struct ref_ratio ratio[REF_RATIOS];
	int n_ratios;
	struct ref_program prog[REF_PROGRAMS];
	int n_progs;
	struct ref_rates rates;
	struct ref_topology topology[REF_TOPOLOGIES];
	int n_topologies;
};

/* Read PATH; on error writes "PATH: [section] key 'k': why". */
int ref_published_load(const char *path, struct ref_published *p, char *err, size_t errlen);
const struct ref_program *ref_program_find(const struct ref_published *p, const char *name);
/* The published value of ratio R for PROG, NAN when a figure is missing. */
double ref_published_ratio(const struct ref_program *prog, const struct ref_ratio *r);

/* The machine guest topology TOPO is held against alone, or -1 (each ratio's own). */
int ref_topology_machine(const struct ref_published *p, const char *topo);

/* PROG's orderings held on MACHINE: its order.MACHINE, else its order (machine -1). */
const struct ref_order *ref_orders(const struct ref_program *prog, int machine, int *n);

/* The machine ratio R takes its figures from for PROG when held on MACHINE. */
int ref_ratio_machine(const struct ref_program *prog, const struct ref_ratio *r, int machine);

/* What one guest topology measured for one program. */
struct ref_measured {
	double mean[RV_N];	/* mean work_s of finished runs, NAN: none */
	int n[RV_N];
	/* per hardware-equivalent second (guest seconds / D), NAN: unknown */
	double pte_per_s[RV_N], hints_per_s[RV_N];
	/* the balancer's own work (numa_work_hw_s) over the vCPUs'
	 * hardware-equivalent time of the workload, NAN: not measured */
	double work_share[RV_N];
	double dilation[RV_N];	/* mean D of the runs, NAN: unknown */
	int vcpus;
	/* the scanner's passes a run and to 90 % convergence (scalerun.c) */
	double passes[RV_N], passes_to90[RV_N];
	/* the true locality at the work's start and end, and the passes to
	 * 90 % of its rise (locrise.h), NAN: unknown, or never held */
	double loc_start[RV_N], loc_peak[RV_N], passes_to_loc90[RV_N];
	/* scale_scan = hardware, NAN without: the factors, the hardware run's
	 * passes at the maximum and the minimum period, and the counts as
	 * that run has them (/ size factor) per its second (work_s / time
	 * factor), the whole run's, not per CPU */
	double time_factor, size_factor, hw_passes_min, hw_passes_max;
	double pte_hw_per_s[RV_N], hints_hw_per_s[RV_N];
};

enum ref_verdict { REF_UNKNOWN = -1, REF_NO = 0, REF_YES = 1 };

/* One ratio: measured next to published; holds within the factor. */
struct ref_ratio_eval {
	double measured, published;
	int machine;		/* whose figures the published one is */
	enum ref_verdict holds;
};

struct ref_order_eval {
	enum ref_verdict holds;
};

struct ref_eval {
	struct ref_ratio_eval ratio[REF_RATIOS];
	struct ref_order_eval order[REF_ORDERS];
};

void ref_evaluate(const struct ref_published *p, const struct ref_program *prog,
		  const struct ref_measured *m, struct ref_eval *e);
/* The same held on MACHINE (ref_topology_machine(); -1: as ref_evaluate). */
void ref_evaluate_on(const struct ref_published *p, const struct ref_program *prog, int machine,
		     const struct ref_measured *m, struct ref_eval *e);
/* "HARD_BIND <= on" */
const char *ref_order_text(const struct ref_order *o, char *buf, size_t len);
const char *ref_ratio_text(const struct ref_ratio *r, char *buf, size_t len);

/* PROG's published system time over its CPUs' elapsed time on machine
 * M (sys / (elapsed * busy_cpus)), NAN when not published. */
double ref_sys_share(const struct ref_program *prog, int m, enum ref_variant v);

/* The published suite's rates per CPU-second, NAN without [rates]. */
double ref_rate_per_cpu(const struct ref_published *p, double count);

/* `bnb-run reference [--quick] [--topology 2n|4n|8n] [--out DIR] | --table DIR` */
int cmd_reference(int argc, char **argv);

/* ---- the calibrations (reference_calib.c) ---- */

struct modelrun_config;
struct bnb_model_params;
/* C's hops and path_mbs from a model's routes and links (p as bnb_machine_check() built it). */
void ref_route_ceilings(struct modelrun_config *c, const struct bnb_model_params *p);
/*
 * A latency workload's main chase (OUT: its output, the first "# matrix"
 * block) over the pairs whose route has HOPS links (C's hops): the mean of
 * (ns per load - CACHE) / D into *MEASURED and of the configured latency
 * into *CONFIGURED.  How many pairs; 0 when none, or the matrix is not
 * whole (both left alone).
 */
unsigned int ref_chase_by_hops(const char *out, const struct modelrun_config *c,
			       unsigned int hops, double cache, double *measured,
			       double *configured);
/*
 * The machine model's ceiling for a STREAM of THREADS threads on node RUN
 * reading node MEM, hardware MB/s: the least of the node's bandwidth, the
 * route's slowest link's (RUN != MEM) and THREADS x 64 B x mlp / latency;
 * *BOUND names it.
 */
double ref_stream_ceiling(const struct modelrun_config *c, unsigned int threads,
			  unsigned int run, unsigned int mem, const char **bound);
/* DIR's calibration-NAME runs in hardware units, to MD and ROOT "calibrations". */
void ref_calib_table(FILE *md, struct json_object *root, const char *dir);

#endif
