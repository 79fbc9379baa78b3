// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-vm's verdict on the plugin's part of a run (bench/vm/plugin_verdict.c):
 * the counters file read back, the result lines, and which runs fail.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../bench/vm/vm.h"

#define VCPUS 2

struct file {
	struct bnb_shm_header h;
	char pad[BNB_SHM_HEADER_SIZE - sizeof(struct bnb_shm_header)];
	struct bnb_shm_vcpu v[VCPUS];
};

static struct file f;
static char path[] = "/tmp/bnb-test-plugin.XXXXXX";

/* A counters file as the plugin leaves it at exit. */
static void counters(uint32_t map_status, uint32_t flags, uint64_t misses, const char *msg)
{
	memset(&f, 0, sizeof(f));
	f.h = (struct bnb_shm_header){
		.magic = BNB_SHM_MAGIC, .version = BNB_SHM_VERSION,
		.header_size = BNB_SHM_HEADER_SIZE, .vcpu_stride = sizeof(struct bnb_shm_vcpu),
		.n_vcpus = VCPUS, .n_nodes = 2, .flags = flags, .state = BNB_SHM_EXITED,
		.map_status = map_status,
	};
	snprintf(f.h.map_message, sizeof(f.h.map_message), "%s", msg);
	for (int i = 0; i < VCPUS; i++) {
		f.v[i].model_misses = misses;
		f.v[i].tk_local_ps = 1000000;
		f.v[i].tk_catchup_ps = 200000;
		f.v[i].tk_stall_ps = misses ? 200000 : 0;
	}
}

static void write_counters(size_t len)
{
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, &f, len), (ssize_t)len);
	close(fd);
}

static void read_back(struct plugin_outcome *po, size_t len)
{
	write_counters(len);
	plugin_outcome_read(path, po);
	unlink(path);
	strcpy(path, "/tmp/bnb-test-plugin.XXXXXX");
}

Test(vm_plugin, live_model_reports_misses_and_share)
{
	struct plugin_outcome po;
	char text[512], reason[512] = "guest command exited 0";

	counters(BNB_MAP_OK, BNB_SHM_F_MODEL | BNB_SHM_F_DELAY, 1000, "");
	read_back(&po, sizeof(f));
	cr_assert(po.read, "%s", po.why);
	cr_assert_eq(po.model_misses, 2000);
	cr_assert_float_eq(po.stall_share, 0.25, 1e-9, "stall over busy: 0.2 / 0.8");
	cr_assert_eq(plugin_judge(&po, VM_OK, false, reason, sizeof(reason)), VM_OK);
	plugin_outcome_lines(&po, text, sizeof(text));
	cr_assert_str_eq(text, "plugin_map=ok\nmodel_misses=2000\nmodel_stall_share=0.2500\n");
}

/* The run: model=on, the guest never checked the map, nothing charged. */
Test(vm_plugin, model_that_charged_nothing_fails)
{
	struct plugin_outcome po;
	char reason[512];

	counters(BNB_MAP_UNCHECKED, BNB_SHM_F_MODEL, 0, "");
	read_back(&po, sizeof(f));
	cr_assert_eq(plugin_judge(&po, VM_OK, false, reason, sizeof(reason)), VM_PLUGIN_FAILED);
	cr_assert_str_eq(reason, "the machine model is on but charged no miss: the map check never ran");
	cr_assert_eq(plugin_judge(&po, VM_GUEST_FAILED, false, reason, sizeof(reason)),
		     VM_GUEST_FAILED, "a command that failed keeps its own reason");
}

Test(vm_plugin, counting_without_model_needs_no_misses)
{
	struct plugin_outcome po;
	char text[256], reason[256];

	counters(BNB_MAP_OK, BNB_SHM_F_COUNT, 0, "");
	read_back(&po, sizeof(f));
	cr_assert_eq(plugin_judge(&po, VM_OK, false, reason, sizeof(reason)), VM_OK);
	plugin_outcome_lines(&po, text, sizeof(text));
	cr_assert_str_eq(text, "plugin_map=ok\n");
}

/* map_fail=exit: the plugin stopped QEMU; its message is the reason. */
Test(vm_plugin, failed_map_check_names_the_node)
{
	struct plugin_outcome po;
	char text[512], reason[512];

	counters(BNB_MAP_FAILED, BNB_SHM_F_MODEL, 0, "map check FAILED: node 2: 0.00%\nof 131072");
	read_back(&po, sizeof(f));
	cr_assert_eq(plugin_judge(&po, VM_LAUNCH_ERROR, false, reason, sizeof(reason)),
		     VM_PLUGIN_FAILED);
	cr_assert_str_eq(reason, "plugin: map check FAILED: node 2: 0.00% of 131072");
	plugin_outcome_lines(&po, text, sizeof(text));
	cr_assert(strstr(text, "plugin_map=failed\nplugin_map_message=map check FAILED: node 2: 0.00% of 131072\n"),
		  "one line each: %s", text);
}

Test(vm_plugin, check_that_failed_in_the_guest)
{
	struct plugin_outcome po;
	char reason[512];
	int code;

	cr_assert_eq(console_classify("bnb-init: map check failed", &code), CON_MAPCHECK_FAILED);
	counters(BNB_MAP_CHECKING, 0, 0, "");
	read_back(&po, sizeof(f));
	cr_assert_eq(plugin_judge(&po, VM_GUEST_FAILED, true, reason, sizeof(reason)),
		     VM_PLUGIN_FAILED);
	cr_assert(strstr(reason, "bnb-plugin-calib at boot"), "%s", reason);
	cr_assert_eq(plugin_judge(&po, VM_TIMEOUT, true, reason, sizeof(reason)), VM_TIMEOUT,
		     "a hang stays a hang");
}

Test(vm_plugin, unreadable_counters_fail_a_good_run)
{
	struct plugin_outcome po;
	char text[256], reason[512];

	counters(BNB_MAP_OK, BNB_SHM_F_MODEL, 5, "");
	read_back(&po, 64);
	cr_assert_not(po.read);
	cr_assert_eq(plugin_judge(&po, VM_OK, false, reason, sizeof(reason)), VM_PLUGIN_FAILED);
	cr_assert(strstr(reason, "cannot be verified: not a counters file"), "%s", reason);
	plugin_outcome_lines(&po, text, sizeof(text));
	cr_assert_str_eq(text, "plugin_map=unknown\n");

	f.h.n_vcpus = 200;	/* more vCPUs than the file holds */
	read_back(&po, sizeof(f));
	cr_assert_not(po.read);
	cr_assert(strstr(po.why, "smaller than its header"), "%s", po.why);

	cr_assert_eq(plugin_outcome_read("/nonexistent/plugin.shm", &po), -1);
	cr_assert(strstr(po.why, "/nonexistent/plugin.shm"), "%s", po.why);
}

Test(vm_plugin, counters_file_default_and_override)
{
	struct vm_config c = { .plugin = "p.so", .run_dir = "/tmp/r" };

	vm_plugin_default_shm(&c);
	cr_assert_str_eq(vm_plugin_shm(&c), "/tmp/r/plugin.shm");
	argv_free(&c.plugin_opts);
	argv_add(&c.plugin_opts, "shm=/x/c.shm");
	vm_plugin_default_shm(&c);
	cr_assert_eq(c.plugin_opts.n, 1, "a given shm= is kept");
	cr_assert_str_eq(vm_plugin_shm(&c), "/x/c.shm");
	argv_free(&c.plugin_opts);
}
