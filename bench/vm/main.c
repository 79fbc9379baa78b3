// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-vm: boot the patched kernel as a multi-node NUMA guest under QEMU
 * and run one command in it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest/packages/pkg.h"
#include "lib/argv.h"
#include "lib/err.h"
#include "lib/path.h"
#include "vm.h"
#include "model/machine.h"
#include "model/model.h"
#include "model/timekeeper.h"
#include "plugin/args.h"

#define KVM_PROBE_TIMEOUT_S 30

struct launch {
	struct vm_cli cli;
	struct vm_emulator emu;
	bool keep_tmp;
	char *packed;		/* the initrd with the packages appended, removed at exit */
	struct pkg_archive pkg;	/* --packages: their archive (pkg.cpio[0]: none) */
};

static char *in_tree(const char *rel)
{
	char *p;

	if (asprintf(&p, "%s/%s", bnb_root(), rel) < 0)
		abort();
	return p;
}

/* --plugin-opt words: bnb-vm derives the timing's and the model's itself. */
static int check_plugin_opts(const struct vm_config *c, char *err, size_t errlen)
{
	for (int i = 0; i < c->plugin_opts.n; i++) {
		const char *o = c->plugin_opts.v[i];
		enum bnb_arg_owner owner = bnb_args_owner(o);
		char key[64];

		if ((owner == BNB_ARG_TIMING || owner == BNB_ARG_KEEPER) && c->timing == TIMING_WALL)
			return errf(err, errlen, "--plugin-opt %s needs --timing deterministic", o);
		if (owner == BNB_ARG_TIMING)
			return errf(err, errlen, "--plugin-opt %s: use --icount-shift / --insn-time", o);
		if (owner != BNB_ARG_MODEL)
			continue;
		snprintf(key, sizeof(key), "%.*s", (int)strcspn(o, "="), o);
		return errf(err, errlen, "--plugin-opt %s: use --%s", o, bnb_machine_option(key));
	}
	return 0;
}

/* The value of --plugin-opt KEY=..., or NULL. */
static const char *plugin_opt(const struct vm_config *c, const char *key)
{
	size_t len = strlen(key);

	for (int i = 0; i < c->plugin_opts.n; i++)
		if (!strncmp(c->plugin_opts.v[i], key, len) && c->plugin_opts.v[i][len] == '=')
			return c->plugin_opts.v[i] + len + 1;
	return NULL;
}

/* What D is measured against: --plugin-opt hw_insn_ps=, else the plugin's default. */
static uint64_t hw_insn_ps(const struct vm_config *c)
{
	const char *v = plugin_opt(c, "hw_insn_ps");

	return v ? strtoull(v, NULL, 10) : BNB_TK_DEF_HW_INSN_PS;
}

/*
 * Timing options make sense together or not at all.  Under the plugin's
 * time keeper the instruction time is free: --insn-time, else the machine
 * class's (bench/model/README.md, "The time factor"), refused here by the
 * rule the plugin applies (bench/model/timekeeper.c).  Without the keeper
 * plain icount is the guest's clock, 2^shift ns an instruction of any
 * vCPU: each of n busy vCPUs then runs at n x 2^shift ns.
 */
static int finish_timing(struct vm_cli *cli, char *err, size_t errlen)
{
	struct vm_config *c = &cli->cfg;
	unsigned int vcpus = topo_total_cpus(&c->topo);
	const char *tk = plugin_opt(c, "timekeeper");
	bool keeper = c->plugin && !(tk && !strcmp(tk, "off"));
	struct bnb_tk_params p = {
		.n_vcpus = vcpus, .insn_ps = bnb_machine_insn_ps(&cli->machine),
		.hw_insn_ps = hw_insn_ps(c),
	};

	if (check_plugin_opts(c, err, errlen))
		return -1;
	if (c->timing == TIMING_WALL) {
		if (cli->insn_ns > 0 || c->icount_shift)
			return errf(err, errlen, "--icount-shift and --insn-time need --timing deterministic");
		return 0;
	}
	if (c->accel == ACCEL_KVM)
		return errf(err, errlen, "--timing deterministic runs under TCG only, not --accel kvm");
	if (!keeper) {
		if (cli->insn_ns > 0)
			return errf(err, errlen, "--insn-time needs the plugin's time keeper (--plugin, without timekeeper=off): plain icount moves the clock 2^shift ns for every instruction of any vCPU");
		c->insn_ps = (uint64_t)vcpus * (BNB_TK_PS_PER_NS << c->icount_shift);
		return 0;
	}
	if (cli->insn_ns > 0)
		p.insn_ps = (uint64_t)(cli->insn_ns * 1000 + 0.5);
	if (bnb_tk_check(&p, err, errlen))
		return errf_prefix(err, errlen, "--insn-time");
	c->insn_ps = p.insn_ps;
	return 0;
}

static void add_opt(void *ctx, const char *kv)
{
	argv_add(ctx, "%s", kv);
}

/* A --plugin-opt delay=off would leave the model nothing to charge. */
static int check_delay_off(const struct vm_config *c, char *err, size_t errlen)
{
	for (int i = 0; i < c->plugin_opts.n; i++)
		if (!strcmp(c->plugin_opts.v[i], "delay=off"))
			return errf(err, errlen, "--plugin-opt delay=off: the machine model (--model "
				    "%s, the default under deterministic timing) charges every miss; "
				    "--model off counts only", c->model);
	return 0;
}

/*
 * --model CLASS: bench/model's one check (the runner's and the plugin's),
 * before anything runs; model=auto is the default class under
 * deterministic timing with the plugin.  Then the plugin gets the same
 * words, before --plugin-opt's, so that those can refine them, and the
 * HMAT the model's figures (qemu_args.c), so that the guest kernel ranks
 * its nodes, a CXL node's memory tier among them, as the model charges them.
 */
static int finish_machine(struct vm_cli *cli, char *err, size_t errlen)
{
	static struct bnb_model_params params;	/* the HMAT's figures */
	struct vm_config *c = &cli->cfg;
	bool keeper = c->timing == TIMING_DETERMINISTIC && c->plugin;
	const struct bnb_machine *m;
	struct argv opts = { 0 };
	const char *key;

	if (bnb_machine_check(&cli->machine, &c->topo, keeper, &params, &key, err, errlen))
		return errf_prefix(err, errlen, "--%s", bnb_machine_option(key));
	bnb_machine_resolve(&cli->machine, keeper);
	m = bnb_machine_class(&cli->machine);
	c->model = m ? m->name : "off";
	c->model_params = m ? &params : NULL;
	if (m && check_delay_off(c, err, errlen))
		return -1;
	if (!m && c->timing == TIMING_DETERMINISTIC)
		fprintf(stderr, "bnb-vm: deterministic timing without the machine model (%s): "
			"remote memory costs nothing, so balancing on against off shows only "
			"the balancer's cost\n", c->plugin ? "--model off" : "no --plugin");
	if (!c->plugin)
		return 0;
	bnb_machine_args(&cli->machine, BNB_MACHINE_PLUGIN, add_opt, &opts);
	for (int i = 0; i < c->plugin_opts.n; i++)
		argv_add(&opts, "%s", c->plugin_opts.v[i]);
	argv_free(&c->plugin_opts);
	c->plugin_opts = opts;
	return 0;
}

/*
 * The emulator, checked against what the run asks of it.  By default the
 * project's QEMU, except for wall-clock runs with the plugin: its
 * emulated latency (host busy-waits filtered by the model cache) does not
 * reach the guest on QEMU 10 yet (bench/plugin/README.md), so those stay
 * on Debian's 7.2 with the plugin's 7.2 build.
 */
static int choose_emulator(struct launch *l, char *err, size_t errlen)
{
	struct vm_config *c = &l->cli.cfg;
	const char *choice = c->qemu;
	char *alt;

	if (!choice && c->timing == TIMING_WALL && c->plugin)
		choice = "system";
	if (emulator_resolve(&l->emu, choice, bnb_root(), err, errlen))
		return -1;
	if (c->plugin && (alt = emulator_plugin(&l->emu, c->plugin))) {
		free(c->plugin);
		c->plugin = alt;
	}
	if (emulator_check(&l->emu, c, err, errlen))
		return -1;
	free(c->qemu);
	c->qemu = strdup(l->emu.path);
	c->emu = &l->emu;
	return 0;
}

static int check_file(const char *what, const char *path)
{
	if (access(path, R_OK) == 0)
		return 0;
	fprintf(stderr, "bnb-vm: %s %s: %s%s\n", what, path, strerror(errno),
		strstr(path, "build/") ? " (run make kernel guest)" : "");
	return -1;
}

/*
 * The default initrd with the tools archive appended, or the base alone?
 * HAVE: the packages' commands list (a numactl of theirs needs no tools).
 */
static bool want_tools(const struct vm_cli *c, const char *have)
{
	char *list;
	bool named;

	if (c->tools != TOOLS_AUTO)
		return c->tools == TOOLS_ON;
	list = in_tree("build/guest/tools.list");
	named = cmd_names_tool(c->cfg.cmd, list, have) == 1;
	free(list);
	return named;
}

/*
 * An existing --run-dir must be a folder this process can write files
 * into: a file or /proc/self would let QEMU start and fail (exit 5, "QEMU
 * could not run") where the cause is the command line.
 */
static int run_dir_usable(const char *dir)
{
	char probe[PATH_MAX];
	struct stat st;
	int fd;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		prog_error("--run-dir %s: not a folder", dir);
		return -1;
	}
	snprintf(probe, sizeof(probe), "%s/.bnb-vm-probe", dir);
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 && errno != EEXIST) {
		prog_error("--run-dir %s: cannot write there: %s", dir, strerror(errno));
		return -1;
	}
	if (fd >= 0) {
		close(fd);
		unlink(probe);
	}
	return 0;
}

/*
 * --packages: their archive, from the cache or made now; refused here,
 * before anything boots, when a package is not installed or a program's
 * library is missing.
 */
static int find_packages(struct launch *l)
{
	char err[ERRLEN], cache[PATH_MAX];

	if (!l->cli.packages)
		return 0;
	if (pkg_archive_get(cache_root(cache, sizeof(cache)), PKG_DPKG_ADMIN,
			    l->cli.packages, &l->pkg, err, sizeof(err))) {
		prog_error("--packages: %s", err);
		return -1;
	}
	if (l->pkg.built)
		fprintf(stderr, "bnb-vm: packed %s into %s (%.1f MB)\n", l->cli.packages,
			l->pkg.cpio, l->pkg.bytes / 1e6);
	return 0;
}

/*
 * A guest kernel boots at most CONFIG_NR_CPUS CPUs (64 for the project's,
 * kernel/config/guest.config): the vCPUs beyond would never run, while
 * the run counted them as the machine's.  Known from the .config the
 * kernel cache keeps beside the image; a kernel without one is trusted.
 */
static int check_nr_cpus(const struct vm_config *c)
{
	long nr = kernel_config_int(c->kernel, "CONFIG_NR_CPUS");
	int vcpus = topo_total_cpus(&c->topo);

	if (!nr || vcpus <= nr)
		return 0;
	prog_error("cpus: %d vCPUs, but the guest kernel %s boots at most %ld (CONFIG_NR_CPUS)",
		   vcpus, c->kernel, nr);
	return -1;
}

static int prepare_paths(struct launch *l)
{
	static char tmpl[] = "/tmp/bnb-vm.XXXXXX";

	if (!l->cli.cfg.kernel)
		l->cli.cfg.kernel = in_tree("build/kernel/bzImage");
	if (find_packages(l))
		return -1;
	if (!l->cli.cfg.initrd) {
		l->cli.cfg.initrd = in_tree(want_tools(&l->cli, l->pkg.cpio[0] ? l->pkg.list : NULL) ?
					    "build/guest/initramfs-tools.cpio" :
					    "build/guest/initramfs.cpio");
	} else if (l->cli.tools == TOOLS_ON) {
		prog_error("--tools on adds to the default initrd, not to --initrd %s",
			   l->cli.cfg.initrd);
		return -1;
	}
	if (check_file("kernel", l->cli.cfg.kernel) || check_file("initrd", l->cli.cfg.initrd) ||
	    check_nr_cpus(&l->cli.cfg))
		return -1;
	l->cli.cfg.tsc_khz = guest_tsc_khz(l->cli.cfg.timing);
	l->cli.cfg.lpj = guest_lpj(l->cli.cfg.kernel, l->cli.cfg.tsc_khz);
	if (l->cli.cfg.plugin && check_file("plugin", l->cli.cfg.plugin))
		return -1;
	if (!l->cli.cfg.run_dir) {
		if (!mkdtemp(tmpl)) {
			perror("bnb-vm: mkdtemp");
			return -1;
		}
		l->cli.cfg.run_dir = strdup(tmpl);
		l->keep_tmp = false;
		return 0;
	}
	if (mkdir(l->cli.cfg.run_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "bnb-vm: run dir %s: %s\n", l->cli.cfg.run_dir, strerror(errno));
		return -1;
	}
	l->keep_tmp = true;
	return run_dir_usable(l->cli.cfg.run_dir);
}

/* DST = the files A and B one after the other (Linux unpacks both in turn). */
static int concat(const char *dst, const char *a, const char *b)
{
	const char *src[] = { a, b };
	char buf[1 << 16];
	int out, in, i;
	ssize_t n = 0;

	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	for (i = 0; out >= 0 && i < 2 && n >= 0; i++) {
		in = open(src[i], O_RDONLY | O_CLOEXEC);
		if (in < 0) {
			n = -1;
			break;
		}
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, n) != n) {
				n = -1;
				break;
			}
		close(in);
	}
	if (out < 0 || close(out) || n < 0) {
		fprintf(stderr, "bnb-vm: cannot write %s: %s\n", dst, strerror(errno));
		return -1;
	}
	return 0;
}

/* --packages: their archive appended to the initrd, in the run folder. */
static int add_packages(struct launch *l)
{
	struct vm_config *c = &l->cli.cfg;

	if (!l->pkg.cpio[0])
		return 0;
	if (asprintf(&l->packed, "%s/initrd.cpio", c->run_dir) < 0)
		abort();
	if (concat(l->packed, c->initrd, l->pkg.cpio))
		return -1;
	free(c->initrd);
	c->initrd = strdup(l->packed);
	return 0;
}

static void dry_run(const struct vm_config *c)
{
	struct argv a = { 0 };
	int i;

	qemu_build_args(c, &a);
	for (i = 0; i < a.n; i++)
		printf("%s%s", a.v[i], i < a.n - 1 ? " " : "\n");
	argv_free(&a);
}

/*
 * KVM only when a short probe boot gets to the guest command: nested
 * guests can hang at decompression, and a hang must not cost a whole run.
 */
static void choose_accel(struct vm_config *c)
{
	struct vm_config probe = *c;
	char dir[PATH_MAX];

	if (c->accel != ACCEL_KVM)
		return;
	if (access("/dev/kvm", R_OK | W_OK)) {
		fprintf(stderr, "bnb-vm: /dev/kvm not usable (%s): using TCG\n", strerror(errno));
		c->accel = ACCEL_TCG;
		return;
	}
	snprintf(dir, sizeof(dir), "%s/kvm-probe", c->run_dir);
	mkdir(dir, 0755);
	probe.run_dir = dir;
	probe.cmd = "true";
	probe.agent_socket = NULL;
	probe.plugin = NULL;
	probe.timeout_s = KVM_PROBE_TIMEOUT_S;
	if (vm_run(&probe) == VM_OK)
		return;
	fprintf(stderr, "bnb-vm: KVM probe boot did not reach the guest command "
		"within %d s (nested virtualization?): using TCG\n", KVM_PROBE_TIMEOUT_S);
	c->accel = ACCEL_TCG;
}

/*
 * KVM: every guest node on its own host node, when the host has enough;
 * otherwise the guest nodes share the host's memory and latency is uniform.
 * --host-bind=on binds under TCG too (it tests the path on any host) and
 * fails when it cannot.
 */
static int bind_host(struct vm_config *c, struct host_numa *h)
{
	char why[ERRLEN];

	if (c->host_bind == HOST_BIND_OFF || (c->host_bind == HOST_BIND_AUTO && c->accel != ACCEL_KVM))
		return 0;
	if (host_numa_read(h))
		snprintf(why, sizeof(why), "cannot read the host's NUMA nodes");
	else if (!host_numa_bind(h, &c->topo, c->host_node, why, sizeof(why)))
		why[0] = '\0';
	if (!why[0]) {
		c->host = h;
		return 0;
	}
	if (c->host_bind == HOST_BIND_ON) {
		prog_error("--host-bind=on: %s", why);
		return -1;
	}
	fprintf(stderr, "bnb-vm: KVM without NUMA binding, latency is uniform: %s\n", why);
	return 0;
}

/* Without --run-dir, the guest's output is the launcher's output. */
static void relay_output(const struct launch *l)
{
	char path[PATH_MAX], buf[65536];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/out.log", l->cli.cfg.run_dir);
	f = fopen(path, "r");
	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	fflush(stdout);
}

static void remove_tmp(const struct launch *l)
{
	static const char *const files[] = {
		"cmd", "console.log", "out.log", "qemu.log", "result", "qmp.sock", VM_PLUGIN_SHM,
	};
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", l->cli.cfg.run_dir, files[i]);
		unlink(path);
	}
	rmdir(l->cli.cfg.run_dir);
}

/*
 * After a failed boot (hang, panic, QEMU that would not run), the line
 * that runs the same boot again once the cause is fixed.
 */
static void print_retry(int argc, char **argv)
{
	char word[PATH_MAX];
	int i;

	fputs("bnb-vm: retry with:", stderr);
	for (i = 0; i < argc; i++)
		fprintf(stderr, " %s", shell_quote(argv[i], word, sizeof(word)));
	fputc('\n', stderr);
}

int main(int argc, char **argv)
{
	static struct launch l;
	static struct host_numa host;
	char err[ERRLEN];
	enum vm_status st;
	int rc;

	rc = opt_tool_help(vm_cli_parse(&l.cli, argc, argv, err, sizeof(err)), &vm_tool);
	if (rc < 0 || finish_timing(&l.cli, err, sizeof(err)) ||
	    finish_machine(&l.cli, err, sizeof(err)) ||
	    choose_emulator(&l, err, sizeof(err))) {
		prog_error("%s", err);
		return VM_USAGE;
	}
	if (prepare_paths(&l) || add_packages(&l)) {
		if (l.packed)
			unlink(l.packed);
		return VM_USAGE;
	}
	vm_plugin_default_shm(&l.cli.cfg);	/* the run's verdict reads it */
	if (l.cli.cfg.dry_run) {
		st = bind_host(&l.cli.cfg, &host) ? VM_USAGE : VM_OK;
		if (st == VM_OK)
			dry_run(&l.cli.cfg);
	} else {
		choose_accel(&l.cli.cfg);
		st = bind_host(&l.cli.cfg, &host) ? VM_USAGE : vm_run(&l.cli.cfg);
		if (st == VM_TIMEOUT || st == VM_PANIC || st == VM_LAUNCH_ERROR)
			print_retry(argc, argv);
		if (!l.keep_tmp)
			relay_output(&l);
	}
	/* the packed initrd is the cache's archive again: not worth keeping */
	if (l.packed)
		unlink(l.packed);
	if (!l.keep_tmp && (st == VM_OK || st == VM_GUEST_FAILED || st == VM_USAGE))
		remove_tmp(&l);
	vm_cli_free(&l.cli);
	return st;
}
