/* SPDX-License-Identifier: GPL-2.0 */
/* Paths: joining without silent truncation, and mkdir -p. */
#ifndef BNB_LIB_PATH_H
#define BNB_LIB_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * DIR/NAME into buf (NAME alone when it is absolute or DIR is empty).
 * Returns 0, or -1 with errno ENAMETOOLONG when it does not fit.
 */
int path_join(char *buf, size_t len, const char *dir, const char *name);

/*
 * PATH made absolute with its existing part resolved (symlinks, ..), the
 * rest appended as given, without creating anything; -1 if too long.
 */
int path_resolve(const char *path, char *out, size_t len);

/* Whether PATH is FOLDER or lies under it; both absolute and resolved. */
bool path_inside(const char *path, const char *folder);

/* Create PATH and its missing parents; 0 if it exists as a directory. */
int mkdir_p(const char *path, mode_t mode);

/*
 * The repository the running tool belongs to: $BNB_ROOT, else three levels
 * above the binary (ROOT/build/bin/TOOL), so tools work when called
 * directly, from GNU parallel or from a Slurm job.
 */
const char *bnb_root(void);
/* ROOT/REL into buf (truncated only beyond PATH_MAX); returns buf. */
const char *root_path(char *buf, size_t len, const char *rel);
/*
 * The build cache, as kernel/build.sh and bench/qemu/build.sh find it:
 * $BNB_CACHE, else $XDG_CACHE_HOME/balancenuma-bench, else
 * $HOME/.cache/balancenuma-bench. Into buf; returns buf.
 */
const char *cache_root(char *buf, size_t len);

#endif
