// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-monitor: the guest side of a run's workload. It starts the command,
 * times it on CLOCK_MONOTONIC (the "elapsed guest time" of any command),
 * runs the monitors chosen for the run while it executes, and afterwards
 * prints what the runner reads back (bench/include/bnb_monitor.h).
 *
 *   bnb-monitor [--monitors trace,sched,perfstat] [--interval-ms 1000]
 *               [--perf-events LIST] [--provenance] [--out DIR] -- CMD [ARG...]
 *
 * The command's own stdout and stderr are untouched and go where ours go;
 * our lines follow once it has exited, after a newline of their own. The exit status is the command's
 * (128 + N when signal N ended it), 125 when the monitors could not start.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bnb_marker.h"
#include "lib/err.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/path.h"
#include "lib/util.h"
#include "monitor.h"

#define EXIT_MONITOR 125
#define DEFAULT_EVENTS "task-clock,context-switches,cpu-migrations,page-faults," \
	"migrate:mm_migrate_pages,sched:sched_move_numa,sched:sched_swap_numa"

struct opts {
	char *monitors;
	bool trace, sched, perfstat, provenance, mark_work;
	int interval_ms, buffer_kb;
	char *out, *events, *perf;
	const char *proc, *tracefs, *debugfs, *sysfs;
};

struct monitors {
	struct trace_mon *trace;
	struct sched_mon *sched;
	struct perf_mon *perf;
};

/* The list LIST ("trace,sched", "none") names monitor NAME; -1: an unknown one. */
static int names(const char *list, const char *name, char *err, size_t errlen)
{
	char buf[256], *tok, *save = NULL;
	int found = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		if (strcmp(tok, BNB_MON_TRACE) && strcmp(tok, BNB_MON_SCHED) &&
		    strcmp(tok, BNB_MON_PERFSTAT) && strcmp(tok, "none"))
			return errf(err, errlen, "unknown monitor '%s' (trace, sched, perfstat)", tok);
		found |= name && !strcmp(tok, name);
	}
	return found;
}

/* The monitors option's check; the table's OPT_STR keeps the copy. */
static int check_monitors(const struct opt_def *d, const char *value, void *field,
			  char *err, size_t errlen)
{
	return names(value, NULL, err, errlen) < 0 ? -1 : 0;
}

#define O(f) OPT_FIELD(struct opts, f)

static const struct opt_def options[] = {
	{ "monitors", OPT_STR, O(monitors), .parse = check_monitors,
	  .metavar = "LIST",
	  .def = "none", .help = "comma separated: trace (NUMA tracepoints via tracefs), sched "
	  "(/proc/PID/sched of COMMAND's tasks), perfstat (perf stat -I)" },
	{ "interval-ms", OPT_INT, O(interval_ms), .min = 10, .max = 3600000, .def = "1000",
	  .help = "sampling interval" },
	{ "perf-events", OPT_STR, O(events), .metavar = "LIST", .def = DEFAULT_EVENTS,
	  .help = "perf stat events" },
	{ "perf", OPT_STR, O(perf), .metavar = "PATH", .def = "perf", .help = "perf binary" },
	{ "trace-buffer-kb", OPT_INT, O(buffer_kb), .min = 4, .max = 1048576, .def = "2048",
	  .help = "tracefs ring buffer per CPU" },
	{ "mark-work", OPT_FLAG, O(mark_work),
	  .help = "COMMAND is all measured work: the plugin's WORK marker as it starts, "
	  "WORK_END when it ends (for programs that do not mark their own)" },
	{ "provenance", OPT_FLAG, O(provenance),
	  .help = "print the kernel's identity and NUMA knobs first" },
	{ "out", OPT_STR, O(out), .metavar = "DIR", .def = "/tmp/bnb-monitor",
	  .help = "where the monitor files go" },
};

/* Index of COMMAND in ARGV, or -1 (usage printed or error reported). */
static int parse_opts(struct opts *o, int argc, char **argv)
{
	char err[ERRLEN];
	int first;

	opt_defaults(options, ARRAY_SIZE(options), o, err, sizeof(err));
	first = opt_getopt(options, ARRAY_SIZE(options), argc, argv, o, true, err, sizeof(err));
	if (first == OPT_HELP || first == OPT_HELP_MARKDOWN) {
		if (first == OPT_HELP_MARKDOWN) {
			opt_markdown(stdout, options, ARRAY_SIZE(options), "--", "option");
		} else {
			printf("usage: bnb-monitor [options] [--] COMMAND [ARG...]\n"
			       "Runs COMMAND, prints its elapsed time, and monitors NUMA "
			       "balancing meanwhile.\n\n");
			opt_usage(stdout, options, ARRAY_SIZE(options), "--");
		}
		exit(0);
	}
	if (first < 0) {
		prog_error("%s", err);
		return -1;
	}
	if (first >= argc) {
		prog_error("no command given");
		return -1;
	}
	o->trace = names(o->monitors, BNB_MON_TRACE, err, sizeof(err)) > 0;
	o->sched = names(o->monitors, BNB_MON_SCHED, err, sizeof(err)) > 0;
	o->perfstat = names(o->monitors, BNB_MON_PERFSTAT, err, sizeof(err)) > 0;
	return first;
}

/* The child waits for the monitors before it runs the command. */
static pid_t start_command(char **argv, int *go)
{
	int fds[2];
	pid_t pid;
	char c;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid)
		goto parent;
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1)
		_exit(EXIT_MONITOR);
	close(fds[0]);
	mon_child_signals();
	execvp(argv[0], argv);
	prog_error("cannot run %s: %s", argv[0], strerror(errno));
	_exit(127);
parent:
	close(fds[0]);
	*go = fds[1];
	return pid;
}

static int start_monitors(const struct opts *o, struct monitors *m, pid_t child)
{
	char err[512] = "";

	if (o->trace && !(m->trace = trace_start(o->tracefs, o->out, o->buffer_kb,
						 err, sizeof(err))))
		goto fail;
	if (o->sched && !(m->sched = sched_start(o->proc, o->out, child, err, sizeof(err))))
		goto fail;
	if (o->perfstat && !(m->perf = perfstat_start(o->perf, o->out, o->events, o->interval_ms,
						      err, sizeof(err))))
		goto fail;
	return 0;
fail:
	prog_error("%s", err[0] ? err : "out of memory");
	printf(BNB_MON_DONE "monitor_error=%s\n", err[0] ? err : "out of memory");
	return -1;
}

/*
 * The CPU time of each sample, on this thread's clock: under TCG on a busy
 * host the guest charges the time its vCPU waited for a host core to
 * whatever ran on it, so a total such as monitor_cpu_s carries that noise,
 * while the median sample shows what one costs.
 */
#define MAX_SAMPLES 4096
static double sample_ms[MAX_SAMPLES];
static int n_samples;

static double thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_sample_ms(void)
{
	if (!n_samples)
		return 0;
	qsort(sample_ms, (size_t)n_samples, sizeof(sample_ms[0]), by_value);
	return n_samples % 2 ? sample_ms[n_samples / 2] :
	       (sample_ms[n_samples / 2 - 1] + sample_ms[n_samples / 2]) / 2;
}

static void tick(struct monitors *m, double now)
{
	double start = thread_cpu_ms();

	if (m->sched)
		sched_tick(m->sched, now);
	if (m->trace)
		trace_tick(m->trace, now);
	if ((m->sched || m->trace) && n_samples < MAX_SAMPLES)
		sample_ms[n_samples++] = thread_cpu_ms() - start;
}

/* Returns the CPU time perf used while COMMAND ran, 0 without it. */
static double stop_monitors(struct monitors *m, double now)
{
	double perf_cpu = 0;

	if (m->perf)
		perf_cpu = perfstat_stop(m->perf);
	if (m->trace)
		trace_stop(m->trace, now);
	if (m->sched)
		sched_stop(m->sched);
	return perf_cpu;
}

/* Our own CPU time, the monitors' threads included (not the command's). */
static double self_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* Wait for CHILD, ticking every interval; SIGINT/SIGTERM are passed on. */
static int wait_child(pid_t child, struct monitors *m, const sigset_t *set,
		      unsigned int interval_ms, double t0)
{
	double next = t0 + interval_ms / 1000.0, left;
	struct timespec ts;
	int status, sig;

	for (;;) {
		if (waitpid(child, &status, WNOHANG) == child)
			return status;
		left = next - mon_now();
		if (left <= 0) {
			tick(m, mon_now());
			next += interval_ms / 1000.0;
			continue;
		}
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		sig = sigtimedwait(set, NULL, &ts);
		if (sig == SIGINT || sig == SIGTERM)
			kill(child, sig);
	}
}

/* Each monitor file, line by line, as "# bnb-mon:NAME: line". */
static void print_files(const char *dir)
{
	static const char *const files[] = {
		BNB_MON_TRACE_FILE, BNB_MON_EVENTS_FILE, BNB_MON_SCHED_FILE, BNB_MON_PERFSTAT_FILE,
	};
	char path[512], line[4096];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = 0;
			if (line[0])
				printf(BNB_MON_FILE "%s: %s\n", files[i], line);
		}
		fclose(f);
	}
}

static int exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : EXIT_MONITOR;
}

int main(int argc, char **argv)
{
	struct opts o = { .proc = "/proc", .tracefs = "/sys/kernel/tracing",
			  .debugfs = "/sys/kernel/debug", .sysfs = "/sys" };
	struct monitors m = { 0 };
	sigset_t set;
	double t0, end, perf_cpu, own_cpu;
	int go, status, first;
	pid_t child;

	first = parse_opts(&o, argc, argv);
	if (first < 0)
		return 2;
	if (mkdir_p(o.out, 0755)) {
		prog_error("mkdir %s: %s", o.out, strerror(errno));
		return EXIT_MONITOR;
	}
	if (o.provenance)
		prov_print(stdout, o.proc, o.debugfs, o.sysfs);
	fflush(stdout);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	child = start_command(argv + first, &go);
	if (child < 0) {
		prog_error("fork: %s", strerror(errno));
		return EXIT_MONITOR;
	}
	if (start_monitors(&o, &m, child)) {
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
		stop_monitors(&m, mon_now());
		return EXIT_MONITOR;
	}
	t0 = mon_t0 = mon_now();
	/* the monitors count from t0; the command starts now */
	if (o.mark_work)
		bnb_mark_work();
	if (write(go, "g", 1) != 1)
		kill(child, SIGKILL);
	close(go);
	own_cpu = self_cpu();
	status = wait_child(child, &m, &set, o.interval_ms, t0);
	if (o.mark_work)
		bnb_mark_work_end();
	end = mon_now();
	/* what watching cost while COMMAND ran: not the setup, drain or printing */
	own_cpu = self_cpu() - own_cpu;
	perf_cpu = stop_monitors(&m, end);
	/*
	 * Our lines share stdout with the command's, whose last line may
	 * lack its newline (printf abc): glued to it, ours would not be
	 * found. An empty line is what every reader skips anyway.
	 */
	putchar('\n');
	print_files(o.out);
	printf(BNB_MON_DONE "elapsed_s=%.6f exit=%d monitor_cpu_s=%.3f perf_cpu_s=%.3f "
	       "sample_ms=%.3f\n", end - t0, exit_code(status), own_cpu, perf_cpu,
	       median_sample_ms());
	return exit_code(status);
}
