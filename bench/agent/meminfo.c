// SPDX-License-Identifier: GPL-2.0
/*
 * Per-node memory from /sys/devices/system/node/nodeN/meminfo.  The files
 * are opened once at start; each sample is one pread() per node.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"

static int node_fd[BNB_WIRE_MAX_NODES];
static int node_id[BNB_WIRE_MAX_NODES];
static int nr_nodes;
static char meminfo_buf[4096];

int meminfo_open(const char *sysfs_node_dir)
{
	char path[256];

	for (int node = 0; node < BNB_WIRE_MAX_NODES; node++) {
		int fd;

		snprintf(path, sizeof(path), "%s/node%d/meminfo", sysfs_node_dir, node);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		node_fd[nr_nodes] = fd;
		node_id[nr_nodes] = node;
		nr_nodes++;
	}
	return nr_nodes;
}

/* "Node 0 MemTotal:  524288 kB": the value after the key, in kB. */
static bool find_kb(const char *text, const char *key, unsigned long long *kb)
{
	const char *p = strstr(text, key);
	const char *end;

	if (!p)
		return false;
	p += strlen(key);
	while (*p == ' ')
		p++;
	return scan_u64(p, &end, kb);
}

static bool node_emit(int i, struct reply *r)
{
	unsigned long long total, used;
	ssize_t n = pread(node_fd[i], meminfo_buf, sizeof(meminfo_buf) - 1, 0);

	if (n <= 0)
		return false;
	meminfo_buf[n] = '\0';
	if (!find_kb(meminfo_buf, " MemTotal:", &total) ||
	    !find_kb(meminfo_buf, " MemUsed:", &used))
		return false;
	reply_add(r, "n %d %llu %llu\n", node_id[i], total, used);
	return true;
}

void meminfo_emit(struct reply *r)
{
	bool ok = true;

	for (int i = 0; i < nr_nodes; i++)
		ok &= node_emit(i, r);
	if (!ok || nr_nodes == 0)
		reply_add(r, "x meminfo\n");
}
