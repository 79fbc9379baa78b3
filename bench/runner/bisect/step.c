// SPDX-License-Identifier: GPL-2.0
/* One commit measured (step.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "call.h"
#include "lib/err.h"
#include "lib/path.h"
#include "lib/util.h"
#include "report/results.h"
#include "run/fsio.h"
#include "runner.h"
#include "step.h"

static void write_section(FILE *f, const char *name, const struct section *s,
			  const char *image)
{
	if (!s->n_settings && !image)
		return;
	fprintf(f, "[%s]\n", name);
	if (image)
		fprintf(f, "kernel = %s\n", image);
	for (int i = 0; i < s->n_settings; i++)
		if (strcmp(s->settings[i].key, "kernel"))
			fprintf(f, "%s = %s\n", s->settings[i].key, s->settings[i].value);
	fprintf(f, "\n");
}

int step_experiment(const struct experiment *exp, const struct variant *v, const char *image,
		    const char *path, char *why, size_t whylen)
{
	const struct section *sec = NULL;
	FILE *f;

	for (int i = 0; i < exp->n_sections; i++)
		if (!strcmp(exp->sections[i].name, v->base))
			sec = &exp->sections[i];
	if (!sec)
		return errf(why, whylen, "variant %s has no section", v->name);
	f = fopen(path, "w");
	if (!f)
		return errf(why, whylen, "cannot write %s: %m", path);
	fprintf(f, "; variant %s of %s, on one commit's kernel (bnb-run bisect)\n\n", v->name,
		exp->path);
	write_section(f, "machine", &exp->machine, NULL);
	write_section(f, "global", &exp->global, NULL);
	write_section(f, sec->name, sec, image);
	if (fclose_checked(f))
		return errf(why, whylen, "cannot write %s: %m", path);
	return 0;
}

int step_reread(const struct bisection *b, struct step *s)
{
	char dir[PATH_MAX + 128], err[512];
	struct results res;

	snprintf(dir, sizeof(dir), "%s/%s/" STEP_RUN, b->dir, s->folder);
	if (results_load(dir, &res, err, sizeof(err)))
		return -1;
	s->n = results_values_named(&res, b->variant, b->metric, s->v, BISECT_MAX_REPS);
	step_mean(s);
	results_free(&res);
	return 0;
}

/* Move an earlier attempt at DIR aside (DIR.prev-K), so nothing is lost. */
static int set_aside(const char *dir)
{
	char prev[PATH_MAX + 160];

	if (access(dir, F_OK))
		return 0;
	for (int k = 1; k < 1000; k++) {
		snprintf(prev, sizeof(prev), "%s.prev-%d", dir, k);
		if (access(prev, F_OK))
			return rename(dir, prev);
	}
	errno = EEXIST;
	return -1;
}

/* S is skipped: why, and the end of LOG (NULL: none) to show for it. */
static __printf(3, 4) void skip(struct step *s, const char *log, const char *fmt, ...)
{
	va_list ap;

	s->verdict = VERDICT_SKIP;
	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
	if (log)
		tail_lines(log, 15, s->log_end, sizeof(s->log_end));
}

static void record_build(struct step *s, const struct build_result *r)
{
	s->build_s = r->secs;
	s->cached = r->cached;
	s->kbuild_steps = r->steps;
	s->compiled = r->compiled;
	snprintf(s->kernel_key, sizeof(s->kernel_key), "%s", r->key);
}

/*
 * Whether the variant can run on IMAGE at all, as the runner's own check
 * before a run says it (a knob the kernel's System.map lacks): the step
 * is skipped with that reason, which cmd_run would only print.
 */
static int runnable(const char *ini, const char *variant, char *why, size_t whylen)
{
	struct experiment exp;
	const struct variant *v;
	struct run_plan plan;
	char basedir[PATH_MAX * 2], err[1024];
	int rc;

	if (experiment_load(ini, &exp, err, sizeof(err)))
		return errf(why, whylen, "%s", err);
	snprintf(basedir, sizeof(basedir), "%s", ini);
	*strrchr(basedir, '/') = 0;
	v = experiment_variant(&exp, variant);
	rc = v ? plan_run(v, basedir, &plan, why, whylen) :
		 errf(why, whylen, "no variant %s in %s", variant, ini);
	experiment_free(&exp);
	return rc;
}

/* The first failed run's reason and console's end, for a skipped step. */
static void run_failure(const char *dir, const char *variant, int rc, struct step *s)
{
	char path[PATH_MAX * 3], reason[400];

	snprintf(path, sizeof(path), "%s/runs/%s/rep1/status", dir, variant);
	if (rc == 2) {
		skip(s, NULL, "the runner refused to start its run (exit 2, in the output above)");
		return;
	}
	if (results_kv_get(path, "reason", reason, sizeof(reason)))
		snprintf(reason, sizeof(reason), "no reason recorded");
	snprintf(path, sizeof(path), "%s/runs/%s/rep1/console.log", dir, variant);
	skip(s, path, "its run failed: %s", reason);
}

static int run_step(struct bisection *b, const struct experiment *exp,
		    const struct variant *v, struct step *s, const char *dir,
		    const char *image, char *why, size_t whylen)
{
	char ini[PATH_MAX * 2], run[PATH_MAX * 2], reason[1024];
	struct run_opts o = { .only = (char *)v->name, .out = run, .reps = b->reps,
			      .jobs = 1, .no_plots = b->no_plots };
	double t0;
	int rc;

	/* the run folder apart: a runner takes only a new or empty one */
	snprintf(run, sizeof(run), "%s/" STEP_RUN, dir);
	/* named as the user's file (resumed, EXP is DIR/bisect.ini's copy) */
	snprintf(ini, sizeof(ini), "%s/%s.ini", dir, b->exp_name);
	if (step_experiment(exp, v, image, ini, why, whylen))
		return -1;
	if (runnable(ini, v->name, reason, sizeof(reason))) {
		skip(s, NULL, "it cannot run the variant: %s", reason);
		return 0;
	}
	o.experiment = ini;
	t0 = runner_now();
	rc = cmd_run(&o);
	s->run_s = runner_now() - t0;
	if (rc == 130 || runner_interrupted)
		return 130;
	if (step_reread(b, s) || !s->n)
		run_failure(run, v->name, rc, s);
	return 0;
}

int step_measure(struct bisection *b, const struct experiment *exp, const struct variant *v,
		 struct step *s, const char *tree, char *why, size_t whylen)
{
	char dir[PATH_MAX + 128];
	struct build_result r;

	snprintf(dir, sizeof(dir), "%s/%s", b->dir, s->folder);
	if (set_aside(dir) || mkdir_p(dir, 0755))
		return errf(why, whylen, "cannot make the run folder %s: %m", dir);
	printf("bnb-run: bisect: %s %.12s %s: building\n", s->role, s->commit, s->subject);
	fflush(stdout);
	bisect_build(tree, dir, &r);
	record_build(s, &r);
	if (r.interrupted || runner_interrupted)
		return 130;
	if (!r.ok) {
		skip(s, NULL, "it does not build");
		snprintf(s->log_end, sizeof(s->log_end), "%s", r.log_end);
		return 0;
	}
	printf("bnb-run: bisect: %s %.12s: kernel %s (%s), running %s\n", s->role, s->commit,
	       r.key, r.cached ? "in the cache" : "built", v->name);
	fflush(stdout);
	return run_step(b, exp, v, s, dir, r.image, why, whylen);
}
