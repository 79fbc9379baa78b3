// SPDX-License-Identifier: GPL-2.0
/*
 * What the TCG plugin made of a run, from its counters file after QEMU
 * exited (bnb_plugin_shm.h): the map check's verdict and, with the
 * machine model, the misses it charged and their share of the vCPUs'
 * busy time.  They go to the result file, and a run whose figures the
 * plugin did not produce fails with the reason: a map check that failed
 * (the guest's half at boot, or the plugin's, which stops QEMU), or a
 * model that charged nothing (it is live only once the map check passed).
 *
 * /init runs the map check before the guest command whenever QEMU loads
 * the plugin (fw_cfg VM_FWCFG_MAPCHECK, qemu_args.c), so the model is live
 * from the command's first instruction without any step in the command.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/argv.h"
#include "lib/err.h"
#include "vm.h"

static const char *const map_words[] = {
	[BNB_MAP_UNCHECKED] = "unchecked",
	[BNB_MAP_CHECKING] = "checking",
	[BNB_MAP_OK] = "ok",
	[BNB_MAP_FAILED] = "failed",
};

static const char *const map_says[] = {
	[BNB_MAP_UNCHECKED] = "the map check never ran",
	[BNB_MAP_CHECKING] = "the map check did not finish",
	[BNB_MAP_OK] = "the map check passed",
	[BNB_MAP_FAILED] = "the map check failed",
};

const char *vm_plugin_shm(const struct vm_config *c)
{
	const char *path = NULL;

	for (int i = 0; i < c->plugin_opts.n; i++)
		if (!strncmp(c->plugin_opts.v[i], "shm=", 4))
			path = c->plugin_opts.v[i] + 4;
	return path && *path ? path : NULL;
}

void vm_plugin_default_shm(struct vm_config *c)
{
	if (c->plugin && !vm_plugin_shm(c))
		argv_add(&c->plugin_opts, "shm=%s/" VM_PLUGIN_SHM, c->run_dir);
}

/* The header's fields and the model's totals; -1 with po->why when unusable. */
static int parse_counters(const void *file, size_t size, struct plugin_outcome *po)
{
	const struct bnb_shm_header *h = file;

	if (size < sizeof(*h) || h->magic != BNB_SHM_MAGIC || h->version != BNB_SHM_VERSION)
		return errf(po->why, sizeof(po->why), "not a counters file of this plugin");
	if (h->n_vcpus < 1 || h->n_vcpus > BNB_SHM_MAX_VCPUS ||
	    h->header_size < sizeof(*h) || h->vcpu_stride < sizeof(struct bnb_shm_vcpu) ||
	    h->header_size + (size_t)h->n_vcpus * h->vcpu_stride > size)
		return errf(po->why, sizeof(po->why), "counters file smaller than its header says");
	po->map_status = h->map_status <= BNB_MAP_FAILED ? h->map_status : BNB_MAP_FAILED;
	snprintf(po->map_message, sizeof(po->map_message), "%.*s",
		 (int)sizeof(h->map_message), h->map_message);
	for (char *p = po->map_message; *p; p++)	/* one line in the result */
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	po->model = h->flags & BNB_SHM_F_MODEL;
	if (po->model)
		bnb_shm_model_totals(h, &po->model_misses, &po->stall_share);
	po->read = true;
	return 0;
}

int plugin_outcome_read(const char *path, struct plugin_outcome *po)
{
	struct stat st;
	void *file;
	int fd, rc;

	memset(po, 0, sizeof(*po));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !(file = malloc(st.st_size + 1))) {
		errf(po->why, sizeof(po->why), "cannot read the plugin's counters file %s", path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	rc = pread(fd, file, st.st_size, 0) == st.st_size ?
	     parse_counters(file, st.st_size, po) :
	     errf(po->why, sizeof(po->why), "short read of %s", path);
	free(file);
	close(fd);
	return rc;
}

/* The figures may stand only if the plugin checked its map and, with the model, charged it. */
enum vm_status plugin_judge(const struct plugin_outcome *po, enum vm_status st,
			    bool guest_check_failed, char *reason, size_t len)
{
	bool ended = st == VM_OK || st == VM_GUEST_FAILED;
	const char *sep = po->map_message[0] ? ": " : "";

	if (guest_check_failed && (ended || st == VM_LAUNCH_ERROR)) {
		snprintf(reason, len, "the guest's half of the plugin's map check (bnb-plugin-calib at boot) "
			 "failed, see console.log%s%s", sep, po->map_message);
		return VM_PLUGIN_FAILED;
	}
	if (po->read && po->map_status == BNB_MAP_FAILED && st == VM_LAUNCH_ERROR) {
		snprintf(reason, len, "plugin: %s", po->map_message);
		return VM_PLUGIN_FAILED;
	}
	if (st != VM_OK)
		return st;
	if (!po->read) {
		snprintf(reason, len, "the plugin's figures cannot be verified: %s", po->why);
		return VM_PLUGIN_FAILED;
	}
	if (po->model && !po->model_misses) {
		snprintf(reason, len, "the machine model is on but charged no miss: %s%s%s",
			 map_says[po->map_status], sep, po->map_message);
		return VM_PLUGIN_FAILED;
	}
	return st;
}

int plugin_outcome_lines(const struct plugin_outcome *po, char *text, size_t len)
{
	int n;

	if (!po->read)
		return snprintf(text, len, "plugin_map=unknown\n");
	n = snprintf(text, len, "plugin_map=%s\n", map_words[po->map_status]);
	if (po->map_message[0] && n < (int)len)
		n += snprintf(text + n, len - n, "plugin_map_message=%s\n", po->map_message);
	if (po->model && n < (int)len)
		n += snprintf(text + n, len - n, "model_misses=%llu\nmodel_stall_share=%.4f\n",
			      (unsigned long long)po->model_misses, po->stall_share);
	return n;
}
