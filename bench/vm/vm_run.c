// SPDX-License-Identifier: GPL-2.0
/*
 * Run one guest: start QEMU with the console on a pipe, watch the console
 * for /init's markers and for kernel trouble, bound the whole boot by a
 * timeout (QMP quit, then SIGKILL), and record the outcome.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/signals.h"
#include "qmp.h"
#include "vm.h"

#define TAIL_LINES	20
#define LINE_MAX_LEN	1024
#define QUIT_GRACE_MS	3000
/* After the exit marker or a panic, QEMU should be gone within this. */
#define SETTLE_MS	15000

struct console {
	int log_fd;
	char line[LINE_MAX_LEN];
	size_t len;
	char tail[TAIL_LINES][LINE_MAX_LEN];
	int tail_next, tail_count;
};

struct outcome {
	bool ran, exited, panicked, timed_out, interrupted;
	bool mapcheck_failed;		/* /init said the plugin's map check failed */
	int exit_code, warnings, stalls;
	long boot_ms;
	char panic_line[LINE_MAX_LEN];
	char stall_line[LINE_MAX_LEN];	/* the first stall report */
};

static volatile sig_atomic_t stop_signal;


static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static void console_line(struct console *con, struct outcome *o, long start)
{
	enum console_event ev;
	int code;

	con->line[con->len] = '\0';
	if (con->len && con->line[con->len - 1] == '\r')
		con->line[--con->len] = '\0';
	snprintf(con->tail[con->tail_next], LINE_MAX_LEN, "%s", con->line);
	con->tail_next = (con->tail_next + 1) % TAIL_LINES;
	if (con->tail_count < TAIL_LINES)
		con->tail_count++;

	ev = console_classify(con->line, &code);
	switch (ev) {
	case CON_RUN:
		if (!o->ran)
			o->boot_ms = now_ms() - start;
		o->ran = true;
		break;
	case CON_EXIT:
		o->exited = true;
		o->exit_code = code;
		break;
	case CON_PANIC:
		if (!o->panicked)
			snprintf(o->panic_line, LINE_MAX_LEN, "%s", con->line);
		o->panicked = true;
		break;
	case CON_WARNING:
		o->warnings++;
		break;
	case CON_MAPCHECK_FAILED:
		o->mapcheck_failed = true;
		break;
	case CON_STALL:
		if (!o->stalls++)
			snprintf(o->stall_line, LINE_MAX_LEN, "%s", con->line);
		break;
	case CON_NONE:
		break;
	}
	con->len = 0;
}

/* Log every byte as it comes; classify whole lines. */
static void console_feed(struct console *con, struct outcome *o,
			 const char *buf, ssize_t n, long start)
{
	ssize_t i;

	if (write(con->log_fd, buf, n) != n)
		perror("bnb-vm: console log");
	for (i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			console_line(con, o, start);
			continue;
		}
		if (con->len < LINE_MAX_LEN - 1)
			con->line[con->len++] = buf[i];
	}
}

/*
 * The first line QEMU (or the plugin) wrote on its stderr, with anything
 * unprintable escaped, into BUF ("" when it said nothing): the reason a
 * QEMU that could not start gives, such as "Cannot allocate memory".
 */
static const char *qemu_said(const struct vm_config *c, char *buf, size_t len)
{
	char path[4096], line[LINE_MAX_LEN];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/qemu.log", c->run_dir);
	f = fopen(path, "r");
	while (f && !buf[0] && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		printable(line, buf, len);
	}
	if (f)
		fclose(f);
	return buf;
}

/* QEMU's own complaints (and the plugin's) go to qemu.log. */
static void print_qemu_log(const struct vm_config *c)
{
	char path[4096], line[LINE_MAX_LEN];
	int shown = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/qemu.log", c->run_dir);
	f = fopen(path, "r");
	if (!f)
		return;
	fprintf(stderr, "bnb-vm: QEMU said:\n");
	while (shown++ < TAIL_LINES * 2 && fgets(line, sizeof(line), f))
		fprintf(stderr, "  ! %s", line);
	fclose(f);
}

static void print_tail(const struct console *con)
{
	int i, idx;

	fprintf(stderr, "bnb-vm: last %d console lines:\n", con->tail_count);
	for (i = 0; i < con->tail_count; i++) {
		idx = (con->tail_next - con->tail_count + i + TAIL_LINES) % TAIL_LINES;
		fprintf(stderr, "  | %s\n", con->tail[idx]);
	}
}

/* Ask QEMU politely to quit over QMP; failures just lead to SIGKILL. */
static void qmp_quit(const char *run_dir)
{
	char buf[512];
	int fd = qmp_open(run_dir, 0);

	if (fd < 0)
		return;
	qmp_exec(fd, "{\"execute\":\"quit\"}", buf, sizeof(buf));
	close(fd);
}

/* Wait for the child up to ms; returns true when it is gone. */
static bool reap_within(pid_t pid, int *wstatus, long ms)
{
	long deadline = now_ms() + ms;

	do {
		if (waitpid(pid, wstatus, WNOHANG) == pid)
			return true;
		usleep(20000);
	} while (now_ms() < deadline);
	return false;
}

static void stop_qemu(const struct vm_config *c, pid_t pid, int *wstatus)
{
	qmp_quit(c->run_dir);
	if (reap_within(pid, wstatus, QUIT_GRACE_MS))
		return;
	kill(pid, SIGKILL);
	waitpid(pid, wstatus, 0);
}

static pid_t spawn_qemu(const struct vm_config *c, int *out_fd)
{
	struct argv args = { 0 };
	char path[4096];
	int pipefd[2], errfd, nullfd;
	pid_t pid, parent;

	qemu_build_args(c, &args);
	snprintf(path, sizeof(path), "%s/qemu.log", c->run_dir);
	errfd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (errfd < 0 || nullfd < 0 || pipe2(pipefd, O_CLOEXEC)) {
		perror("bnb-vm: qemu log or pipe");
		argv_free(&args);
		return -1;
	}
	parent = getpid();
	pid = fork();
	if (pid == 0) {
		/* QEMU must not outlive a launcher that was killed outright */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		dup2(nullfd, 0);
		dup2(pipefd[1], 1);
		dup2(errfd, 2);
		execvp(args.v[0], args.v);
		fprintf(stderr, "bnb-vm: cannot run %s: %s\n", args.v[0], strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	close(errfd);
	close(nullfd);
	argv_free(&args);
	if (pid < 0) {
		close(pipefd[0]);
		return -1;
	}
	*out_fd = pipefd[0];
	return pid;
}

/* The deadline that applies now: the boot timeout, or a short settle time. */
static long current_deadline(const struct outcome *o, long start, long timeout_ms,
			     long *settle_since)
{
	if ((o->exited || o->panicked) && !*settle_since)
		*settle_since = now_ms();
	if (*settle_since && *settle_since + SETTLE_MS < start + timeout_ms)
		return *settle_since + SETTLE_MS;
	return start + timeout_ms;
}

static void watch(const struct vm_config *c, pid_t pid, int fd,
		  struct console *con, struct outcome *o, int *wstatus)
{
	long start = now_ms(), settle_since = 0, deadline, left;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[4096];
	ssize_t n;
	int ready;

	for (;;) {
		deadline = current_deadline(o, start, c->timeout_s * 1000L, &settle_since);
		left = deadline - now_ms();
		if (stop_signal) {
			o->interrupted = true;
			break;
		}
		if (left <= 0) {
			o->timed_out = !o->exited && !o->panicked;
			break;
		}
		ready = poll(&p, 1, left);
		if (ready < 0 && errno != EINTR)
			break;
		if (ready <= 0)
			continue;	/* timed out or interrupted: check again */
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/*
			 * QEMU closed its stdout: it is exiting. A SIGTERM to our
			 * process group reaches QEMU too, and its hang-up can
			 * wake poll() before our handler's EINTR does.
			 */
			waitpid(pid, wstatus, 0);
			o->interrupted = stop_signal != 0;
			return;
		}
		console_feed(con, o, buf, n, start);
	}
	stop_qemu(c, pid, wstatus);
}

/*
 * A stall report says a CPU or task made no progress for seconds of guest
 * time. Under wall timing that is the host's clock, and a vCPU thread the
 * loaded host did not run for that long stalls a correct kernel: the run
 * is flagged (stalls=, stall=), not failed. Under deterministic timing the
 * guest's clock is its instruction count, which a starved host thread does
 * not advance: the stall is the kernel's own, a warning like a WARN_ON.
 */
static void judge_stalls(const struct vm_config *c, struct outcome *o)
{
	if (!o->stalls)
		return;
	if (c->timing == TIMING_DETERMINISTIC)
		o->warnings += o->stalls;
	fprintf(stderr, "bnb-vm: the kernel reported %d stall(s)%s; the first: %s\n", o->stalls,
		c->timing == TIMING_DETERMINISTIC ? " on the guest's own clock (counted as warnings)" :
		" (wall timing: a loaded host can cause them)", o->stall_line);
}

static enum vm_status classify(const struct vm_config *c, const struct outcome *o, int wstatus,
			       char *reason, size_t len)
{
	char said[LINE_MAX_LEN / 2];

	if (o->panicked) {
		snprintf(reason, len, "kernel trouble: %s", o->panic_line);
		return VM_PANIC;
	}
	if (o->interrupted) {
		snprintf(reason, len, "interrupted by signal %d", (int)stop_signal);
		return VM_TIMEOUT;
	}
	/* a hang or a command longer than the limit: from here one cannot tell */
	if (o->timed_out) {
		snprintf(reason, len, "no end within --timeout %d s: %s", c->timeout_s, o->ran ?
			 "the guest command did not finish (it hung, or needs longer)" :
			 "the guest did not reach its command");
		return VM_TIMEOUT;
	}
	if (o->exited && o->exit_code == 0) {
		snprintf(reason, len, "guest command exited 0");
		return VM_OK;
	}
	if (o->exited) {
		snprintf(reason, len, "guest command exited %d", o->exit_code);
		return VM_GUEST_FAILED;
	}
	snprintf(reason, len, "QEMU ended (%s %d) before the guest command finished%s%s",
		 WIFSIGNALED(wstatus) ? "signal" : "status",
		 WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : WEXITSTATUS(wstatus),
		 qemu_said(c, said, sizeof(said))[0] ? ": " : "", said);
	return VM_LAUNCH_ERROR;
}

/*
 * The plugin as QEMU loaded it: the build chosen for the emulator's plugin
 * API and the options after the topology, space-separated.
 */
static void write_plugin(const struct vm_config *c, char *text, size_t len)
{
	int i, n;

	if (!c->plugin) {
		snprintf(text, len, "plugin=none\n");
		return;
	}
	n = snprintf(text, len, "plugin=%s\n", c->plugin);
	if (c->emu && c->emu->project && n < (int)len)	/* known for our builds only */
		n += snprintf(text + n, len - n, "plugin_api=%d\n", c->emu->plugin_api);
	if (n < (int)len)
		n += snprintf(text + n, len - n, "plugin_opts=");
	for (i = 0; i < c->plugin_opts.n && n < (int)len; i++)
		n += snprintf(text + n, len - n, "%s%s", i ? " " : "", c->plugin_opts.v[i]);
	if (n < (int)len)
		snprintf(text + n, len - n, "%s\n", c->plugin_opts.n ? "" : "none");
}

static void write_result(const struct vm_config *c, enum vm_status st,
			 const struct outcome *o, const char *reason, long wall_ms,
			 const struct plugin_outcome *po)
{
	static const char *const timing_names[] = { "wall", "deterministic" };
	char path[4096], text[8192];
	int n;

	n = snprintf(text, sizeof(text),
		     "status=%s\nexit_code=%d\nboot_ms=%ld\nwall_ms=%ld\nwarnings=%d\n"
		     "stalls=%d\nstall=%s\n"
		     "interrupted=%d\naccel=%s\nhost_bound=%d\nreason=%s\ntiming=%s\n",
		     vm_status_word(st), o->exited ? o->exit_code : -1,
		     o->ran ? o->boot_ms : -1, wall_ms, o->warnings, o->stalls, o->stall_line,
		     o->interrupted,
		     c->accel == ACCEL_KVM ? "kvm" : "tcg", c->host != NULL, reason,
		     timing_names[c->timing]);
	if (c->timing == TIMING_DETERMINISTIC)
		n += snprintf(text + n, sizeof(text) - n, "icount_shift=%d\ninsn_ps=%llu\n",
			      c->icount_shift, (unsigned long long)c->insn_ps);
	n += snprintf(text + n, sizeof(text) - n, "model=%s\n", c->model ? c->model : "off");
	/* which emulator ran: path, version, cache key, patch series hash */
	if (c->emu && n < (int)sizeof(text))
		n += snprintf(text + n, sizeof(text) - n,
			      "qemu=%s\nqemu_version=%s\nqemu_key=%s\nqemu_patches=%s\n",
			      c->emu->path, c->emu->version, c->emu->key, c->emu->patch_hash);
	if (n < (int)sizeof(text))
		write_plugin(c, text + n, sizeof(text) - n);
	n = strlen(text);
	if (po)
		plugin_outcome_lines(po, text + n, sizeof(text) - n);
	snprintf(path, sizeof(path), "%s/result", c->run_dir);
	if (write_file(path, text))
		perror("bnb-vm: result");
}

static int write_cmd(const struct vm_config *c)
{
	char path[4096], *text;
	int ret;

	if (asprintf(&text, "%s\n", c->cmd) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/cmd", c->run_dir);
	ret = write_file(path, text);
	free(text);
	return ret;
}

static int open_console_log(const struct vm_config *c)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/console.log", c->run_dir);
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

/*
 * A guest started paused (-S): check the plugin's address map, pin its
 * vCPUs, or wait for the collector; then run.
 */
static int release_guest(const struct vm_config *c, pid_t qemu, char *reason, size_t len)
{
	char why[LINE_MAX_LEN], said[LINE_MAX_LEN / 2];
	bool held = c->host || vm_holds_for_collector(c);
	int rc;

	if (vm_checks_layout(c) && vm_check_layout(c, qemu, !held, why, sizeof(why)))
		return errf(reason, len, "%s%s%s", why,
			    qemu_said(c, said, sizeof(said))[0] ? ": " : "", said);
	if (c->host) {
		if (!vm_pin_and_start(c, why, sizeof(why)))
			return 0;
		return errf(reason, len, "KVM NUMA binding: %s", why);
	}
	if (!vm_holds_for_collector(c))
		return 0;
	rc = vm_start_when_collected(c, qemu, why, sizeof(why));
	if (rc)
		errf(reason, len, "%s%s%s", why, qemu_said(c, said, sizeof(said))[0] ? ": " : "",
		     said);
	return rc;
}

enum vm_status vm_run(const struct vm_config *c)
{
	struct console con = { 0 };
	struct outcome o = { .exit_code = -1 };
	struct plugin_outcome po = { .why = "no counters file (shm=)" };
	char reason[LINE_MAX_LEN + 64];
	int fd, wstatus = 0;
	enum vm_status st;
	long start;
	pid_t pid;

	if (write_cmd(c)) {
		fprintf(stderr, "bnb-vm: cannot write %s/cmd: %s\n", c->run_dir, strerror(errno));
		return VM_LAUNCH_ERROR;
	}
	con.log_fd = open_console_log(c);
	if (con.log_fd < 0) {
		fprintf(stderr, "bnb-vm: cannot write %s/console.log: %s\n",
			c->run_dir, strerror(errno));
		return VM_LAUNCH_ERROR;
	}
	catch_stop_signals(&stop_signal);
	signal(SIGPIPE, SIG_IGN);

	start = now_ms();
	pid = spawn_qemu(c, &fd);
	if (pid < 0) {
		close(con.log_fd);
		return VM_LAUNCH_ERROR;
	}
	if (release_guest(c, pid, reason, sizeof(reason))) {
		fprintf(stderr, "bnb-vm: %s\n", reason);
		stop_qemu(c, pid, &wstatus);
		close(fd);
		close(con.log_fd);
		write_result(c, VM_LAUNCH_ERROR, &o, reason, now_ms() - start, NULL);
		return VM_LAUNCH_ERROR;
	}
	watch(c, pid, fd, &con, &o, &wstatus);
	close(fd);
	if (con.len)
		console_line(&con, &o, start);
	close(con.log_fd);

	judge_stalls(c, &o);
	st = classify(c, &o, wstatus, reason, sizeof(reason));
	if (c->plugin) {
		if (vm_plugin_shm(c))
			plugin_outcome_read(vm_plugin_shm(c), &po);
		st = plugin_judge(&po, st, o.mapcheck_failed, reason, sizeof(reason));
	}
	write_result(c, st, &o, reason, now_ms() - start, c->plugin ? &po : NULL);
	if (st != VM_OK && st != VM_GUEST_FAILED) {
		fprintf(stderr, "bnb-vm: %s (run dir %s)\n", reason, c->run_dir);
		print_tail(&con);
		if (st == VM_LAUNCH_ERROR)
			print_qemu_log(c);
	} else if (st == VM_GUEST_FAILED) {
		fprintf(stderr, "bnb-vm: %s (output in %s/out.log)\n", reason, c->run_dir);
	}
	return st;
}
