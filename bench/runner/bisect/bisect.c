// SPDX-License-Identifier: GPL-2.0
/*
 * bisect.c - `bnb-run bisect`: the command line, the checks made before
 * anything is built, and the bisection itself: both ends measured first,
 * then git bisect in the harness's worktree, one commit a step, each
 * step recorded in DIR/bisect.json before git hears its verdict, so that
 * `--resume DIR` replays the verdicts and goes on where it stopped.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bisect.h"
#include "call.h"
#include "experiment/experiment.h"
#include "lib/err.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/path.h"
#include "lib/util.h"
#include "metrics.h"
#include "output.h"
#include "report/fmt.h"
#include "run/fsio.h"
#include "runner.h"
#include "state.h"
#include "step.h"
#include "worktree.h"

struct bisect_opts {
	char *tree, *good, *bad, *metric, *variant, *threshold, *out, *resume;
	bool no_plots;
};

#define BO(f) OPT_FIELD(struct bisect_opts, f)

static const struct opt_def options[] = {
	{ "tree", OPT_STR, BO(tree), .metavar = "DIR", .flags = OPTF_NONEMPTY,
	  .help = "the kernel's git repository (a checkout without uncommitted changes, or "
		  "bare); never written to but for the harness's worktree, which git lists" },
	{ "good", OPT_STR, BO(good), .metavar = "REV", .flags = OPTF_NONEMPTY,
	  .help = "a commit whose figure is the old one: an ancestor of --bad" },
	{ "bad", OPT_STR, BO(bad), .metavar = "REV", .flags = OPTF_NONEMPTY,
	  .help = "a commit whose figure moved" },
	{ "metric", OPT_STR, BO(metric), .metavar = "NAME", .flags = OPTF_NONEMPTY,
	  .help = "the figure that moved, a metric of the variant's runs (numa_pte_updates, "
		  "work_s, hint_faults_per_pass, ...)" },
	{ "variant", OPT_STR, BO(variant), .metavar = "V",
	  .help = "the variant to run (needed when the experiment has more than one)" },
	{ "threshold", OPT_STR, BO(threshold), .metavar = "X",
	  .help = "a commit is bad on the bad end's side of X (default: when its figure is "
		  "nearer the bad end's than the good end's)" },
	{ "out", OPT_STR, BO(out), .metavar = "DIR",
	  .help = "results folder instead of results/<UTC time>-bisect-<experiment>" },
	{ "resume", OPT_STR, BO(resume), .metavar = "DIR",
	  .help = "go on with the interrupted bisection in DIR (its bisect.json)" },
	{ "no-plots", OPT_FLAG, BO(no_plots), .help = "no gnuplot for the runs" },
};

static const struct opt_tool tool = {
	.synopsis = "bnb-run bisect EXPERIMENT --tree DIR --good REV --bad REV --metric NAME "
		    "[--variant V] [--threshold X] [--out DIR]\n"
		    "       bnb-run bisect --resume DIR\n"
		    "       bnb-run report DIR      (a bisection's folder: bisect.md redrawn)",
	.about = "Which commit of a kernel range moved a metric: git bisect over the tree, each\n"
		 "commit checked out in a worktree the harness owns (the cache's bisect/), built\n"
		 "through the ksrc: path in one object directory (kbuild rebuilds what changed;\n"
		 "ccache), the variant run once under deterministic timing (its repetitions and\n"
		 "Welch's test under wall timing) and called good or bad by the metric. Both ends\n"
		 "first; a commit that does not build or run is skipped (git bisect skip).\n",
	.opts = options,
	.n = ARRAY_SIZE(options),
	.epilog = "Writes DIR/bisect.md and bisect.json, and a run folder per commit\n"
		  "(good-SHA, bad-SHA, stepN-SHA). Exit status: 0 the first bad commit found,\n"
		  "1 not found (the ends do not differ, an end does not build or run, only\n"
		  "skipped commits left), 2 bad usage (nothing built), 130 interrupted\n"
		  "(--resume DIR goes on).\n",
};

void bisect_options_table(FILE *f)
{
	opt_tool_markdown(f, &tool);
}

bool bisect_is_folder(const char *dir)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/" BISECT_JSON, dir);
	return !access(path, F_OK);
}

/* ---- the checks before anything is built --------------------------------- */

static const struct variant *pick_variant(const struct experiment *exp, const char *name,
					  char *why, size_t whylen)
{
	char names[512] = "";
	const struct variant *v;

	if (name) {
		v = experiment_variant(exp, name);
		if (v)
			return v;
	} else if (exp->n_variants == 1) {
		return &exp->variants[0];
	}
	for (int i = 0; i < exp->n_variants && strlen(names) < sizeof(names) - 64; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 i ? ", " : "", exp->variants[i].name);
	if (name)
		errf(why, whylen, "--variant '%s': no such variant in %s (it has %s)", name,
		     exp->path, names);
	else
		errf(why, whylen, "--variant: %s has %d variants (%s): name the one to run",
		     exp->path, exp->n_variants, names);
	return NULL;
}

/* Each revision a commit of the tree; GOOD an ancestor of BAD, not BAD itself. */
static int check_revs(struct bisection *b, char *why, size_t whylen)
{
	if (git_commit(b->tree, b->good_rev, b->good.commit))
		return errf(why, whylen, "--good '%s': no such commit in %s", b->good_rev, b->tree);
	if (git_commit(b->tree, b->bad_rev, b->bad.commit))
		return errf(why, whylen, "--bad '%s': no such commit in %s", b->bad_rev, b->tree);
	if (!strcmp(b->good.commit, b->bad.commit))
		return errf(why, whylen, "--good '%s' and --bad '%s' are the same commit (%.12s)",
			    b->good_rev, b->bad_rev, b->good.commit);
	if (!git_is_ancestor(b->tree, b->good.commit, b->bad.commit))
		return errf(why, whylen, "--good '%s' (%.12s) is not an ancestor of --bad '%s' "
			    "(%.12s)", b->good_rev, b->good.commit, b->bad_rev, b->bad.commit);
	return 0;
}

static int check_tree(struct bisection *b, char *why, size_t whylen)
{
	char dirty[1024];
	bool bare;

	if (git_repo(b->tree, b->repo, sizeof(b->repo), &bare, why, whylen))
		return errf_prefix(why, whylen, "--tree");
	if (check_revs(b, why, whylen))
		return -1;
	if (bare)
		return 0;
	if (git_dirty(b->tree, dirty, sizeof(dirty), 5))
		return errf(why, whylen, "--tree %s: git status failed", b->tree);
	if (dirty[0])
		return errf(why, whylen, "--tree %s: the checkout has uncommitted changes (%s): "
			    "a bisection builds commits, not the checkout; commit or stash them "
			    "(nothing was touched)", b->tree, dirty);
	return 0;
}

/* Runs a commit: 1 under deterministic timing, the variant's (2 at least) under wall. */
static void plan_runs(struct bisection *b, const struct variant *v)
{
	b->wall = v->timing != TIMING_DETERMINISTIC;
	b->reps = b->wall ? v->repetitions : 1;
	if (b->wall && b->reps < 3) {
		printf("bnb-run: bisect: wall timing: %d runs a commit instead of %d, for Welch's "
		       "test\n", 3, b->reps);
		b->reps = 3;
	}
}

/* PATH made absolute in place, so that --resume works from anywhere. */
static void absolute(char *path, size_t len)
{
	char *abs = realpath(path, NULL);

	if (abs && strlen(abs) < len)
		memcpy(path, abs, strlen(abs) + 1);
	free(abs);
}

static int fill(struct bisection *b, const struct bisect_opts *o, const char *experiment,
		const struct experiment *exp, const struct variant *v, char *why, size_t whylen)
{
	bool later;

	snprintf(b->experiment, sizeof(b->experiment), "%s", experiment);
	snprintf(b->exp_name, sizeof(b->exp_name), "%s", exp->name);
	snprintf(b->variant, sizeof(b->variant), "%s", v->name);
	snprintf(b->metric, sizeof(b->metric), "%s", o->metric);
	snprintf(b->tree, sizeof(b->tree), "%s", o->tree);
	snprintf(b->good_rev, sizeof(b->good_rev), "%s", o->good);
	snprintf(b->bad_rev, sizeof(b->bad_rev), "%s", o->bad);
	b->no_plots = o->no_plots;
	if (bisect_metric_check(v, o->metric, &later, why, whylen))
		return errf_prefix(why, whylen, "--metric");
	if (later)
		printf("bnb-run: bisect: %s is %s's own metric: the good end's run will show "
		       "whether it gives it\n", o->metric, v->workload);
	b->has_threshold = o->threshold != NULL;
	if (o->threshold &&
	    parse_double(o->threshold, -1e300, 1e300, &b->threshold, why, whylen))
		return errf_prefix(why, whylen, "--threshold");
	step_init(&b->good, "good", "");
	step_init(&b->bad, "bad", "");
	if (check_tree(b, why, whylen))
		return -1;
	absolute(b->tree, sizeof(b->tree));
	absolute(b->experiment, sizeof(b->experiment));
	b->range = git_count(b->tree, b->good.commit, b->bad.commit);
	plan_runs(b, v);
	return 0;
}

/* ---- the results folder --------------------------------------------------- */

static int make_folder(struct bisection *b, const char *out, char *why, size_t whylen)
{
	char stamp[32], path[PATH_MAX + 32], *abs;
	time_t now = time(NULL);

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", gmtime(&now));
	strftime(b->started, sizeof(b->started), "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
	if (out)
		snprintf(b->dir, sizeof(b->dir), "%s", out);
	else
		snprintf(b->dir, sizeof(b->dir), "%s/results/%s-bisect-%s", bnb_root(), stamp,
			 b->exp_name);
	if (bisect_is_folder(b->dir))
		return errf(why, whylen, "%s already holds a bisection: --resume it, or choose "
			    "another --out", b->dir);
	if (mkdir_p(b->dir, 0755))
		return errf(why, whylen, "cannot create %s: %m", b->dir);
	abs = realpath(b->dir, NULL);
	if (abs) {
		snprintf(b->dir, sizeof(b->dir), "%s", abs);
		free(abs);
	}
	if (folder_lock(b->dir) < 0)
		return errf(why, whylen, "%s is in use", b->dir);
	snprintf(path, sizeof(path), "%s/" BISECT_INI, b->dir);
	if (copy_file(b->experiment, path))
		return errf(why, whylen, "cannot copy the experiment to %s: %m", path);
	return 0;
}

/* ---- the bisection -------------------------------------------------------- */

/* What a bisection runs with besides its state. */
struct ctx {
	struct bisection *b;
	struct experiment exp;
	const struct variant *v;
	struct worktree w;
	double t0, wall_before;	/* this session's start; the sessions before it */
};

static int save(struct ctx *c)
{
	char why[PATH_MAX + 64];

	c->b->wall_s = c->wall_before + (runner_now() - c->t0);
	if (state_save(c->b, why, sizeof(why))) {
		prog_error("bisect: %s", why);
		return -1;
	}
	return bisect_write_md(c->b);
}

/* S's run folder: good-SHA12, bad-SHA12, or stepN-SHA12 for step N. */
static void folder_name(struct step *s, int n)
{
	char what[16], name[sizeof(s->folder)];

	if (n)
		snprintf(what, sizeof(what), "step%d", n);
	else
		snprintf(what, sizeof(what), "%s", s->role);
	snprintf(name, sizeof(name), "%s-%.12s", what, s->commit);
	memcpy(s->folder, name, sizeof(name));
}

/* Measure an end (checked out first) unless the log has it. 0, 1 (stop), 130. */
static int measure_end(struct ctx *c, struct step *s)
{
	char why[1024];
	int rc;

	if (s->verdict != VERDICT_NONE)
		return 0;
	git_subject(c->w.tree, s->commit, s->subject, sizeof(s->subject));
	folder_name(s, 0);
	if (worktree_checkout(&c->w, s->commit, why, sizeof(why))) {
		prog_error("bisect: %s", why);
		return 1;
	}
	rc = step_measure(c->b, &c->exp, c->v, s, c->w.tree, why, sizeof(why));
	if (rc < 0)
		prog_error("bisect: %s", why);
	if (rc)
		return rc < 0 ? 1 : rc;
	step_mean(s);
	if (s->verdict != VERDICT_SKIP)
		s->verdict = !strcmp(s->role, "good") ? VERDICT_GOOD : VERDICT_BAD;
	return save(c) ? 1 : 0;
}

/* Refuse when an end did not give a figure or the ends do not differ. */
static int ends_ok(struct ctx *c)
{
	struct bisection *b = c->b;
	struct step *e = b->good.verdict == VERDICT_SKIP ? &b->good : &b->bad;

	if (e->verdict == VERDICT_SKIP)
		snprintf(b->message, sizeof(b->message), "the %s end %.12s cannot be measured: %s",
			 e->role, e->commit, e->why);
	else if (!ends_differ(b, b->message, sizeof(b->message)))
		return 0;
	b->state = STATE_REFUSED;
	save(c);
	return -1;
}

/*
 * Read what git bisect said: 0 go on (the worktree holds the next commit),
 * 1 done (first_bad), 2 only skipped commits left (candidates), -1 error.
 */
static int heard(struct ctx *c, const struct proc_out *g)
{
	struct bisection *b = c->b;
	const char *p = strstr(g->out, " is the first bad commit");
	char said[512];

	if (p && p - g->out >= GIT_SHA_LEN) {
		snprintf(b->first_bad, sizeof(b->first_bad), "%.*s", GIT_SHA_LEN, p - GIT_SHA_LEN);
		return 1;
	}
	p = strstr(g->out, "could be any of:");
	if (p || strstr(g->out, "only 'skip'ped commits left")) {
		for (p = p ? strchr(p, '\n') : NULL; p && *p; p = strchr(p + 1, '\n')) {
			if (strspn(p + 1, "0123456789abcdef") != GIT_SHA_LEN ||
			    b->n_candidates == BISECT_MAX_CANDIDATES)
				continue;
			snprintf(b->candidates[b->n_candidates++], GIT_SHA_LEN + 1, "%.*s",
				 GIT_SHA_LEN, p + 1);
		}
		return 2;
	}
	if (g->status) {
		prog_error("bisect: git bisect failed: %s", git_said(g, said, sizeof(said)));
		return -1;
	}
	return 0;
}

/* git bisect VERB [SHA] in the worktree, and what it said. */
static int tell(struct ctx *c, const char *verb, const char *a, const char *b2)
{
	const char *args[] = { "bisect", verb, a, b2, NULL };
	struct proc_out g;
	int rc;

	git_run(&g, c->w.tree, args);
	rc = heard(c, &g);
	proc_out_free(&g);
	return rc;
}

/* git bisect from the ends, then every verdict the log holds: 0, 1, 2, -1. */
static int replay(struct ctx *c)
{
	struct bisection *b = c->b;
	const char *reset[] = { "bisect", "reset", "HEAD", NULL };
	struct proc_out g;
	int rc;

	git_run(&g, c->w.tree, reset);
	proc_out_free(&g);
	rc = tell(c, "start", b->bad.commit, b->good.commit);
	for (int i = 0; i < b->n_steps && !rc; i++)
		if (b->steps[i].verdict != VERDICT_NONE)
			rc = tell(c, verdict_name(b->steps[i].verdict), b->steps[i].commit, NULL);
	return rc;
}

/* The step for the commit the worktree holds: the log's (measured, no verdict) or new. */
static struct step *next_step(struct ctx *c)
{
	struct bisection *b = c->b;
	char head[GIT_SHA_LEN + 1];
	struct step *s;

	if (worktree_head(&c->w, head))
		return NULL;
	s = state_find(b, head);
	if (s)
		return s;
	if (b->n_steps == BISECT_MAX_STEPS)
		return NULL;
	s = &b->steps[b->n_steps++];
	step_init(s, "step", head);
	folder_name(s, b->n_steps);
	git_subject(c->w.tree, head, s->subject, sizeof(s->subject));
	return s;
}

static void print_call(const struct bisection *b, const struct step *s, int n)
{
	char v[32];

	printf("bnb-run: bisect: step %d %.12s %s: %s = %s: %s (%s)\n", n, s->commit, s->subject,
	       b->metric, fmt_num(s->value, v, sizeof(v)), verdict_name(s->verdict), s->why);
	fflush(stdout);
}

/* One step after another until git names the commit: 1, 2, 130, -1. */
static int steps(struct ctx *c)
{
	struct bisection *b = c->b;
	char why[1024];
	int rc = replay(c);

	while (!rc) {
		struct step *s = next_step(c);

		if (!s) {
			prog_error("bisect: the worktree's commit cannot be read, or more than %d "
				   "steps", BISECT_MAX_STEPS);
			return -1;
		}
		if (s->verdict != VERDICT_NONE) {
			prog_error("bisect: git asks again for %.12s, already called %s", s->commit,
				   verdict_name(s->verdict));
			return -1;
		}
		rc = step_measure(b, &c->exp, c->v, s, c->w.tree, why, sizeof(why));
		if (rc) {
			if (rc < 0)
				prog_error("bisect: %s", why);
			return rc;
		}
		if (s->verdict != VERDICT_SKIP)
			call_step(b, s);
		print_call(b, s, (int)(s - b->steps) + 1);
		if (save(c))
			return -1;
		rc = tell(c, verdict_name(s->verdict), s->commit, NULL);
	}
	return rc;
}

/* The first bad commit's parent that was called good (else the good end). */
static void find_last_good(struct ctx *c)
{
	struct bisection *b = c->b;
	char spec[GIT_SHA_LEN + 8], sha[GIT_SHA_LEN + 1];

	snprintf(b->last_good, sizeof(b->last_good), "%s", b->good.commit);
	for (int k = 1; k <= 8; k++) {
		struct step *s;

		snprintf(spec, sizeof(spec), "%s^%d", b->first_bad, k);
		if (git_commit(c->w.tree, spec, sha))
			return;
		s = state_find(b, sha);
		if (s && s->verdict == VERDICT_GOOD) {
			snprintf(b->last_good, sizeof(b->last_good), "%s", sha);
			return;
		}
	}
}

static int finish(struct ctx *c, int rc)
{
	struct bisection *b = c->b;
	const char *reset[] = { "bisect", "reset", "HEAD", NULL };
	struct proc_out g;

	if (rc == 1) {
		b->state = STATE_DONE;
		find_last_good(c);
	} else if (rc == 2) {
		b->state = STATE_UNRESOLVED;
		snprintf(b->message, sizeof(b->message), "only skipped commits are left");
	}
	if (rc == 1 || rc == 2) {
		git_run(&g, c->w.tree, reset);
		proc_out_free(&g);
	}
	if (save(c))
		return 1;
	printf("\n");
	bisect_markdown(stdout, b);
	if (rc == 130)
		printf("bnb-run: bisect: interrupted; `bnb-run bisect --resume %s` goes on\n", b->dir);
	printf("bnb-run: bisect: %s/%s\n", b->dir, BISECT_MD);
	return rc == 130 ? 130 : rc == 1 ? 0 : 1;
}

static int bisect_run(struct ctx *c)
{
	struct bisection *b = c->b;
	char why[1024];
	int rc;

	if (worktree_ready(&c->w, b->tree, b->good.commit, why, sizeof(why))) {
		prog_error("bisect: %s", why);
		return 1;
	}
	snprintf(b->worktree, sizeof(b->worktree), "%s", c->w.tree);
	runner_catch_signals();
	c->t0 = runner_now();
	c->wall_before = b->wall_s;
	b->state = STATE_RUNNING;
	rc = measure_end(c, &b->good);
	if (!rc)
		rc = measure_end(c, &b->bad);
	if (rc)
		return finish(c, rc == 130 ? 130 : -1);
	if (ends_ok(c)) {
		bisect_markdown(stdout, b);
		prog_error("bisect: %s", b->message);
		return 1;
	}
	return finish(c, steps(c));
}

static int start(const struct bisect_opts *o, const char *experiment)
{
	struct bisection *b = calloc(1, sizeof(*b));
	struct ctx c = { .b = b };
	char why[2048];
	int rc = 2;

	if (!b)
		return 2;
	if (experiment_load(experiment, &c.exp, why, sizeof(why))) {
		prog_error("bisect: %s", why);
		free(b);
		return 2;
	}
	c.v = pick_variant(&c.exp, o->variant, why, sizeof(why));
	if (!c.v || fill(b, o, experiment, &c.exp, c.v, why, sizeof(why)) ||
	    worktree_claim(b->repo, &c.w, why, sizeof(why)) ||
	    make_folder(b, o->out, why, sizeof(why)))
		prog_error("bisect: %s", why);
	else
		rc = bisect_run(&c);
	experiment_free(&c.exp);
	free(b);
	return rc;
}

static int resume(const char *dir)
{
	struct bisection *b = calloc(1, sizeof(*b));
	struct ctx c = { .b = b };
	char why[2048], path[PATH_MAX + 32];
	int rc = 2;

	if (!b)
		return 2;
	snprintf(path, sizeof(path), "%s/" BISECT_INI, dir);
	if (state_load(dir, b, why, sizeof(why)) ||
	    experiment_load(path, &c.exp, why, sizeof(why))) {
		prog_error("bisect: --resume: %s", why);
		free(b);
		return 2;
	}
	c.v = experiment_variant(&c.exp, b->variant);
	if (b->state != STATE_RUNNING) {
		bisect_markdown(stdout, b);
		printf("bnb-run: bisect: %s is finished (%s): nothing to resume\n", dir,
		       state_name(b->state));
		rc = b->state == STATE_DONE ? 0 : 1;
	} else if (!c.v) {
		prog_error("bisect: --resume: no variant %s in %s", b->variant, path);
	} else if (folder_lock(dir) < 0) {
		rc = 2;
	} else if (git_repo(b->tree, b->repo, sizeof(b->repo), &(bool){ 0 }, why, sizeof(why)) ||
		   git_commit(b->tree, b->good.commit, path) ||
		   git_commit(b->tree, b->bad.commit, path)) {
		prog_error("bisect: --resume: the tree %s no longer holds the range: %s", b->tree,
			   why);
	} else if (worktree_claim(b->repo, &c.w, why, sizeof(why))) {
		prog_error("bisect: %s", why);
	} else {
		rc = bisect_run(&c);
	}
	experiment_free(&c.exp);
	free(b);
	return rc;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_opts o = { 0 };
	char err[ERRLEN];
	int first, rc = 2;

	first = opt_getopt(options, ARRAY_SIZE(options), argc, argv, &o, false, err, sizeof(err));
	first = opt_tool_help(first, &tool);
	if (first < 0)
		prog_error("bisect: %s", err);
	else if (o.resume && (first < argc || o.tree || o.good || o.bad || o.metric ||
			      o.variant || o.threshold || o.out))
		prog_error("bisect: --resume DIR goes on with DIR's own experiment, tree, range "
			   "and metric: nothing else with it");
	else if (o.resume)
		rc = resume(o.resume);
	else if (argc - first != 1)
		prog_error("bisect: %s (bnb-run bisect --help)", first == argc ?
			   "no experiment file" : "one experiment file only");
	else if (!o.tree || !o.good || !o.bad || !o.metric)
		prog_error("bisect: --%s is needed (bnb-run bisect --help)",
			   !o.tree ? "tree" : !o.good ? "good" : !o.bad ? "bad" : "metric");
	else
		rc = start(&o, argv[first]);
	opt_free(options, ARRAY_SIZE(options), &o);
	return rc;
}

int bisect_report(const char *dir)
{
	struct bisection *b = calloc(1, sizeof(*b));
	char why[1024];
	int rc = 0;

	if (!b)
		return 2;
	if (state_load(dir, b, why, sizeof(why))) {
		prog_error("%s", why);
		free(b);
		return 2;
	}
	if (folder_lock(dir) < 0) {
		bisect_markdown(stdout, b);
		free(b);
		return 1;
	}
	/* the figures as the report reads them now; the verdicts are history */
	if (b->good.verdict != VERDICT_SKIP)
		step_reread(b, &b->good);
	if (b->bad.verdict != VERDICT_SKIP)
		step_reread(b, &b->bad);
	for (int i = 0; i < b->n_steps; i++)
		if (b->steps[i].verdict != VERDICT_SKIP)
			step_reread(b, &b->steps[i]);
	if (state_save(b, why, sizeof(why)) || bisect_write_md(b)) {
		prog_error("%s", why);
		rc = 1;
	}
	bisect_markdown(stdout, b);
	free(b);
	return rc;
}
