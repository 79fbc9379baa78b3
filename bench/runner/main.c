// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-run: run an experiment file, compare two result folders, redraw
 * plots. ./run.sh execs this after building what is missing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/bisect.h"
#include "report/compare.h"
#include "experiment/keys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "reference/reference.h"
#include "report/report.h"
#include "runner.h"

#define O(f) OPT_FIELD(struct run_opts, f)

static const struct opt_def options[] = {
	{ "reps", OPT_INT, O(reps), .min = 1, .max = 1000,
	  .help = "repetitions per variant (overrides the file)" },
	{ "only", OPT_STR, O(only), .metavar = "VARIANT",
	  .help = "run one variant (a section name runs all its sweep points)" },
	{ "out", OPT_STR, O(out), .metavar = "DIR",
	  .help = "results folder instead of results/<time>-<name>" },
	{ "jobs", OPT_INT, O(jobs), .min = 0, .max = 1000,
	  .help = "N guests at once through GNU parallel; 0: write the job list only "
		  "(default: one per host CPU when every variant runs deterministic timing, "
		  "whose guest is one host thread and whose results do not depend on what "
		  "runs beside it; else 1)" },
	{ "no-plots", OPT_FLAG, O(no_plots), .help = "skip gnuplot" },
	{ "resume", OPT_STR, O(resume), .metavar = "DIR",
	  .help = "rerun the runs of DIR that did not finish ok (interrupted, failed, never "
		  "started) with DIR's experiment, and rewrite its report" },
	{ "slurm", OPT_FLAG, O(slurm),
	  .help = "build and check everything here, then submit the runs as one Slurm job "
		  "array (sbatch; options after -- go to it), a task a run, and print its job "
		  "id; the tree, the results folder and the build cache must be on paths every "
		  "node sees" },
	{ "wait", OPT_FLAG, O(sl.wait),
	  .help = "with --slurm: follow the array until it ends, then write the report" },
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: bnb-run [EXPERIMENT.ini] [options]\n"
		"       bnb-run [EXPERIMENT.ini] --slurm [--wait] [options] [-- SBATCH OPTIONS]\n"
		"       bnb-run --resume DIR [--jobs N | --slurm [--wait]] [--no-plots]\n"
		"       bnb-run compare [--out DIR] DIR_A DIR_B [DIR...]\n"
		"                               report to stdout and DIR (default a new\n"
		"                               results/<UTC time>-compare-A+B...)\n"
		"       bnb-run reference [--quick] [--topology 2n|4n|8n] [--out DIR] [--reps N]\n"
		"                               the reference suite: upstream autonuma programs\n"
		"                               against published figures (bench/runner/README.md)\n"
		"       bnb-run bisect EXPERIMENT --tree DIR --good REV --bad REV --metric NAME\n"
		"                               which commit of a kernel range moved the metric\n"
		"                               (bnb-run bisect --help)\n"
		"       bnb-run plot DIR        redraw DIR/plots (and summary.json/md/html)\n"
		"       bnb-run report DIR      same as plot (after jobs ran elsewhere); a\n"
		"                               bisection's folder: its bisect.md\n"
		"       bnb-run job DIR ID      run job ID of DIR/jobs.tsv (used by --jobs)\n"
		"       bnb-run --help[=markdown]\n\n"
		"Runs every variant x repetition of EXPERIMENT (default\n"
		"bench/experiments/default.ini) in a fresh guest and writes\n"
		"results/<UTC time>-<experiment>/: experiment.ini, runs/VARIANT/repN/\n"
		"(timeseries.csv, summary.json, console.log, out.log, workload.csv,\n"
		"status), summary.json, summary.md, plots/ (copied to plots/ too) and\n"
		"summary.html, all of it as one page.\n\n");
	opt_usage(out, options, ARRAY_SIZE(options), "--");
	fprintf(out,
		"\nCluster: --slurm submits the runs as one Slurm array; --resume DIR --slurm\n"
		"submits again what did not end ok. Elsewhere, --jobs 0 writes DIR/jobs.txt,\n"
		"one shell command per run, for any host that sees DIR, the tree and the build\n"
		"cache at the same paths (then `bnb-run report DIR`):\n"
		"  parallel --sshlogin node1,node2 -a DIR/jobs.txt\n\n"
		"Exit status: 0 all runs ok, 1 a run failed or was incomplete, 2 bad usage or\n"
		"experiment file, 130 interrupted (finished runs are kept).\n\n"
		"Experiment keys ([global] and one [section] per variant, which inherits [global];\n"
		"--help=markdown prints them as bench/runner/README.md's table):\n");
	keys_usage(out);
}

static int usage_of(const char *cmd, const char *args)
{
	fprintf(stderr, "bnb-run: usage: bnb-run %s %s\n", cmd, args);
	return 2;
}

/* Why O's Slurm options do not go together, or NULL. */
static const char *slurm_misuse(const struct run_opts *o)
{
	if (o->slurm && o->jobs != JOBS_AUTO)
		return "--slurm and --jobs: Slurm decides how many runs go at once and where "
		       "(--jobs 0 writes the job list without submitting it)";
	if (o->sl.wait && !o->slurm)
		return "--wait follows a Slurm array: it goes with --slurm";
	if (o->sl.n_sbatch && !o->slurm)
		return "options after -- are sbatch's: they go with --slurm";
	return NULL;
}

static int main_run(int argc, char **argv)
{
	struct run_opts o = { .jobs = JOBS_AUTO };	/* not given: ours to choose */
	char def[PATH_MAX], err[ERRLEN];
	int first, rc;

	argc = slurm_opts_split(&o.sl, argc, argv);
	opt_defaults(options, ARRAY_SIZE(options), &o, err, sizeof(err));
	first = opt_getopt(options, ARRAY_SIZE(options), argc, argv, &o, false, err, sizeof(err));
	/* --help=markdown: the experiment keys, README's table */
	first = opt_help(first, usage, keys_markdown);
	if (first < 0) {
		prog_error("%s", err);
		rc = 2;
	} else if (slurm_misuse(&o)) {
		prog_error("%s", slurm_misuse(&o));
		rc = 2;
	} else if (o.resume && (first < argc || o.only || o.out || o.reps)) {
		prog_error("--resume DIR runs the folder's own experiment: no experiment file, "
			   "--only, --out or --reps with it");
		rc = 2;
	} else if (o.resume) {
		rc = cmd_resume(&o);
	} else if (argc - first > 1) {
		prog_error("one experiment file at most (got '%s' and '%s')", argv[first],
			   argv[first + 1]);
		rc = 2;
	} else {
		o.experiment = first < argc ? argv[first] : root_path(def, sizeof(def),
						"bench/experiments/default.ini");
		rc = cmd_run(&o);
	}
	opt_free(options, ARRAY_SIZE(options), &o);
	return rc;
}

/* bnb-run plot|report DIR, bnb-run job DIR ID: the positional ones. */
static int main_report(int argc, char **argv)
{
	if (argc != 2)
		return usage_of(argv[0], "DIR");
	if (bisect_is_folder(argv[1]))
		return bisect_report(argv[1]);
	return cmd_report(argv[1], true);
}

static int main_job(int argc, char **argv)
{
	if (argc != 3)
		return usage_of(argv[0], "DIR ID");
	return cmd_job(argv[1], argv[2]);
}

/*
 * The subcommands, each given its own argv (argv[0] the subcommand's
 * name); anything else is an experiment run.
 */
static const struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
} subcommands[] = {
	{ "compare", cmd_compare },
	{ "reference", cmd_reference },
	{ "bisect", cmd_bisect },
	{ "plot", main_report },
	{ "report", main_report },
	{ "job", main_job },
};

int main(int argc, char **argv)
{
	size_t i;

	for (i = 0; argc > 1 && i < ARRAY_SIZE(subcommands); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	return main_run(argc, argv);
}
