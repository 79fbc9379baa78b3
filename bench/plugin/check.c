// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - bnb-plugin-check: read the plugin's shared-memory counters.
 *
 *   bnb-plugin-check [--wait SEC] SHM
 *	print the map-check verdict and the access matrix as key=value
 *	lines; exit 0 if the map check passed, 1 if it failed, 2 if the
 *	guest never ran it, 3 on a bad or missing file.
 *   bnb-plugin-check --watch MS [--wait SEC] SHM
 *	print CSV rows t_s,local,remote,remote_share for each MS window
 *	until QEMU exits or dies (the collector does this properly; this is for
 *	tests and quick looks).
 *
 * The file comes from another process: every size and count in it is
 * checked before use.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "bnb_plugin_shm.h"
#include "lib/err.h"
#include "lib/opt.h"
#include "lib/util.h"

enum { EXIT_MAP_OK, EXIT_MAP_FAILED, EXIT_MAP_UNCHECKED, EXIT_BAD };

static const char *const map_names[] = {
	[BNB_MAP_UNCHECKED] = "unchecked",
	[BNB_MAP_CHECKING] = "checking",
	[BNB_MAP_OK] = "ok",
	[BNB_MAP_FAILED] = "failed",
};

static const char *const state_names[] = {
	[BNB_SHM_STARTING] = "starting",
	[BNB_SHM_RUNNING] = "running",
	[BNB_SHM_EXITED] = "exited",
};

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Why the mapped file cannot be used, or NULL. */
static const char *validate(const struct bnb_shm_header *h, size_t size)
{
	if (__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) != BNB_SHM_MAGIC)
		return "bad magic (not a bnb-plugin counters file, or not ready)";
	if (h->version != BNB_SHM_VERSION)
		return "unsupported version";
	if (h->n_vcpus < 1 || h->n_vcpus > BNB_SHM_MAX_VCPUS ||
	    h->n_nodes < 1 || h->n_nodes > BNB_SHM_MAX_NODES)
		return "vCPU or node count out of range";
	if (h->header_size < sizeof(*h) || h->vcpu_stride < sizeof(struct bnb_shm_vcpu) ||
	    h->header_size + (size_t)h->n_vcpus * h->vcpu_stride > size)
		return "file smaller than its header says";
	for (unsigned int v = 0; v < h->n_vcpus; v++)
		if (h->vcpu_node[v] >= h->n_nodes)
			return "vCPU on a node that does not exist";
	return NULL;
}

/* Map path read-only, waiting up to wait_s for the plugin to create it. */
static const struct bnb_shm_header *open_shm(const char *path, double wait_s)
{
	double deadline = now_s() + wait_s;
	const char *why = NULL;

	for (;;) {
		struct stat st;
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd >= 0 && !fstat(fd, &st) && (size_t)st.st_size >= BNB_SHM_HEADER_SIZE) {
			void *p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);

			close(fd);
			if (p == MAP_FAILED) {
				why = strerror(errno);
			} else {
				why = validate(p, st.st_size);
				if (!why)
					return p;
				munmap(p, st.st_size);
			}
		} else {
			why = fd < 0 ? strerror(errno) : "file too small";
			if (fd >= 0)
				close(fd);
		}
		if (now_s() >= deadline)
			break;
		sleep_ms(50);
	}
	fprintf(stderr, "bnb-plugin-check: %s: %s\n", path, why);
	return NULL;
}

static void print_header(const struct bnb_shm_header *h, char *msg, size_t msglen,
			 uint32_t *status)
{
	struct bnb_shm_header copy;
	uint64_t s;

	do {
		s = bnb_shm_read_begin(h);
		memcpy(&copy, h, sizeof(copy));
	} while (bnb_shm_read_retry(h, s));
	*status = copy.map_status <= BNB_MAP_FAILED ? copy.map_status : BNB_MAP_FAILED;
	copy.map_message[BNB_SHM_MSG_LEN - 1] = '\0';
	snprintf(msg, msglen, "%s", copy.map_message);
	printf("state=%s\n", copy.state <= BNB_SHM_EXITED ? state_names[copy.state] : "?");
	printf("nodes=%u\nvcpus=%u\n", copy.n_nodes, copy.n_vcpus);
	printf("flags=%s%s%s%s\n", copy.flags & BNB_SHM_F_COUNT ? "count," : "",
	       copy.flags & BNB_SHM_F_DELAY ? "delay," : "",
	       copy.flags & BNB_SHM_F_CACHE ? "cache," : "",
	       copy.flags & BNB_SHM_F_TIMEKEEPER ? "timekeeper," : "");
	printf("base_ns=%llu\ncache_bytes=%llu\n", (unsigned long long)copy.base_ns,
	       (unsigned long long)copy.cache_bytes);
	printf("map_status=%s\nmap_nodes_checked=%u\n", map_names[*status],
	       copy.map_nodes_checked);
	for (unsigned int n = 0; n < copy.n_nodes && n < copy.map_nodes_checked; n++)
		printf("map_node%u=%llu/%llu\n", n,
		       (unsigned long long)copy.map_check[n].on_node,
		       (unsigned long long)copy.map_check[n].total);
	if (*msg)
		printf("map_message=%s\n", msg);
}

static void print_counters(const struct bnb_shm_header *h)
{
	static uint64_t m[BNB_SHM_MAX_NODES][BNB_SHM_MAX_NODES];
	static uint64_t miss[BNB_SHM_MAX_NODES][BNB_SHM_MAX_NODES];
	uint64_t io = 0, unknown = 0, delayed = 0, delay_ns = 0, local, remote, fast, slow;

	for (unsigned int v = 0; v < h->n_vcpus; v++) {
		const struct bnb_shm_vcpu *c = bnb_shm_vcpu_at(h, v);

		for (unsigned int n = 0; n < h->n_nodes; n++) {
			m[h->vcpu_node[v]][n] += bnb_shm_load(&c->reads[n]) +
						 bnb_shm_load(&c->writes[n]);
			miss[h->vcpu_node[v]][n] += bnb_shm_load(&c->misses[n]);
		}
		io += bnb_shm_load(&c->io_reads) + bnb_shm_load(&c->io_writes);
		unknown += bnb_shm_load(&c->unknown_reads) + bnb_shm_load(&c->unknown_writes);
		delayed += bnb_shm_load(&c->delayed);
		delay_ns += bnb_shm_load(&c->delay_ns);
	}
	bnb_shm_sum(h, &local, &remote);
	printf("local=%llu\nremote=%llu\nio=%llu\nunknown=%llu\ndelayed=%llu\ndelay_ns=%llu\n",
	       (unsigned long long)local, (unsigned long long)remote,
	       (unsigned long long)io, (unsigned long long)unknown,
	       (unsigned long long)delayed, (unsigned long long)delay_ns);
	if (bnb_shm_tier_sum(h, &fast, &slow))
		printf("fast_tier=%llu\nslow_tier=%llu\n", (unsigned long long)fast,
		       (unsigned long long)slow);
	for (unsigned int c = 0; c < h->n_nodes; c++)
		for (unsigned int n = 0; n < h->n_nodes; n++)
			printf("access_%u_%u=%llu\nmiss_%u_%u=%llu\n", c, n,
			       (unsigned long long)m[c][n], c, n,
			       (unsigned long long)miss[c][n]);
}

/* The time keeper's figures (deterministic timing), times in ns. */
static void print_timekeeper(const struct bnb_shm_header *h)
{
	uint64_t syncs = bnb_shm_load(&h->tk_syncs);

	if (!(h->flags & BNB_SHM_F_TIMEKEEPER))
		return;
	printf("icount_shift=%u\ninsn_ns=%.3f\nhw_insn_ns=%.3f\ndilation=%.3f\n",
	       h->icount_shift, h->insn_ps / 1e3, h->hw_insn_ps / 1e3,
	       h->dilation_milli / 1e3);
	printf("tk_quantum_ns=%.0f\ntk_batch=%u\ntk_insns=%llu\ntk_clock_ns=%.0f\n",
	       h->tk_quantum_ps / 1e3, h->tk_batch,
	       (unsigned long long)bnb_shm_load(&h->tk_insns),
	       bnb_shm_load(&h->tk_clock_ps) / 1e3);
	printf("tk_added_ns=%llu\ntk_adds=%llu\ntk_syncs=%llu\n",
	       (unsigned long long)bnb_shm_load(&h->tk_added_ns),
	       (unsigned long long)bnb_shm_load(&h->tk_adds),
	       (unsigned long long)syncs);
	printf("tk_ipi_ns=%.0f\n", h->tk_ipi_ps / 1e3);
	printf("tk_lag_max_ns=%.0f\ntk_lag_mean_ns=%.0f\n",
	       bnb_shm_load(&h->tk_lag_max_ps) / 1e3,
	       syncs ? bnb_shm_load(&h->tk_lag_sum_ps) / 1e3 / syncs : 0.0);
	for (unsigned int v = 0; v < h->n_vcpus; v++) {
		const struct bnb_shm_vcpu *c = bnb_shm_vcpu_at(h, v);

		printf("vcpu%u_insns=%llu\nvcpu%u_local_ns=%.0f\nvcpu%u_stall_ns=%.0f\n"
		       "vcpu%u_catchup_ns=%.0f\nvcpu%u_yields=%llu\n",
		       v, (unsigned long long)bnb_shm_load(&c->tk_insns),
		       v, bnb_shm_load(&c->tk_local_ps) / 1e3,
		       v, bnb_shm_load(&c->tk_stall_ps) / 1e3,
		       v, bnb_shm_load(&c->tk_catchup_ps) / 1e3,
		       v, (unsigned long long)bnb_shm_load(&c->tk_yields));
		printf("vcpu%u_wakes=%llu\nvcpu%u_pauses=%llu\nvcpu%u_spin_ns=%.0f\n"
		       "vcpu%u_holds=%llu\n",
		       v, (unsigned long long)bnb_shm_load(&c->tk_wakes),
		       v, (unsigned long long)bnb_shm_load(&c->tk_pauses),
		       v, bnb_shm_load(&c->tk_spin_ps) / 1e3,
		       v, (unsigned long long)bnb_shm_load(&c->tk_holds));
	}
}

/*
 * The machine model's parameters and what it charged: stall_share is the
 * model's stall over the vCPUs' busy time (local time less idle skipped).
 */
static void print_model(const struct bnb_shm_header *h)
{
	uint64_t misses;
	double share;

	if (!(h->flags & BNB_SHM_F_MODEL))
		return;
	printf("model_name=%.31s\nmodel_node_mbs=%llu\nmodel_link_mbs=%llu\n"
	       "model_hw_cpus=%u\nmodel_mlp=%u\nmodel_window_ns=%.0f\nmodel_lat_from=%s\n",
	       h->model_name, (unsigned long long)h->model_node_mbs,
	       (unsigned long long)h->model_link_mbs, h->model_hw_cpus, h->model_mlp,
	       h->model_window_ps / 1e3, h->model_lat_from_dist ? "distance" : "table");
	for (unsigned int i = 0; i < h->n_nodes && i < 16; i++)
		for (unsigned int j = 0; j < h->n_nodes && j < 16; j++)
			printf("model_lat_ns_%u_%u=%u\n", i, j, h->model_lat_ns[i][j]);
	for (unsigned int v = 0; v < h->n_vcpus; v++) {
		const struct bnb_shm_vcpu *c = bnb_shm_vcpu_at(h, v);

		printf("vcpu%u_model_misses=%llu\nvcpu%u_model_seq_misses=%llu\n"
		       "vcpu%u_model_lat_hw_ns=%.0f\nvcpu%u_model_bw_hw_ns=%.0f\n",
		       v, (unsigned long long)bnb_shm_load(&c->model_misses),
		       v, (unsigned long long)bnb_shm_load(&c->model_seq_misses),
		       v, bnb_shm_load(&c->model_lat_ps) / 1e3,
		       v, bnb_shm_load(&c->model_bw_ps) / 1e3);
	}
	bnb_shm_model_totals(h, &misses, &share);
	printf("model_misses=%llu\nmodel_stall_share=%.4f\n", (unsigned long long)misses, share);
}

static int report(const struct bnb_shm_header *h)
{
	char msg[BNB_SHM_MSG_LEN];
	uint32_t status;

	print_header(h, msg, sizeof(msg), &status);
	print_counters(h);
	print_timekeeper(h);
	print_model(h);
	if (status == BNB_MAP_OK)
		return EXIT_MAP_OK;
	if (status == BNB_MAP_FAILED) {
		fprintf(stderr, "bnb-plugin-check: %s\n", *msg ? msg : "map check failed");
		return EXIT_MAP_FAILED;
	}
	fprintf(stderr, "bnb-plugin-check: the guest did not complete the map check (bnb-vm runs bnb-plugin-calib at boot)\n");
	return EXIT_MAP_UNCHECKED;
}

/* A killed QEMU never marks the file exited: look for the process too. */
static bool qemu_gone(const struct bnb_shm_header *h)
{
	pid_t pid = (pid_t)h->qemu_pid;

	return pid > 0 && kill(pid, 0) && errno == ESRCH;
}

static int watch(const struct bnb_shm_header *h, long ms)
{
	uint64_t gen = h->generation, l0, r0, l1, r1;
	double t0 = now_s();
	int done = 0;

	printf("t_s,local,remote,remote_share\n");
	bnb_shm_sum(h, &l0, &r0);
	while (!done) {
		sleep_ms(ms);
		done = __atomic_load_n(&h->state, __ATOMIC_ACQUIRE) == BNB_SHM_EXITED ||
		       __atomic_load_n(&h->generation, __ATOMIC_RELAXED) != gen ||
		       qemu_gone(h);
		bnb_shm_sum(h, &l1, &r1);
		if (l1 + r1 > l0 + r0)
			printf("%.3f,%llu,%llu,%.4f\n", now_s() - t0,
			       (unsigned long long)(l1 - l0), (unsigned long long)(r1 - r0),
			       (double)(r1 - r0) / (double)(l1 - l0 + r1 - r0));
		fflush(stdout);
		l0 = l1;
		r0 = r1;
	}
	return 0;
}

struct check_opts {
	double wait_s;
	int watch_ms;
	bool keys;
};

#define O(f) OPT_FIELD(struct check_opts, f)

static const struct opt_def options[] = {
	{ "wait", OPT_DOUBLE, O(wait_s), .dmin = 0, .dmax = 3600, .metavar = "SEC", .def = "0",
	  .help = "wait this long for the file to appear" },
	{ "watch", OPT_INT, O(watch_ms), .min = 10, .max = 60000, .metavar = "MS",
	  .help = "print CSV rows t_s,local,remote,remote_share every MS until QEMU exits" },
	{ "keys", OPT_FLAG, O(keys),
	  .help = "print the plugin's key=value arguments as a Markdown table (the one in "
		  "bench/plugin/README.md) and exit" },
};

static const struct opt_tool tool = {
	.synopsis = "bnb-plugin-check [options] SHM",
	.about = "Reads the TCG plugin's counters file: prints the map check's verdict and\n"
		 "the access matrix as key=value lines; exit 0 the map check passed, 1 it\n"
		 "failed, 2 the guest never ran it, 3 a bad or missing file.\n",
	.opts = options,
	.n = ARRAY_SIZE(options),
};

int main(int argc, char **argv)
{
	const struct bnb_shm_header *h;
	struct check_opts o = { 0 };
	int first;

	first = opt_tool_main(&tool, argc, argv, &o, false);
	if (first < 0)
		return EXIT_BAD;
	if (o.keys) {
		opt_markdown(stdout, bnb_args_keys, bnb_args_n_keys, "", "key");
		return 0;
	}
	if (first != argc - 1) {
		prog_error("give one counters file (see --help)");
		return EXIT_BAD;
	}
	h = open_shm(argv[first], o.wait_s);
	if (!h)
		return EXIT_BAD;
	return o.watch_ms ? watch(h, o.watch_ms) : report(h);
}
