/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Provenance: what produced a run's numbers, kept in the run's
 * summary.json under "provenance" as flat "key": "value" strings so that
 * compare can list every difference between folders. Host side: the
 * kernel's build key, series and config hashes, the harness's git
 * describe, the host CPU and its load average at the start and the end;
 * from bnb-vm's result file: QEMU, the plugin build and its options, the
 * accelerator and the timing mode. Guest side (bnb-monitor
 * --provenance): uname -r/-v, the kernel command line and every NUMA
 * balancing knob as the workload started.
 */
#ifndef BNB_PROVENANCE_H
#define BNB_PROVENANCE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

/* The host's provenance at the start of a run that boots KERNEL. */
struct json_object *prov_start(const char *kernel);
/* What bnb-vm says it ran, from its RESULT file ("unknown" where absent). */
void prov_add_vm(struct json_object *prov, const char *result);
/* Add what is known at the end (load average). */
void prov_end(struct json_object *prov);
/* Add the guest's "# bnb-prov: key=value" lines of OUTLOG, as guest.KEY. */
int prov_add_guest(struct json_object *prov, const char *outlog);

/* The 16 hex digits of SHA-256 over FILES (NULL-terminated), each as
 * "basename\ncontents", the way kernel/build.sh keys its inputs; NULL when
 * a file cannot be read. */
const char *prov_hash_files(const char *const *files, char *out, size_t len);

/* Differences between two provenance objects. */
struct prov_diff {
	char key[128];
	char a[256], b[256];	/* "(absent)" where one side lacks the key */
};
/*
 * Keys whose values differ between A and B, skipping IGNORED (a
 * NULL-terminated list of keys, or of prefixes ending in '*'); returns
 * the count (at most MAX are written).
 */
int prov_compare(struct json_object *a, struct json_object *b, const char *const *ignored,
		 struct prov_diff *out, int max);

#endif
