// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-vm: boot the patched kernel as a multi-node NUMA guest under QEMU
 * and run one command in it.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/parse.h"
#include "vm.h"

#define KVM_PROBE_TIMEOUT_S 30
#define QBOOT "/usr/share/qemu/qboot.rom"

struct launch {
	struct vm_config cfg;
	const char *cpus, *mem, *distance;
	char root[PATH_MAX];
	bool keep_tmp;
};

typedef int (*opt_handler)(struct launch *l, const char *arg, char *err, size_t errlen);

struct option_desc {
	const char *name;
	const char *arg;	/* NULL: takes no argument */
	opt_handler set;
	const char *help;
};

static int set_kernel(struct launch *l, const char *a, char *e, size_t elen) { l->cfg.kernel = a; return 0; }
static int set_initrd(struct launch *l, const char *a, char *e, size_t elen) { l->cfg.initrd = a; return 0; }
static int set_cpus(struct launch *l, const char *a, char *e, size_t elen) { l->cpus = a; return 0; }
static int set_mem(struct launch *l, const char *a, char *e, size_t elen) { l->mem = a; return 0; }
static int set_distance(struct launch *l, const char *a, char *e, size_t elen) { l->distance = a; return 0; }
static int set_hmat(struct launch *l, const char *a, char *e, size_t elen) { l->cfg.hmat = true; return 0; }
static int set_no_hmat(struct launch *l, const char *a, char *e, size_t elen) { l->cfg.hmat = false; return 0; }
static int set_append(struct launch *l, const char *a, char *e, size_t elen) { l->cfg.append = a; return 0; }
static int set_run_dir(struct launch *l, const char *a, char *e, size_t elen) { l->cfg.run_dir = a; return 0; }
static int set_agent(struct launch *l, const char *a, char *e, size_t elen) { l->cfg.agent_socket = a; return 0; }
static int set_plugin(struct launch *l, const char *a, char *e, size_t elen) { l->cfg.plugin = a; return 0; }
static int set_qemu(struct launch *l, const char *a, char *e, size_t elen) { l->cfg.qemu = a; return 0; }
static int set_bios(struct launch *l, const char *a, char *e, size_t elen)
{
	l->cfg.bios = strcmp(a, "default") ? a : NULL;
	return 0;
}

static int set_dry_run(struct launch *l, const char *a, char *e, size_t elen) { l->cfg.dry_run = true; return 0; }

static int set_nodes(struct launch *l, const char *a, char *e, size_t elen)
{
	return topo_parse_nodes(&l->cfg.topo, a, e, elen);
}

static int set_timeout(struct launch *l, const char *a, char *e, size_t elen)
{
	if (parse_int(a, 1, 86400, &l->cfg.timeout_s, e, elen))
		return errf_prefix(e, elen, "timeout");
	return 0;
}

static int set_loglevel(struct launch *l, const char *a, char *e, size_t elen)
{
	if (parse_int(a, 0, 8, &l->cfg.loglevel, e, elen))
		return errf_prefix(e, elen, "loglevel");
	return 0;
}

static int set_balancing(struct launch *l, const char *a, char *e, size_t elen)
{
	int on = parse_choice(a, "off|on", e, elen);

	if (on < 0)
		return errf_prefix(e, elen, "balancing");
	l->cfg.balancing = on;
	return 0;
}

static int set_accel(struct launch *l, const char *a, char *e, size_t elen)
{
	int accel = parse_choice(a, "tcg|kvm", e, elen);	/* enum vm_accel order */

	if (accel < 0)
		return errf_prefix(e, elen, "accel");
	l->cfg.accel = accel;
	return 0;
}

static int set_plugin_opt(struct launch *l, const char *a, char *e, size_t elen)
{
	if (!strchr(a, '=') || strchr(a, ',')) {
		return errf(e, elen, "plugin-opt: '%s' is not KEY=VALUE without commas", a);
	}
	if (l->cfg.n_plugin_opts == VM_MAX_PLUGIN_OPTS) {
		return errf(e, elen, "plugin-opt: more than %d", VM_MAX_PLUGIN_OPTS);
	}
	l->cfg.plugin_opts[l->cfg.n_plugin_opts++] = a;
	return 0;
}

static const struct option_desc options[] = {
	{ "kernel", "FILE", set_kernel, "kernel image (build/kernel/bzImage)" },
	{ "initrd", "FILE", set_initrd, "initramfs (build/guest/initramfs.cpio)" },
	{ "nodes", "N", set_nodes, "NUMA nodes, 1..64 (2)" },
	{ "cpus", "LIST", set_cpus, "CPUs per node: one number or one per node (1)" },
	{ "mem", "LIST", set_mem, "memory per node, 2 MiB multiples: 512M or 512M,1G (512M)" },
	{ "distance", "MATRIX", set_distance, "SLIT rows split by ';', values by ',' (10 local, 20 remote)" },
	{ "hmat", NULL, set_hmat, "describe latency/bandwidth in HMAT (default)" },
	{ "no-hmat", NULL, set_no_hmat, "no HMAT" },
	{ "balancing", "on|off", set_balancing, "numa_balancing= on the kernel command line (on)" },
	{ "accel", "tcg|kvm", set_accel, "accelerator; kvm only if a probe boot works (tcg)" },
	{ "timeout", "SEC", set_timeout, "bound on the whole run (300)" },
	{ "append", "STR", set_append, "extra kernel command line" },
	{ "loglevel", "N", set_loglevel, "kernel console loglevel (5: warnings and worse)" },
	{ "run-dir", "DIR", set_run_dir, "where console.log, out.log and result go (temporary)" },
	{ "agent-socket", "PATH", set_agent, "add port bnb.agent as a listening unix socket" },
	{ "plugin", "SO", set_plugin, "load a TCG plugin; the topology is appended" },
	{ "plugin-opt", "K=V", set_plugin_opt, "argument for the plugin (repeatable)" },
	{ "qemu", "PATH", set_qemu, "QEMU binary (qemu-system-x86_64)" },
	{ "bios", "FILE|default", set_bios, "firmware (qboot when installed: it boots faster)" },
	{ "dry-run", NULL, set_dry_run, "print the QEMU command line only" },
};
#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

static void usage(FILE *f)
{
	char flag[64];
	size_t i;

	fprintf(f, "usage: bnb-vm [options] [--] 'guest shell command'\n\n");
	for (i = 0; i < N_OPTIONS; i++) {
		snprintf(flag, sizeof(flag), "--%s%s%s", options[i].name,
			 options[i].arg ? " " : "", options[i].arg ? options[i].arg : "");
		fprintf(f, "  %-24s %s\n", flag, options[i].help);
	}
	fprintf(f, "  %-24s %s\n\n", "--help", "this text");
	fprintf(f, "Exit status: 0 the guest command exited 0, 1 it failed, 2 bad usage,\n"
		"3 timeout or hang, 4 kernel panic/oops/BUG, 5 QEMU could not run.\n");
}

/* The repository root: two levels above build/bin/bnb-vm, or $BNB_ROOT. */
static void find_root(struct launch *l)
{
	char exe[PATH_MAX];
	ssize_t n;

	if (getenv("BNB_ROOT")) {
		snprintf(l->root, sizeof(l->root), "%s", getenv("BNB_ROOT"));
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(l->root, sizeof(l->root), ".");
		return;
	}
	exe[n] = '\0';
	snprintf(l->root, sizeof(l->root), "%s", dirname(dirname(dirname(exe))));
}

static char *root_path(const struct launch *l, const char *rel)
{
	char *p;

	if (asprintf(&p, "%s/%s", l->root, rel) < 0)
		abort();
	return p;
}

static void set_defaults(struct launch *l)
{
	memset(l, 0, sizeof(*l));
	topo_init(&l->cfg.topo, 2);
	l->cfg.qemu = "qemu-system-x86_64";
	/* qboot skips SeaBIOS's device probing: about a second less per boot. */
	if (access(QBOOT, R_OK) == 0)
		l->cfg.bios = QBOOT;
	l->cfg.hmat = true;
	l->cfg.balancing = true;
	l->cfg.loglevel = 5;
	l->cfg.timeout_s = 300;
	find_root(l);
}

static int parse_args(struct launch *l, int argc, char **argv)
{
	struct option longopts[N_OPTIONS + 2] = { 0 };
	char err[ERRLEN];
	size_t i;
	int c;

	for (i = 0; i < N_OPTIONS; i++) {
		longopts[i].name = options[i].name;
		longopts[i].has_arg = options[i].arg ? required_argument : no_argument;
		longopts[i].val = 256 + i;
	}
	longopts[N_OPTIONS].name = "help";
	longopts[N_OPTIONS].val = 'h';

	/* '+': stop at the first non-option, the guest command. */
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		if (c < 256) {
			fprintf(stderr, "bnb-vm: unknown option '%s' (see --help)\n", argv[optind - 1]);
			return -1;
		}
		if (options[c - 256].set(l, optarg, err, sizeof(err))) {
			fprintf(stderr, "bnb-vm: %s\n", err);
			return -1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "bnb-vm: give exactly one guest command (quote it), got %d\n",
			argc - optind);
		return -1;
	}
	l->cfg.cmd = argv[optind];
	return 0;
}

/* Field parsers need the node count, so they run after all options. */
static int finish_topology(struct launch *l)
{
	struct bnb_topology *t = &l->cfg.topo;
	char err[ERRLEN];

	if ((l->cpus && topo_parse_cpus(t, l->cpus, err, sizeof(err))) ||
	    (l->mem && topo_parse_mem(t, l->mem, err, sizeof(err))) ||
	    (l->distance && topo_parse_distance(t, l->distance, err, sizeof(err))) ||
	    topo_validate(t, err, sizeof(err))) {
		fprintf(stderr, "bnb-vm: %s\n", err);
		return -1;
	}
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

static int prepare_paths(struct launch *l)
{
	static char tmpl[] = "/tmp/bnb-vm.XXXXXX";

	if (!l->cfg.kernel)
		l->cfg.kernel = root_path(l, "build/kernel/bzImage");
	if (!l->cfg.initrd)
		l->cfg.initrd = root_path(l, "build/guest/initramfs.cpio");
	if (check_file("kernel", l->cfg.kernel) || check_file("initrd", l->cfg.initrd))
		return -1;
	if (l->cfg.plugin && check_file("plugin", l->cfg.plugin))
		return -1;
	if (!l->cfg.run_dir) {
		if (!mkdtemp(tmpl)) {
			perror("bnb-vm: mkdtemp");
			return -1;
		}
		l->cfg.run_dir = tmpl;
		l->keep_tmp = false;
		return 0;
	}
	if (mkdir(l->cfg.run_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "bnb-vm: run dir %s: %s\n", l->cfg.run_dir, strerror(errno));
		return -1;
	}
	l->keep_tmp = true;
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

/* Without --run-dir, the guest's output is the launcher's output. */
static void relay_output(const struct launch *l)
{
	char path[PATH_MAX], buf[65536];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/out.log", l->cfg.run_dir);
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
		"cmd", "console.log", "out.log", "qemu.log", "result", "qmp.sock",
	};
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", l->cfg.run_dir, files[i]);
		unlink(path);
	}
	rmdir(l->cfg.run_dir);
}

int main(int argc, char **argv)
{
	static struct launch l;
	enum vm_status st;

	set_defaults(&l);
	if (parse_args(&l, argc, argv) || finish_topology(&l))
		return VM_USAGE;
	if (prepare_paths(&l))
		return VM_USAGE;
	if (l.cfg.dry_run) {
		dry_run(&l.cfg);
		if (!l.keep_tmp)
			remove_tmp(&l);
		return VM_OK;
	}
	choose_accel(&l.cfg);
	st = vm_run(&l.cfg);
	if (!l.keep_tmp) {
		relay_output(&l);
		if (st == VM_OK || st == VM_GUEST_FAILED)
			remove_tmp(&l);
	}
	return st;
}
