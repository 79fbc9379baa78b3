// SPDX-License-Identifier: GPL-2.0
/*
 * perf stat -I over the whole guest while the command runs. perf starts
 * with its events disabled (--delay=-1) and is enabled through its control
 * descriptor, waiting for its ack, so counting begins when the workload
 * does and perf's own slow start under TCG is not counted. It is stopped
 * with SIGINT, on which it writes its last interval.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "monitor.h"

#define ACK_TIMEOUT_MS 60000	/* perf takes seconds to start under TCG */

struct perf_mon {
	pid_t pid;
	int ctl, ack;
	double cpu_at_start;	/* perf's start under TCG takes seconds of CPU */
};

/* User + system CPU seconds of PID so far, from /proc/PID/stat; 0 if gone. */
static double cpu_of(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long utime, stime;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	p = strrchr(buf, ')');	/* fields 14 and 15 (utime, stime), after the comm */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &utime, &stime) != 2)
		return 0;
	return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

static void close_pair(int fds[2])
{
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
}

static void exec_perf(const char *perf, const char *dir, const char *events,
		      unsigned int interval_ms, int ctl, int ack)
{
	char ival[16], out[512], control[64];

	snprintf(ival, sizeof(ival), "%u", interval_ms);
	snprintf(out, sizeof(out), "%s/%s", dir, BNB_MON_PERFSTAT_FILE);
	snprintf(control, sizeof(control), "fd:%d,%d", ctl, ack);
	execlp(perf, perf, "stat", "-a", "-x", ",", "-I", ival, "-e", events, "-o", out,
	       "--delay=-1", "--control", control, (char *)NULL);
	fprintf(stderr, "bnb-monitor: cannot run %s: %s\n", perf, strerror(errno));
	_exit(127);
}

/* Wait for "ack\n" on FD; -1 on timeout or when perf exited. */
static int wait_ack(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[16];
	ssize_t n;

	if (poll(&pfd, 1, ACK_TIMEOUT_MS) <= 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return strncmp(buf, "ack", 3) ? -1 : 0;
}

struct perf_mon *perfstat_start(const char *perf, const char *dir, const char *events,
				unsigned int interval_ms, char *err, size_t errlen)
{
	int ctl[2] = { -1, -1 }, ack[2] = { -1, -1 }, status;
	struct perf_mon *p = calloc(1, sizeof(*p));

	if (!p || pipe(ctl) || pipe(ack)) {
		snprintf(err, errlen, "perf stat: pipe: %s", strerror(errno));
		goto fail;
	}
	p->pid = fork();
	if (p->pid < 0) {
		snprintf(err, errlen, "perf stat: fork: %s", strerror(errno));
		goto fail;
	}
	if (!p->pid) {
		close(ctl[1]);
		close(ack[0]);
		mon_child_signals();
		exec_perf(perf, dir, events, interval_ms, ctl[0], ack[1]);
	}
	close(ctl[0]);
	close(ack[1]);
	p->ctl = ctl[1];
	p->ack = ack[0];
	if (write(p->ctl, "enable\n", 7) == 7 && !wait_ack(p->ack)) {
		p->cpu_at_start = cpu_of(p->pid);
		return p;
	}
	kill(p->pid, SIGKILL);
	waitpid(p->pid, &status, 0);
	snprintf(err, errlen, "perf stat -e %s did not start (is perf in the guest, are the "
		 "events known? see the run's stderr)", events);
	close(p->ctl);
	close(p->ack);
	free(p);
	return NULL;
fail:
	close_pair(ctl);
	close_pair(ack);
	free(p);
	return NULL;
}

double perfstat_stop(struct perf_mon *p)
{
	double cpu = cpu_of(p->pid) - p->cpu_at_start;	/* before its last interval */
	int status;

	kill(p->pid, SIGINT);
	waitpid(p->pid, &status, 0);
	close(p->ctl);
	close(p->ack);
	free(p);
	return cpu > 0 ? cpu : 0;
}
