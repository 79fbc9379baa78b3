// SPDX-License-Identifier: GPL-2.0
#include "util.h"
#include "vm_status.h"

static const struct {
	const char *word, *meaning;
} statuses[VM_N_STATUS] = {
	[VM_OK] = { "ok", "guest command exited 0" },
	[VM_GUEST_FAILED] = { "failed", "guest command exited non-zero" },
	[VM_USAGE] = { "usage", "launcher usage error" },
	[VM_TIMEOUT] = { "timeout", "guest timeout or hang" },
	[VM_PANIC] = { "panic", "kernel panic/oops/BUG" },
	[VM_LAUNCH_ERROR] = { "launch-error", "QEMU could not run" },
	[VM_PLUGIN_FAILED] = { "plugin-failed", "the plugin's map check failed or its model charged nothing" },
};

const char *vm_status_word(int status)
{
	return status >= 0 && status < (int)ARRAY_SIZE(statuses) ? statuses[status].word : "?";
}

const char *vm_status_meaning(int status)
{
	return status >= 0 && status < (int)ARRAY_SIZE(statuses) ? statuses[status].meaning : "?";
}
