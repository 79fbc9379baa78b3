// SPDX-License-Identifier: GPL-2.0
/*
 * Per-node page counts of the followed processes, summed over every
 * mapping in /proc/PID/numa_maps.  Walking numa_maps takes the mmap lock
 * and visits every page table, so the collector asks for it only every
 * Nth sample.  Processes come from --pid and from the pid file the
 * workloads append to (/run/bnb/pids), re-read on each walk because
 * workloads start after the agent.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"

static pid_t static_pids[AGENT_MAX_PIDS];
static int nr_static_pids;
static const char *pid_file;

static pid_t walk_pids[AGENT_MAX_PIDS];
static int nr_walk_pids;
static unsigned long long node_pages[BNB_WIRE_MAX_NODES];

/* Big enough for any numa_maps line short of a pathological file name. */
static char maps_buf[16384];

void maps_add_pid(pid_t pid)
{
	if (nr_static_pids < AGENT_MAX_PIDS)
		static_pids[nr_static_pids++] = pid;
}

void maps_set_pid_file(const char *path)
{
	pid_file = path;
}

static void walk_add(pid_t pid)
{
	if (pid <= 0 || nr_walk_pids == AGENT_MAX_PIDS)
		return;
	for (int i = 0; i < nr_walk_pids; i++)
		if (walk_pids[i] == pid)
			return;
	walk_pids[nr_walk_pids++] = pid;
}

static void read_pid_file(void)
{
	const char *p, *end;
	unsigned long long pid;
	int fd;
	ssize_t n;

	if (!pid_file)
		return;
	fd = open(pid_file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, maps_buf, sizeof(maps_buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	maps_buf[n] = '\0';
	for (p = maps_buf; *p; p = end) {
		if (!scan_u64(p, &end, &pid)) {
			end = p + 1;
			continue;
		}
		if (pid < 1U << 22)
			walk_add(pid);
	}
}

/*
 * One numa_maps line: "ADDR POLICY [file=...] ... N0=12 N1=3
 * kernelpagesize_kB=4".  N counts are in units of the mapping's page size;
 * convert to 4 KiB pages so THP and base pages add up.
 */
static void parse_maps_line(char *line)
{
	unsigned long long counts[BNB_WIRE_MAX_NODES] = { 0 };
	unsigned long long kps = 4, v, node;
	const char *end;
	char *tok, *save;

	for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!strncmp(tok, "kernelpagesize_kB=", 18)) {
			if (scan_u64(tok + 18, &end, &v) && v >= 4)
				kps = v;
			continue;
		}
		if (tok[0] != 'N' || !scan_u64(tok + 1, &end, &node) || *end != '=')
			continue;
		if (node < BNB_WIRE_MAX_NODES && scan_u64(end + 1, &end, &v))
			counts[node] = v;
	}
	for (int i = 0; i < BNB_WIRE_MAX_NODES; i++)
		node_pages[i] += counts[i] * (kps / 4);
}

/* Stream the file through maps_buf, parsing whole lines. */
static bool walk_one(pid_t pid)
{
	char path[64];
	size_t have = 0;
	bool skipping = false;	/* inside a line longer than the buffer */
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/numa_maps", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	while ((n = read(fd, maps_buf + have, sizeof(maps_buf) - 1 - have)) > 0) {
		char *line = maps_buf, *nl;

		have += n;
		maps_buf[have] = '\0';
		while ((nl = memchr(line, '\n', have - (line - maps_buf)))) {
			*nl = '\0';
			if (!skipping)
				parse_maps_line(line);
			skipping = false;
			line = nl + 1;
		}
		have -= line - maps_buf;
		memmove(maps_buf, line, have);
		if (have == sizeof(maps_buf) - 1) {
			skipping = true;
			have = 0;
		}
	}
	close(fd);
	return true;
}

/* The followed processes: --pid and the pid file, which grows. */
static void refresh_pids(void)
{
	nr_walk_pids = 0;
	for (int i = 0; i < nr_static_pids; i++)
		walk_add(static_pids[i]);
	read_pid_file();
}

void maps_emit(struct reply *r)
{
	int walked = 0;

	memset(node_pages, 0, sizeof(node_pages));
	refresh_pids();
	for (int i = 0; i < nr_walk_pids; i++)
		walked += walk_one(walk_pids[i]);
	reply_add(r, "w %d\n", walked);
	for (int node = 0; node < BNB_WIRE_MAX_NODES; node++)
		if (node_pages[node])
			reply_add(r, "m %d %llu\n", node, node_pages[node]);
}

/* "mm->numa_scan_seq : N" in /proc/PID/sched (CONFIG_SCHED_DEBUG), or -1. */
static long long scan_seq_of(pid_t pid)
{
	static const char name[] = "mm->numa_scan_seq";
	unsigned long long v;
	const char *p, *end;
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/sched", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, maps_buf, sizeof(maps_buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	maps_buf[n] = '\0';
	p = strstr(maps_buf, name);
	if (!p)
		return -1;
	p += strlen(name);
	p += strspn(p, " :");
	return scan_u64(p, &end, &v) ? (long long)v : -1;
}

/*
 * The scanner's passes over the followed processes: the most of any of
 * their mm->numa_scan_seq, held once they have exited, so that the
 * collector sees a counter that only grows (0 until one is followed).
 */
void passes_emit(struct reply *r)
{
	static unsigned long long most;

	refresh_pids();
	for (int i = 0; i < nr_walk_pids; i++) {
		long long seq = scan_seq_of(walk_pids[i]);

		if (seq > 0 && (unsigned long long)seq > most)
			most = seq;
	}
	reply_add(r, "c " BNB_WIRE_PASSES " %llu\n", most);
}
