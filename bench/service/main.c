// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-service: a server in the guest for the length of a load generator.
 *
 *   bnb-service --server CMD --ready CMD [--setup CMD] [--load CMD]
 *               [--user NAME] [--move NODE] [options] -- GENERATOR [ARG...]
 *
 * The phases, in order: SETUP (as the server's user: initdb), the server
 * (in a process group of its own, its output in DIR/server.log), READY
 * polled until it exits 0, LOAD (the data, not measured), the server's
 * threads moved to node NODE's CPUs (the data stays where it was first
 * touched: the misplaced case), then the generator, the measured phase,
 * between the plugin's WORK and WORK_END markers; then the server is
 * stopped. Every process of the server is appended to the agent's pid
 * file as it appears, so that its pages are followed. Placement is
 * numactl's, in the commands themselves. A server that does not answer
 * within --ready-timeout, or exits before the generator is done, fails
 * the run with the end of its log on stderr.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bnb_marker.h"
#include "lib/err.h"
#include "lib/opt.h"
#include "lib/path.h"
#include "lib/util.h"
#include "service.h"

#define LOG_LINES 20

struct opts {
	char *server, *ready, *setup, *load, *user, *dir, *pid_file;
	int ready_timeout_s, interval_ms, move, stop_timeout_s;
};

#define O(f) OPT_FIELD(struct opts, f)

static const struct opt_def options[] = {
	{ "server", OPT_STR, O(server), .flags = OPTF_REQUIRED | OPTF_NONEMPTY,
	  .metavar = "CMD", .help = "the server (sh -c), placed with numactl in CMD; its output "
	  "goes to DIR/server.log" },
	{ "ready", OPT_STR, O(ready), .flags = OPTF_REQUIRED | OPTF_NONEMPTY, .metavar = "CMD",
	  .help = "run every interval until it exits 0: the server answers (output in "
	  "DIR/ready.log)" },
	{ "setup", OPT_STR, O(setup), .metavar = "CMD",
	  .help = "before the server, as its user, in DIR (initdb)" },
	{ "load", OPT_STR, O(load), .metavar = "CMD",
	  .help = "once the server answers: its data, not measured (output in DIR/load.log)" },
	{ "user", OPT_STR, O(user), .metavar = "NAME",
	  .help = "the user SETUP and the server run as, made when the guest lacks it "
	  "(default root)" },
	{ "move", OPT_INT, O(move), .min = -1, .max = 63, .def = "-1", .metavar = "NODE",
	  .help = "after LOAD, move every thread of the server to node NODE's CPUs (-1: stay)" },
	{ "dir", OPT_STR, O(dir), .def = "/tmp/bnb-service", .metavar = "DIR",
	  .help = "the server's working folder, owned by its user" },
	{ "ready-timeout", OPT_INT, O(ready_timeout_s), .min = 1, .max = 86400, .def = "60",
	  .help = "guest seconds the server has to answer READY" },
	{ "interval-ms", OPT_INT, O(interval_ms), .min = 10, .max = 60000, .def = "100",
	  .help = "between two READY tries, and two looks for the server's new processes" },
	{ "stop-timeout", OPT_INT, O(stop_timeout_s), .min = 1, .max = 3600, .def = "10",
	  .help = "seconds from SIGTERM to SIGKILL when the server is stopped" },
	{ "pid-file", OPT_STR, O(pid_file), .def = "/run/bnb/pids", .metavar = "FILE",
	  .help = "where the server's pids are appended for the agent" },
};

static const struct opt_tool tool = {
	.synopsis = "bnb-service [options] -- GENERATOR [ARG...]",
	.about = "Runs a server for the length of its load generator: setup, server, ready,\n"
		 "load, move, the generator (measured), stop.\n",
	.opts = options,
	.n = ARRAY_SIZE(options),
	.epilog = "Exit status: the generator's; 90 setup failed, 91 the server did not answer "
		  "in time,\n92 it exited early, 93 load failed, 94 it could not be moved, "
		  "2 bad usage.\n",
};

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

static struct opts o;
static struct svc_procs procs;
static char log_path[PATH_MAX], load_log[PATH_MAX], ready_log[PATH_MAX];
static uid_t uid = (uid_t)-1;
static gid_t gid = (gid_t)-1;

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The end of LOG on stderr after WHY, and status CODE. */
static int fail(int code, const char *log, const char *why)
{
	fprintf(stderr, "bnb-service: %s; the end of %s:\n", why, log);
	svc_tail(stderr, log, LOG_LINES);
	return code;
}

/* The server's folder, its user's, and the log in it. */
static int prepare(void)
{
	char err[ERRLEN];

	if (o.user && svc_user(o.user, &uid, &gid, err, sizeof(err))) {
		prog_error("%s", err);
		return SVC_USAGE;
	}
	if (mkdir_p(o.dir, 0755) || (o.user && chown(o.dir, uid, gid))) {
		prog_error("%s: %s", o.dir, strerror(errno));
		return SVC_USAGE;
	}
	if (path_join(log_path, sizeof(log_path), o.dir, "server.log") ||
	    path_join(load_log, sizeof(load_log), o.dir, "load.log") ||
	    path_join(ready_log, sizeof(ready_log), o.dir, "ready.log")) {
		prog_error("--dir %s: too long", o.dir);
		return SVC_USAGE;
	}
	return 0;
}

/* Has the server's leader exited? Its status then in *STATUS. */
static bool server_gone(int *status)
{
	return waitpid(procs.pid[0], status, WNOHANG) == procs.pid[0];
}

static int start_server(double *ready_s)
{
	double t0 = svc_now(), deadline = t0 + o.ready_timeout_s;
	char why[128];
	int status;

	procs.pid_file = o.pid_file;
	procs.pid[0] = svc_spawn(o.server, uid, gid, o.dir, log_path, true);
	if (procs.pid[0] < 0)
		return fail(SVC_SERVER_DIED, log_path, "cannot start the server");
	procs.n = 1;
	svc_follow(&procs);	/* its children; itself first */
	if (o.pid_file) {
		FILE *f = fopen(o.pid_file, "a");

		if (f) {
			fprintf(f, "%d\n", (int)procs.pid[0]);
			fclose(f);
		}
	}
	while (!stop_sig) {
		if (server_gone(&status)) {
			snprintf(why, sizeof(why), "the server exited (status %d) before it "
				 "answered", svc_exit_code(status));
			procs.pid[0] = 0;
			return fail(SVC_SERVER_DIED, log_path, why);
		}
		if (svc_exit_code(svc_run(o.ready, (uid_t)-1, (gid_t)-1, o.dir, ready_log)) == 0)
			break;
		svc_follow(&procs);
		if (svc_now() > deadline) {
			snprintf(why, sizeof(why), "the server did not answer '%.60s' within %d s",
				 o.ready, o.ready_timeout_s);
			return fail(SVC_NOT_READY, log_path, why);
		}
		sleep_ms(o.interval_ms);
	}
	*ready_s = svc_now() - t0;
	return stop_sig ? 128 + stop_sig : 0;
}

/* SIGTERM to the server's group, SIGKILL after --stop-timeout. */
static void stop_server(void)
{
	double deadline = svc_now() + o.stop_timeout_s;
	int status;

	if (procs.pid[0] <= 0)
		return;
	kill(-procs.pid[0], SIGTERM);
	while (svc_now() < deadline && !server_gone(&status))
		sleep_ms(o.interval_ms);
	kill(-procs.pid[0], SIGKILL);
	while (waitpid(-procs.pid[0], &status, 0) > 0 || errno == EINTR)
		;
}

/* The measured phase: the generator, the server's new processes followed. */
static int run_generator(char **argv, bool *server_died)
{
	int status = 0;
	pid_t gen;

	fflush(stdout);
	bnb_mark_work();
	gen = fork();
	if (!gen) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[0], argv);
		fprintf(stderr, "bnb-service: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (gen < 0)
		return 127;
	while (waitpid(gen, &status, WNOHANG) != gen) {
		int s;

		if (stop_sig)
			kill(gen, stop_sig);
		if (!*server_died && server_gone(&s)) {
			*server_died = true;
			procs.pid[0] = 0;
		}
		svc_follow(&procs);
		sleep_ms(o.interval_ms);
	}
	bnb_mark_work_end();
	return svc_exit_code(status);
}

static int serve(char **argv)
{
	double ready_s = 0, load_s = 0, t;
	bool died = false;
	char err[ERRLEN];
	int rc;

	if (o.setup && (rc = svc_exit_code(svc_run(o.setup, uid, gid, o.dir, log_path))))
		return fail(SVC_SETUP_FAILED, log_path, "--setup failed");
	rc = start_server(&ready_s);
	if (rc)
		return rc;
	t = svc_now();
	if (o.load && svc_exit_code(svc_run(o.load, (uid_t)-1, (gid_t)-1, o.dir, load_log)))
		return fail(SVC_LOAD_FAILED, load_log, "--load failed");
	load_s = svc_now() - t;
	svc_follow(&procs);
	if (o.move >= 0 && svc_move(&procs, o.move, err, sizeof(err))) {
		prog_error("%s", err);
		return SVC_MOVE_FAILED;
	}
	printf("# bnb-service: ready_s=%.3f load_s=%.3f pids=%d move=%d\n", ready_s, load_s,
	       procs.n, o.move);
	rc = run_generator(argv, &died);
	if (died)
		return fail(SVC_SERVER_DIED, log_path, "the server exited while the generator ran");
	printf("# bnb-service: pids=%d\n", procs.n);
	return rc;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_stop };
	int first, rc;

	first = opt_tool_main(&tool, argc, argv, &o, true);
	if (first < 0)
		return SVC_USAGE;
	if (first >= argc || !o.server || !o.ready) {
		prog_error("%s", first >= argc ? "no load generator given (after --)" :
			   "--server and --ready are required");
		return SVC_USAGE;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = prepare();
	if (!rc)
		rc = serve(argv + first);
	stop_server();
	fflush(stdout);
	opt_free(options, ARRAY_SIZE(options), &o);
	return rc;
}
