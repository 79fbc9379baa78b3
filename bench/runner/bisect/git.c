// SPDX-License-Identifier: GPL-2.0
/* git as a process (git.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "git.h"
#include "lib/argv.h"
#include "lib/err.h"
#include "proc.h"

int git_run(struct proc_out *g, const char *dir, const char *const args[])
{
	struct argv a = { 0 };
	int rc;

	argv_add(&a, "git");
	argv_add(&a, "-c");
	argv_add(&a, "core.hooksPath=/dev/null");
	argv_add(&a, "-c");
	argv_add(&a, "advice.detachedHead=false");
	argv_add(&a, "-C");
	argv_add(&a, "%s", dir);
	for (; *args; args++)
		argv_add(&a, "%s", *args);
	rc = proc_capture((const char *const *)a.v, g);
	argv_free(&a);
	return rc;
}

const char *git_said(const struct proc_out *g, char *buf, size_t len)
{
	const char *s = g->err && *g->err ? g->err : g->out ? g->out : "";

	snprintf(buf, len, "%.*s", (int)strcspn(s, "\n"), s);
	return buf;
}

/* The first line of `git -C DIR ARGS` into OUT; 0 when git said yes. */
static int git_line(const char *dir, const char *const args[], char *out, size_t len)
{
	struct proc_out g;
	int rc = git_run(&g, dir, args);

	snprintf(out, len, "%.*s", (int)strcspn(g.out, "\n"), g.out);
	proc_out_free(&g);
	return rc ? -1 : 0;
}

int git_commit(const char *dir, const char *rev, char *sha)
{
	char spec[PATH_MAX];
	const char *args[] = { "rev-parse", "--verify", "-q", spec, NULL };

	/* a leading '-' would be an option, not a revision */
	if (!*rev || *rev == '-' ||
	    snprintf(spec, sizeof(spec), "%s^{commit}", rev) >= (int)sizeof(spec))
		return -1;
	if (git_line(dir, args, sha, GIT_SHA_LEN + 1) || strlen(sha) != GIT_SHA_LEN)
		return -1;
	return 0;
}

void git_subject(const char *dir, const char *sha, char *out, size_t len)
{
	const char *args[] = { "log", "-1", "--format=%s", sha, "--", NULL };

	if (git_line(dir, args, out, len))
		out[0] = 0;
}

bool git_is_ancestor(const char *dir, const char *a, const char *b)
{
	const char *args[] = { "merge-base", "--is-ancestor", a, b, NULL };
	struct proc_out g;
	int rc = git_run(&g, dir, args);

	proc_out_free(&g);
	return rc == 0;
}

int git_repo(const char *dir, char *common, size_t len, bool *bare, char *why,
	     size_t whylen)
{
	const char *q_common[] = { "rev-parse", "--path-format=absolute", "--git-common-dir",
				   NULL };
	const char *q_bare[] = { "rev-parse", "--is-bare-repository", NULL };
	const char *q_top[] = { "rev-parse", "--show-toplevel", NULL };
	const char *q_gitdir[] = { "rev-parse", "--path-format=absolute", "--git-dir", NULL };
	char line[PATH_MAX], *real_dir, *real_top;
	int same;

	if (access(dir, X_OK))
		return errf(why, whylen, "'%s': %m", dir);
	if (git_line(dir, q_common, line, sizeof(line)) || !line[0])
		return errf(why, whylen, "'%s' is not a git repository", dir);
	snprintf(common, len, "%s", line);
	git_line(dir, q_bare, line, sizeof(line));
	*bare = !strcmp(line, "true");
	/* the top of a checkout, or the repository itself when bare */
	if (git_line(dir, *bare ? q_gitdir : q_top, line, sizeof(line)))
		return errf(why, whylen, "'%s' is not a git repository", dir);
	real_dir = realpath(dir, NULL);
	real_top = realpath(line, NULL);
	same = real_dir && real_top && !strcmp(real_dir, real_top);
	free(real_dir);
	free(real_top);
	if (!same)
		return errf(why, whylen, "'%s' is not a git repository (it lies inside %s)", dir,
			    line);
	return 0;
}

int git_dirty(const char *dir, char *out, size_t len, int max)
{
	const char *args[] = { "status", "--porcelain", "--untracked-files=no", NULL };
	struct proc_out g;
	const char *p;
	size_t used = 0;
	int n = 0;

	out[0] = 0;
	if (git_run(&g, dir, args)) {
		proc_out_free(&g);
		return -1;
	}
	for (p = g.out; *p && n < max; p += strcspn(p, "\n"), p += *p == '\n', n++) {
		int w = (int)strcspn(p, "\n");

		/* "XY path": the path after the two status letters */
		if (w > 3 && used < len)
			used += snprintf(out + used, len - used, "%s%.*s", n ? ", " : "", w - 3,
					 p + 3);
	}
	if (*p && used < len)
		snprintf(out + used, len - used, ", ...");
	proc_out_free(&g);
	return 0;
}

int git_count(const char *dir, const char *good, const char *bad)
{
	char range[2 * GIT_SHA_LEN + 8], line[32];
	const char *args[] = { "rev-list", "--count", range, NULL };

	snprintf(range, sizeof(range), "%s..%s", good, bad);
	if (git_line(dir, args, line, sizeof(line)))
		return 0;
	return atoi(line);
}
