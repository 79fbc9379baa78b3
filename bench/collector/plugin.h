/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ground truth from the TCG plugin: local and remote RAM accesses of all
 * vCPUs, read from the plugin's shared-memory file
 * (bench/include/bnb_plugin_shm.h) at each sample.  The file is mapped
 * read-only and its header is validated like any untrusted input.
 */
#ifndef BNB_COLLECTOR_PLUGIN_H
#define BNB_COLLECTOR_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct plugin_state {
	const char *path;		/* NULL: no plugin */
	const void *map;
	size_t map_size;
	uint64_t generation;
	bool warned;			/* last problem already reported */

	/* Per sample, filled by series_update() */
	bool valid;			/* this sample has plugin data */
	bool have_prev;
	uint64_t raw_local, raw_remote;	/* counters as read */
	unsigned long long local, remote;	/* since the first sample */
	unsigned long long d_local, d_remote;
	bool locality_defined;
	double true_locality;		/* d_local / (d_local + d_remote) */
	bool baseline_set;
	double remote_rate0;		/* remote accesses/s in the first window */
	double benefit_cum;
};

/*
 * Read the current local/remote totals.  Maps (or re-maps, when the
 * plugin restarted) the file on demand.  Returns false with a reason in
 * err when there is nothing valid to read right now.
 */
bool plugin_read(struct plugin_state *p, uint64_t *local, uint64_t *remote,
		 char *err, size_t errlen);

/* Check a header of file_size bytes; 0, or -1 with the reason in err. */
int plugin_check_header(const void *map, size_t file_size, char *err, size_t errlen);

void plugin_close(struct plugin_state *p);

#endif /* BNB_COLLECTOR_PLUGIN_H */
