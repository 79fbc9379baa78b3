// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-vm's options: one table (lib/opt.h) that parses the command line,
 * prints --help and is the table in docs/HACKING.md (test_vm checks it).
 * An option is one row here plus, when it is new, one field in struct
 * vm_config (vm.h).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/topo_opt.h"
#include "lib/util.h"
#include "vm.h"

#define QBOOT "/usr/share/qemu/qboot.rom"

/* K=V for the plugin: commas would split it on QEMU's command line. */
static int parse_plugin_opt(const struct opt_def *o, const char *value, void *field,
			    char *err, size_t errlen)
{
	if (!strchr(value, '=') || *value == '=' || strchr(value, ','))
		return errf(err, errlen, "'%s' is not KEY=VALUE without commas", value);
	if (field)
		argv_add(field, "%s", value);
	return 0;
}

static void free_argv(void *field)
{
	argv_free(field);
}

#define CFG(f) OPT_FIELD(struct vm_cli, cfg.f)
#define CLI(f) OPT_FIELD(struct vm_cli, f)
#define CLI_MACHINE(f) CLI(machine.f)
#define MACHINE_OPT(key, option, text, offset, ...) \
	{ option, .off = offset, .help = text, __VA_ARGS__ },

const struct opt_def vm_options[] = {
	{ "kernel", OPT_STR, CFG(kernel), .metavar = "FILE",
	  .help = "kernel image (default build/kernel/bzImage)" },
	{ "initrd", OPT_STR, CFG(initrd), .metavar = "FILE",
	  .help = "initramfs (default build/guest/initramfs.cpio)" },
	{ "tools", OPT_CHOICE, CLI(tools), .choices = "off|on|auto", .def = "auto",
	  .help = "boot build/guest/initramfs-tools.cpio, the default initrd with perf, stress-ng, "
		  "numactl and lstopo; auto: when a word of the command is one of them" },
	{ "packages", OPT_STR, CLI(packages), .metavar = "PACKAGE ...",
	  .help = "installed Debian packages booted beside the initrd: their programs, the "
		  "libraries those load and their data files, packed once into the cache "
		  "(docs/applications.md)" },
	{ "nodes", OPT_FUNC, CFG(topo), .parse = topo_opt_nodes, .metavar = "1..64", .def = "2",
	  .help = "guest NUMA nodes" },
	{ "cpus", OPT_STR, CLI(cpus), .metavar = "LIST", .def = "1",
	  .help = "vCPUs per node: one number for every node, or a list with one per node" },
	{ "mem", OPT_STR, CLI(mem), .metavar = "LIST", .def = "512M",
	  .help = "memory per node in 2 MiB multiples: one size for every node, or a list "
		  "with one per node; a bare number is bytes" },
	{ "distance", OPT_STR, CLI(distance), .metavar = "MATRIX",
	  .help = "SLIT distances, rows split by ';' or '/', values by ',': 10,20;20,10 "
		  "(default 10 local, 20 remote)" },
	{ "hmat", OPT_FLAG, CFG(hmat), .def = "on",
	  .help = "HMAT latency/bandwidth entries: the machine model's figures when it is "
		  "on, else derived from the distances" },
	{ "no-hmat", OPT_FLAG, CFG(hmat), .flags = OPTF_CLEAR, .help = "no HMAT" },
	{ "balancing", OPT_BOOL, CFG(balancing), .def = "on",
	  .help = "numa_balancing=enable|disable on the kernel command line" },
	{ "accel", OPT_CHOICE, CFG(accel), .choices = VM_ACCEL_CHOICES, .def = "tcg",
	  .help = "accelerator; kvm only when a short probe boot works" },
	{ "timing", OPT_CHOICE, CFG(timing), .choices = VM_TIMING_CHOICES, .def = "wall",
	  .help = "guest time: the host's clock (multi-threaded TCG), or icount's "
		  "(one host thread; with --plugin its time keeper runs the vCPUs in parallel)" },
	{ "icount-shift", OPT_INT, CFG(icount_shift), .min = 0, .max = 10, .def = "0",
	  .help = "deterministic: icount's 2^N ns per instruction of any vCPU, the clock "
		  "without the plugin's time keeper; with it only what a turn's budget counts" },
	{ "insn-time", OPT_DOUBLE, CLI(insn_ns), .dmin = 0.001, .dmax = 1e6, .metavar = "NS",
	  .help = "deterministic, with --plugin: modelled instruction time, whatever the "
		  "vCPU count, at least the hardware's 0.3 ns (D = 1; default the machine "
		  "class's, bench/model/README.md)" },
	/* the machine model's parameters: bench/model/machine.h */
	BNB_MACHINE_KEYS(MACHINE_OPT, CLI_MACHINE)
	{ "host-bind", OPT_CHOICE, CFG(host_bind), .choices = "auto|on|off", .def = "auto",
	  .help = "bind each guest node's memory to its own host NUMA node and pin its vCPU "
		  "threads to that node's CPUs; auto: with kvm, when the host has enough nodes "
		  "(only then is latency real)" },
	{ "timeout", OPT_INT, CFG(timeout_s), .min = 1, .max = 86400, .def = "300",
	  .help = "seconds the whole run may take; then QMP quit, then SIGKILL" },
	{ "append", OPT_STR, CFG(append), .help = "extra kernel command line" },
	{ "loglevel", OPT_INT, CFG(loglevel), .min = 0, .max = 8, .def = "5",
	  .help = "kernel console loglevel (5: warnings and worse)" },
	{ "run-dir", OPT_STR, CFG(run_dir), .metavar = "DIR",
	  .help = "where console.log, out.log, result and qmp.sock go (default a new temporary "
		  "directory, removed after a clean run)" },
	{ "agent-socket", OPT_STR, CFG(agent_socket), .metavar = "PATH",
	  .help = "add the port bnb.agent as a listening unix socket (the collector connects)" },
	{ "agent-stream-ms", OPT_INT, CFG(agent_stream_ms), .min = 0, .max = 3600000, .def = "0",
	  .metavar = "MS", .help = "the agent samples every MS of guest time and sends each "
		  "sample unasked (bnb-collect --stream; bnb.agent_stream_ms= on the kernel "
		  "command line); 0: it answers the collector's requests" },
	{ "plugin", OPT_STR, CFG(plugin), .metavar = "SO",
	  .help = "load the TCG plugin; the topology is appended to its arguments" },
	{ "plugin-opt", OPT_FUNC, CFG(plugin_opts), .parse = parse_plugin_opt, .free = free_argv,
	  .metavar = "K=V", .help = "an argument for the plugin, repeatable" },
	{ "qemu", OPT_STR, CFG(qemu), .metavar = "project|system|PATH",
	  .help = "project: build/qemu (make qemu); system: Debian's 7.2, wall timing only "
		  "(default project, but system for wall timing with --plugin)" },
	{ "bios", OPT_STR, CFG(bios), .metavar = "FILE|default",
	  .help = "firmware (qboot when installed: it boots faster; default: QEMU's own)" },
	{ "dry-run", OPT_FLAG, CFG(dry_run), .help = "print the QEMU command line and exit" },
};
const size_t vm_n_options = ARRAY_SIZE(vm_options);

const struct opt_tool vm_tool = {
	.synopsis = "bnb-vm [options] [--] 'guest shell command'",
	.about = "Boots the patched kernel as a multi-node NUMA guest under QEMU and runs\n"
		 "one command in it.\n",
	.opts = vm_options,
	.n = ARRAY_SIZE(vm_options),
	.epilog = "Exit status: 0 the guest command exited 0, 1 it failed, 2 bad usage,\n"
		  "3 timeout or hang, 4 kernel panic/oops/BUG, 5 QEMU could not run, 6 the\n"
		  "plugin's map check failed or its machine model charged nothing.\n",
};

/* The per-node fields need the node count, so they are read last. */
static int finish_topology(struct vm_cli *c, char *err, size_t errlen)
{
	struct bnb_topology *t = &c->cfg.topo;

	if (topo_parse_cpus(t, c->cpus, err, errlen))
		return errf_prefix(err, errlen, "--cpus");
	if (topo_parse_mem(t, c->mem, err, errlen))
		return errf_prefix(err, errlen, "--mem");
	if (c->distance && topo_parse_distance(t, c->distance, err, errlen))
		return errf_prefix(err, errlen, "--distance");
	return topo_validate(t, err, errlen);
}

/* No --bios: qboot when installed; "default": QEMU's own. */
static void choose_bios(struct vm_config *c)
{
	if (c->bios && !strcmp(c->bios, "default")) {
		free(c->bios);
		c->bios = NULL;
	} else if (!c->bios && !access(QBOOT, R_OK)) {
		c->bios = strdup(QBOOT);
	}
}

int vm_cli_parse(struct vm_cli *c, int argc, char **argv, char *err, size_t errlen)
{
	int first;

	memset(c, 0, sizeof(*c));
	if (opt_defaults(vm_options, vm_n_options, c, err, errlen))
		return -1;
	/* stop at the first argument: the guest command may look like options */
	first = opt_getopt(vm_options, vm_n_options, argc, argv, c, true, err, errlen);
	if (first < 0)
		return first;
	if (first != argc - 1)
		return errf(err, errlen, "give exactly one guest command (quote it), got %d",
			    argc - first);
	c->cfg.cmd = argv[first];
	if (!c->cfg.cmd[strspn(c->cfg.cmd, " \t\n")])
		return errf(err, errlen, "the guest command is empty: give the command to run "
			    "(true, for a guest that only boots)");
	choose_bios(&c->cfg);
	return finish_topology(c, err, errlen) ? -1 : first;
}

void vm_cli_free(struct vm_cli *c)
{
	opt_free(vm_options, vm_n_options, c);
}
