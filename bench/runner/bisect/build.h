/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One commit's kernel: what the harness's worktree holds, built through
 * the ksrc: path (kernel/build.sh --ksrc TREE --patches none), found in
 * the kernel cache by its key when an earlier bisection built it. The
 * worktree's path never changes, so every commit is built in the same
 * object directory, and kbuild recompiles what the checkout changed.
 */
#ifndef BNB_BISECT_BUILD_H
#define BNB_BISECT_BUILD_H

#include <limits.h>
#include <stdbool.h>

#define BUILD_LOG_END 2048

struct build_result {
	bool ok;
	bool cached;		/* found in the kernel cache: nothing built */
	bool interrupted;
	double secs;		/* wall time of the build, key lookup included */
	int steps;		/* kbuild's steps (its "  XX  file" lines); -1 cached */
	int compiled;		/* of them C files compiled ("  CC"); -1 cached */
	char key[32];
	char image[PATH_MAX];	/* the cache's bzImage (System.map beside) */
	char log_end[BUILD_LOG_END];	/* a failed build: its log's last lines */
};

/*
 * Build what TREE holds; the build's output goes to FOLDER/build.log (and
 * to stdout), kbuild's own log of it to FOLDER/kbuild.log. 0 when built
 * or cached; -1 when it failed (B->log_end) or was interrupted.
 */
int bisect_build(const char *tree, const char *folder, struct build_result *b);

/* The last N lines of the file PATH into OUT ("" when unreadable). */
void tail_lines(const char *path, int n, char *out, size_t len);

#endif
