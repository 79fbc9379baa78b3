// SPDX-License-Identifier: GPL-2.0
/*
 * Experiment parser: every error path names file, line and key; inheritance
 * and sweep expansion; the guest command and the job list.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bnb_plugin_shm.h"
#include "experiment/experiment.h"
#include "experiment/keys.h"
#include "runner.h"
#include "scratch.h"

static char tmpdir[64];

static void setup(void)
{
	scratch_make(tmpdir, sizeof(tmpdir), "exp");
}

static void teardown(void)
{
	scratch_remove(tmpdir);
}

TestSuite(experiment, .init = setup, .fini = teardown);

#define OK_GLOBAL "[global]\nworkload = stream\n"

/* Each bad file and the exact start of the message it must produce. */
static const struct {
	const char *text;
	const char *error;	/* after "PATH:" */
} bad_files[] = {
	{ OK_GLOBAL "[a]\nbogus = 1\n", "4: key 'bogus': unknown key" },
	{ OK_GLOBAL "[a]\nnodes = 0\n", "4: key 'nodes': '0' is not an integer from 1 to 64" },
	{ OK_GLOBAL "[a]\nnodes = two\n", "4: key 'nodes': 'two' is not an integer" },
	{ OK_GLOBAL "[a]\nbalancing = maybe\n", "4: key 'balancing': 'maybe' is not on or off" },
	{ OK_GLOBAL "[a]\naccel = xen\n", "4: key 'accel': 'xen' is not one of tcg|kvm" },
	{ OK_GLOBAL "[a]\nmem = 513M\n", "4: key 'mem': '513M' is not a multiple of 2 MiB" },
	{ OK_GLOBAL "[a]\nmem = 2T\n", "4: key 'mem': '2T' is not a size from 2M to 1T" },
	{ OK_GLOBAL "[a]\nmem = 512\n", "4: key 'mem': '512': a size needs a unit, did you mean 512M?" },
	{ OK_GLOBAL "[a]\ncpus = 1,,2\n", "4: key 'cpus': '1,,2' has an empty item" },
	{ OK_GLOBAL "[a]\ndistance = 10,20;20\n", "4: key 'distance': row 1 has 1 values" },
	{ OK_GLOBAL "[a]\ndistance = 10,5;5,10\n", "4: key 'distance': [0][1] = '5' is outside 10..255" },
	{ OK_GLOBAL "[a]\ndistance = 12,20;20,10\n", "4: key 'distance': distance: self-distance [0][0] is 12" },
	{ OK_GLOBAL "[a]\ntime_limit = 1e3\n", "4: key 'time_limit': '1e3' is not an integer" },
	{ OK_GLOBAL "[a]\ntime_limit = 4\n", "4: key 'time_limit': '4' is not an integer from 5 to 86400" },
	{ OK_GLOBAL "[a]\nkernel =\n", "4: key 'kernel': empty value" },
	{ OK_GLOBAL "[a]\nscale_scan = fast\n", "4: key 'scale_scan': 'fast' is not off, auto, hardware or a factor" },
	{ OK_GLOBAL "[a]\nsysctl.scan_period_min_ms = 1;reboot\n", "4: key 'sysctl.scan_period_min_ms': bad value" },
	{ OK_GLOBAL "[a]\nsysctl.scan_period_min_ms = $(reboot)\n", "4: key 'sysctl.scan_period_min_ms': bad value" },
	{ OK_GLOBAL "[a]\nsysctl.scan_period_min_ms = 500:100:10\n", "4: key 'sysctl.scan_period_min_ms': bad range '500:100:10'" },
	{ OK_GLOBAL "[a]\nsysctl.scan_period_min_ms = +1:5:1\n", "4: key 'sysctl.scan_period_min_ms': bad range '+1:5:1'" },
	{ OK_GLOBAL "[a]\nsysctl.scan_period_min_ms = 1:1000:1\n", "4: key 'sysctl.scan_period_min_ms': range '1:1000:1' has more than 64 values" },
	{ OK_GLOBAL "[a]\nsysctl.Bad/Name = 1\n", "4: key 'sysctl.Bad/Name': unknown key" },
	{ OK_GLOBAL "[a]\nobjective = cost\n", "4: key 'objective': allowed only in global" },
	{ OK_GLOBAL "[a]\nprimary = work_s\n", "4: key 'primary': allowed only in global" },
	{ OK_GLOBAL "primary = work_s, p(x)\n[a]\n", "3: key 'primary': 'p(x)' is not a metric name" },
	{ OK_GLOBAL "primary = work_s;rm\n[a]\n", "3: key 'primary': 'work_s;rm' is not a metric name" },
	{ OK_GLOBAL "primary = ,\n[a]\n", "3: key 'primary': no metric named" },
	{ OK_GLOBAL "[a]\nnodes = 2\nnodes = 3\n", "5: key 'nodes': duplicate key (first set on line 4)" },
	{ OK_GLOBAL "[a]\nthis line has no equals sign\n", "4: syntax error" },
	{ OK_GLOBAL "[a b]\nnodes = 2\n", "3: bad section name" },
	{ "[global]\nnodes = 2\n\n[a]\nbalancing = on\n", "4: key 'workload': missing required key in section [a]" },
	{ "[global]\nworkload =\n[a]\n", "2: key 'workload': empty value" },
	{ OK_GLOBAL "nodes = 3\ncpus = 1,1\n[a]\n", "4: key 'cpus': variant 'a': '1,1' has 2 values: give one, or one per node (3)" },
	{ OK_GLOBAL "nodes = 2\n[a]\ndistance = 10,20,30;20,10,20;30,20,10\n", "5: key 'distance': variant 'a': 3 rows for 2 nodes" },
	{ OK_GLOBAL "cpus = 0\n[a]\n", "3: key 'cpus': variant 'a': zero CPUs in total" },
	{ OK_GLOBAL "accel = kvm\n[a]\nlatency = emulated\n", "5: key 'latency': variant 'a': latency=emulated needs accel=tcg" },
	{ OK_GLOBAL "[a]\nplugin_opts = cap_ns=5\n", "4: key 'plugin_opts': cap_ns=5: '5' is not an integer from 10 to 1000000" },
	{ OK_GLOBAL "[a]\nplugin_opts = delay=on capns=5\n", "4: key 'plugin_opts': unknown option 'capns'" },
	{ OK_GLOBAL "[a]\nplugin_opts = shm=/tmp/x\n", "4: key 'plugin_opts': 'shm=/tmp/x': the runner sets shm itself" },
	{ OK_GLOBAL "[a]\nplugin_opts = delay\n", "4: key 'plugin_opts': 'delay' is not KEY=VALUE" },
	{ OK_GLOBAL "[a]\ntiming = exact\n", "4: key 'timing': 'exact' is not one of wall|deterministic" },
	{ OK_GLOBAL "[a]\nicount_shift = 11\n", "4: key 'icount_shift': '11' is not an integer from 0 to 10" },
	{ OK_GLOBAL "[a]\nicount_shift = -1\n", "4: key 'icount_shift': '-1' is not an integer from 0 to 10" },
	{ OK_GLOBAL "[a]\nicount_shift = 3\n", "4: key 'icount_shift': variant 'a': icount_shift needs timing=deterministic" },
	{ OK_GLOBAL "timing = deterministic\n[a]\naccel = kvm\n", "3: key 'timing': variant 'a': timing=deterministic needs accel=tcg" },
	{ OK_GLOBAL "timing = deterministic\n[a]\nplugin_opts = delay=always\n", "5: key 'plugin_opts': variant 'a': 'delay=always' with timing=deterministic" },
	{ OK_GLOBAL "[a]\ntiming = deterministic\nplugin_opts = verbose=on cap_ns=500\n", "5: key 'plugin_opts': variant 'a': 'cap_ns=500' with timing=deterministic" },
	{ OK_GLOBAL "[a]\nplugin_opts = insn_ps=900\n", "4: key 'plugin_opts': 'insn_ps=900': the runner sets insn_ps itself" },
	{ OK_GLOBAL "[a]\nplugin_opts = verbose=on latency_ns=90\n", "4: key 'plugin_opts': 'latency_ns=90': set latency_ns in [machine]" },
	{ OK_GLOBAL "[a]\nplugin_opts = model=4node\n", "4: key 'plugin_opts': 'model=4node': set model in [machine]" },
	{ "[machine]\nmodel = 2socket\n" OK_GLOBAL "[a]\n", "2: key 'model': variant 'a': the machine model needs deterministic timing with the plugin" },
	{ "[machine]\nmodel = 2socket\nlatencies = 100,200\n" OK_GLOBAL "timing = deterministic\n[a]\n", "3: key 'latencies': variant 'a': 1 rows; want 2, one per node" },
	{ "[machine]\nmodel = 2socket\nlatencies = 100,90;200,100\n" OK_GLOBAL "timing = deterministic\n[a]\n", "3: key 'latencies': variant 'a': 0->1 is 90 ns, below the local 0->0 (100 ns)" },
	/* the interconnect: refused before anything boots, naming the key */
	{ "[machine]\nmodel = 2socket\nlinks = 0-1,1-2\n" OK_GLOBAL "timing = deterministic\n[a]\n", "3: key 'links': variant 'a': the links join nodes 0-2; the guest has 2 nodes" },
	{ "[machine]\nmodel = 2socket\nlinks = 0-1,2-3\n" OK_GLOBAL "timing = deterministic\nnodes = 4\n[a]\n", "3: key 'links': variant 'a': no route from node 0 to node 2: no links join them" },
	{ "[machine]\nmodel = 2socket\nlinks = 0-1:0\n" OK_GLOBAL "timing = deterministic\n[a]\n", "3: key 'links': link 0-1: '0' is not an integer from 1" },
	{ "[machine]\nmodel = 2socket\nlinks = 0-1,1-2\nroutes = 0-2\n" OK_GLOBAL "timing = deterministic\nnodes = 3\n[a]\n", "4: key 'routes': variant 'a': route 0-2 crosses 0-2, which is not a link" },
	{ "[machine]\nmodel = 4node\nnode_bandwidth_mbs = 0\n" OK_GLOBAL "[a]\n", "3: key 'node_bandwidth_mbs': '0' is not an integer from 1" },
	{ "[machine]\nmodel = 4node\nlatency_ns = -5\n" OK_GLOBAL "[a]\n", "3: key 'latency_ns': '-5' is not an integer from 1" },
	{ "[machine]\nmodel = off\nmlp = 4\n" OK_GLOBAL "timing = deterministic\n[a]\n", "3: key 'mlp': variant 'a': refines the machine model, which is off" },
	{ "[machine]\nmlp = 4\n" OK_GLOBAL "[a]\n", "2: key 'mlp': variant 'a': refines the machine model, which is off without deterministic timing and the plugin" },
	{ OK_GLOBAL "timing = deterministic\n[a]\nplugin_opts = delay=off\n", "5: key 'plugin_opts': variant 'a': 'delay=off': the machine model (2socket) charges every miss; model = off in [machine] counts only" },
	{ OK_GLOBAL "timing = deterministic\n[a]\nmodel = 4node\n", "5: key 'model': allowed only in machine" },
	/* checked as the file is read (no field to fill yet), then against the topology */
	{ "[machine]\ncxl_nodes = 1\n" OK_GLOBAL "timing = deterministic\nnodes = 3\ncpus = 1,1,0\n[a]\n", "2: key 'cxl_nodes': variant 'a': node 1 has 1 CPUs: CXL memory has none" },
	{ OK_GLOBAL, "2: no variant sections" },
	{ OK_GLOBAL "[a]\nsysctl.x = 1,2,1\n", "4: key 'sysctl.x': value listed twice: 1" },
	/* a section written twice would be merged in silence */
	{ OK_GLOBAL "[a]\nnodes = 2\n[b]\n[a]\nnodes = 3\n", "6: section [a] again (first on line 3)" },
	{ OK_GLOBAL "[a]\n[global]\nnodes = 2\n", "4: section [global] again (first on line 1)" },
	/* [Global] would be a variant, and the baseline */
	{ "[Global]\nworkload = stream\n[a]\n", "1: section [Global]: section names are case-sensitive" },
	{ OK_GLOBAL "[MACHINE]\nmodel = 2socket\n[a]\n", "3: section [MACHINE]: section names are case-sensitive" },
	{ OK_GLOBAL "[]\n[a]\n", "3: bad section name" },
	/* a server's keys (docs/applications.md) */
	{ OK_GLOBAL "[a]\nserver_ready = redis-cli ping\n", "4: key 'server_ready': variant 'a': server_ready without a server" },
	{ OK_GLOBAL "server_move = 1\n[a]\n", "3: key 'server_move': variant 'a': server_move without a server" },
	{ OK_GLOBAL "[a]\nserver = redis-server\n", "4: key 'server': variant 'a': a server needs server_ready" },
	{ OK_GLOBAL "server = redis-server\nserver_ready = redis-cli ping\n[a]\nserver_move = 2\n", "6: key 'server_move': variant 'a': node 2, but the guest has 2" },
	/* a server user bnb-service would refuse only after a boot */
	{ OK_GLOBAL "server_user = root;id\n[a]\n", "3: key 'server_user': 'root;id' is not a user name" },
	{ OK_GLOBAL "server_user = ../x\n[a]\n", "3: key 'server_user': '../x' is not a user name" },
	{ OK_GLOBAL "[a]\npackages = redis-server bnb-no-such-package\n", "4: key 'packages': package 'bnb-no-such-package' is not installed" },
	{ OK_GLOBAL "[a]\npackages = Redis\n", "4: key 'packages': 'Redis' is not a Debian package name" },
	/* text from the file is quoted with its unprintable bytes escaped */
	{ OK_GLOBAL "[a]\n\x1b[2Jred = 1\n", "4: key '\\x1b[2Jred': unknown key" },
};

Test(experiment, every_error_names_file_line_and_key)
{
	size_t i;

	for (i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++) {
		struct experiment exp;
		char err[512], want[512];
		const char *path = scratch_write(tmpdir, "bad.ini", bad_files[i].text);

		snprintf(want, sizeof(want), "%s:%s", path, bad_files[i].error);
		cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), -1,
			     "case %zu parsed but should fail: %s", i, bad_files[i].text);
		cr_assert(!strncmp(err, want, strlen(want)),
			  "case %zu:\n got: %s\nwant: %s", i, err, want);
	}
}

/*
 * Lines longer than libinih's 200-byte buffer are read whole, up to
 * 65536 characters; a longer one is refused naming the limit.
 */
Test(experiment, long_lines)
{
	struct experiment exp;
	char *text = malloc(80000), err[512], want[700];
	const char *path;
	int n;

	snprintf(text, 80000, OK_GLOBAL "[a]\ndescription = %0600d ; a comment\n"
		 "workload = stream --size 1M%0300d\n", 7, 0);
	path = scratch_write(tmpdir, "long.ini", text);
	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), 0, "%s", err);
	snprintf(want, sizeof(want), "%0600d", 7);
	cr_assert_str_eq(exp.variants[0].description, want, "the value, its comment off");
	cr_assert_eq(strlen(exp.variants[0].workload), strlen("stream --size 1M") + 300);
	experiment_free(&exp);

	/* a long key is still checked against the table, on its own line */
	snprintf(text, 80000, OK_GLOBAL "[a]\nnodes = 9%0300d\n", 0);
	path = scratch_write(tmpdir, "long.ini", text);
	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), -1);
	cr_assert(strstr(err, ":4: key 'nodes': '9000"), "%s", err);

	n = snprintf(text, 80000, OK_GLOBAL "[a]\ndescription = ");
	memset(text + n, 'x', 70000);
	strcpy(text + n + 70000, "\n");
	path = scratch_write(tmpdir, "long.ini", text);
	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), -1);
	cr_assert(strstr(err, ":4: line too long (70015 characters, at most 65536)"), "%s", err);
	free(text);
}

/* A folder, or binary garbage, as the experiment file says what it is. */
Test(experiment, not_an_experiment_file)
{
	static const char garbage[] = "\x7f" "ELF\x02\x01\x1b]0;owned\x07\0\0\x03";
	struct experiment exp;
	char err[512], path[128];
	FILE *f;

	cr_assert_eq(experiment_load(tmpdir, &exp, err, sizeof(err)), -1);
	cr_assert(strstr(err, ": is a directory, not an experiment file"), "%s", err);
	snprintf(path, sizeof(path), "%s/garbage.ini", tmpdir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fwrite(garbage, 1, sizeof(garbage), f);
	fclose(f);
	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), -1);
	for (const char *p = err; *p; p++)
		cr_assert((unsigned char)*p >= ' ' && (unsigned char)*p < 0x7f,
			  "unprintable byte 0x%02x in the error", (unsigned char)*p);
	cr_assert(strstr(err, "garbage.ini:1:"), "%s", err);
}

Test(experiment, missing_file)
{
	struct experiment exp;
	char err[512];

	cr_assert_eq(experiment_load("/nonexistent/x.ini", &exp, err, sizeof(err)), -1);
	cr_assert(strstr(err, "/nonexistent/x.ini: cannot open"), "%s", err);
}

Test(experiment, inheritance_and_defaults)
{
	struct experiment exp;
	const struct variant *a, *b;
	char err[512];
	const char *path = scratch_write(tmpdir, "inh.ini",
		"; comment\n[global]\nnodes = 4\ncpus = 2\nworkload = stream --size 8M\n"
		"repetitions = 5\n\n[a]\nbalancing = off\n\n[b]\nnodes = 2\nworkload = thp\n");

	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(exp.name, "inh");
	cr_assert_eq(exp.n_variants, 2);
	a = experiment_variant(&exp, "a");
	b = experiment_variant(&exp, "b");
	cr_assert_not_null(a);
	cr_assert_not_null(b);
	cr_assert_eq(a->topo.nodes, 4);
	cr_assert_eq(a->topo.cpus[3], 2);
	cr_assert_eq(a->topo.dist[0][3], 20, "default distances for 4 nodes");
	cr_assert(!a->balancing);
	cr_assert_str_eq(a->workload, "stream --size 8M");
	cr_assert_eq(b->topo.nodes, 2);
	cr_assert_eq(b->topo.cpus[1], 2, "cpus from [global] for 2 nodes");
	cr_assert(b->balancing, "key default");
	cr_assert_str_eq(b->workload, "thp");
	cr_assert_eq(b->topo.mem[1], 512ULL << 20);
	cr_assert_eq(b->repetitions, 5);
	cr_assert_eq(b->time_limit, 300);
	cr_assert_eq(b->accel, ACCEL_TCG);
	cr_assert_eq(b->latency, LATENCY_AUTO);
	cr_assert_eq(b->bound, BOUND_NONE);
	cr_assert_eq(b->scale_scan.mode, SCALE_OFF);
	cr_assert_str_eq(b->kernel, "patched");
	cr_assert_eq(b->plugin_opts.n, 0);
	cr_assert_eq(a->n_sysctls, 0);
	cr_assert_eq(exp.objective, OBJ_CONVERGENCE);
	cr_assert_eq(exp.primary.n, 4, "the default primary metrics");
	cr_assert_str_eq(exp.primary.v[0], "work_s");
	cr_assert_str_eq(exp.primary.v[3], "true_locality");
	experiment_free(&exp);
}

Test(experiment, sweep_list_range_and_product)
{
	struct experiment exp;
	char err[512];
	const struct variant *v;
	const char *path = scratch_write(tmpdir, "sw.ini",
		OK_GLOBAL "[plain]\n[s]\nsysctl.scan_period_min_ms = 100:500:200\n"
		"sysctl.migrate_policy = 0,2\n");

	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(exp.n_variants, 1 + 3 * 2);
	cr_assert_str_eq(exp.variants[0].name, "plain");
	cr_assert_eq(exp.variants[0].n_sweep, 0);
	cr_assert_str_eq(exp.variants[1].name, "s-scan_period_min_ms=100-migrate_policy=0");
	cr_assert_str_eq(exp.variants[6].name, "s-scan_period_min_ms=500-migrate_policy=2");
	v = experiment_variant(&exp, "s-scan_period_min_ms=300-migrate_policy=2");
	cr_assert_not_null(v);
	cr_assert_str_eq(v->base, "s");
	cr_assert_eq(v->n_sweep, 2);
	cr_assert_str_eq(v->sweep[0].key, "sysctl.scan_period_min_ms");
	cr_assert_str_eq(v->sweep[0].value, "300");
	cr_assert_eq(v->n_sysctls, 2);
	cr_assert_str_eq(v->sysctls[0].key, "sysctl.scan_period_min_ms");
	cr_assert_str_eq(v->sysctls[0].value, "300");
	cr_assert_str_eq(v->sysctls[1].key, "sysctl.migrate_policy");
	cr_assert_str_eq(v->sysctls[1].value, "2");
	experiment_free(&exp);
}

Test(experiment, sysctl_targets)
{
	struct sysctl_target t;

	cr_assert_eq(sysctl_target("sysctl.scan_period_min_ms", &t), 0);
	cr_assert_str_eq(t.sysctl, "kernel.numa_balancing_scan_period_min_ms");
	cr_assert_str_eq(t.debugfs, "/sys/kernel/debug/sched/numa_balancing/scan_period_min_ms");
	cr_assert_eq(sysctl_target("sysctl.migrate_policy", &t), 0);
	cr_assert_str_eq(t.sysctl, "kernel.numa_balancing_migrate_policy");
	cr_assert_null(t.debugfs);
	cr_assert_eq(sysctl_target("sysctl.vm.zone_reclaim_mode", &t), 0);
	cr_assert_str_eq(t.sysctl, "vm.zone_reclaim_mode");
	cr_assert_eq(sysctl_target("nodes", &t), -1);
}

/* Run the generated guest command with sh on the host: a sysctl that does
 * not exist must stop it with exit 97 and a line naming the sysctl. */
Test(experiment, guest_command_fails_on_missing_sysctl)
{
	struct experiment exp;
	char err[512], cmd[8192], line[512];
	const char *path = scratch_write(tmpdir, "g.ini",
		"[global]\nworkload = echo WORKLOAD-RAN\n[a]\nsysctl.kernel.bnb_no_such_knob = 7\n");
	char *gc;
	FILE *p;
	int status;
	bool named = false, ran = false;

	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), 0, "%s", err);
	gc = guest_command(&exp.variants[0], NULL, 0);
	cr_assert(strstr(gc, "bnb_set kernel.bnb_no_such_knob 7 ''"), "%s", gc);
	cr_assert(strstr(gc, "echo WORKLOAD-RAN"));
	snprintf(cmd, sizeof(cmd), "sh -c '%s' 2>&1; echo \"rc=$?\"", "eval \"$BNB_GC\"");
	setenv("BNB_GC", gc, 1);
	p = popen(cmd, "r");
	while (fgets(line, sizeof(line), p)) {
		named |= strstr(line, "# bnb-run: sysctl error: kernel.bnb_no_such_knob: not present") != NULL;
		ran |= strstr(line, "WORKLOAD-RAN") != NULL;
		if (!strncmp(line, "rc=", 3))
			status = atoi(line + 3);
	}
	pclose(p);
	cr_assert(named, "no line naming the sysctl");
	cr_assert(!ran, "the workload ran although the sysctl failed");
	cr_assert_eq(status, 97);
	free(gc);
	experiment_free(&exp);
}

/* The guest programs (static) on PATH, as /opt/bnb/bin is in the guest. */
static void guest_path(void)
{
	char exe[PATH_MAX], path[PATH_MAX * 2];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	cr_assert_gt(n, 0);
	exe[n] = 0;
	*strrchr(exe, '/') = 0;		/* ROOT/build/tests -> ROOT/build */
	*strrchr(exe, '/') = 0;
	snprintf(path, sizeof(path), "%s/guest/bin:%s", exe, getenv("PATH"));
	setenv("PATH", path, 1);
}

Test(experiment, guest_command_keeps_stderr_as_comments)
{
	struct experiment exp;
	char err[512], line[512];
	const char *path = scratch_write(tmpdir, "s.ini",
		"[global]\nworkload = echo t_s,rate && echo oops >&2 && exit 3\n[a]\n");
	char *gc;
	FILE *p;
	bool comment = false;
	int rc;

	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), 0, "%s", err);
	gc = guest_command(&exp.variants[0], NULL, 0);
	setenv("BNB_GC", gc, 1);
	guest_path();	/* the command runs the workload under bnb-monitor */
	p = popen("sh -c 'eval \"$BNB_GC\"'", "r");
	while (fgets(line, sizeof(line), p))
		comment |= !strcmp(line, "# stderr: oops\n");
	rc = pclose(p);
	cr_assert(comment);
	cr_assert_eq(WEXITSTATUS(rc), 3, "the workload's exit status must survive");
	free(gc);
	experiment_free(&exp);
}

Test(experiment, job_list_only_and_reps)
{
	struct experiment exp;
	char err[512], path[256];
	struct job j;
	int n;
	const char *ini = scratch_write(tmpdir, "j.ini",
		OK_GLOBAL "repetitions = 2\n[off]\n[on]\n[s]\nsysctl.scan_size_mb = 64,128\n");

	cr_assert_eq(experiment_load(ini, &exp, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(jobs_write(tmpdir, &exp, NULL, 0, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 8);
	cr_assert_eq(jobs_read(tmpdir, 8, &j), 0);
	cr_assert_str_eq(j.variant, "s-scan_size_mb=128");
	cr_assert_eq(j.rep, 2);
	cr_assert_eq(j.total, 8);
	cr_assert_eq(jobs_write(tmpdir, &exp, "s", 3, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 6);
	cr_assert_eq(jobs_read(tmpdir, 4, &j), 0);
	cr_assert_str_eq(j.variant, "s-scan_size_mb=128");
	cr_assert_eq(j.rep, 1);
	cr_assert_eq(jobs_read(tmpdir, 7, &j), -1);
	cr_assert_eq(jobs_write(tmpdir, &exp, "nope", 0, &n, err, sizeof(err)), -1);
	cr_assert(strstr(err, "no variant named 'nope'"), "%s", err);
	snprintf(path, sizeof(path), "%s/jobs.txt", tmpdir);
	cr_assert_eq(access(path, R_OK), 0);
	experiment_free(&exp);
}

/* Left to the runner, deterministic experiments fill the host's CPUs and
 * one wall-timed variant keeps them to one guest at a time. */
Test(experiment, jobs_auto_follows_timing)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	struct experiment exp;
	char err[512];
	const char *ini = scratch_write(tmpdir, "det.ini",
		OK_GLOBAL "timing = deterministic\n[off]\n[on]\nbalancing = on\n");

	cr_assert_eq(experiment_load(ini, &exp, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(jobs_for(&exp, JOBS_AUTO), cores > 1 ? cores : 1);
	cr_assert_eq(jobs_for(&exp, 1), 1, "an explicit --jobs is kept");
	cr_assert_eq(jobs_for(&exp, 0), 0, "--jobs 0 (write the list only) is kept");
	experiment_free(&exp);
	ini = scratch_write(tmpdir, "mixed.ini",
			    OK_GLOBAL "timing = deterministic\n[off]\n[w]\ntiming = wall\n");
	cr_assert_eq(experiment_load(ini, &exp, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(jobs_for(&exp, JOBS_AUTO), 1, "a wall-timed variant runs alone");
	cr_assert_eq(jobs_for(&exp, 3), 3);
	experiment_free(&exp);
}

static const char *verdict_for(uint32_t map_status, uint32_t flags, const char *msg,
			       char *why, size_t len)
{
	struct bnb_shm_header h = {
		.magic = BNB_SHM_MAGIC, .version = BNB_SHM_VERSION,
		.state = BNB_SHM_EXITED, .map_status = map_status, .flags = flags,
	};
	char path[128];
	FILE *f;

	snprintf(h.map_message, sizeof(h.map_message), "%s", msg);
	snprintf(path, sizeof(path), "%s/plugin.shm", tmpdir);
	f = fopen(path, "w");
	fwrite(&h, sizeof(h), 1, f);
	fclose(f);
	return latency_verdict(path, why, len);
}

Test(experiment, latency_verdict_from_plugin_file)
{
	char why[512];

	cr_assert_str_eq(verdict_for(BNB_MAP_OK, BNB_SHM_F_COUNT | BNB_SHM_F_DELAY, "", why, 512),
			 "emulated");
	cr_assert_str_eq(why, "");
	cr_assert_str_eq(verdict_for(BNB_MAP_OK, BNB_SHM_F_COUNT, "", why, 512), "uniform",
			 "counting only (delay=off) is not emulation");
	cr_assert_str_eq(verdict_for(BNB_MAP_FAILED, BNB_SHM_F_COUNT, "node 1: 40%\nbelow", why, 512),
			 "uniform");
	cr_assert_str_eq(why, "plugin loaded but no delay injected: the map check failed: node 1: 40% below");
	cr_assert_str_eq(verdict_for(BNB_MAP_UNCHECKED, 0, "", why, 512), "uniform");
	cr_assert(strstr(why, "never ran the map check"));
	cr_assert_str_eq(latency_verdict("/nonexistent/shm", why, 512), "uniform");
	cr_assert(strstr(why, "missing or unreadable"));
}

/* start_jitter's schedule: fixed per repetition, inside one tick, spread. */
Test(experiment, start_jitter_schedule)
{
	static const unsigned want[] = { 2472, 944, 3416, 1888, 360 };
	unsigned i, j;

	cr_assert_eq(start_delay_us(0), 0);
	for (i = 0; i < 5; i++)
		cr_assert_eq(start_delay_us(i + 1), want[i], "rep %u: %u", i + 1,
			     start_delay_us(i + 1));
	for (i = 1; i <= 100; i++) {
		cr_assert_lt(start_delay_us(i), START_JITTER_SPAN_US);
		for (j = 1; j < i; j++)	/* no two of the first 100 alike */
			cr_assert_neq(start_delay_us(i), start_delay_us(j), "reps %u, %u", i, j);
	}
}

/* The key defaults to off; on, the guest sleeps before, not after, the
 * workload, and really waits: run with busybox's usleep on the host. */
Test(experiment, start_jitter_waits_before_the_workload)
{
	struct experiment exp;
	char err[512], line[512], cmd[512];
	const char *path = scratch_write(tmpdir, "j.ini", "[global]\nworkload = echo WORKLOAD-RAN\n"
					 "[off]\n[on]\nstart_jitter = on\n");
	bool noted = false, ran_after = false;
	struct timespec t0, t1;
	char *gc;
	FILE *p;

	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), 0, "%s", err);
	cr_assert_not(exp.variants[0].start_jitter);
	cr_assert(exp.variants[1].start_jitter);
	gc = guest_command(&exp.variants[1], NULL, 0);
	cr_assert_null(strstr(gc, "usleep"), "no delay asked, none in: %s", gc);
	free(gc);
	gc = guest_command(&exp.variants[1], NULL, 300000);
	cr_assert_not_null(strstr(gc, "usleep 300000\n"));
	cr_assert(strstr(gc, "usleep 300000") < strstr(gc, "WORKLOAD-RAN"));
	snprintf(cmd, sizeof(cmd), "ln -s /bin/busybox %s/usleep", tmpdir);
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "PATH=%s:$PATH sh -c 'eval \"$BNB_GC\"'", tmpdir);
	setenv("BNB_GC", gc, 1);
	guest_path();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	p = popen(cmd, "r");
	while (fgets(line, sizeof(line), p)) {
		noted |= !strcmp(line, "# bnb-run: start_jitter: 300000 us before the workload\n");
		ran_after |= noted && strstr(line, "WORKLOAD-RAN");
	}
	cr_assert_eq(pclose(p), 0, "the command failed");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	cr_assert(noted && ran_after);
	cr_assert_geq((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, 0.3);
	free(gc);
	experiment_free(&exp);
}
