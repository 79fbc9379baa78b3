// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-collect end to end on the host: against the real agent (built for
 * the host, reading this machine's /proc/vmstat), and against a hostile
 * agent played by the test that answers garbage, stale, oversized and no
 * replies before hanging up.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdarg.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scratch.h"

#ifndef BNB_BUILD_DIR
#define BNB_BUILD_DIR "build"
#endif

static char dir[64];
static char sock[128];

static void setup(void)
{
	scratch_make(dir, sizeof(dir), "agent");
	snprintf(sock, sizeof(sock), "%s/agent.sock", dir);
}

static void teardown(void)
{
	scratch_remove(dir);
}

static pid_t spawn(char *const argv[])
{
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static int wait_exit(pid_t pid)
{
	int status;

	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status), "collector died of signal %d", WTERMSIG(status));
	return WEXITSTATUS(status);
}

static pid_t collector(const char *samples)
{
	static char out[96];

	snprintf(out, sizeof(out), "%s/out", dir);
	char *const argv[] = {
		BNB_BUILD_DIR "/bin/bnb-collect", "--socket", sock, "--out", out,
		"--interval-ms", "20", "--reply-timeout-ms", "3000",
		"--pid-maps-every", "2", "--samples", (char *)samples, NULL,
	};
	return spawn(argv);
}

static struct json_object *summary(void)
{
	char path[128];
	struct json_object *j;

	snprintf(path, sizeof(path), "%s/out/summary.json", dir);
	j = json_object_from_file(path);
	cr_assert(j, "no summary.json");
	return j;
}

static long long jint(struct json_object *j, const char *k)
{
	struct json_object *v;

	cr_assert(json_object_object_get_ex(j, k, &v), "no key %s", k);
	return json_object_get_int64(v);
}

static const char *jstr(struct json_object *j, const char *k)
{
	struct json_object *v;

	cr_assert(json_object_object_get_ex(j, k, &v), "no key %s", k);
	return json_object_get_string(v);
}

/* Data rows of timeseries.csv and its last line. */
static int csv_rows(char *last, size_t lastlen)
{
	char path[128], line[65536];
	int rows = -1;	/* the header */
	FILE *f;

	snprintf(path, sizeof(path), "%s/out/timeseries.csv", dir);
	f = fopen(path, "r");
	cr_assert(f, "no timeseries.csv");
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		rows++;
		snprintf(last, lastlen, "%s", line);
	}
	fclose(f);
	return rows;
}

TestSuite(agent, .init = setup, .fini = teardown, .timeout = 60);

/* Value of column name in the first data row of timeseries.csv. */
static long long first_row_value(const char *name)
{
	char path[128], line[65536], *hdr = NULL, *tok, *save;
	long long v = -1;
	int col = -1, i = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/out/timeseries.csv", dir);
	f = fopen(path, "r");
	cr_assert(f);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (!hdr) {
			hdr = strdup(line);
			for (tok = strtok_r(hdr, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save), i++)
				if (!strcmp(tok, name))
					col = i;
			continue;
		}
		for (i = 0, tok = line; i < col && tok; i++)
			tok = strchr(tok, ',') ? strchr(tok, ',') + 1 : NULL;
		if (tok && *tok != ',')
			v = atoll(tok);
		break;
	}
	fclose(f);
	free(hdr);
	cr_assert_geq(col, 0, "no column %s", name);
	return v;
}

Test(agent, real_agent)
{
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	char *const agent_argv[] = {
		BNB_BUILD_DIR "/host-agent/bnb-agent", "--pid", pid, "--pid-file", "/nonexistent",
		"--unix-listen", sock, NULL,
	};
	pid_t agent = spawn(agent_argv);
	pid_t col = collector("8");
	struct json_object *j;
	char last[65536];

	cr_expect_eq(wait_exit(col), 0);
	kill(agent, SIGTERM);
	waitpid(agent, NULL, 0);
	j = summary();
	cr_expect_eq(jint(j, "samples"), 8);
	cr_expect_eq(jint(j, "dropped"), 0);
	cr_expect_str_eq(jstr(j, "end"), "max-samples");
	/* this host's kernel has pgfault: a real counter flowed through */
	cr_expect_neq(jint(json_object_object_get(j, "counters"), "pgfault"), 0);
	json_object_put(j);
	cr_expect_eq(csv_rows(last, sizeof(last)), 9);	/* 8 samples + the end row */
	cr_expect(strstr(last, ",end,"), "last row: %s", last);
	cr_expect(strstr(last, "max-samples"), "last row: %s", last);
	/* sample 1 walked this test's numa_maps: its pages are on node 0 */
	cr_expect_eq(first_row_value("pids_walked"), 1);
	cr_expect_gt(first_row_value("node0_pages"), 0);
}

static int listen_on(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	cr_assert_lt(strlen(path), sizeof(sa.sun_path));
	memcpy(sa.sun_path, path, strlen(path));
	cr_assert_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	cr_assert_eq(listen(fd, 1), 0);
	return fd;
}

/* Read one "get SEQ FLAGS" request; returns SEQ. */
static unsigned long long next_request(FILE *in)
{
	char line[128];
	unsigned long long seq;

	cr_assert(fgets(line, sizeof(line), in), "collector stopped asking");
	cr_assert_eq(sscanf(line, "get %llu", &seq), 1, "bad request %s", line);
	return seq;
}

static void say(int fd, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cr_assert_eq(write(fd, buf, n), n);
}

static void good(int fd, unsigned long long seq, unsigned long long pgfault)
{
	say(fd, "bnb 1 %llu %llu\nc pgfault %llu\nc numa_hint_faults 0\n"
	    "c numa_hint_faults_local 0\nn 0 100 10\nend\n",
	    seq, seq * 20000000ULL, pgfault);
}

Test(agent, hostile_agent)
{
	int lfd = listen_on(sock), fd;
	pid_t col = collector("0");
	unsigned long long seq;
	char junk[40000], last[65536];
	struct json_object *j;
	DIR *d;
	struct dirent *e;
	FILE *in;
	int files = 0;

	fd = accept(lfd, NULL, NULL);
	cr_assert_geq(fd, 0);
	in = fdopen(dup(fd), "r");

	good(fd, next_request(in), 100);			/* sample 1 */
	say(fd, "hello\nend\n"), next_request(in);		/* malformed */
	seq = next_request(in);
	good(fd, seq - 1, 150);					/* stale ... */
	good(fd, seq, 200);					/* ... sample 2 */
	memset(junk, 'a', sizeof(junk));
	next_request(in);
	cr_assert_eq(write(fd, junk, sizeof(junk)), (ssize_t)sizeof(junk));
	say(fd, "\nend\n");					/* oversized */
	next_request(in);					/* no answer */
	good(fd, next_request(in), 50);				/* backwards: sample 3 */
	fclose(in);
	close(fd);						/* hang up */
	close(lfd);

	cr_expect_eq(wait_exit(col), 0);
	j = summary();
	cr_expect_eq(jint(j, "samples"), 3);
	cr_expect_geq(jint(j, "dropped"), 3);
	cr_expect_geq(jint(j, "warnings"), 4);
	cr_expect_str_eq(jstr(j, "end"), "agent-gone");
	/* 100 -> 200, then the step back to 50 counts nothing */
	cr_expect_eq(jint(json_object_object_get(j, "counters"), "pgfault"), 100);
	json_object_put(j);
	cr_expect_eq(csv_rows(last, sizeof(last)), 4);
	cr_expect(strstr(last, "agent-gone"), "last row: %s", last);

	/* Nothing but the two result files in the results folder. */
	snprintf(last, sizeof(last), "%s/out", dir);
	d = opendir(last);
	cr_assert(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			files++;
			cr_expect(!strcmp(e->d_name, "timeseries.csv") ||
				  !strcmp(e->d_name, "summary.json"), "stray file %s", e->d_name);
		}
	closedir(d);
	cr_expect_eq(files, 2);
}

/* Column name of every data row (the end row too) into v; returns the rows. */
static int column(const char *name, double *v, int max)
{
	char path[128], line[65536], *tok, *save;
	int col = -1, i, rows = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/out/timeseries.csv", dir);
	f = fopen(path, "r");
	cr_assert(f);
	while (fgets(line, sizeof(line), f) && rows < max) {
		if (line[0] == '#')
			continue;
		if (col < 0) {		/* the header */
			tok = strtok_r(line, ",\n", &save);
			for (i = 0; tok; tok = strtok_r(NULL, ",\n", &save), i++)
				if (!strcmp(tok, name))
					col = i;
			cr_assert_geq(col, 0, "no column %s", name);
			continue;
		}
		for (i = 0, tok = line; i < col && tok; i++)
			tok = strchr(tok, ',') ? strchr(tok, ',') + 1 : NULL;
		v[rows++] = tok ? atof(tok) : -1;
	}
	fclose(f);
	return rows;
}

static pid_t stream_collector(const char *samples)
{
	static char out[96];

	snprintf(out, sizeof(out), "%s/out", dir);
	char *const argv[] = {
		BNB_BUILD_DIR "/bin/bnb-collect", "--socket", sock, "--out", out, "--stream",
		"--stall-timeout-ms", "5000", "--samples", (char *)samples, NULL,
	};
	return spawn(argv);
}

/* The real agent sampling on its clock: the host only reads. */
Test(agent, real_agent_streams_on_its_clock)
{
	char *const agent_argv[] = {
		BNB_BUILD_DIR "/host-agent/bnb-agent", "--pid-file", "/nonexistent",
		"--stream-ms", "20", "--maps-every", "2", "--unix-listen", sock, NULL,
	};
	pid_t agent = spawn(agent_argv);
	pid_t col = stream_collector("6");
	double t[8], guest[8], rtt[8];
	struct json_object *j;
	int i;

	cr_expect_eq(wait_exit(col), 0);
	kill(agent, SIGTERM);
	waitpid(agent, NULL, 0);
	j = summary();
	cr_expect_eq(jint(j, "samples"), 6);
	cr_expect_str_eq(jstr(j, "end"), "max-samples");
	json_object_put(j);
	cr_assert_eq(column("t_s", t, 8), 7);
	column("guest_s", guest, 8);
	column("rtt_us", rtt, 8);
	for (i = 0; i < 6; i++) {
		/* t_s is the agent's clock since its first sample */
		/* (guest_s has 10 significant digits) */
		cr_expect_float_eq(t[i], guest[i] - guest[0], 3e-5, "row %d", i);
		cr_expect_eq(rtt[i], 0);
	}
	cr_expect_gt(t[5], 0.08);
	cr_expect_float_eq(t[6], t[5], 1e-9, "the end row repeats the last guest time");
}

static void streamed(int fd, unsigned long long seq, unsigned long long guest_ns,
		     unsigned long long pgfault)
{
	say(fd, "bnb 1 %llu %llu\nc pgfault %llu\nn 0 100 10\nend\n", seq, guest_ns, pgfault);
}

/* Gaps, stale and malformed samples, a clock going back: counted, not fatal. */
Test(agent, hostile_streamer)
{
	int lfd = listen_on(sock), fd;
	pid_t col = stream_collector("0");
	double t[8];
	char byte;
	struct json_object *j;

	fd = accept(lfd, NULL, NULL);
	cr_assert_geq(fd, 0);
	streamed(fd, 5, 500000000, 100);		/* sample 1, t 0 */
	streamed(fd, 6, 600000000, 110);		/* sample 2, t 0.1 */
	say(fd, "bnb 1 7 x\nend\n");			/* malformed */
	streamed(fd, 4, 650000000, 120);		/* stale: dropped */
	streamed(fd, 9, 900000000, 130);		/* 7, 8 missing: sample 3 */
	streamed(fd, 10, 100000000, 140);		/* clock back: sample 4 */
	usleep(200000);
	/* it never asked anything */
	cr_expect_lt(recv(fd, &byte, 1, MSG_DONTWAIT), 1);
	close(fd);
	close(lfd);

	cr_expect_eq(wait_exit(col), 0);
	j = summary();
	cr_expect_eq(jint(j, "samples"), 4);
	cr_expect_eq(jint(j, "dropped"), 2);
	cr_expect_str_eq(jstr(j, "end"), "agent-gone");
	cr_expect_eq(jint(json_object_object_get(j, "counters"), "pgfault"), 40);
	json_object_put(j);
	cr_assert_eq(column("t_s", t, 8), 5);
	cr_expect_float_eq(t[1], 0.1, 1e-9);
	cr_expect_float_eq(t[2], 0.4, 1e-9);
	cr_expect_float_eq(t[3], 0, 1e-9);
}

/* A truncated reply, then silence: the collector gives up on its own. */
Test(agent, silent_agent)
{
	int lfd = listen_on(sock), fd;
	char out[96];

	snprintf(out, sizeof(out), "%s/out", dir);
	char *const argv[] = {
		BNB_BUILD_DIR "/bin/bnb-collect", "--socket", sock, "--out", out,
		"--interval-ms", "20", "--reply-timeout-ms", "1000",
		"--stall-timeout-ms", "5000", NULL,
	};
	pid_t col = spawn(argv);
	struct json_object *j;
	char last[65536];
	FILE *in;

	fd = accept(lfd, NULL, NULL);
	cr_assert_geq(fd, 0);
	in = fdopen(dup(fd), "r");
	good(fd, next_request(in), 100);
	next_request(in);
	say(fd, "bnb 1 2 1\nc pgfault 120\n");	/* no "end" line */
	cr_expect_eq(wait_exit(col), 1);	/* not a clean end */
	fclose(in);
	close(fd);
	close(lfd);
	j = summary();
	cr_expect_str_eq(jstr(j, "end"), "agent-timeout");
	cr_expect_eq(jint(j, "samples"), 1);
	cr_expect_geq(jint(j, "dropped"), 3);
	json_object_put(j);
	cr_expect_eq(csv_rows(last, sizeof(last)), 2);
	cr_expect(strstr(last, "agent-timeout"), "last row: %s", last);
}

Test(agent, bad_usage_is_one_line)
{
	char *const argv[] = {
		BNB_BUILD_DIR "/bin/bnb-collect", "--socket", sock, "--out", dir,
		"--distance", "10,20;20", NULL,
	};

	cr_expect_eq(wait_exit(spawn(argv)), 2);
}
