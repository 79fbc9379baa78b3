// SPDX-License-Identifier: GPL-2.0
/* What a bisection says (output.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/err.h"
#include "output.h"
#include "report/fmt.h"
#include "run/fsio.h"
#include "step.h"

const char *fmt_secs(double s, char *buf, size_t len)
{
	if (!isfinite(s))
		snprintf(buf, len, "-");
	else if (s >= 60)
		snprintf(buf, len, "%d min %02d s", (int)s / 60, (int)s % 60);
	else if (s >= 10)
		snprintf(buf, len, "%.0f s", s);
	else
		snprintf(buf, len, "%.1f s", s);
	return buf;
}

/* A subject as a table cell: no '|' to split it, bounded. */
static const char *cell(const char *s, char *buf, size_t len)
{
	char text[256];
	size_t i;

	printable(s, text, sizeof(text));
	for (i = 0; text[i] && i + 1 < len; i++)
		buf[i] = text[i] == '|' ? '/' : text[i];
	buf[i] = 0;
	return buf;
}

static const char *build_cell(const struct step *s, char *buf, size_t len)
{
	char t[32];

	if (!isfinite(s->build_s) || (!s->build_s && !s->kernel_key[0]))
		snprintf(buf, len, "-");
	else if (s->cached)
		snprintf(buf, len, "%s (in the cache)", fmt_secs(s->build_s, t, sizeof(t)));
	else if (s->kbuild_steps >= 0)
		snprintf(buf, len, "%s (%d compiled, %d kbuild steps)",
			 fmt_secs(s->build_s, t, sizeof(t)), s->compiled, s->kbuild_steps);
	else
		snprintf(buf, len, "%s", fmt_secs(s->build_s, t, sizeof(t)));
	return buf;
}

static const char *value_cell(const struct bisection *b, const struct step *s, char *buf,
			      size_t len)
{
	char v[32];

	fmt_num(s->value, v, sizeof(v));
	if (b->wall && s->n)
		snprintf(buf, len, "%s (mean of %d)", v, s->n);
	else
		snprintf(buf, len, "%s", v);
	return buf;
}

static const char *verdict_cell(const struct bisection *b, const struct step *s, char *buf,
				size_t len)
{
	char pg[16], pb[16];

	if (s->verdict == VERDICT_NONE)
		snprintf(buf, len, "-");
	else if (b->wall && isfinite(s->p_good))
		snprintf(buf, len, "%s (p %s against good, %s against bad)",
			 verdict_name(s->verdict), fmt_p(s->p_good, pg, sizeof(pg)),
			 fmt_p(s->p_bad, pb, sizeof(pb)));
	else
		snprintf(buf, len, "%s", verdict_name(s->verdict));
	return buf;
}

static void row(FILE *f, const struct bisection *b, const char *what, const struct step *s)
{
	char subj[160], val[64], verdict[96], build[96], run[32];

	if (!s->commit[0])
		return;
	fprintf(f, "| %s | [%.12s](%s/" STEP_RUN "/summary.md) | %s | %s | %s | %s | %s |\n", what,
		s->commit, s->folder, cell(s->subject, subj, sizeof(subj)), value_cell(b, s, val, sizeof(val)),
		verdict_cell(b, s, verdict, sizeof(verdict)), build_cell(s, build, sizeof(build)),
		fmt_secs(s->run_s, run, sizeof(run)));
}

/* The step of B at COMMIT, or NULL (a const state_find). */
static const struct step *find(const struct bisection *b, const char *commit)
{
	return state_find((struct bisection *)b, commit);
}

static void headline(FILE *f, const struct bisection *b)
{
	const struct step *bad = find(b, b->first_bad), *good = find(b, b->last_good);
	char subj[160], v1[32], v0[32];

	switch (b->state) {
	case STATE_DONE:
		fprintf(f, "**First bad commit: %.12s %s**\n\n", b->first_bad,
			bad ? cell(bad->subject, subj, sizeof(subj)) : "");
		if (bad && good)
			fprintf(f, "%s: %s at %.12s (good) -> %s at %.12s (bad)\n\n", b->metric,
				fmt_num(good->value, v0, sizeof(v0)), good->commit,
				fmt_num(bad->value, v1, sizeof(v1)), bad->commit);
		break;
	case STATE_UNRESOLVED:
		fprintf(f, "**Not resolved: only skipped commits are left.** The first bad commit "
			"is one of:\n\n");
		for (int i = 0; i < b->n_candidates; i++)
			fprintf(f, "- %.12s\n", b->candidates[i]);
		fprintf(f, "\n");
		break;
	case STATE_REFUSED:
		fprintf(f, "**Refused: %s.**\n\n", b->message);
		break;
	case STATE_RUNNING:
		fprintf(f, "**Not finished** (%d steps so far): `bnb-run bisect --resume %s` goes "
			"on.\n\n", b->n_steps, b->dir);
		break;
	}
}

static void about(FILE *f, const struct bisection *b)
{
	char t[32];

	fprintf(f, "Tree %s (built in the worktree %s); good %s (%.12s) .. bad %s (%.12s), %d "
		"commits; %d steps after the ends. ", b->tree, b->worktree, b->good_rev,
		b->good.commit, b->bad_rev, b->bad.commit, b->range, b->n_steps);
	if (b->wall)
		fprintf(f, "Wall timing: %d runs a commit, each held against both ends' by "
			"Welch's test. ", b->reps);
	else
		fprintf(f, "Deterministic timing: one run a commit, the same figure on every "
			"rerun. ");
	if (b->has_threshold)
		fprintf(f, "A commit is bad on the bad end's side of %s = %g. ", b->metric,
			b->threshold);
	else
		fprintf(f, "A commit is bad when its %s is nearer the bad end's than the good "
			"end's. ", b->metric);
	fprintf(f, "The whole bisection took %s of wall time.\n\n",
		fmt_secs(b->wall_s, t, sizeof(t)));
}

static void skipped(FILE *f, const struct bisection *b)
{
	const struct step *all[BISECT_MAX_STEPS + 2];
	int n = 0, shown = 0;

	all[n++] = &b->good;
	all[n++] = &b->bad;
	for (int i = 0; i < b->n_steps; i++)
		all[n++] = &b->steps[i];
	for (int i = 0; i < n; i++) {
		char subj[160];

		if (all[i]->verdict != VERDICT_SKIP)
			continue;
		if (!shown++)
			fprintf(f, "## Skipped commits\n\n");
		fprintf(f, "%.12s %s: %s.\n\n", all[i]->commit,
			cell(all[i]->subject, subj, sizeof(subj)), all[i]->why);
		if (all[i]->log_end[0])
			fprintf(f, "```\n%s\n```\n\n", all[i]->log_end);
	}
}

void bisect_markdown(FILE *f, const struct bisection *b)
{
	char step[32];

	fprintf(f, "# Bisection: %s, variant %s, by %s\n\n", b->exp_name, b->variant, b->metric);
	headline(f, b);
	about(f, b);
	fprintf(f, "| | commit | subject | %s | verdict | build | run |\n", b->metric);
	fprintf(f, "|---|---|---|---|---|---|---|\n");
	row(f, b, "good end", &b->good);
	row(f, b, "bad end", &b->bad);
	for (int i = 0; i < b->n_steps; i++) {
		snprintf(step, sizeof(step), "step %d", i + 1);
		row(f, b, step, &b->steps[i]);
	}
	fprintf(f, "\n");
	skipped(f, b);
}

int bisect_write_md(const struct bisection *b)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 40], why[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/" BISECT_MD, b->dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (f) {
		bisect_markdown(f, b);
		if (!fclose_checked(f) && !rename(tmp, path))
			return 0;
	}
	fprintf(stderr, "bnb-run: bisect: cannot write %s: %s\n", path,
		write_errstr(path, errno, why, sizeof(why)));
	return -1;
}
