/* SPDX-License-Identifier: GPL-2.0 */
/*
 * git as a process with an argument vector (never a shell line): the
 * bisection's questions to the user's repository and its commands in the
 * harness's worktree. Every call runs with LC_ALL=C (its messages are
 * read), no terminal prompt and no hooks (the user's post-checkout hook
 * has no business in the harness's worktree), in its own process group
 * so that a Ctrl-C reaches the runner alone and no checkout is cut short.
 */
#ifndef BNB_BISECT_GIT_H
#define BNB_BISECT_GIT_H

#include <stdbool.h>
#include <stddef.h>

#include "proc.h"

#define GIT_SHA_LEN 40

/*
 * Run `git -C DIR ARGS...` (ARGS NULL-terminated) and collect its output.
 * Returns its exit status (-1: it did not run).
 */
int git_run(struct proc_out *g, const char *dir, const char *const args[]);

/* The first line of stderr (else stdout) of G, for a message. */
const char *git_said(const struct proc_out *g, char *buf, size_t len);

/* REV in DIR as a full commit name into SHA (GIT_SHA_LEN + 1); 0 or -1. */
int git_commit(const char *dir, const char *rev, char *sha);

/* The subject line of commit SHA in DIR, or "" (never fails). */
void git_subject(const char *dir, const char *sha, char *out, size_t len);

/* Whether A is an ancestor of B in DIR (git merge-base --is-ancestor). */
bool git_is_ancestor(const char *dir, const char *a, const char *b);

/*
 * The repository DIR belongs to, when DIR is its top: the absolute git
 * common directory into COMMON, and whether it is bare. -1 with WHY when
 * DIR is no git repository or lies inside one without being its top.
 */
int git_repo(const char *dir, char *common, size_t len, bool *bare, char *why,
	     size_t whylen);

/*
 * The tracked files of DIR's checkout that differ from its HEAD, one a
 * line, at most MAX of them, into OUT; "" when it is clean. -1 when git
 * could not say.
 */
int git_dirty(const char *dir, char *out, size_t len, int max);

/* The commits of the range GOOD..BAD in DIR (0 when git cannot count them). */
int git_count(const char *dir, const char *good, const char *bad);

#endif
