/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One commit measured: its kernel built from the harness's worktree
 * (build.log, kbuild.log), the experiment's variant alone on that build
 * (EXPERIMENT.ini) run in a run folder of its own, STEP_RUN (an ordinary
 * results folder: experiment.ini, runs/VARIANT/repN/, summary.md, which
 * `bnb-run report` and `plot` take as any other), and the metric read
 * from that folder as the report reads it.
 */
#ifndef BNB_BISECT_STEP_H
#define BNB_BISECT_STEP_H

#include <stddef.h>

#include "experiment/experiment.h"
#include "state.h"

/* A commit's run folder, in its folder of the bisection's. */
#define STEP_RUN "run"

/*
 * Measure the commit TREE holds as S (S->commit) of bisection B, variant
 * V of experiment EXP. Returns 0 when it was measured, or skipped because
 * it does not build or its run failed (S->verdict VERDICT_SKIP, S->why,
 * S->log_end); 130 when interrupted; -1 with WHY when the bisection
 * cannot go on (its folder cannot be written).
 */
int step_measure(struct bisection *b, const struct experiment *exp, const struct variant *v,
		 struct step *s, const char *tree, char *why, size_t whylen);

/* The metric's values of S's finished runs, reread from its run folder. */
int step_reread(const struct bisection *b, struct step *s);

/*
 * Write V of EXP as an experiment of its own to PATH: [machine] and
 * [global] as they are, V's section with `kernel = IMAGE` instead of its
 * own; the other variants left out. -1 with WHY.
 */
int step_experiment(const struct experiment *exp, const struct variant *v, const char *image,
		    const char *path, char *why, size_t whylen);

#endif
