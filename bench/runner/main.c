// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-run: run an experiment file, compare two result folders, redraw
 * plots. ./run.sh execs this after building what is missing.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "report.h"
#include "runner.h"

static void usage(FILE *out)
{
	size_t n, i;
	const struct key_def *keys = key_table(&n);

	fprintf(out,
		"usage: bnb-run [EXPERIMENT.ini] [--reps N] [--only VARIANT] [--out DIR] [--jobs N]\n"
		"       bnb-run compare DIR_A DIR_B\n"
		"       bnb-run plot DIR        redraw DIR/plots (and summary.json/md)\n"
		"       bnb-run report DIR      same as plot (after jobs ran elsewhere)\n"
		"       bnb-run job DIR ID      run job ID of DIR/jobs.tsv (used by --jobs)\n"
		"       bnb-run --help\n\n"
		"Runs every variant x repetition of EXPERIMENT (default\n"
		"bench/experiments/default.ini) in a fresh guest and writes\n"
		"results/<UTC time>-<experiment>/: experiment.ini, runs/VARIANT/repN/\n"
		"(timeseries.csv, summary.json, console.log, out.log, workload.csv,\n"
		"status), summary.json, summary.md and plots/ (copied to plots/ too).\n\n"
		"  --reps N      repetitions per variant (overrides the file)\n"
		"  --only NAME   run one variant (a section name runs all its sweep points)\n"
		"  --out DIR     results folder instead of results/<time>-<name>\n"
		"  --jobs N      N guests at once through GNU parallel (one per 2 cores)\n"
		"  --no-plots    skip gnuplot\n\n"
		"Cluster: bnb-run writes DIR/jobs.txt, one shell command per run. Run them\n"
		"anywhere that sees DIR and the tree at the same paths, then `bnb-run report DIR`:\n"
		"  parallel --sshlogin node1,node2 --workdir . -a DIR/jobs.txt\n"
		"  sbatch --array=1-$(wc -l < DIR/jobs.txt) --wrap 'sed -n \"${SLURM_ARRAY_TASK_ID}p\" DIR/jobs.txt | sh'\n"
		"(create DIR without running: bnb-run EXP --out DIR --jobs 0).\n\n"
		"Exit status: 0 all runs ok, 1 a run failed or was incomplete, 2 bad usage or\n"
		"experiment file, 130 interrupted (finished runs are kept).\n\n"
		"Experiment keys ([global] and one [section] per variant, which inherits [global]):\n");
	for (i = 0; i < n; i++)
		fprintf(out, "  %-16s %s%s%s%s\n", keys[i].name, keys[i].help,
			keys[i].def && *keys[i].def ? " (default " : "",
			keys[i].def && *keys[i].def ? keys[i].def : "",
			keys[i].def && *keys[i].def ? ")" : "");
}

static int default_experiment(char *buf, size_t len)
{
	root_path(buf, len, "bench/experiments/default.ini");
	return 0;
}

static int parse_count(const char *opt, const char *arg, int min, int *out)
{
	long v;

	if (parse_long(arg, min, 1000, &v)) {
		fprintf(stderr, "bnb-run: --%s '%s': want an integer %d..1000\n", opt, arg, min);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int main_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "reps", required_argument, NULL, 'r' },
		{ "only", required_argument, NULL, 'o' },
		{ "out", required_argument, NULL, 'd' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "no-plots", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct run_opts o = { .jobs = 1 };
	char def[PATH_MAX];
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (parse_count("reps", optarg, 1, &o.reps))
				return 2;
			break;
		case 'o':
			o.only = optarg;
			break;
		case 'd':
			o.out = optarg;
			break;
		case 'j':
			if (parse_count("jobs", optarg, 0, &o.jobs))
				return 2;
			break;
		case 'P':
			o.no_plots = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "bnb-run: one experiment file at most (got '%s' and '%s')\n",
			argv[optind], argv[optind + 1]);
		return 2;
	}
	default_experiment(def, sizeof(def));
	o.experiment = optind < argc ? argv[optind] : def;
	return cmd_run(&o);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "compare") || !strcmp(cmd, "plot") || !strcmp(cmd, "report") ||
	    !strcmp(cmd, "job")) {
		int want = !strcmp(cmd, "plot") || !strcmp(cmd, "report") ? 3 : 4;

		if (argc != want) {
			fprintf(stderr, "bnb-run: usage: bnb-run %s %s\n", cmd,
				want == 3 ? "DIR" : !strcmp(cmd, "job") ? "DIR ID" : "DIR_A DIR_B");
			return 2;
		}
		if (!strcmp(cmd, "compare"))
			return report_compare_dirs(argv[2], argv[3]);
		if (!strcmp(cmd, "job"))
			return cmd_job(argv[2], argv[3]);
		return cmd_report(argv[2], true);
	}
	return main_run(argc, argv);
}
