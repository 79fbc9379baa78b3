// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-run bisect without a kernel: the call (nearer end, threshold, a tie,
 * no value, Welch under wall timing), the ends' check, bisect.json written
 * and read back, the metric catalogue held against every name extract/
 * adds, one variant's experiment written for one commit, and the git
 * questions asked of a scratch repository.
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/bisect.h"
#include "bisect/call.h"
#include "bisect/git.h"
#include "bisect/metrics.h"
#include "bisect/state.h"
#include "bisect/step.h"
#include "experiment/experiment.h"
#include "extract/extract.h"
#include "report/results.h"
#include "docblock.h"
#include "scratch.h"

static struct bisection *b;

static void ends(double good, double bad)
{
	b = calloc(1, sizeof(*b));
	cr_assert_not_null(b);
	snprintf(b->metric, sizeof(b->metric), "numa_pte_updates");
	step_init(&b->good, "good", "");
	step_init(&b->bad, "bad", "");
	b->good.v[b->good.n++] = good;
	b->bad.v[b->bad.n++] = bad;
	step_mean(&b->good);
	step_mean(&b->bad);
}

static enum verdict call(double v)
{
	struct step s;

	step_init(&s, "step", "");
	s.v[s.n++] = v;
	step_mean(&s);
	call_step(b, &s);
	return s.verdict;
}

static void done(void)
{
	free(b);
}

Test(bisect_call, nearer_end_decides, .fini = done)
{
	char why[256];

	ends(3582, 0);
	cr_assert_eq(ends_differ(b, why, sizeof(why)), 0, "%s", why);
	cr_assert_eq(call(3500), VERDICT_GOOD);
	cr_assert_eq(call(12), VERDICT_BAD);
	cr_assert_eq(call(0), VERDICT_BAD);
	cr_assert_eq(call(1791), VERDICT_SKIP, "midway is neither end's");
	cr_assert_eq(call(NAN), VERDICT_SKIP, "no value");
	/* either direction: a figure that rose */
	free(b);
	ends(1.5, 2.5);
	cr_assert_eq(call(2.4), VERDICT_BAD);
	cr_assert_eq(call(1.4), VERDICT_GOOD);
}

Test(bisect_call, threshold_decides_by_side, .fini = done)
{
	char why[256];

	ends(3582, 0);
	b->has_threshold = true;
	b->threshold = 100;
	cr_assert_eq(ends_differ(b, why, sizeof(why)), 0, "%s", why);
	cr_assert_eq(call(101), VERDICT_GOOD);
	cr_assert_eq(call(100), VERDICT_BAD, "the threshold itself is the bad side");
	cr_assert_eq(call(99), VERDICT_BAD);
	b->threshold = 5000;
	cr_assert_eq(ends_differ(b, why, sizeof(why)), -1);
	cr_assert(strstr(why, "does not lie between"), "%s", why);
}

Test(bisect_call, ends_that_do_not_differ_are_refused, .fini = done)
{
	char why[256];

	ends(42, 42);
	cr_assert_eq(ends_differ(b, why, sizeof(why)), -1);
	cr_assert(strstr(why, "nothing to bisect"), "%s", why);
	b->bad.value = NAN;
	cr_assert_eq(ends_differ(b, why, sizeof(why)), -1);
	cr_assert(strstr(why, "the bad end gave no value of numa_pte_updates"), "%s", why);
}

static void reps(struct step *s, const double *v, int n)
{
	s->n = 0;
	for (int i = 0; i < n; i++)
		s->v[s->n++] = v[i];
	step_mean(s);
}

Test(bisect_call, wall_timing_tests_both_ends, .fini = done)
{
	static const double good[] = { 10.0, 10.2, 9.9, 10.1 }, bad[] = { 12.0, 12.1, 11.9, 12.2 };
	static const double near_bad[] = { 11.9, 12.0, 12.1 }, noise[] = { 10.0, 12.0, 11.0 };
	char why[256];
	struct step s;

	ends(0, 0);
	b->wall = true;
	reps(&b->good, good, 4);
	reps(&b->bad, bad, 4);
	cr_assert_eq(ends_differ(b, why, sizeof(why)), 0, "%s", why);
	step_init(&s, "step", "");
	reps(&s, near_bad, 3);
	call_step(b, &s);
	cr_assert_eq(s.verdict, VERDICT_BAD);
	cr_assert(s.p_good < 0.05 && s.p_bad > 0.05, "p %g %g", s.p_good, s.p_bad);
	cr_assert_null(strstr(s.why, "uncertain"), "%s", s.why);
	reps(&s, noise, 3);
	call_step(b, &s);
	cr_assert(strstr(s.why, "uncertain"), "a spread step is said to be uncertain: %s", s.why);
	/* ends within each other's noise: no bisection */
	reps(&b->bad, noise, 3);
	cr_assert_eq(ends_differ(b, why, sizeof(why)), -1);
	cr_assert(strstr(why, "do not differ significantly"), "%s", why);
}

Test(bisect_state, json_round_trip)
{
	char dir[PATH_MAX], why[256];
	struct bisection *a = calloc(1, sizeof(*a)), *r = calloc(1, sizeof(*r));

	scratch_make(dir, sizeof(dir), "bisect-state");
	snprintf(a->dir, sizeof(a->dir), "%s", dir);
	snprintf(a->metric, sizeof(a->metric), "work_s");
	snprintf(a->variant, sizeof(a->variant), "on");
	step_init(&a->good, "good", "0123456789012345678901234567890123456789");
	step_init(&a->bad, "bad", "9876543210987654321098765432109876543210");
	a->good.v[a->good.n++] = 1.5;
	step_mean(&a->good);
	a->good.verdict = VERDICT_GOOD;
	a->good.compiled = 1400;
	step_init(&a->steps[a->n_steps++], "step", "1111111111111111111111111111111111111111");
	a->steps[0].verdict = VERDICT_SKIP;
	snprintf(a->steps[0].log_end, sizeof(a->steps[0].log_end), "error: x\nmake: *** [y]");
	a->state = STATE_DONE;
	snprintf(a->first_bad, sizeof(a->first_bad), "%s", a->bad.commit);
	cr_assert_eq(state_save(a, why, sizeof(why)), 0, "%s", why);
	cr_assert_eq(state_load(dir, r, why, sizeof(why)), 0, "%s", why);
	cr_assert_str_eq(r->good.commit, a->good.commit);
	cr_assert_float_eq(r->good.value, 1.5, 1e-12);
	cr_assert_eq(r->good.compiled, 1400);
	cr_assert(isnan(r->bad.value), "no value stays no value (null in JSON)");
	cr_assert_eq(r->n_steps, 1);
	cr_assert_eq(r->steps[0].verdict, VERDICT_SKIP);
	cr_assert_str_eq(r->steps[0].log_end, a->steps[0].log_end);
	cr_assert_eq(r->state, STATE_DONE);
	cr_assert_str_eq(r->first_bad, a->bad.commit);
	cr_assert_eq(r->has_threshold, false);
	scratch_remove(dir);
	free(a);
	free(r);
}

/* ---- the metric catalogue ------------------------------------------------ */

static struct experiment xp;

static const struct variant *load(const char *dir, const char *text)
{
	char err[1024];
	const char *path = scratch_write(dir, "e.ini", text);

	cr_assert_eq(experiment_load(path, &xp, err, sizeof(err)), 0, "%s", err);
	return &xp.variants[0];
}

#define ON_STREAM "[global]\nnodes = 2\ntiming = deterministic\n" \
	"workload = stream --size 4M --iterations 10\n"

Test(bisect_metrics, what_a_variant_gives)
{
	char dir[PATH_MAX], why[512];
	const struct variant *v;
	bool later;

	scratch_make(dir, sizeof(dir), "bisect-metrics");
	v = load(dir, ON_STREAM "latency = off\nmonitors = sched\n[on]\n");
	cr_assert_eq(bisect_metric_check(v, "numa_pte_updates", &later, why, sizeof(why)), 0);
	cr_assert_eq(bisect_metric_check(v, "scan_passes", &later, why, sizeof(why)), 0);
	cr_assert_eq(bisect_metric_check(v, "sched.scan_period_mean_ms", &later, why,
					 sizeof(why)), 0, "%s", why);
	cr_assert_eq(bisect_metric_check(v, "trace.sched_move_numa", &later, why, sizeof(why)),
		     -1, "a monitor the variant does not run");
	cr_assert_eq(bisect_metric_check(v, "true_locality", &later, why, sizeof(why)), -1);
	cr_assert(strstr(why, "plugin"), "%s", why);
	cr_assert_eq(bisect_metric_check(v, "work_sec", &later, why, sizeof(why)), -1);
	cr_assert(strstr(why, "'work_sec' is no metric of variant on"), "%s", why);
	experiment_free(&xp);
	v = load(dir, "[global]\nworkload = perf bench numa mem -p 2 -t 1 -P 64 -s 5\n[a]\n");
	cr_assert_eq(bisect_metric_check(v, "runtime-max/thread", &later, why, sizeof(why)), 0);
	cr_assert(later, "a foreign tool's names are known after its first run");
	experiment_free(&xp);
	scratch_remove(dir);
}

/*
 * Every literal metric name a room adds: xm_add(x, "NAME", and the same
 * through xm_add_range, add_when and add_if. A foreign tool's extractor
 * (extract/extract_*.c) is left out: its names show in its first run.
 */
static int check_file(const char *path)
{
	static const char *const calls[] = { "xm_add(", "xm_add_range(", "add_when(",
					      "add_if(" };
	FILE *f = fopen(path, "r");
	char line[1024];
	int seen = 0;

	cr_assert_not_null(f, "%s", path);
	while (fgets(line, sizeof(line), f))
		for (size_t c = 0; c < sizeof(calls) / sizeof(calls[0]); c++) {
			char *p = strstr(line, calls[c]), name[128];

			if (!p || (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
				continue;
			p += strcspn(p, ",");
			if (strncmp(p, ", \"", 3))
				continue;
			p += 3;
			snprintf(name, sizeof(name), "%.*s", (int)strcspn(p, "\""), p);
			if (strchr(name, '%'))
				continue;
			cr_expect(bisect_metric_derived(name), "%s adds '%s', which bisect/metrics.c "
				  "does not know", path, name);
			seen++;
		}
	fclose(f);
	return seen;
}

/* Every .c of the runner's rooms but bisect/ itself and the foreign tools'. */
static int check_rooms(const char *root)
{
	char path[PATH_MAX];
	struct dirent *r, *e;
	DIR *top = opendir(root), *d;
	int seen = 0;

	cr_assert_not_null(top, "%s", root);
	while ((r = readdir(top))) {
		if (r->d_name[0] == '.' || !strcmp(r->d_name, "bisect"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, r->d_name);
		d = opendir(path);
		while (d && (e = readdir(d))) {
			size_t n = strlen(e->d_name);

			if (n < 3 || strcmp(e->d_name + n - 2, ".c") ||
			    !strncmp(e->d_name, "extract_", 8))
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s", root, r->d_name, e->d_name);
			seen += check_file(path);
		}
		if (d)
			closedir(d);
	}
	closedir(top);
	return seen;
}

Test(bisect_metrics, catalogue_knows_every_name_the_rooms_add)
{
	static const char *const dynamic[] = { "numa_scan_hw_s", "numa_fault_hw_s",
		"numa_migrate_hw_s", "promoted_pages", "promote_candidates", "demoted_pages",
		"promote_mbps_mean", "demote_mbps_mean", "fast_tier_share" };
	int seen = check_rooms(BNB_SRC_DIR "/bench/runner");

	cr_assert_gt(seen, 40, "the scan found %d names: has the calls' form changed?", seen);
	/* names made at run time (numawork's numa_%s_hw_s, tieringrun's table) */
	for (size_t i = 0; i < sizeof(dynamic) / sizeof(dynamic[0]); i++)
		cr_expect(bisect_metric_derived(dynamic[i]), "%s", dynamic[i]);
}

/* ---- one variant, one commit's kernel ------------------------------------ */

Test(bisect_step, experiment_for_one_commit)
{
	char dir[PATH_MAX], out[PATH_MAX + 16], why[512], err[1024];
	const struct variant *v;
	struct experiment got;

	scratch_make(dir, sizeof(dir), "bisect-step");
	load(dir, "[machine]\nmodel = off\n[global]\nnodes = 2\nkernel = debian-6.12\n"
		  "timing = deterministic\nworkload = stream --size 4M --iterations 10\n"
		  "[off]\nbalancing = off\n[on]\nbalancing = on\nkernel = patched\n"
		  "sysctl.scan_delay_ms = 100,200\n");
	v = experiment_variant(&xp, "on-scan_delay_ms=200");
	cr_assert_not_null(v);
	snprintf(out, sizeof(out), "%s/one.ini", dir);
	cr_assert_eq(step_experiment(&xp, v, "/cache/kernels/K/bzImage", out, why, sizeof(why)),
		     0, "%s", why);
	cr_assert_eq(experiment_load(out, &got, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(got.n_variants, 2, "the section's sweep, without [off]");
	v = experiment_variant(&got, "on-scan_delay_ms=200");
	cr_assert_not_null(v);
	cr_assert_str_eq(v->kernel, "/cache/kernels/K/bzImage");
	cr_assert(v->balancing);
	cr_assert_eq(v->timing, TIMING_DETERMINISTIC);
	cr_assert_null(experiment_variant(&got, "off"));
	experiment_free(&got);
	experiment_free(&xp);
	scratch_remove(dir);
}

/* ---- git ---------------------------------------------------------------- */

static void sh(const char *dir, const char *const args[])
{
	struct proc_out g;

	cr_assert_eq(git_run(&g, dir, args), 0, "git %s: %s", args[0], g.err);
	proc_out_free(&g);
}

static void commit(const char *dir, const char *text)
{
	const char *add[] = { "add", "f", NULL };
	const char *ci[] = { "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m",
			     text, NULL };

	scratch_write(dir, "f", text);
	sh(dir, add);
	sh(dir, ci);
}

Test(bisect_git, questions_to_a_repository)
{
	char dir[PATH_MAX], sub[PATH_MAX + 8], common[PATH_MAX], why[512], a[41], c[41],
	     dirty[256];
	const char *init[] = { "init", "-q", NULL };
	bool bare;

	scratch_make(dir, sizeof(dir), "bisect-git");
	sh(dir, init);
	commit(dir, "one");
	cr_assert_eq(git_commit(dir, "HEAD", a), 0);
	commit(dir, "two");
	cr_assert_eq(git_commit(dir, "HEAD", c), 0);
	cr_assert_eq(git_repo(dir, common, sizeof(common), &bare, why, sizeof(why)), 0, "%s", why);
	cr_assert(!bare);
	cr_assert(git_is_ancestor(dir, a, c));
	cr_assert(!git_is_ancestor(dir, c, a));
	cr_assert_eq(git_count(dir, a, c), 1);
	cr_assert_eq(git_commit(dir, "nosuch", a), -1);
	cr_assert_eq(git_commit(dir, "--all", a), -1, "an option is no revision");
	cr_assert_eq(git_dirty(dir, dirty, sizeof(dirty), 5), 0);
	cr_assert_str_empty(dirty);
	scratch_write(dir, "f", "three");
	cr_assert_eq(git_dirty(dir, dirty, sizeof(dirty), 5), 0);
	cr_assert_str_eq(dirty, "f");
	snprintf(sub, sizeof(sub), "%s/.git", dir);
	cr_assert_eq(git_repo(sub, common, sizeof(common), &bare, why, sizeof(why)), -1);
	scratch_remove(dir);
	cr_assert_eq(git_repo(dir, common, sizeof(common), &bare, why, sizeof(why)), -1);
}

Test(bisect_doc, readme_has_the_options_table)
{
	char *doc = doc_block("bench/runner/README.md", "bisect options");
	char *now = printed(bisect_options_table);

	cr_assert_not_null(doc, "no <!-- bisect options --> block in bench/runner/README.md");
	cr_assert_str_eq(doc, now, "bench/runner/README.md's bisect options differ from "
			 "`bnb-run bisect --help=markdown`");
	free(doc);
	free(now);
}
