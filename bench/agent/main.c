// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-agent - guest side of the collector protocol (bench/include/bnb_wire.h).
 *
 *   bnb-agent [options] PORT            serve a virtio-serial port device
 *   bnb-agent [options] --unix-listen PATH   serve a unix socket (host tests)
 *   bnb-agent [options] --stdio         serve stdin/stdout
 *
 * It blocks in read() until the host asks, answers one snapshot and goes
 * back to sleep: between requests it costs nothing. With --stream-ms (or
 * bnb.agent_stream_ms= on the kernel command line) it samples on the
 * guest's own clock instead and sends without being asked (stream.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "lib/err.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/util.h"

static struct reply reply;
static int vmstat_fd = -1;

struct agent_opts {
	char *pid_file;
	char *nodes_dir;
	char *unix_path;
	char *cmdline;
	bool stdio;
	struct stream_opts stream;
};

static int parse_pid(const struct opt_def *o, const char *value, void *field,
		     char *err, size_t errlen)
{
	int pid;

	if (parse_int(value, 1, INT_MAX, &pid, err, errlen))
		return -1;
	if (field)
		maps_add_pid(pid);
	return 0;
}

static int parse_prefix(const struct opt_def *o, const char *value, void *field,
			char *err, size_t errlen)
{
	if (!*value)
		return errf(err, errlen, "empty prefix");
	if (field)
		vmstat_add_prefix(value);	/* argv outlives the agent's use of it */
	return 0;
}

#define A(f) OPT_FIELD(struct agent_opts, f)

static const struct opt_def options[] = {
	{ "pid", OPT_FUNC, 0, .parse = parse_pid, .metavar = "PID",
	  .help = "also follow this process's numa_maps (repeatable)" },
	{ "pid-file", OPT_STR, A(pid_file), .metavar = "FILE", .def = "/run/bnb/pids",
	  .help = "follow the pids listed here, one a line (workloads append theirs)" },
	{ "counter-prefix", OPT_FUNC, 0, .parse = parse_prefix, .metavar = "P",
	  .help = "also forward /proc/vmstat lines starting with P (repeatable)" },
	{ "sysfs-nodes", OPT_STR, A(nodes_dir), .metavar = "DIR",
	  .def = "/sys/devices/system/node", .help = "where the per-node meminfo files are" },
	{ "unix-listen", OPT_STR, A(unix_path), .metavar = "PATH",
	  .help = "serve a unix socket instead of a port (host tests)" },
	{ "stdio", OPT_FLAG, A(stdio), .help = "serve stdin and stdout" },
	{ "stream-ms", OPT_INT, A(stream.interval_ms), .min = 0, .max = STREAM_MAX_MS,
	  .metavar = "MS", .def = "0",
	  .help = "sample every MS of the guest's CLOCK_MONOTONIC and send unasked, sequence "
		  "number = instant (deterministic timing); 0: answer requests" },
	{ "maps-every", OPT_INT, A(stream.maps_every), .min = 0, .max = 1000000, .def = "10",
	  .metavar = "N", .help = "with --stream-ms: walk numa_maps every Nth instant, 0 never" },
	{ "cmdline", OPT_STR, A(cmdline), .metavar = "FILE", .def = "/proc/cmdline",
	  .help = "without --stream-ms, take it from bnb.agent_stream_ms= (and "
		  "bnb.agent_maps_every=) here" },
};

static const struct opt_tool tool = {
	.synopsis = "bnb-agent [options] (PORT | --unix-listen PATH | --stdio)",
	.about = "The guest side of the collector's protocol (bench/include/bnb_wire.h): it\n"
		 "answers each snapshot request on PORT (/dev/virtio-ports/bnb.agent) with the\n"
		 "NUMA counters, per-node memory and the followed processes' pages.\n",
	.opts = options,
	.n = ARRAY_SIZE(options),
};

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static bool write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		buf += n;
		len -= n;
	}
	return true;
}

bool agent_answer(int fd, unsigned long long seq, bool maps)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	reply_reset(&reply);
	reply_add(&reply, "bnb %d %llu %llu\n", BNB_WIRE_VERSION, seq,
		  (unsigned long long)now.tv_sec * 1000000000ULL + now.tv_nsec);
	vmstat_emit(vmstat_fd, &reply);
	passes_emit(&reply);
	meminfo_emit(&reply);
	if (maps)
		maps_emit(&reply);
	reply_finish(&reply);
	return write_all(fd, reply.buf, reply.len);
}

/* "get SEQ FLAGS": anything else is ignored, the host will time out. */
static void handle_request(int fd, const char *line)
{
	unsigned long long seq;
	const char *end;

	if (strncmp(line, "get ", 4) || !scan_u64(line + 4, &end, &seq) || *end != ' ')
		return;
	end++;
	if (!strcmp(end, BNB_WIRE_FLAG_MAPS))
		agent_answer(fd, seq, true);
	else if (!strcmp(end, BNB_WIRE_FLAG_NONE))
		agent_answer(fd, seq, false);
}

/* Serve one connection until EOF or error; returns the read() result. */
static ssize_t serve(int in, int out)
{
	char req[BNB_WIRE_MAX_REQUEST + 1];
	size_t have = 0;
	bool skipping = false;

	for (;;) {
		ssize_t n = read(in, req + have, BNB_WIRE_MAX_REQUEST - have);
		char *line = req, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n;
		have += n;
		while ((nl = memchr(line, '\n', have - (line - req)))) {
			*nl = '\0';
			if (!skipping)
				handle_request(out, line);
			skipping = false;
			line = nl + 1;
		}
		have -= line - req;
		memmove(req, line, have);
		if (have == BNB_WIRE_MAX_REQUEST) {
			skipping = true;	/* overlong request: drop it */
			have = 0;
		}
	}
}

/*
 * A virtio-serial port reads 0 while no host is connected: poll for the
 * collector at a slow rate rather than spinning.
 */
static int serve_port(const char *path, const struct stream_opts *s)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "bnb-agent: cannot open port %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (;;) {
		if (s->interval_ms) {
			agent_stream(fd, s);	/* returns when a write fails */
			sleep_ms(1000);
		} else if (serve(fd, fd) < 0 && errno != EAGAIN)
			sleep_ms(1000);
		else
			sleep_ms(100);
	}
}

static int serve_unix(const char *path, const struct stream_opts *s)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "bnb-agent: socket path too long: %s\n", path);
		return 2;
	}
	strcpy(sa.sun_path, path);
	unlink(path);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 1)) {
		fprintf(stderr, "bnb-agent: cannot listen on %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (;;) {
		int fd = accept(lfd, NULL, NULL);

		if (fd < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		if (s->interval_ms)
			agent_stream(fd, s);
		else
			serve(fd, fd);
		close(fd);
	}
}

int main(int argc, char **argv)
{
	struct agent_opts o = { 0 };
	int first;

	first = opt_tool_main(&tool, argc, argv, &o, false);
	if (first < 0)
		return 2;
	if ((first < argc) + !!o.unix_path + o.stdio != 1 || argc - first > 1) {
		prog_error("give one of PORT, --unix-listen PATH, --stdio (see --help)");
		return 2;
	}
	maps_set_pid_file(o.pid_file);

	vmstat_fd = vmstat_open();
	if (vmstat_fd < 0)
		fprintf(stderr, "bnb-agent: /proc/vmstat: %s\n", strerror(errno));
	if (meminfo_open(o.nodes_dir) == 0)
		fprintf(stderr, "bnb-agent: no node meminfo under %s\n", o.nodes_dir);

	if (!o.stream.interval_ms)
		stream_from_cmdline(o.cmdline, &o.stream);
	if (o.stdio && o.stream.interval_ms) {
		agent_stream(1, &o.stream);
		return 1;
	}
	if (o.stdio)
		return serve(0, 1) < 0;
	if (o.unix_path)
		return serve_unix(o.unix_path, &o.stream);
	return serve_port(argv[first], &o.stream);
}
