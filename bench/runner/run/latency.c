// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a run really had emulated latency. Loading the plugin is not
 * enough: it delays remote accesses only after its address-to-node map was
 * verified by the guest's bnb-plugin-calib phase (qemu-plugin-facts.md:
 * QEMU 7.2 reports wrong physical addresses for some layouts). The verdict
 * is read from the plugin's counters file after QEMU has exited.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bnb_plugin_shm.h"
#include "runner.h"

static const char *const map_states[] = {
	[BNB_MAP_UNCHECKED] = "the guest never ran the map check",
	[BNB_MAP_CHECKING] = "the map check did not finish",
	[BNB_MAP_OK] = "map verified",
	[BNB_MAP_FAILED] = "the map check failed",
};

const char *latency_verdict(const char *shm_path, char *why, size_t whylen)
{
	struct bnb_shm_header h;
	int fd = open(shm_path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : pread(fd, &h, sizeof(h), 0);

	if (fd >= 0)
		close(fd);
	why[0] = 0;
	if (n != (ssize_t)sizeof(h) || h.magic != BNB_SHM_MAGIC || h.version != BNB_SHM_VERSION) {
		snprintf(why, whylen, "plugin counters file %s missing or unreadable", shm_path);
		return "uniform";
	}
	h.map_message[sizeof(h.map_message) - 1] = 0;
	if (h.map_status == BNB_MAP_OK && (h.flags & BNB_SHM_F_DELAY))
		return "emulated";
	snprintf(why, whylen, "plugin loaded but no delay injected: %s%s%s",
		 h.map_status < 4 ? map_states[h.map_status] : "unknown map state",
		 h.map_message[0] ? ": " : "", h.map_message);
	for (char *p = why; *p; p++)	/* one line in key=value files */
		if (*p == '\n')
			*p = ' ';
	return "uniform";
}
