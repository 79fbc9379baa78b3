/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner's files on a shared, possibly full, disk: the locks that keep
 * two runners out of one results folder, what a failed write says, and the
 * space a run keeps back so that its end can always be recorded.
 */
#ifndef BNB_RUNNER_FSIO_H
#define BNB_RUNNER_FSIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The lock file of a results folder and of each run folder in it. */
#define LOCK_FILE "lock"

/*
 * Take the lock file PATH (flock, exclusive, without waiting) and write
 * our pid into it. The descriptor is close-on-exec and stays open until
 * lock_release() or the process ends, which releases the lock whatever
 * kills it. Returns the descriptor, or -1 with ERR naming the holder's pid
 * ("held by pid N") or why the file could not be used.
 */
int lock_take(const char *path, char *err, size_t errlen);
void lock_release(int fd);

/* The pid holding the lock PATH: 0 when it is free or absent, -1 when
 * held by a process that wrote no pid. */
long lock_holder(const char *path);

/*
 * Move the file or folder PATH aside to PATH.prev-K, the first K free:
 * an earlier attempt is kept, never overwritten. 0 (also when PATH does
 * not exist), or -1 with errno.
 */
int move_aside(const char *path);

/*
 * ERRNUM of a failed write to PATH in words. A full disk says which one:
 * "no space left on SOURCE (mounted on DIR)" (ENOSPC, EDQUOT); anything
 * else is strerror(). Returns BUF.
 */
const char *write_errstr(const char *path, int errnum, char *buf, size_t len);

/* Close F, which was written to PATH; 0, or -1 with errno of the first
 * failed write (stdio keeps only the error flag, so a failed flush of
 * earlier output is caught here too). */
int fclose_checked(FILE *f);

/* Bytes free to us on the filesystem of PATH, or -1 when unknown. */
long long space_free(const char *path);

/*
 * A run keeps RESERVE_BYTES allocated in its folder while the guest runs
 * (DIR/.reserve) and gives them back before it writes its verdict, so a
 * disk that the guest's output filled still takes the status file and the
 * summary. 0, or -1 with errno (ENOSPC: there is not even that much).
 */
#define RESERVE_BYTES (256 * 1024)
int space_reserve(const char *dir);
void space_release(const char *dir);

#endif
