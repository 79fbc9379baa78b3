// SPDX-License-Identifier: GPL-2.0
/* The plugin's shared-memory counters, read-only; see plugin.h. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bnb_plugin_shm.h"
#include "lib/err.h"
#include "plugin.h"

int plugin_check_header(const void *map, size_t file_size, char *err, size_t errlen)
{
	const struct bnb_shm_header *h = map;
	size_t need;

	if (file_size < sizeof(*h))
		return errf(err, errlen, "file of %zu bytes is smaller than the header", file_size);
	if (h->magic != BNB_SHM_MAGIC)
		return errf(err, errlen, "bad magic %#llx", (unsigned long long)h->magic);
	if (h->version != BNB_SHM_VERSION)
		return errf(err, errlen, "version %u, expected %d", h->version, BNB_SHM_VERSION);
	if (h->header_size < sizeof(*h) || h->header_size % BNB_SHM_LINE)
		return errf(err, errlen, "header_size %u is invalid", h->header_size);
	if (h->vcpu_stride < sizeof(struct bnb_shm_vcpu) || h->vcpu_stride % BNB_SHM_LINE)
		return errf(err, errlen, "vcpu_stride %u is invalid", h->vcpu_stride);
	if (h->n_vcpus == 0 || h->n_vcpus > BNB_SHM_MAX_VCPUS)
		return errf(err, errlen, "n_vcpus %u is not 1..%d", h->n_vcpus, BNB_SHM_MAX_VCPUS);
	if (h->n_nodes == 0 || h->n_nodes > BNB_SHM_MAX_NODES)
		return errf(err, errlen, "n_nodes %u is not 1..%d", h->n_nodes, BNB_SHM_MAX_NODES);
	need = h->header_size + (size_t)h->n_vcpus * h->vcpu_stride;
	if (need > file_size)
		return errf(err, errlen, "%u vCPUs need %zu bytes, file has %zu",
			    h->n_vcpus, need, file_size);
	for (unsigned v = 0; v < h->n_vcpus; v++)
		if (h->vcpu_node[v] >= h->n_nodes)
			return errf(err, errlen, "vCPU %u on node %u of %u", v,
				    h->vcpu_node[v], h->n_nodes);
	return 0;
}

void plugin_close(struct plugin_state *p)
{
	if (p->map)
		munmap((void *)p->map, p->map_size);
	p->map = NULL;
}

static bool plugin_map(struct plugin_state *p, char *err, size_t errlen)
{
	struct stat st;
	void *map;
	int fd = open(p->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		errf(err, errlen, "%s: cannot open (%m)", p->path);
		return false;
	}
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(struct bnb_shm_header)) {
		errf(err, errlen, "%s: not yet sized by the plugin", p->path);
		close(fd);
		return false;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		errf(err, errlen, "%s: mmap failed (%m)", p->path);
		return false;
	}
	p->map = map;
	p->map_size = st.st_size;
	p->generation = ((const struct bnb_shm_header *)map)->generation;
	return true;
}

/*
 * The file stays mapped between samples.  A truncated file would turn
 * reads into SIGBUS, so the size is re-checked (one stat) before reading.
 */
static bool still_whole(struct plugin_state *p)
{
	struct stat st;

	return !stat(p->path, &st) && (size_t)st.st_size >= p->map_size;
}

/* Extra latency of a miss from node C to node M, tenths of a local miss. */
static unsigned excess10(const struct bnb_shm_header *geom, unsigned c, unsigned m)
{
	unsigned d = geom->distance[c][m];

	return c == m || d < 10 ? 0 : d - 10;
}

/*
 * Local and remote RAM accesses of all vCPUs, and their misses; the same
 * accesses by tier, fast for a memory node with vCPUs and slow for one
 * without.  The geometry and the distances come from the validated copy
 * of the header, never from the live mapping.
 */
static void sum_accesses(const void *base, const struct bnb_shm_header *geom,
			 struct plugin_totals *t)
{
	bool cache = geom->flags & BNB_SHM_F_CACHE, has_cpu[BNB_SHM_MAX_NODES] = { false };

	t->local = t->remote = t->misses = t->excess10 = t->fast = t->slow = 0;
	t->miss_local = t->miss_remote = 0;
	t->stall_local_ns = t->stall_remote_ns = 0;
	t->model = geom->flags & BNB_SHM_F_MODEL;
	for (unsigned v = 0; v < geom->n_vcpus; v++)
		has_cpu[geom->vcpu_node[v]] = true;
	t->tiered = false;
	for (unsigned n = 0; n < geom->n_nodes; n++)
		t->tiered |= !has_cpu[n];
	for (unsigned v = 0; v < geom->n_vcpus; v++) {
		const struct bnb_shm_vcpu *c = (const void *)((const char *)base +
			geom->header_size + (size_t)v * geom->vcpu_stride);
		unsigned home = geom->vcpu_node[v];

		for (unsigned n = 0; n < geom->n_nodes; n++) {
			uint64_t a = bnb_shm_load(&c->reads[n]) + bnb_shm_load(&c->writes[n]);
			uint64_t m = cache ? bnb_shm_load(&c->misses[n]) : a;
			double ns = t->model ? bnb_shm_load(&c->model_node_ps[n]) / 1e3 : 0;

			*(n == home ? &t->local : &t->remote) += a;
			*(n == home ? &t->miss_local : &t->miss_remote) += m;
			*(n == home ? &t->stall_local_ns : &t->stall_remote_ns) += ns;
			*(has_cpu[n] ? &t->fast : &t->slow) += a;
			t->misses += m;
			t->excess10 += m * excess10(geom, home, n);
		}
	}
}

/* Each vCPU's busy time: its local time less the idle time it skipped. */
static void sum_busy(const void *base, const struct bnb_shm_header *geom,
		     struct plugin_totals *t)
{
	t->n_busy = geom->flags & BNB_SHM_F_TIMEKEEPER ? geom->n_vcpus : 0;
	for (unsigned int v = 0; v < t->n_busy; v++) {
		const struct bnb_shm_vcpu *c = (const void *)((const char *)base +
			geom->header_size + (size_t)v * geom->vcpu_stride);
		uint64_t local = bnb_shm_load(&c->tk_local_ps);
		uint64_t idle = bnb_shm_load(&c->tk_catchup_ps);

		t->busy_ps[v] = local > idle ? local - idle : 0;
	}
}

bool plugin_read(struct plugin_state *p, struct plugin_totals *t, char *err, size_t errlen)
{
	const struct bnb_shm_header *h;
	struct bnb_shm_header copy;

	if (p->map && (!still_whole(p) ||
		       ((const struct bnb_shm_header *)p->map)->generation != p->generation))
		plugin_close(p);
	if (!p->map && !plugin_map(p, err, errlen))
		return false;
	h = p->map;
	/* Validate a private copy so the plugin cannot change it under us. */
	memcpy(&copy, h, sizeof(copy));
	if (plugin_check_header(&copy, p->map_size, err, errlen)) {
		plugin_close(p);
		return false;
	}
	if (copy.state == BNB_SHM_STARTING) {
		errf(err, errlen, "plugin still starting");
		return false;
	}
	if (!(copy.flags & BNB_SHM_F_COUNT)) {
		errf(err, errlen, "plugin counters are disabled");
		return false;
	}
	sum_accesses(h, &copy, t);
	sum_busy(h, &copy, t);
	t->work_marks = copy.work_marks;
	t->work_ends = copy.work_ends;
	return true;
}
