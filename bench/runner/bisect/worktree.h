/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harness's own checkout of the user's repository: a linked git
 * worktree in the cache, one per repository, where every commit of a
 * bisection is checked out and built. The user's checkout (its files,
 * index, HEAD and branches) is never touched; git keeps the worktree's
 * HEAD and its bisection refs apart from the user's (git keeps the refs
 * under refs/bisect per worktree). Because the path stays the same from one commit to the
 * next, and from one bisection of the repository to the next,
 * kernel/build.sh keys one object directory to it (its confkey is the
 * tree's path), so kbuild rebuilds only what a checkout changed.
 */
#ifndef BNB_BISECT_WORKTREE_H
#define BNB_BISECT_WORKTREE_H

#include <limits.h>

struct worktree {
	char repo[PATH_MAX];	/* the user's git common directory */
	char home[PATH_MAX];	/* CACHE/bisect/KEY: lock, repo, tree/ */
	char tree[PATH_MAX];	/* the checkout */
	int lock;		/* descriptor of home/lock */
};

/*
 * The worktree of repository COMMON (git_repo()), locked for this
 * process: no second bisection of the same repository runs at once.
 * Nothing is checked out yet. -1 with WHY.
 */
int worktree_claim(const char *common, struct worktree *w, char *why, size_t whylen);

/*
 * The worktree at commit SHA with nothing else in it: made once (git
 * worktree add: a kernel tree takes a minute), afterwards any bisection
 * left behind is reset and SHA checked out, which rewrites only the
 * files that differ. USER is the repository as the user named it.
 */
int worktree_ready(struct worktree *w, const char *user, const char *sha, char *why,
		   size_t whylen);

/* Check out SHA in the worktree (detached). */
int worktree_checkout(const struct worktree *w, const char *sha, char *why, size_t whylen);

/* The commit the worktree has checked out, into SHA (41 bytes). */
int worktree_head(const struct worktree *w, char *sha);

#endif
