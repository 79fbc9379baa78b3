/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bisection as data: what was asked, both ends and every step with its
 * figure, verdict and times. DIR/bisect.json holds it, rewritten whole
 * (through a temporary file) after every step, so it is also the log an
 * interrupted bisection goes on from (--resume DIR) and what `bnb-run
 * report DIR` redraws bisect.md from.
 */
#ifndef BNB_BISECT_STATE_H
#define BNB_BISECT_STATE_H

#include <limits.h>
#include <stdbool.h>

#include "build.h"
#include "experiment/variant.h"
#include "git.h"

#define BISECT_JSON "bisect.json"
#define BISECT_MD "bisect.md"
#define BISECT_INI "bisect.ini"	/* the experiment as the bisection read it */
#define BISECT_MAX_REPS 64
#define BISECT_MAX_STEPS 128
#define BISECT_MAX_CANDIDATES 32

enum verdict { VERDICT_NONE, VERDICT_GOOD, VERDICT_BAD, VERDICT_SKIP };

const char *verdict_name(enum verdict v);
enum verdict verdict_parse(const char *s);

/* One measured commit: an end or a step. */
struct step {
	char role[8];			/* good | bad | step */
	char commit[GIT_SHA_LEN + 1];
	char subject[256];
	char folder[96];		/* its run folder, in the bisection's */
	int n;				/* values: one a repetition that ended ok */
	double v[BISECT_MAX_REPS];
	double value;			/* their mean; NAN: none */
	double p_good, p_bad;		/* wall timing: Welch p against each end */
	enum verdict verdict;
	char why[512];			/* what the call rests on, or why skipped */
	char log_end[BUILD_LOG_END];	/* a skipped commit: its log's end */
	double build_s, run_s;
	bool cached;			/* its kernel was in the cache */
	int kbuild_steps, compiled;	/* -1: nothing built */
	char kernel_key[32];
};

/* Where a bisection stands. */
enum bisect_state {
	STATE_RUNNING,		/* measuring; --resume goes on */
	STATE_DONE,		/* the first bad commit is known */
	STATE_UNRESOLVED,	/* only skipped commits are left: one of CANDIDATES */
	STATE_REFUSED,		/* the ends did not differ, or gave no value */
};
const char *state_name(enum bisect_state s);

struct bisection {
	char dir[PATH_MAX];
	/* what was asked */
	char experiment[PATH_MAX];	/* the file as the user named it */
	char exp_name[EXP_NAME_MAX];
	char variant[EXP_NAME_MAX * 2];
	char metric[64];
	char tree[PATH_MAX];
	char good_rev[256], bad_rev[256];
	bool has_threshold;
	double threshold;
	bool no_plots;
	/* what was found */
	char repo[PATH_MAX];		/* the tree's git common directory */
	char worktree[PATH_MAX];
	bool wall;			/* the variant's timing is wall: reps and Welch */
	int reps;			/* runs a commit */
	int range;			/* commits in good..bad */
	struct step good, bad;
	struct step steps[BISECT_MAX_STEPS];
	int n_steps;
	enum bisect_state state;
	char message[1024];		/* why refused or unresolved */
	char first_bad[GIT_SHA_LEN + 1];
	char last_good[GIT_SHA_LEN + 1];	/* its parent that was called good */
	char candidates[BISECT_MAX_CANDIDATES][GIT_SHA_LEN + 1];
	int n_candidates;
	double wall_s;			/* the whole bisection, every session summed */
	char started[32];		/* UTC */
};

void step_init(struct step *s, const char *role, const char *commit);

/* Write DIR/bisect.json (through DIR/bisect.json.tmp); -1 with WHY. */
int state_save(const struct bisection *b, char *why, size_t whylen);
/* Read DIR/bisect.json into B (B->dir set to DIR); -1 with WHY. */
int state_load(const char *dir, struct bisection *b, char *why, size_t whylen);

/* The step of B measured at COMMIT (an end or a step), or NULL. */
struct step *state_find(struct bisection *b, const char *commit);

#endif
