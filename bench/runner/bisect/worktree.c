// SPDX-License-Identifier: GPL-2.0
/* The harness's worktree of a repository under bisection (worktree.h). */
#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "git.h"
#include "lib/err.h"
#include "lib/path.h"
#include "run/fsio.h"
#include "worktree.h"

/* The first 16 hex digits of SHA-256(S): the repository's key. */
static void key_of(const char *s, char *out)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	EVP_Digest(s, strlen(s), md, &n, EVP_sha256(), NULL);
	for (int i = 0; i < 8; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
}

int worktree_claim(const char *common, struct worktree *w, char *why, size_t whylen)
{
	char cache[PATH_MAX], key[17], path[PATH_MAX + 16], err[PATH_MAX + 64];
	FILE *f;

	memset(w, 0, sizeof(*w));
	w->lock = -1;
	snprintf(w->repo, sizeof(w->repo), "%s", common);
	key_of(common, key);
	cache_root(cache, sizeof(cache));
	if (snprintf(w->home, sizeof(w->home), "%s/bisect/%s", cache, key) >= (int)sizeof(w->home) ||
	    path_join(w->tree, sizeof(w->tree), w->home, "tree"))
		return errf(why, whylen, "the cache path %s is too long", cache);
	if (mkdir_p(w->home, 0755))
		return errf(why, whylen, "cannot create %s: %m", w->home);
	snprintf(path, sizeof(path), "%s/" LOCK_FILE, w->home);
	w->lock = lock_take(path, err, sizeof(err));
	if (w->lock < 0)
		return errf(why, whylen, "another bisection of %s is running: %s", common, err);
	/* who the worktree is for, for a person looking at the cache */
	snprintf(path, sizeof(path), "%s/repo", w->home);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", common);
		fclose(f);
	}
	return 0;
}

/* Whether W->tree is a worktree of W->repo that git still knows. */
static bool ours(const struct worktree *w)
{
	char common[PATH_MAX], why[256];
	bool bare;
	char *a, *b;
	bool same;

	if (access(w->tree, F_OK) || git_repo(w->tree, common, sizeof(common), &bare, why,
					      sizeof(why)))
		return false;
	a = realpath(common, NULL);
	b = realpath(w->repo, NULL);
	same = a && b && !strcmp(a, b);
	free(a);
	free(b);
	return same;
}

/* rm -rf DIR, a worktree git no longer knows (ours alone: under home). */
static int remove_tree(const char *dir)
{
	pid_t pid = fork();
	int status;

	if (!pid) {
		execlp("rm", "rm", "-rf", "--", dir, (char *)NULL);
		_exit(127);
	}
	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/* Run git in DIR; -1 with WHY naming WHAT and git's first line. */
static int git_do(const char *dir, const char *const args[], const char *what, char *why,
		  size_t whylen)
{
	struct proc_out g;
	char said[512];
	int rc = git_run(&g, dir, args);

	if (rc)
		errf(why, whylen, "%s failed: %s", what, git_said(&g, said, sizeof(said)));
	proc_out_free(&g);
	return rc ? -1 : 0;
}

static int create(struct worktree *w, const char *user, const char *sha, char *why,
		  size_t whylen)
{
	const char *add[] = { "worktree", "add", "-f", "--detach", w->tree, sha, NULL };

	if (!access(w->tree, F_OK) && remove_tree(w->tree))
		return errf(why, whylen, "cannot remove the stale worktree %s", w->tree);
	printf("bnb-run: bisect: checking the repository out into the harness's worktree %s "
	       "(once per repository: a kernel tree takes a minute or two)\n", w->tree);
	fflush(stdout);
	return git_do(user, add, "git worktree add", why, whylen);
}

int worktree_ready(struct worktree *w, const char *user, const char *sha, char *why,
		   size_t whylen)
{
	const char *reset[] = { "bisect", "reset", "HEAD", NULL };
	const char *clean[] = { "clean", "-q", "-f", "-d", "-x", NULL };
	struct proc_out g;

	if (!ours(w))
		return create(w, user, sha, why, whylen);
	/* a bisection that was interrupted: git keeps its state per worktree */
	git_run(&g, w->tree, reset);
	proc_out_free(&g);
	if (git_do(w->tree, clean, "git clean in the worktree", why, whylen))
		return -1;
	return worktree_checkout(w, sha, why, whylen);
}

int worktree_checkout(const struct worktree *w, const char *sha, char *why, size_t whylen)
{
	const char *co[] = { "checkout", "-q", "-f", "--detach", sha, NULL };

	return git_do(w->tree, co, "git checkout in the harness's worktree", why, whylen);
}

int worktree_head(const struct worktree *w, char *sha)
{
	return git_commit(w->tree, "HEAD", sha);
}
