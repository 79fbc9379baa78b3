// SPDX-License-Identifier: GPL-2.0
/*
 * The plugin's address-to-node map against QEMU's own memory map.
 *
 * The plugin lays the nodes out as QEMU's q35 machine does (addrmap.h:
 * RAM past the below-4G size lies above the 4 GiB hole), from the rule in
 * hw/i386/pc_q35.c.  The guest's map check cannot prove that split: its
 * 2 MiB per node land where the guest's allocator puts them, so a split
 * at the wrong place can pass.  So before the guest runs its first
 * instruction (QEMU started paused), bnb-vm reads QEMU's flat view of the
 * guest-physical address space (HMP "info mtree -f" over QMP), where
 * every RAM range names its memdev, memN for node N (qemu_args.c), and
 * checks that the plugin attributes every byte of it to node N.
 *
 * Only for the plugin build of the project's QEMU, whose addresses are
 * guest-physical: 7.2's are RAM offsets (map=qemu72), which QEMU's map
 * does not show.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "qmp.h"
#include "vm.h"
#include "../plugin/addrmap.h"

#define MTREE_CMD	"{\"execute\":\"human-monitor-command\"," \
			"\"arguments\":{\"command-line\":\"info mtree -f\"}}"
/* the reply names every vCPU's address spaces: room for 256 of them */
#define MTREE_REPLY_MAX	(1 << 20)
#define MEMORY_VIEW	" AS \"memory\","

/* The map= the plugin gets: the last one given, else its build's default. */
static enum bnb_map_mode plugin_map_mode(const struct vm_config *c)
{
	enum bnb_map_mode mode = c->emu && c->emu->project ? BNB_MAP_LINEAR : BNB_MAP_QEMU72;

	for (int i = 0; i < c->plugin_opts.n; i++) {
		const char *o = c->plugin_opts.v[i];

		if (!strncmp(o, "map=", 4))
			mode = strcmp(o + 4, "linear") ? BNB_MAP_QEMU72 : BNB_MAP_LINEAR;
	}
	return mode;
}

bool vm_checks_layout(const struct vm_config *c)
{
	return c->plugin && c->emu && c->emu->project &&
	       plugin_map_mode(c) == BNB_MAP_LINEAR;
}

/* One range line "  START-END (prio P, KIND): NAME[ @OFFSET]" of node *node's RAM? */
static bool node_ram_line(const char *line, uint64_t *start, uint64_t *end,
			  unsigned int *node)
{
	char kind[16];
	int used = 0;

	if (sscanf(line, " %" SCNx64 "-%" SCNx64 " (prio %*d, %15[^)]): mem%u%n",
		   start, end, kind, node, &used) != 4 || !used)
		return false;
	if (line[used] && line[used] != ' ' && line[used] != '\r' && line[used] != '\n')
		return false;	/* memdev ids are memN exactly */
	return !strcmp(kind, "ram");
}

static int check_range(const struct bnb_addrmap *m, uint64_t start, uint64_t end,
		       unsigned int node, char *err, size_t errlen)
{
	int r = bnb_addrmap_range(m, start);
	uint64_t wrong = r < 0 || m->node[r] != (int)node ? start : end;
	char where[32] = "no node";

	if (r >= 0 && m->node[r] == (int)node && end - m->start[r] < m->len[r])
		return 0;
	if (bnb_addrmap_node(m, wrong) >= 0)
		snprintf(where, sizeof(where), "node %d", bnb_addrmap_node(m, wrong));
	return errf(err, errlen, "QEMU maps node %u's RAM (mem%u) at guest-physical "
		    "%#" PRIx64 "-%#" PRIx64 ", but the plugin's address map puts %#" PRIx64
		    " on %s: it does not follow QEMU's memory layout", node, node, start, end,
		    wrong, where);
}

int layout_check(const char *mtree, const struct bnb_addrmap *m, unsigned int n_nodes,
		 char *err, size_t errlen)
{
	const char *line = strstr(mtree, MEMORY_VIEW);
	bool seen[BNB_SHM_MAX_NODES] = { false };
	unsigned int node;
	uint64_t start, end;

	if (!line)
		return errf(err, errlen, "QEMU's memory map has no flat view of the address space \"memory\"");
	for (line = strchr(line, '\n'); line && line[1] && line[1] != '\n' && line[1] != '\r';
	     line = strchr(line + 1, '\n')) {
		if (!node_ram_line(line + 1, &start, &end, &node))
			continue;
		if (node >= n_nodes)
			return errf(err, errlen, "QEMU's memory map has RAM of mem%u; the guest has %u nodes",
				    node, n_nodes);
		if (check_range(m, start, end, node, err, errlen))
			return -1;
		seen[node] = true;
	}
	for (node = 0; node < n_nodes; node++)
		if (!seen[node])
			return errf(err, errlen, "QEMU's memory map shows no RAM of node %u (mem%u)",
				    node, node);
	return 0;
}

/* QEMU's flat memory map, over an open QMP connection: malloc'd, or NULL. */
static char *read_mtree(int fd, char *err, size_t errlen)
{
	char *reply = malloc(MTREE_REPLY_MAX), *text = NULL;
	struct json_object *root = NULL, *ret;

	if (!reply) {
		errf(err, errlen, "out of memory");
		return NULL;
	}
	if (qmp_exec(fd, MTREE_CMD, reply, MTREE_REPLY_MAX))
		errf(err, errlen, "QMP: no answer to info mtree");
	else if (!(root = json_tokener_parse(reply)) ||
		 !json_object_object_get_ex(root, "return", &ret) ||
		 !json_object_is_type(ret, json_type_string))
		errf(err, errlen, "QMP: info mtree: not a text reply");
	else if (!(text = strdup(json_object_get_string(ret))))
		errf(err, errlen, "out of memory");
	json_object_put(root);
	free(reply);
	return text;
}

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000;
}

/*
 * QEMU's map; a failed connection or reply is tried again on a new one
 * until the run's time limit, as hold.c does (a loaded host can take
 * over 10 s to start QEMU and over QMP's 2 s to answer), unless QEMU
 * has exited.
 */
static char *fetch_mtree(const struct vm_config *c, pid_t qemu, int *fd,
			 char *err, size_t errlen)
{
	long deadline = now_ms() + c->timeout_s * 1000L, left;
	char *mtree;

	errf(err, errlen, "no QMP connection to read QEMU's memory map");
	while ((left = deadline - now_ms()) > 0) {
		if (qemu_gone(qemu)) {
			errf(err, errlen, "QEMU exited before the guest started");
			break;
		}
		*fd = qmp_open(c->run_dir, (int)(left < QMP_TRY_MS ? left : QMP_TRY_MS));
		if (*fd >= 0 && (mtree = read_mtree(*fd, err, errlen)))
			return mtree;
		if (*fd >= 0)
			close(*fd);
		usleep(200 * 1000);
	}
	*fd = -1;
	return NULL;
}

int vm_check_layout(const struct vm_config *c, pid_t qemu, bool cont, char *err, size_t errlen)
{
	struct bnb_addrmap m;
	uint64_t sizes[BNB_MAX_NODES];
	char buf[512], *mtree;
	int fd, rc = -1;

	for (int i = 0; i < c->topo.nodes; i++)
		sizes[i] = c->topo.mem[i];
	bnb_addrmap_build_q35(&m, BNB_MAP_LINEAR, c->topo.nodes, sizes);
	mtree = fetch_mtree(c, qemu, &fd, err, errlen);
	if (!mtree)
		return -1;
	if (!layout_check(mtree, &m, c->topo.nodes, err, errlen))
		rc = 0;
	if (!rc && cont && qmp_exec(fd, "{\"execute\":\"cont\"}", buf, sizeof(buf)))
		rc = errf(err, errlen, "QMP: cont failed");
	free(mtree);
	close(fd);
	return rc;
}
