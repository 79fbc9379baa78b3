/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Good or bad by the metric. Under deterministic timing one run a commit
 * gives the same figure on every rerun, so the call is exact: a commit is
 * bad when its value is nearer the bad end's than the good end's, or,
 * with a threshold, on the bad end's side of it. Under wall timing each
 * commit's repetitions are held against both ends' by Welch's test: the
 * call is by the nearer mean (or the threshold) as above, and it is
 * called uncertain when the commit does not differ significantly from
 * the other end, or differs from both.
 */
#ifndef BNB_BISECT_CALL_H
#define BNB_BISECT_CALL_H

#include <stddef.h>

#include "state.h"

/* Mean of S's values into S->value (NAN when it has none). */
void step_mean(struct step *s);

/*
 * Whether B's ends differ enough to bisect: deterministic, their values
 * are not equal; wall, Welch p < 0.05; with a threshold, it lies strictly
 * between them. Both must have a value. 0, or -1 with WHY.
 */
int ends_differ(const struct bisection *b, char *why, size_t whylen);

/* Call step S against B's ends: S->verdict, S->why, S->p_good, S->p_bad. */
void call_step(const struct bisection *b, struct step *s);

#endif
