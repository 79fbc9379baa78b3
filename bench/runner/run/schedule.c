// SPDX-License-Identifier: GPL-2.0
/*
 * The schedule: a results folder, a job list, and the jobs run one after
 * another here or N at a time by GNU parallel. The job list is plain text
 * (one command per line) so the same file can go to parallel --sshlogin or
 * a Slurm array; `bnb-run report DIR` then writes the summary and plots.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fsio.h"
#include "experiment/keys.h"
#include "lib/err.h"
#include "lib/parse.h"
#include "lib/path.h"
#include "plot/plot.h"
#include "html/html.h"
#include "report/report.h"
#include "report/results.h"
#include "runner.h"
#include "report/verdict.h"
#include "extract/wlcheck.h"

static bool selected(const struct variant *v, const char *only)
{
	return !only || !strcmp(v->name, only) || !strcmp(v->base, only);
}

int jobs_write(const char *dir, const struct experiment *exp, const char *only,
	       int reps_override, int *n_jobs, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], self[PATH_MAX], why[256];
	FILE *tsv, *txt;
	int i, rep, n = 0, bad;

	snprintf(self, sizeof(self), "%s/build/bin/bnb-run", bnb_root());
	snprintf(path, sizeof(path), "%s/jobs.tsv", dir);
	tsv = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/jobs.txt", dir);
	txt = fopen(path, "w");
	if (!tsv || !txt) {
		snprintf(err, errlen, "cannot write the job list in %s: %s", dir,
			 write_errstr(dir, errno, why, sizeof(why)));
		if (tsv)
			fclose(tsv);
		if (txt)
			fclose(txt);
		return -1;
	}
	for (i = 0; i < exp->n_variants; i++) {
		const struct variant *v = &exp->variants[i];
		int reps = reps_override ? reps_override : v->repetitions;

		if (!selected(v, only))
			continue;
		for (rep = 1; rep <= reps; rep++) {
			n++;
			fprintf(tsv, "%d\t%s\t%d\n", n, v->name, rep);
			fprintf(txt, "BNB_ROOT='%s' '%s' job '%s' %d\n", bnb_root(), self, dir, n);
		}
	}
	bad = fclose_checked(tsv);
	if (fclose_checked(txt) || bad)
		return errf(err, errlen, "cannot write the job list in %s: %s", dir,
			    write_errstr(dir, errno, why, sizeof(why)));
	*n_jobs = n;
	if (!n)
		snprintf(err, errlen, "no variant named '%s' (see the section names)", only);
	return n ? 0 : -1;
}

int jobs_read(const char *dir, int id, struct job *j)
{
	char path[PATH_MAX + 32], line[512];
	FILE *f;
	int got = 0, lid, rep;
	char name[EXP_NAME_MAX * 2];

	snprintf(path, sizeof(path), "%s/jobs.tsv", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	j->total = 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d\t%255s\t%d", &lid, name, &rep) != 3)
			continue;
		j->total++;
		if (lid != id)
			continue;
		j->id = id;
		j->rep = rep;
		snprintf(j->variant, sizeof(j->variant), "%s", name);
		got = 1;
	}
	fclose(f);
	return got ? 0 : -1;
}

int folder_lock(const char *dir)
{
	char path[PATH_MAX + 16], err[PATH_MAX + 128];
	int fd;

	snprintf(path, sizeof(path), "%s/" LOCK_FILE, dir);
	fd = lock_take(path, err, sizeof(err));
	if (fd < 0)
		fprintf(stderr, "bnb-run: %s is in use by another runner, which must end first: "
			"%s\n", dir, err);
	return fd;
}

/*
 * results/<UTC timestamp>-<experiment>, or --out DIR (must not hold runs;
 * missing parents are created, as mkdir -p would). The folder is locked
 * before anything is looked at in it, for as long as this process runs.
 */
static int make_results_dir(const struct run_opts *o, const struct experiment *exp,
			    char *dir, size_t len)
{
	char stamp[32], path[PATH_MAX + 32], why[256], *abs;
	time_t now = time(NULL);

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", gmtime(&now));
	if (o->out && !out_dir_usable(o->out))
		return -1;
	if (o->out)
		snprintf(dir, len, "%s", o->out);
	else
		snprintf(dir, len, "%s/results/%s-%s", bnb_root(), stamp, exp->name);
	if (mkdir_p(dir, 0755)) {
		fprintf(stderr, "bnb-run: cannot create %s: %s\n", dir,
			write_errstr(dir, errno, why, sizeof(why)));
		return -1;
	}
	if (folder_lock(dir) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/runs", dir);
	if (!access(path, F_OK)) {
		fprintf(stderr, "bnb-run: %s already holds runs; choose another --out\n", dir);
		return -1;
	}
	if (mkdir_p(path, 0755)) {
		fprintf(stderr, "bnb-run: cannot create %s: %s\n", path,
			write_errstr(path, errno, why, sizeof(why)));
		return -1;
	}
	abs = realpath(dir, NULL);	/* job lines must work from any cwd */
	if (abs) {
		snprintf(dir, len, "%s", abs);
		free(abs);
	}
	snprintf(path, sizeof(path), "%s/experiment.ini", dir);
	if (!copy_file(o->experiment, path))
		return 0;
	fprintf(stderr, "bnb-run: cannot copy the experiment to %s: %s\n", path,
		write_errstr(path, errno, why, sizeof(why)));
	return -1;
}

/* Relative kernel paths in the experiment are relative to its folder. */
static int write_conf(const char *dir, const char *experiment, const char *name)
{
	char path[PATH_MAX + 32], why[256], *copy = realpath(experiment, NULL);
	FILE *f;

	snprintf(path, sizeof(path), "%s/jobs.conf", dir);
	f = fopen(path, "w");
	if (!f || !copy) {
		free(copy);
		if (f)
			fclose(f);
		return -1;
	}
	fprintf(f, "name=%s\nsource=%s\n", name, copy);
	fprintf(f, "basedir=%s\n", dirname(copy));
	free(copy);
	if (!fclose_checked(f))
		return 0;
	fprintf(stderr, "bnb-run: cannot write %s: %s\n", path,
		write_errstr(path, errno, why, sizeof(why)));
	return -1;
}

int run_sequential(const char *dir, const struct experiment *exp, const char *basedir,
		   const int *ids, int n_jobs)
{
	int i, rc = 0, r;

	for (i = 0; i < n_jobs && !runner_interrupted; i++) {
		struct job j;
		struct results res;
		char err[512];

		if (jobs_read(dir, ids ? ids[i] : i + 1, &j))
			return 1;
		r = run_job(dir, exp, basedir, &j);
		rc = r > rc ? r : rc;
		/* incremental: the summary always reflects what has finished */
		if (!results_load(dir, &res, err, sizeof(err))) {
			report_write(&res);
			results_free(&res);
		}
	}
	return runner_interrupted ? 130 : rc;
}

int run_parallel(const char *dir, const char *jobs_file, int jobs)
{
	char list[PATH_MAX + 32], joblog[PATH_MAX + 32], n[16];
	int status;
	pid_t pid, parent;

	snprintf(list, sizeof(list), "%s/%s", dir, jobs_file);
	snprintf(joblog, sizeof(joblog), "%s/parallel.joblog", dir);
	snprintf(n, sizeof(n), "%d", jobs);
	parent = getpid();
	pid = fork();
	if (!pid) {
		/* a runner killed outright takes its jobs with it: parallel
		 * passes the SIGTERM on to every job it runs */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
			_exit(127);
		execlp("parallel", "parallel", "--will-cite", "--line-buffer", "-j", n,
		       "--joblog", joblog, "-a", list, (char *)NULL);
		fprintf(stderr, "bnb-run: cannot run GNU parallel: %m\n");
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (runner_interrupted)
		return 130;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1;
}

int report_folder(const char *dir, bool plots, bool *written)
{
	struct results res;
	char err[512];
	int rc;

	*written = false;
	if (results_load(dir, &res, err, sizeof(err))) {
		prog_error("%s", err);
		return 2;
	}
	rc = report_write(&res);
	*written = !rc;
	if (plots && !rc)
		rc = plot_all(&res);
	/* summary.md and the plots as one page: after both are drawn */
	if (*written && html_write(dir, "summary") && !rc)
		rc = -1;
	if (report_problems(&res, NULL, stderr) && !rc)
		rc = 1;
	if (report_unfinished(&res, stderr, NULL) && !rc)
		rc = 1;
	/* the console ends with what summary.md opens with */
	printf("\n");
	json_object_put(verdict_results(&res, stdout));
	fflush(stdout);
	results_free(&res);
	return rc ? 1 : 0;
}

int cmd_report(const char *dir, bool plots)
{
	bool written;
	int rc = report_folder(dir, plots, &written);

	/* runs still to come: a Slurm array's tasks still queued */
	slurm_folder_note(dir);
	return rc;
}

void report_where(const char *dir, bool written, const char *note)
{
	if (written)
		printf("bnb-run: summary in %s/summary.md%s\n", dir, note);
	else
		printf("bnb-run: no summary written in %s (see the error above)%s\n", dir, note);
}

/*
 * What makes V unable to run here, said on stderr: its kernel (built
 * first, WILL_RUN), the plan of a run and the workload line. --jobs 0
 * makes the same checks but builds nothing: a named or ksrc: kernel not
 * built yet is noted, since its job lines need it where they run.
 */
static int preflight_variant(const struct experiment *exp, const struct variant *v,
			     const char *basedir, bool will_run)
{
	struct kernel_loc k;
	struct run_plan plan;
	char why[512];
	int rc = 0;

	if (will_run)
		rc = prepare_kernel(v, basedir, why, sizeof(why));
	if (!rc)
		rc = kernel_locate(v->kernel, basedir, &k, why, sizeof(why));
	if (!rc && !k.built && k.spec.kind != KSPEC_PATH)
		printf("bnb-run: note: variant %s: kernel %s (build %s) is not built here; its "
		       "job lines need it where they run (%s)\n", v->name, v->kernel, k.key, k.make);
	else if (!rc)
		rc = plan_run(v, basedir, &plan, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "bnb-run: variant %s: %s\n", v->name, why);
		return rc;
	}
	return workload_preflight(exp, v);
}

/*
 * Refuse to start when a selected variant cannot run here at all; build
 * the kernels the experiment names first (not with --jobs 0).
 */
static int preflight(const struct experiment *exp, const char *only, const char *experiment,
		     bool will_run)
{
	char *copy = realpath(experiment, NULL), basedir[PATH_MAX];
	int i, rc = 0, n = 0;

	/* dirname() cuts its argument: once, for every variant */
	snprintf(basedir, sizeof(basedir), "%s", copy ? dirname(copy) : ".");
	free(copy);
	for (i = 0; i < exp->n_variants; i++)
		n += selected(&exp->variants[i], only);
	if (!n) {
		prog_error("no variant named '%s' in %s", only, experiment);
		return -1;
	}
	for (i = 0; i < exp->n_variants && !rc; i++)
		if (selected(&exp->variants[i], only))
			rc = preflight_variant(exp, &exp->variants[i], basedir, will_run);
	return rc;
}

/*
 * Host threads a variant's guest keeps busy: under deterministic timing
 * QEMU runs every vCPU round-robin on one thread (icount needs it), else
 * MTTCG gives each vCPU its own.
 */
static long guest_threads(const struct variant *v)
{
	return v->timing == TIMING_DETERMINISTIC ? 1 : topo_total_cpus(&v->topo);
}

/*
 * Guests at once for JOBS (JOBS_AUTO: ours to choose). A deterministic
 * guest's results do not depend on what runs beside it, so an experiment
 * whose every variant is deterministic fills the host's CPUs; one with a
 * wall-timed variant runs one guest at a time, since sharing the cores
 * would be measured with it.
 */
int jobs_for(const struct experiment *exp, int jobs)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int i;

	if (jobs != JOBS_AUTO)
		return jobs;
	for (i = 0; i < exp->n_variants; i++)
		if (exp->variants[i].timing != TIMING_DETERMINISTIC)
			return 1;
	return cores > 1 ? (int)cores : 1;
}

/* Parallel guests share the host's cores; say so when they do not fit. */
static void warn_cores(const struct experiment *exp, int jobs)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN), most = 0;
	bool wall = false;
	int i;

	for (i = 0; i < exp->n_variants; i++) {
		if (guest_threads(&exp->variants[i]) > most)
			most = guest_threads(&exp->variants[i]);
		wall |= exp->variants[i].timing != TIMING_DETERMINISTIC;
	}
	if (jobs * most <= cores)
		return;
	if (wall)
		fprintf(stderr, "bnb-run: warning: --jobs %d runs up to %ld vCPUs on %ld host CPUs; "
			"TCG guests will steal each other's time and the timings will show it\n",
			jobs, jobs * most, cores);
	else
		fprintf(stderr, "bnb-run: note: --jobs %d runs %d guests on %ld host CPUs: "
			"deterministic results do not change, the suite just takes longer\n",
			jobs, jobs, cores);
}

/* Host CPUs one guest of EXP keeps busy at most: a Slurm task's share. */
static int task_cpus(const struct experiment *exp)
{
	long most = 1;

	for (int i = 0; i < exp->n_variants; i++)
		if (guest_threads(&exp->variants[i]) > most)
			most = guest_threads(&exp->variants[i]);
	return (int)most;
}

int slurm_runs(const char *dir, const int *ids, int n, int total, const struct experiment *exp,
	       const struct run_opts *o)
{
	struct slurm_batch b = { 0 };
	bool written;
	int rc, rrc;

	if (o->batch) {
		slurm_batch_add(o->batch, dir, ids, n, total, task_cpus(exp));
		return 0;
	}
	snprintf(b.name, sizeof(b.name), "bnb-%.59s", exp->name);
	slurm_batch_add(&b, dir, ids, n, total, task_cpus(exp));
	rc = slurm_submit(&b, dir, &o->sl);
	if (rc) {
		fprintf(stderr, "bnb-run: nothing was submitted; %s keeps its job list: "
			"`bnb-run --resume %s --slurm` submits it once the cause is fixed\n", dir, dir);
	} else if (!o->sl.wait) {
		printf("bnb-run: afterwards: bnb-run report %s (it names what is not finished)\n",
		       dir);
	} else {
		runner_catch_signals();
		rc = slurm_wait(&b, &runner_interrupted);
		if (rc != 130) {
			rrc = report_folder(dir, !o->no_plots, &written);
			report_where(dir, written, "");
			rc = rc ? rc : rrc ? 1 : 0;
		}
	}
	slurm_batch_free(&b);
	return rc;
}

int cmd_run(const struct run_opts *o)
{
	struct experiment exp;
	char err[1024], dir[PATH_MAX], basedir[PATH_MAX], *copy;
	int n_jobs, jobs, rc, rrc;
	bool written;

	/* sbatch is asked before anything is built or written */
	if (o->slurm && !o->batch && slurm_check(&o->sl))
		return 2;
	if (experiment_load(o->experiment, &exp, err, sizeof(err))) {
		prog_error("%s", err);
		return 2;
	}
	err[0] = 0;
	jobs = jobs_for(&exp, o->jobs);
	/* a cluster's nodes build nothing: everything is built and checked here */
	if (preflight(&exp, o->only, o->experiment, jobs > 0 || o->slurm) ||
	    make_results_dir(o, &exp, dir, sizeof(dir)) || write_conf(dir, o->experiment, exp.name) ||
	    jobs_write(dir, &exp, o->only, o->reps, &n_jobs, err, sizeof(err))) {
		if (err[0])
			prog_error("%s", err);
		experiment_free(&exp);
		return 2;
	}
	copy = realpath(o->experiment, NULL);
	snprintf(basedir, sizeof(basedir), "%s", copy ? dirname(copy) : ".");
	free(copy);
	printf("bnb-run: %s: %d runs (%d variants), results in %s\n", exp.name, n_jobs,
	       exp.n_variants, dir);
	fflush(stdout);
	if (o->slurm) {
		rc = slurm_runs(dir, NULL, n_jobs, n_jobs, &exp, o);
		experiment_free(&exp);
		return rc;
	}
	if (!jobs) {
		printf("bnb-run: job list %s/jobs.txt written, nothing run; afterwards: bnb-run report %s\n",
		       dir, dir);
		experiment_free(&exp);
		return 0;
	}
	runner_catch_signals();
	if (jobs > 1) {
		warn_cores(&exp, jobs);
		rc = run_parallel(dir, "jobs.txt", jobs);
	}
	else
		rc = run_sequential(dir, &exp, basedir, NULL, n_jobs);
	experiment_free(&exp);
	rrc = report_folder(dir, !o->no_plots, &written);
	report_where(dir, written, rc == 130 ? " (interrupted: finished runs kept, the current one "
		     "marked incomplete)" : "");
	if (rc)
		return rc;
	return rrc ? 1 : 0;
}

int cmd_job(const char *dir, const char *id_text)
{
	struct experiment exp;
	char err[1024], basedir[PATH_MAX];
	struct job j;
	int id, rc;

	/* the whole word: '1;id' or '1abc' is no job, not job 1 */
	if (parse_int(id_text, 1, INT_MAX, &id, err, sizeof(err))) {
		prog_error("job ID %s", err);
		return 2;
	}
	if (jobs_read(dir, id, &j)) {
		prog_error("job %d not in %s/jobs.tsv", id, dir);
		return 2;
	}
	if (results_experiment(dir, false, &exp, basedir, sizeof(basedir), err, sizeof(err))) {
		prog_error("%s", err);
		return 2;
	}
	runner_catch_signals();
	rc = run_job(dir, &exp, basedir, &j);
	experiment_free(&exp);
	return rc;
}
