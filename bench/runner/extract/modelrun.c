// SPDX-License-Identifier: GPL-2.0
/*
 * modelrun.c - the machine model's charges per run; see modelrun.h.
 * The counters file is the guest's work and read as untrusted: its
 * header is checked before any vCPU record is touched.
 */
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bnb_plugin_shm.h"
#include "modelrun.h"
#include "report/results.h"

struct model_sums {
	uint64_t stall_ps, busy_ps, misses, lat_ps, bw_ps;
};

static void sum_vcpus(const struct bnb_shm_header *h, struct model_sums *s)
{
	for (unsigned int v = 0; v < h->n_vcpus; v++) {
		const struct bnb_shm_vcpu *c = bnb_shm_vcpu_at(h, v);
		uint64_t local = bnb_shm_load(&c->tk_local_ps);
		uint64_t idle = bnb_shm_load(&c->tk_catchup_ps);

		s->stall_ps += bnb_shm_load(&c->tk_stall_ps);
		s->busy_ps += local > idle ? local - idle : 0;
		s->misses += bnb_shm_load(&c->model_misses);
		s->lat_ps += bnb_shm_load(&c->model_lat_ps);
		s->bw_ps += bnb_shm_load(&c->model_bw_ps);
	}
}

static bool header_ok(const struct bnb_shm_header *h, size_t size)
{
	return size >= BNB_SHM_HEADER_SIZE && h->magic == BNB_SHM_MAGIC &&
	       h->version == BNB_SHM_VERSION && h->header_size == BNB_SHM_HEADER_SIZE &&
	       h->vcpu_stride >= sizeof(struct bnb_shm_vcpu) && h->n_vcpus <= BNB_SHM_MAX_VCPUS &&
	       size >= h->header_size + (size_t)h->n_vcpus * h->vcpu_stride &&
	       (h->flags & BNB_SHM_F_MODEL);
}

/* Map RUNDIR's counters file read-only: its header, or NULL (size in *size). */
static const struct bnb_shm_header *map_shm(const char *rundir, size_t *size)
{
	char path[PATH_MAX];
	struct stat st;
	void *map;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", rundir, MODELRUN_SHM);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size < BNB_SHM_HEADER_SIZE) {
		close(fd);
		return NULL;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	*size = st.st_size;
	if (header_ok(map, st.st_size))
		return map;
	munmap(map, st.st_size);
	return NULL;
}

void modelrun_add(const char *rundir, struct xmetrics *x)
{
	struct model_sums s = { 0 };
	const struct bnb_shm_header *h;
	size_t size;

	h = map_shm(rundir, &size);
	if (!h)
		return;
	sum_vcpus(h, &s);
	if (s.busy_ps)
		xm_add(x, "model_stall_share", "", (double)s.stall_ps / s.busy_ps, BETTER_NONE);
	xm_add(x, "model_stall_s", "s", s.stall_ps / 1e12, BETTER_LOWER);
	xm_add(x, "model_misses", "", s.misses, BETTER_NONE);
	if (s.lat_ps + s.bw_ps)
		xm_add(x, "model_bw_share", "", (double)s.bw_ps / (s.lat_ps + s.bw_ps),
		       BETTER_NONE);
	munmap((void *)h, size);
}

/* The guest wrote the file: refuse what the plugin could not have written. */
static bool config_ok(const struct bnb_shm_header *h)
{
	if (!h->n_nodes || h->n_nodes > BNB_SHM_MAX_NODES || h->n_nodes > 16 ||
	    !h->hw_insn_ps || !h->insn_ps || !h->model_mlp || !h->model_hw_cpus ||
	    !h->model_node_mbs)
		return false;
	for (unsigned int v = 0; v < h->n_vcpus; v++)
		if (h->vcpu_node[v] >= h->n_nodes)
			return false;
	return true;
}

int modelrun_config(const char *rundir, struct modelrun_config *c)
{
	const struct bnb_shm_header *h;
	size_t size;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	h = map_shm(rundir, &size);
	if (!h)
		return -1;
	if (config_ok(h)) {
		snprintf(c->name, sizeof(c->name), "%.*s", (int)sizeof(h->model_name),
			 h->model_name);
		c->n_nodes = h->n_nodes;
		for (unsigned int v = 0; v < h->n_vcpus; v++)
			c->cpus[h->vcpu_node[v]]++;
		for (unsigned int i = 0; i < c->n_nodes; i++)
			for (unsigned int j = 0; j < c->n_nodes; j++) {
				c->lat_ns[i][j] = h->model_lat_ns[i][j];
				c->hops[i][j] = i != j;	/* until the routes are known */
			}
		c->node_mbs = h->model_node_mbs;
		c->link_mbs = h->model_link_mbs;
		c->hw_cpus = h->model_hw_cpus;
		c->mlp = h->model_mlp;
		c->d = (double)h->insn_ps / h->hw_insn_ps;
		rc = 0;
	}
	munmap((void *)h, size);
	return rc;
}

/*
 * The window the plugin counted between the WORK marker and the
 * balancer's first work after it (bnb_plugin_shm.h): counters that went
 * backwards are the guest's doing, not a window.
 */
static void acct_window(const struct bnb_shm_header *h, struct modelrun_acct *a)
{
	const uint64_t *w = h->acct_work_miss, *e = h->acct_act_miss;

	a->win_local = a->win_remote = NAN;
	a->acted = h->acct_state & BNB_ACCT_ACTED;
	if (!(h->acct_state & BNB_ACCT_WORK))
		return;
	if (!a->acted)
		return;		/* the work's own intervals are the window */
	if (e[0] < w[0] || e[1] < w[1])
		return;
	a->win_local = e[0] - w[0];
	a->win_remote = e[1] - w[1];
}

int modelrun_account(const char *rundir, struct modelrun_acct *a)
{
	const struct bnb_shm_header *h;
	struct model_sums s = { 0 };
	size_t size;

	memset(a, 0, sizeof(*a));
	h = map_shm(rundir, &size);
	if (!h)
		return -1;
	if (!config_ok(h)) {
		munmap((void *)h, size);
		return -1;
	}
	a->d = (double)h->insn_ps / h->hw_insn_ps;
	acct_window(h, a);
	sum_vcpus(h, &s);
	a->stall_ps = s.stall_ps;
	munmap((void *)h, size);
	return 0;
}
