// SPDX-License-Identifier: GPL-2.0
/*
 * KVM on a NUMA host: each guest node's memory is bound to a host node on
 * the command line (qemu_args.c); its vCPU threads are pinned here, to
 * that node's CPUs, while QEMU waits paused (-S), and then it runs. QEMU
 * names the thread of each vCPU in its reply to query-cpus-fast.
 */
#include <json-c/json.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "qmp.h"
#include "vm.h"

#define QMP_WAIT_MS 10000

static int pin_one(const struct vm_config *c, struct json_object *cpu, struct vcpu_pin *pin,
		   char *err, size_t errlen)
{
	struct json_object *idx, *tid;
	int node;

	if (!json_object_object_get_ex(cpu, "cpu-index", &idx) ||
	    !json_object_object_get_ex(cpu, "thread-id", &tid))
		return errf(err, errlen, "query-cpus-fast: a vCPU without cpu-index or thread-id");
	pin->cpu_index = json_object_get_int(idx);
	pin->thread_id = json_object_get_int(tid);
	node = topo_cpu_node(&c->topo, pin->cpu_index);
	if (node < 0 || pin->thread_id <= 0)
		return errf(err, errlen, "query-cpus-fast: vCPU %d (thread %d) is not in the "
			    "topology", pin->cpu_index, pin->thread_id);
	pin->cpus = &c->host->node[c->host_node[node]].cpus;
	return 0;
}

int vm_pin_plan(const struct vm_config *c, const char *reply, struct vcpu_pin *pins,
		int max, char *err, size_t errlen)
{
	struct json_object *root = json_tokener_parse(reply), *list;
	int i, n;

	if (!root || !json_object_object_get_ex(root, "return", &list) ||
	    !json_object_is_type(list, json_type_array)) {
		json_object_put(root);
		return errf(err, errlen, "query-cpus-fast: no list of vCPUs in the reply");
	}
	n = json_object_array_length(list);
	if (n != topo_total_cpus(&c->topo) || n > max) {
		json_object_put(root);
		return errf(err, errlen, "query-cpus-fast: %d vCPUs, the topology has %d", n,
			    topo_total_cpus(&c->topo));
	}
	for (i = 0; i < n; i++)
		if (pin_one(c, json_object_array_get_idx(list, i), &pins[i], err, errlen)) {
			json_object_put(root);
			return -1;
		}
	json_object_put(root);
	return n;
}

int vm_pin_and_start(const struct vm_config *c, char *err, size_t errlen)
{
	struct vcpu_pin pins[BNB_MAX_CPUS];
	char reply[65536];
	int fd, n, i;

	fd = qmp_open(c->run_dir, QMP_WAIT_MS);
	if (fd < 0)
		return errf(err, errlen, "no QMP connection to pin the vCPUs");
	if (qmp_exec(fd, "{\"execute\":\"query-cpus-fast\"}", reply, sizeof(reply))) {
		close(fd);
		return errf(err, errlen, "query-cpus-fast failed: %.200s", reply);
	}
	n = vm_pin_plan(c, reply, pins, BNB_MAX_CPUS, err, errlen);
	for (i = 0; i < n; i++)
		if (sched_setaffinity(pins[i].thread_id, sizeof(*pins[i].cpus), pins[i].cpus)) {
			errf(err, errlen, "pinning vCPU %d (thread %d): %m", pins[i].cpu_index,
			     pins[i].thread_id);
			n = -1;
		}
	if (n >= 0 && qmp_exec(fd, "{\"execute\":\"cont\"}", reply, sizeof(reply)))
		n = errf(err, errlen, "cont failed: %.200s", reply);
	close(fd);
	return n < 0 ? -1 : 0;
}
