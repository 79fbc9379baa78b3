/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `bnb-run bisect`: which commit of a kernel range moved a metric. git
 * bisect over the user's tree in a worktree the harness owns, each commit
 * built through the ksrc: path in one object directory, the experiment's
 * variant run once on it under deterministic timing (several repetitions
 * and Welch's test under wall timing), called good or bad by the metric.
 */
#ifndef BNB_BISECT_H
#define BNB_BISECT_H

#include <stdbool.h>
#include <stdio.h>

/* bnb-run bisect EXPERIMENT --tree DIR --good REV --bad REV --metric NAME ... */
int cmd_bisect(int argc, char **argv);

/* Its options as bench/runner/README.md's table (--help=markdown). */
void bisect_options_table(FILE *f);

/* Whether DIR holds a bisection (its bisect.json), for `bnb-run report`. */
bool bisect_is_folder(const char *dir);

/* `bnb-run report DIR` of a bisection: bisect.md and .json redrawn. */
int bisect_report(const char *dir);

#endif
