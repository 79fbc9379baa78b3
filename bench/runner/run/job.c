// SPDX-License-Identifier: GPL-2.0
/*
 * One run: the collector in the background, the launcher in the
 * foreground, one fresh guest. Both children get their own process group
 * so that a Ctrl-C is handled here, once: the guest is stopped, the
 * collector finishes its files, and the run is marked incomplete.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "extract/csv.h"
#include "fsio.h"
#include "experiment/keys.h"
#include "lib/err.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "extract/monitors.h"
#include "outcome.h"
#include "model/timekeeper.h"
#include "provenance.h"
#include "report/results.h"
#include "extract/numawork.h"
#include "runner.h"
#include "extract/wlout.h"
#include "model/machine.h"

#define WATCHDOG_SLACK_S 60	/* beyond the launcher's own --timeout */
#define COLLECT_GRACE_S 15
#define WINDOW_SCANS 5		/* window_s=auto: this many scan periods */
#define KERNEL_SCAN_PERIOD_MIN_MS 1000	/* the kernel's default */

static void add_arg(void *ctx, const char *word)
{
	argv_add(ctx, "%s", word);
}

int vm_args(struct argv *a, const struct variant *v, const struct run_plan *p,
	    const struct scan_plan *sp, const char *tmp, const char *rundir)
{
	char text[BNB_MAX_NODES * BNB_MAX_NODES * 4 + 64], *cmd;
	struct bnb_machine_spec m = v->machine;
	int i;

	/* the model runs with the plugin under deterministic timing only */
	bnb_machine_resolve(&m, v->timing == TIMING_DETERMINISTIC && p->plugin[0]);
	argv_add(a, "%s", p->vm);
	argv_add(a, "--kernel=%s", p->kernel);
	/* bnb-vm adds the tools archive when the command names a tool; perf
	 * for a monitor is not named there */
	if (monitors_need_perf(v->monitors))
		argv_add(a, "--tools=on");
	if (*v->packages)
		argv_add(a, "--packages=%s", v->packages);
	argv_add(a, "--nodes=%d", v->topo.nodes);
	topo_format_cpus(&v->topo, text, sizeof(text));
	argv_add(a, "--cpus=%s", text);
	topo_format_mem(&v->topo, text, sizeof(text));
	argv_add(a, "--mem=%s", text);
	topo_format_distance(&v->topo, text, sizeof(text));
	argv_add(a, "--distance=%s", text);
	argv_add(a, "%s", v->hmat ? "--hmat" : "--no-hmat");
	argv_add(a, "--balancing=%s", v->balancing ? "on" : "off");
	argv_add(a, "--accel=%s", v->accel == ACCEL_KVM ? "kvm" : "tcg");
	if (v->timing == TIMING_DETERMINISTIC) {
		argv_add(a, "--timing=deterministic");
		argv_add(a, "--icount-shift=%d", v->icount_shift);
	}
	argv_add(a, "--timeout=%d", p->time_limit);
	argv_add(a, "--run-dir=%s", tmp);
	argv_add(a, "--agent-socket=%s/agent.sock", tmp);
	/* deterministic: the agent samples on the guest's clock, unasked */
	if (v->timing == TIMING_DETERMINISTIC)
		argv_add(a, "--agent-stream-ms=%d", v->interval_ms);
	if (*v->append)
		argv_add(a, "--append=%s", v->append);
	if (p->plugin[0]) {
		argv_add(a, "--plugin=%s", p->plugin);
		argv_add(a, "--plugin-opt=shm=%s/plugin.shm", rundir);
		/* under icount the delays would slow the host, not the guest;
		 * the machine model charges the guest instead */
		if (v->timing == TIMING_DETERMINISTIC && !bnb_machine_class(&m))
			argv_add(a, "--plugin-opt=delay=off");
		numawork_plugin_args(a, p->kernel, rundir);
		for (i = 0; i < v->plugin_opts.n; i++)
			argv_add(a, "--plugin-opt=%s", v->plugin_opts.v[i]);
	}
	/* [machine]: bnb-vm's options of the same names, model=auto resolved */
	bnb_machine_args(&m, BNB_MACHINE_VM, add_arg, a);
	cmd = guest_command(v, sp, p->start_delay_us);
	if (!cmd)
		return -1;
	argv_add(a, "--");
	argv_take(a, cmd);
	return 0;
}

/*
 * The convergence window's span, window_s=auto.  Wall mode keeps its 5 s:
 * five of the kernel's default 1 s scan periods, in runs of tens of guest
 * seconds.  Under deterministic timing a guest second is a few hardware
 * seconds of work, not a hundred, so runs last a few guest seconds and a
 * 5 s window would hold every hint since the start: the cumulative share,
 * which never says "converged".  There the window is the same five scan
 * periods, counted on the guest's clock as the scanner counts them: the
 * scan_period_min_ms the guest gets, scaled as scale_scan scales it.
 */
static double conv_window_s(const struct variant *v, const struct scan_plan *sp)
{
	double period_ms = KERNEL_SCAN_PERIOD_MIN_MS, set;
	char *end;

	if (!isnan(v->window_s))
		return v->window_s;
	if (v->timing != TIMING_DETERMINISTIC)
		return WINDOW_SCANS * KERNEL_SCAN_PERIOD_MIN_MS / 1000.0;
	for (int i = 0; i < v->n_sysctls; i++) {
		struct sysctl_target t;

		if (sysctl_target(v->sysctls[i].key, &t) ||
		    strcmp(t.sysctl, "kernel.numa_balancing_scan_period_min_ms"))
			continue;
		set = strtod(v->sysctls[i].value, &end);
		if (!*end && set > 0)
			period_ms = set;
	}
	if (sp && sp->scale.mode == SCALE_FIXED)
		period_ms *= sp->scale.factor;
	/* the plan's pass, as the guest's ticks make it */
	if (sp && sp->scale.mode == SCALE_HARDWARE)
		period_ms = sp->hw.guest_pass_ms;
	return fmin(WINDOW_SCANS * period_ms / 1000.0, WINDOW_S_MAX);
}

void collect_args(struct argv *a, const struct variant *v, const struct run_plan *p,
		  const struct scan_plan *sp, const char *tmp, const char *rundir)
{
	char dist[BNB_MAX_NODES * BNB_MAX_NODES * 4 + 64];

	topo_format_distance(&v->topo, dist, sizeof(dist));
	argv_add(a, "%s", p->collect);
	argv_add(a, "--socket=%s/agent.sock", tmp);
	argv_add(a, "--out=%s", rundir);
	argv_add(a, "--interval-ms=%d", v->interval_ms);
	argv_add(a, "--window-hints=%d", v->window_hints);
	argv_add(a, "--window-s=%g", conv_window_s(v, sp));
	argv_add(a, "--distance=%s", dist);
	if (p->plugin[0])
		argv_add(a, "--plugin-shm=%s/plugin.shm", rundir);
	/*
	 * An interval of guest time takes 10-30x as long on the host there,
	 * and a boot several times that on a loaded host (half of it the
	 * kernel's 100 ms busy-wait calibrating the APIC timer, over 100 M
	 * instructions): the launcher's own limit is what catches a guest
	 * that never comes up.
	 */
	if (v->timing == TIMING_DETERMINISTIC) {
		argv_add(a, "--stream");
		argv_add(a, "--stall-timeout-ms=120000");
		/* the collector waits at most an hour */
		argv_add(a, "--start-timeout-ms=%d", p->time_limit > 3600 ? 3600000 :
			 p->time_limit * 1000);
	}
}

struct status {
	const char *state;	/* ok | failed | incomplete | running */
	char reason[512];
	const char *latency;
	char latency_why[512];	/* why not emulated although the plugin ran */
	double host_rate;	/* the workload's native rate, NAN if not measured */
	char dilation_why[512];	/* why not */
	int vm_exit;
	int stalls;		/* the kernel's stall reports (bnb-vm's result) */
	int warnings;		/* the kernel's warnings (bnb-vm's result), -1 unknown */
	double elapsed_s;
};

static int write_status(const char *rundir, const struct status *s)
{
	char path[PATH_MAX + 16], tmp[PATH_MAX + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/status", rundir);
	snprintf(tmp, sizeof(tmp), "%s/status.tmp", rundir);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "status=%s\nreason=%s\nlatency=%s\nlatency_why=%s\nvm_exit=%d\nelapsed_s=%.1f\n"
		"host_rate=%.6g\ndilation_why=%s\nstalls=%d\nwarnings=%d\n", s->state, s->reason,
		s->latency, s->latency_why, s->vm_exit, s->elapsed_s, s->host_rate, s->dilation_why,
		s->stalls, s->warnings);
	if (fclose(f))
		return -1;
	return rename(tmp, path);
}

/* Whether the collector's summary.json PATH says it ended cleanly with no sample. */
static bool no_sample(const char *path)
{
	struct json_object *root = json_object_from_file(path), *v;
	bool none = false;

	if (root && json_object_object_get_ex(root, "samples", &v) &&
	    json_object_get_int64(v) == 0 && json_object_object_get_ex(root, "end", &v))
		none = !strcmp(json_object_get_string(v), "agent-gone");
	if (root)
		json_object_put(root);
	return none;
}

/*
 * Why the collector's files cannot be trusted, or NULL. It ends by itself
 * once the guest is gone; a nonzero exit means no sample, a stalled
 * agent or a write error: counters from such a series would be silently
 * short, so the run fails instead.
 */
static const char *stop_collector(pid_t pid, const char *rundir, bool guest_ran)
{
	char path[PATH_MAX + 16];
	enum stop_cause killed = STOP_NONE;
	double t = runner_now();
	int wstatus;

	/* without a guest it would wait for the agent's socket in vain */
	if (!guest_ran)
		kill(-pid, SIGTERM);
	wstatus = runner_wait(pid, t, t + COLLECT_GRACE_S, NULL, NULL, &killed);
	snprintf(path, sizeof(path), "%s/summary.json", rundir);
	if (access(path, R_OK))
		return "collector wrote no summary.json";
	if (!killed && guest_ran && no_sample(path))
		return "the collector took no sample: the guest ended before its first one "
		       "(a workload shorter than one interval_ms: lengthen it, or lower "
		       "interval_ms)";
	if (killed || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus))
		return "collector ended without a complete series";
	return NULL;
}

/* bnb-vm's last "bnb-vm: " line in RUNDIR/vm.log into WHY, printable; "" if none. */
static void last_vm_error(const char *rundir, char *why, size_t len)
{
	char path[PATH_MAX + 16], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/vm.log", rundir);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "bnb-vm: ", 8)) {
			line[strcspn(line, "\n")] = 0;
			printable(line + 8, why, len);
		}
	if (f)
		fclose(f);
}

/*
 * The run's verdict. A project workload must print its '# summary
 * status=ok' line; any other command succeeds when it exits 0 and its
 * extractor finds its metrics (O). COLLECT_WHY: why the collector's
 * series cannot be trusted, or NULL.
 */
static void judge(const char *rundir, int wstatus, enum stop_cause killed,
		  const struct outcome *o, const char *collect_why, struct status *s)
{
	char path[PATH_MAX * 2], vm_why[400], full[256], why[256];
	struct wl_summary wl;
	int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;

	s->vm_exit = code;
	snprintf(path, sizeof(path), "%s/result", rundir);
	if (results_kv_get(path, "reason", vm_why, sizeof(vm_why)))
		vm_why[0] = '\0';
	/* a usage error ends bnb-vm before its result file: its last word is in vm.log */
	if (!vm_why[0] && code == VM_USAGE)
		last_vm_error(rundir, vm_why, sizeof(vm_why));
	snprintf(path, sizeof(path), "%s/out.log", rundir);
	wl_scan(path, &wl);
	s->state = "failed";
	if (runner_interrupted) {
		s->state = "incomplete";
		snprintf(s->reason, sizeof(s->reason), "interrupted by signal %d", (int)runner_interrupted);
	} else if (killed == STOP_DISK_FULL) {
		snprintf(s->reason, sizeof(s->reason), "%s: the run was stopped, its files would "
			 "be cut short", write_errstr(rundir, ENOSPC, full, sizeof(full)));
	} else if (o->write_error[0]) {
		snprintf(s->reason, sizeof(s->reason), "%s", o->write_error);
	} else if (killed) {
		snprintf(s->reason, sizeof(s->reason), "runner time limit exceeded (launcher did not stop)");
	} else if (o->boot_error[0]) {
		snprintf(s->reason, sizeof(s->reason), "%s", o->boot_error);
	} else if (wl.sysctl_error[0]) {
		snprintf(s->reason, sizeof(s->reason), "sysctl %s", wl.sysctl_error);
	} else if (o->monitor_error[0]) {
		snprintf(s->reason, sizeof(s->reason), "monitor could not start: %.400s",
			 o->monitor_error);
	} else if (code < 0 || code >= VM_N_STATUS) {
		snprintf(s->reason, sizeof(s->reason), "launcher ended abnormally (status %d)", wstatus);
	} else if (code == VM_TIMEOUT && !strncmp(vm_why, "no end within", 13)) {
		/* bnb-vm's --timeout is the variant's time_limit */
		snprintf(s->reason, sizeof(s->reason), "time_limit reached (bnb-vm exit %d): "
			 "%.400s; raise time_limit if the workload needs longer", code, vm_why);
	} else if (code != VM_OK) {
		snprintf(s->reason, sizeof(s->reason), "%s (bnb-vm exit %d)%s%.400s",
			 vm_status_meaning(code), code, vm_why[0] ? ": " : "", vm_why);
	} else if (o->project && (!wl.found || !wl.ok)) {
		snprintf(s->reason, sizeof(s->reason), "workload printed no '# summary status=ok' line");
	} else if (o->project && summary_refusal(&wl, true, why, sizeof(why))) {
		snprintf(s->reason, sizeof(s->reason), "workload's summary refused: %s", why);
	} else if (!o->project && !o->found) {
		snprintf(s->reason, sizeof(s->reason), "%s", o->why);
	} else if (collect_why) {
		snprintf(s->reason, sizeof(s->reason), "%s (see collect.log)", collect_why);
	} else {
		s->state = "ok";
	}
}

/*
 * On the guest's own clock (deterministic timing) a stall is the kernel's
 * and fails the run; on the host's clock a loaded host can starve a vCPU
 * thread into one, so an ok run stays ok and its reason says so, which the
 * progress line and the report's table of runs show.
 */
const char *stall_verdict(const char *result, const struct variant *v, const char *state,
			  int *stalls, char *reason, size_t len)
{
	char n[16], line[400], err[64];

	*stalls = 0;
	if (results_kv_get(result, "stalls", n, sizeof(n)) ||
	    parse_int(n, 0, INT_MAX, stalls, err, sizeof(err)) || !*stalls)
		return state;
	if (results_kv_get(result, "stall", line, sizeof(line)))
		line[0] = '\0';
	if (strcmp(state, "ok"))
		return state;
	if (v->timing == TIMING_DETERMINISTIC) {
		snprintf(reason, len, "the kernel stalled on the guest's own clock "
			 "(%d report(s)): %s", *stalls, line);
		return "failed";
	}
	snprintf(reason, len, "flagged: the kernel reported %d stall(s), which a loaded host "
		 "can cause under wall timing: %s", *stalls, line);
	return state;
}

/* What bnb-vm did with KVM, from its result file: the label follows the facts. */
static void kvm_verdict(const char *rundir, struct status *s)
{
	char path[PATH_MAX + 16], accel[16], bound[16];

	snprintf(path, sizeof(path), "%s/result", rundir);
	if (results_kv_get(path, "accel", accel, sizeof(accel)) ||
	    results_kv_get(path, "host_bound", bound, sizeof(bound)))
		return;		/* it did not get that far */
	if (strcmp(accel, "kvm")) {
		s->latency = "uniform";
		snprintf(s->latency_why, sizeof(s->latency_why),
			 "bnb-vm fell back to TCG (the KVM probe boot failed, see vm.log)");
	} else if (strcmp(bound, "1")) {
		s->latency = LATENCY_UNIFORM_KVM;
	} else {
		s->latency = "real";
	}
}

/*
 * bnb-vm and QEMU put unix sockets into their run folder, and a socket's
 * path holds at most 107 bytes, which a run folder's path can exceed. So
 * they get TMP/r, a symlink to the run folder (RUNDIR, absolute): every
 * file they write lands in the run folder from the start, and a runner
 * killed outright leaves nothing of the run in /tmp but that link, which
 * the next run removes (sweep_short_dirs()).
 */
#define SHORT_DIR_PREFIX "bnb-run-"

/*
 * The short folders of runners killed outright (SIGKILL, the OOM killer),
 * which could not remove theirs: ours, and their link's run folder no
 * longer locked (a run holds its lock while its link exists), or gone.
 */
static void sweep_short_dirs(void)
{
	char path[PATH_MAX], target[PATH_MAX], lock[PATH_MAX + 16];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir("/tmp");
	ssize_t n;

	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, SHORT_DIR_PREFIX, strlen(SHORT_DIR_PREFIX)))
			continue;
		snprintf(path, sizeof(path), "/tmp/%s/r", de->d_name);
		if (lstat(path, &st) || !S_ISLNK(st.st_mode) || st.st_uid != getuid())
			continue;
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		snprintf(lock, sizeof(lock), "%s/" LOCK_FILE, target);
		if (lock_holder(lock))
			continue;	/* a live run's */
		unlink(path);
		snprintf(path, sizeof(path), "/tmp/%s", de->d_name);
		rmdir(path);
	}
	if (d)
		closedir(d);
}

static int short_run_dir(const char *rundir, char *tmp, size_t len, char *link, size_t linklen)
{
	sweep_short_dirs();
	snprintf(tmp, len, "/tmp/" SHORT_DIR_PREFIX "XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	snprintf(link, linklen, "%s/r", tmp);
	if (!symlink(rundir, link))
		return 0;
	rmdir(tmp);
	return -1;
}

static void remove_short_dir(const char *tmp, const char *rundir)
{
	static const char *const leftovers[] = { "agent.sock", "qmp.sock", "cmd" };
	char path[PATH_MAX * 2];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(leftovers); i++) {
		snprintf(path, sizeof(path), "%s/%s", rundir, leftovers[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/r", tmp);
	unlink(path);
	rmdir(tmp);
}

/* The CSV part of the guest's output, as workload.csv; O notes a failed write. */
static void extract_csv(const char *rundir, struct outcome *o)
{
	char from[PATH_MAX + 32], to[PATH_MAX + 32], why[256];

	snprintf(from, sizeof(from), "%s/out.log", rundir);
	snprintf(to, sizeof(to), "%s/workload.csv", rundir);
	if (!wl_extract_csv(from, to) || errno == ENOENT || o->write_error[0])
		return;
	snprintf(o->write_error, sizeof(o->write_error), "cannot write workload.csv: %s",
		 write_errstr(to, errno, why, sizeof(why)));
}

/*
 * The run's end goes on record: the space kept back while the guest ran
 * is given back first, so a disk the guest filled still takes the status.
 */
static int finish(const char *rundir, const struct job *j, struct status *s, double start)
{
	char why[256];

	s->elapsed_s = runner_now() - start;
	space_release(rundir);
	if (write_status(rundir, s)) {
		fprintf(stderr, "bnb-run: %s rep %d: cannot record its status in %s/status: %s\n",
			j->variant, j->rep, rundir, write_errstr(rundir, errno, why, sizeof(why)));
		if (!strcmp(s->state, "ok"))
			s->state = "failed";
	}
	printf("[%d/%d] %s rep %d: %s after %.0f s%s%s\n", j->id, j->total, j->variant, j->rep,
	       s->state, s->elapsed_s, s->reason[0] ? ": " : "", s->reason);
	fflush(stdout);
	if (!strcmp(s->state, "ok"))
		return 0;
	return strcmp(s->state, "incomplete") ? 1 : 130;
}

/*
 * A kernel WARNING fails nothing (it need not touch what was measured),
 * but whoever reads the figures must know of it: the status file, the
 * report's table of runs and summary.json count them, and this says so
 * once per run, as it ends.
 */
void job_warnings(const char *rundir, const struct job *j, int warnings)
{
	if (warnings <= 0)
		return;
	fprintf(stderr, "bnb-run: %s rep %d: the guest kernel reported %d warning(s); "
		"see %s/console.log\n", j->variant, j->rep, warnings, rundir);
}

/*
 * A run with balancing on whose scanner changed no PTE measured no
 * balancing (a workload shorter than the scan delay, or the 2012 delay
 * waiting for a task on a second node), yet its figures go into on/off
 * like any other run's: say so as it ends, as the report's notes do.
 */
static void job_unscanned(const char *rundir, const struct job *j, const struct variant *v,
			  const struct status *s)
{
	struct json_object *root, *counters, *pte;
	char path[PATH_MAX * 2];

	if (!v->balancing || strcmp(s->state, "ok"))
		return;
	snprintf(path, sizeof(path), "%s/summary.json", rundir);
	root = json_object_from_file(path);
	if (root && json_object_object_get_ex(root, "counters", &counters) &&
	    json_object_object_get_ex(counters, "numa_pte_updates", &pte) &&
	    json_object_is_type(pte, json_type_int) && json_object_get_int64(pte) == 0)
		fprintf(stderr, "bnb-run: %s rep %d: balancing was on but the scanner changed "
			"no PTE: this run measured no balancing\n", j->variant, j->rep);
	json_object_put(root);
}

/* Whether bnb-vm's guest got as far as its command (result boot_ms). */
static bool guest_ran(const char *rundir)
{
	char path[PATH_MAX + 16], ms[32];

	snprintf(path, sizeof(path), "%s/result", rundir);
	return !results_kv_get(path, "boot_ms", ms, sizeof(ms)) && strcmp(ms, "-1");
}

static int launch(const struct variant *v, const struct run_plan *p,
		  const struct scan_plan *sp, const char *rundir, const struct job *j,
		  struct status *s, double start)
{
	struct argv vm = { 0 }, col = { 0 };
	char tmp[64], link[80], log[PATH_MAX * 2];
	pid_t vm_pid, col_pid;
	const char *collect_why;
	enum stop_cause killed = STOP_NONE;
	struct json_object *prov;
	static struct outcome o;
	int wstatus;

	if (short_run_dir(rundir, tmp, sizeof(tmp), link, sizeof(link))) {
		snprintf(s->reason, sizeof(s->reason), "a socket folder in /tmp: %s", strerror(errno));
		return -1;
	}
	prov = prov_start(p->kernel);
	collect_args(&col, v, p, sp, link, rundir);
	if (vm_args(&vm, v, p, sp, link, rundir)) {
		snprintf(s->reason, sizeof(s->reason), "out of memory building the guest command");
		argv_free(&vm);
		argv_free(&col);
		json_object_put(prov);
		remove_short_dir(tmp, rundir);
		return -1;
	}
	snprintf(log, sizeof(log), "%s/collect.log", rundir);
	col_pid = runner_spawn(col.v, log);
	snprintf(log, sizeof(log), "%s/vm.log", rundir);
	vm_pid = runner_spawn(vm.v, log);
	wstatus = runner_wait(vm_pid, start, start + p->time_limit + WATCHDOG_SLACK_S, j,
			       rundir, &killed);
	collect_why = stop_collector(col_pid, rundir, guest_ran(rundir));
	remove_short_dir(tmp, rundir);
	space_release(rundir);
	memset(&o, 0, sizeof(o));
	outcome_collect(rundir, v->workload, v->metrics, prov, &o);
	extract_csv(rundir, &o);
	judge(rundir, wstatus, killed, &o, collect_why, s);
	snprintf(log, sizeof(log), "%s/result", rundir);
	s->state = stall_verdict(log, v, s->state, &s->stalls, s->reason, sizeof(s->reason));
	s->warnings = vm_warnings(log);
	job_warnings(rundir, j, s->warnings);
	job_unscanned(rundir, j, v, s);
	if (p->plugin[0] && !strcmp(p->latency, "emulated")) {
		char shm[PATH_MAX * 2];

		snprintf(shm, sizeof(shm), "%s/plugin.shm", rundir);
		s->latency = latency_verdict(shm, s->latency_why, sizeof(s->latency_why));
	}
	if (v->accel == ACCEL_KVM)
		kvm_verdict(rundir, s);
	argv_free(&vm);
	argv_free(&col);
	return 0;
}

/* hw_insn_ps= among the plugin options (checked when read), else its default. */
static unsigned long hw_insn_ps(const struct variant *v)
{
	static const char key[] = "hw_insn_ps=";

	for (int i = 0; i < v->plugin_opts.n; i++)
		if (!strncmp(v->plugin_opts.v[i], key, strlen(key)))
			return strtoul(v->plugin_opts.v[i] + strlen(key), NULL, 10);
	return BNB_TK_DEF_HW_INSN_PS;
}

/*
 * The run's scale_scan; auto needs the host rate measured, except under
 * deterministic timing, where D is set by the configuration and does not
 * vary: auto is then that D.
 */
static int plan_scan(const struct variant *v, const struct run_plan *p, struct scan_plan *sp,
		     double rate, const char *free_line, const char *host_why,
		     char *why, size_t whylen)
{
	const char *key;

	sp->scale = v->scale_scan;
	sp->host_rate = rate;
	sp->free_line = free_line;
	/* checked when the experiment was read; a failure here is a bug */
	if (sp->scale.mode == SCALE_HARDWARE)
		return scale_plan_variant(v, &sp->hw, &key, why, whylen);
	if (sp->scale.mode == SCALE_AUTO && v->timing == TIMING_DETERMINISTIC) {
		sp->scale.mode = SCALE_FIXED;
		sp->scale.factor = icount_dilation(&v->machine, v->icount_shift, p->plugin[0],
						   hw_insn_ps(v));
		return 0;
	}
	if (sp->scale.mode != SCALE_AUTO || !isnan(rate))
		return 0;
	snprintf(why, whylen, "scale_scan=auto needs the dilation, not measured: %.400s", host_why);
	return -1;
}

/* Run job J in RUNDIR, which this process has locked. */
static int run_locked(const char *dir, const struct variant *v, const char *basedir,
		      const struct job *j, const char *rundir)
{
	struct status s = { .state = "running", .latency = "unknown", .warnings = -1 };
	char free_line[1024] = "", why[256], rate[256];
	struct scan_plan sp = { 0 };
	struct run_plan p;
	double start = runner_now();

	if (plan_run(v, basedir, &p, s.reason, sizeof(s.reason))) {
		s.state = "failed";
		return finish(rundir, j, &s, start);
	}
	if (v->start_jitter)
		p.start_delay_us = start_delay_us(j->rep);
	s.latency = p.latency;
	snprintf(s.latency_why, sizeof(s.latency_why), "%s", p.latency_why);
	if (space_reserve(rundir)) {
		s.state = "failed";
		snprintf(s.reason, sizeof(s.reason), "%s: a run keeps %d KiB free to record its end, "
			 "and nothing ran", write_errstr(rundir, errno, why, sizeof(why)),
			 RESERVE_BYTES / 1024);
		return finish(rundir, j, &s, start);
	}
	s.host_rate = host_rate(dir, v, p.time_limit, free_line, sizeof(free_line),
				s.dilation_why, sizeof(s.dilation_why));
	if (plan_scan(v, &p, &sp, s.host_rate, free_line, s.dilation_why, s.reason,
		      sizeof(s.reason))) {
		s.state = "failed";
		return finish(rundir, j, &s, start);
	}
	if (write_status(rundir, &s)) {
		s.state = "failed";
		snprintf(s.reason, sizeof(s.reason), "cannot write the status file: %s",
			 write_errstr(rundir, errno, why, sizeof(why)));
		return finish(rundir, j, &s, start);
	}
	/* an emulated latency is only a plan until the plugin's verdict; a
	 * uniform one says what it means for on against off */
	if (isnan(s.host_rate))
		snprintf(rate, sizeof(rate), "no host rate: %.200s",
			 s.dilation_why[0] ? s.dilation_why : "not measured");
	else
		snprintf(rate, sizeof(rate), "host rate %.6g", s.host_rate);
	printf("[%d/%d] %s rep %d: started (latency %s%s%s%s%s, %s)\n", j->id,
	       j->total, j->variant, j->rep, p.latency,
	       p.plugin[0] && !strcmp(p.latency, "emulated") ? " if the map check passes" : "",
	       latency_free(p.latency) ? ": remote memory costs nothing" : "",
	       latency_free(p.latency) && p.latency_why[0] ? " here, " : "",
	       latency_free(p.latency) ? p.latency_why : "", rate);
	fflush(stdout);
	if (launch(v, &p, &sp, rundir, j, &s, runner_now()))
		s.state = "failed";
	return finish(rundir, j, &s, start);
}

/* fresh_attempt()'s answer when the run had ended ok: kept, nothing to do */
#define RUN_KEPT (-2)

/*
 * The lock FD of RUNDIR, held, for a fresh attempt: an earlier one that
 * ended ok is kept and not run again (a job line run twice, a cluster's
 * requeued task: nothing lost and nothing redone), RUN_KEPT with the lock
 * released; any other is moved aside to repN.prev-K, as --resume does,
 * and the fresh folder locked. -1 with ERR when that cannot be done.
 */
static int fresh_attempt(const char *rundir, const struct job *j, int fd, char *err,
			 size_t errlen)
{
	char path[PATH_MAX + 16], state[32], why[256];
	int fresh;

	snprintf(path, sizeof(path), "%s/status", rundir);
	if (access(path, F_OK))
		return fd;
	if (!results_kv_get(path, "status", state, sizeof(state)) && !strcmp(state, "ok")) {
		printf("bnb-run: %s rep %d already ended ok (%s): kept, not run again\n",
		       j->variant, j->rep, path);
		lock_release(fd);
		return RUN_KEPT;
	}
	/* moved with its lock held: a runner that opens the path now finds the new folder */
	if (move_aside(rundir) || mkdir_p(rundir, 0755)) {
		errf(err, errlen, "cannot move the earlier attempt aside: %s",
		     write_errstr(rundir, errno, why, sizeof(why)));
		lock_release(fd);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/" LOCK_FILE, rundir);
	fresh = lock_take(path, err, errlen);
	lock_release(fd);
	return fresh;
}

/*
 * A run folder is locked while its run is in progress, so that a second
 * runner (a --resume, or the same job line started twice) cannot boot
 * another guest into it or move it aside under the first.
 */
int run_job(const char *dir, const struct experiment *exp, const char *basedir,
	    const struct job *j)
{
	const struct variant *v = experiment_variant(exp, j->variant);
	char rundir[PATH_MAX], lock[PATH_MAX + 16], err[PATH_MAX + 128], *abs;
	int fd, rc;

	snprintf(rundir, sizeof(rundir), "%s/runs/%s/rep%d", dir, j->variant, j->rep);
	if (!v) {
		fprintf(stderr, "bnb-run: job %d: no variant '%s' in the experiment\n", j->id,
			j->variant);
		return 1;
	}
	if (mkdir_p(rundir, 0755)) {
		fprintf(stderr, "bnb-run: cannot create %s: %s\n", rundir,
			write_errstr(rundir, errno, err, sizeof(err)));
		return 1;
	}
	/* the launcher reaches it through a symlink from /tmp: absolute */
	abs = realpath(rundir, NULL);
	if (abs) {
		snprintf(rundir, sizeof(rundir), "%s", abs);
		free(abs);
	}
	snprintf(lock, sizeof(lock), "%s/" LOCK_FILE, rundir);
	fd = lock_take(lock, err, sizeof(err));
	if (fd >= 0)
		fd = fresh_attempt(rundir, j, fd, err, sizeof(err));
	if (fd == RUN_KEPT)
		return 0;
	if (fd < 0) {
		fprintf(stderr, "bnb-run: %s rep %d not run: %s\n", j->variant, j->rep, err);
		return 1;
	}
	rc = run_locked(dir, v, basedir, j, rundir);
	lock_release(fd);
	return rc;
}
