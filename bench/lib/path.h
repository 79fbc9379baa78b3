/* SPDX-License-Identifier: GPL-2.0 */
/* Paths: joining without silent truncation, and mkdir -p. */
#ifndef BNB_LIB_PATH_H
#define BNB_LIB_PATH_H

#include <stddef.h>
#include <sys/types.h>

/*
 * DIR/NAME into buf (NAME alone when it is absolute or DIR is empty).
 * Returns 0, or -1 with errno ENAMETOOLONG when it does not fit.
 */
int path_join(char *buf, size_t len, const char *dir, const char *name);

/* Create PATH and its missing parents; 0 if it exists as a directory. */
int mkdir_p(const char *path, mode_t mode);

#endif
