// SPDX-License-Identifier: GPL-2.0
/* Locks, full disks and the run's space reserve (fsio.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fsio.h"
#include "lib/err.h"

#define RESERVE_FILE ".reserve"

/* The pid written in the lock file FD, or -1 when there is none. */
static long read_pid(int fd)
{
	char text[32];
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	long pid;

	if (n <= 0)
		return -1;
	text[n] = '\0';
	pid = strtol(text, NULL, 10);
	return pid > 0 ? pid : -1;
}

int lock_take(const char *path, char *err, size_t errlen)
{
	char text[32], why[256];
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	long pid;
	int len;

	if (fd < 0)
		return errf(err, errlen, "cannot open the lock %s: %s", path,
			    write_errstr(path, errno, why, sizeof(why)));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int saved = errno;

		pid = saved == EWOULDBLOCK ? read_pid(fd) : 0;
		close(fd);
		if (saved != EWOULDBLOCK)
			return errf(err, errlen, "cannot lock %s: %s", path, strerror(saved));
		if (pid > 0)
			return errf(err, errlen, "held by pid %ld (lock %s)", pid, path);
		return errf(err, errlen, "held by another process (lock %s)", path);
	}
	len = snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, text, len, 0) != len) {
		errf(err, errlen, "cannot write the lock %s: %s", path,
		     write_errstr(path, errno, why, sizeof(why)));
		close(fd);
		return -1;
	}
	return fd;
}

void lock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}

int move_aside(const char *path)
{
	char prev[PATH_MAX + 32];
	int k;

	if (access(path, F_OK))
		return 0;
	for (k = 1; k < 1000; k++) {
		snprintf(prev, sizeof(prev), "%s.prev-%d", path, k);
		if (access(prev, F_OK))
			return rename(path, prev);
	}
	errno = EEXIST;
	return -1;
}

long lock_holder(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	long pid = 0;

	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_SH | LOCK_NB))
		pid = errno == EWOULDBLOCK ? read_pid(fd) : 0;
	close(fd);
	return pid;
}

/*
 * The mount that holds PATH (its device and the deepest mount point over
 * it, from /proc/self/mountinfo): SOURCE and DIR, or -1.
 */
static int mount_of(const char *path, char *source, size_t slen, char *dir, size_t dlen)
{
	char line[4096], point[PATH_MAX], src[PATH_MAX], *real;
	unsigned int major, minor;
	size_t best = 0, n;
	struct stat st;
	FILE *f;

	if (stat(path, &st))
		return -1;
	real = realpath(path, NULL);
	f = fopen("/proc/self/mountinfo", "r");
	while (real && f && fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		if (sscanf(line, "%*d %*d %u:%u %*s %4095s", &major, &minor, point) != 3 ||
		    makedev(major, minor) != st.st_dev || !sep ||
		    sscanf(sep, " - %*s %4095s", src) != 1)
			continue;
		n = strlen(point);
		if (strncmp(real, point, n) || (real[n] && real[n] != '/' && n > 1) || n < best)
			continue;
		best = n;
		snprintf(source, slen, "%s", src);
		snprintf(dir, dlen, "%s", point);
	}
	if (f)
		fclose(f);
	free(real);
	return best ? 0 : -1;
}

/* The nearest existing directory of PATH (a file not yet written has none). */
static void existing_dir(const char *path, char *buf, size_t len)
{
	char *slash;

	snprintf(buf, len, "%s", path);
	while (access(buf, F_OK) && (slash = strrchr(buf, '/'))) {
		if (slash == buf) {
			buf[1] = '\0';
			return;
		}
		*slash = '\0';
	}
}

const char *write_errstr(const char *path, int errnum, char *buf, size_t len)
{
	char near[PATH_MAX], source[PATH_MAX], dir[PATH_MAX];

	if (errnum != ENOSPC && errnum != EDQUOT) {
		snprintf(buf, len, "%s", strerror(errnum));
		return buf;
	}
	existing_dir(path, near, sizeof(near));
	if (mount_of(near, source, sizeof(source), dir, sizeof(dir)))
		snprintf(buf, len, "no space left on the filesystem of %s%s", near,
			 errnum == EDQUOT ? " (disk quota)" : "");
	else
		snprintf(buf, len, "no space left on %s (mounted on %s)%s", source, dir,
			 errnum == EDQUOT ? " (disk quota)" : "");
	return buf;
}

int fclose_checked(FILE *f)
{
	int failed = ferror(f), saved = errno;

	if (fclose(f))
		return -1;
	if (!failed)
		return 0;
	errno = saved ? saved : EIO;
	return -1;
}

long long space_free(const char *path)
{
	struct statvfs s;

	if (statvfs(path, &s))
		return -1;
	return (long long)s.f_bavail * (long long)s.f_frsize;
}

int space_reserve(const char *dir)
{
	char path[PATH_MAX + 16];
	int fd, rc;

	snprintf(path, sizeof(path), "%s/" RESERVE_FILE, dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -1;
	rc = posix_fallocate(fd, 0, RESERVE_BYTES);
	close(fd);
	if (!rc)
		return 0;
	unlink(path);
	errno = rc;
	return -1;
}

void space_release(const char *dir)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/" RESERVE_FILE, dir);
	unlink(path);
}
