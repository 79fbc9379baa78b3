// SPDX-License-Identifier: GPL-2.0
/*
 * The metric extractors (bench/runner/extract*.c) against output captured
 * from the real tools in the guest (fixtures/extract/NAME.log, made by
 * fixtures/extract/capture.sh): perf bench numa, stress-ng --metrics and
 * --metrics-brief, and bnb-monitor's elapsed time; which extractor a
 * command gets; and lines that must not be taken for results.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fixture_dir.h"
#include "extract/extract.h"
#include "extract/wlout.h"

static char fixtures[PATH_MAX + 64];
static struct xmetrics x;
static char why[512];

static void setup(void)
{
	fixture_dir(fixtures, sizeof(fixtures), "extract");
	memset(&x, 0, sizeof(x));
	why[0] = 0;
}

static int run(const char *name, const char *command, const char *metrics)
{
	char path[PATH_MAX + 160];
	const struct extractor *e = extractor_for(command, metrics);

	cr_assert(e, "no extractor for '%s'", command);
	snprintf(path, sizeof(path), "%s/%s.log", fixtures, name);
	return extract_run(e, path, command, &x, why, sizeof(why));
}

static double value(const char *name)
{
	const struct xmetric *m = xm_find(&x, name);

	cr_assert(m, "metric %s not extracted (%d found)", name, x.n);
	return m->value;
}

static enum better better(const char *name)
{
	return xm_find(&x, name)->better;
}

TestSuite(extract, .init = setup);

Test(extract, perf_bench_numa_every_result_line)
{
	const char *cmd = "perf bench numa mem -p 2 -t 1 -P 64 -s 20 -c -m";

	cr_assert_eq(run("perf-mem-2x1", cmd, NULL), 0, "%s", why);
	cr_assert_eq(x.n, 11, "ten result lines and the elapsed time, got %d", x.n);
	cr_assert_float_eq(value("NUMA-convergence-latency"), 0.838, 1e-9);
	cr_assert_float_eq(value("runtime-max/thread"), 0.838, 1e-9);
	cr_assert_float_eq(value("spread-runtime/thread"), 50.0, 1e-9);
	cr_assert_float_eq(value("total-speed"), 1.301, 1e-9);
	cr_assert_str_eq(xm_find(&x, "total-speed")->unit, "GB/sec");
	cr_assert_str_eq(xm_find(&x, "spread-runtime/thread")->unit, "%");
	cr_assert_eq(better("NUMA-convergence-latency"), BETTER_LOWER);
	cr_assert_eq(better("thread-speed"), BETTER_HIGHER);
	cr_assert_eq(better("data-total"), BETTER_NONE);
	cr_assert_float_eq(value(XM_ELAPSED), 1.926252, 1e-9);
}

Test(extract, perf_bench_numa_converging_after_misplacement)
{
	cr_assert_eq(run("perf-mem-2x1-cpu0",
			 "perf bench numa mem -p 2 -t 1 -P 64 -s 20 -zZ0 -c -m --thp 1", NULL), 0);
	cr_assert_float_eq(value("NUMA-convergence-latency"), 2.341, 1e-9);
	cr_assert_float_eq(value("thread-speed"), 0.160, 1e-9);
}

Test(extract, perf_bench_numa_without_convergence)
{
	cr_assert_eq(run("perf-mem-bw", "perf bench numa mem -p 2 -t 1 -P 32 -s 5 -zZ0 --thp 1",
			 NULL), 0, "%s", why);
	cr_assert_null(xm_find(&x, "NUMA-convergence-latency"), "not measured without -m");
	cr_assert_gt(value("total-speed"), 0);
}

Test(extract, perf_bench_numa_quiet_finds_nothing)
{
	const char *cmd = "perf bench numa mem -p 1 -t 1 -P 16 -s 2 -q";

	cr_assert_eq(run("perf-mem-quiet", cmd, NULL), -1);
	cr_assert(strstr(why, cmd), "names the command: %s", why);
	cr_assert(strstr(why, "without -q"), "says what was missing: %s", why);
}

Test(extract, stress_ng_metrics_and_memory_rates)
{
	cr_assert_eq(run("stress-ng-stream", "stress-ng --stream 2 -t 15 --metrics", NULL), 0,
		     "%s", why);
	cr_assert_float_eq(value("stream.bogo_ops"), 36, 1e-9);
	cr_assert_float_eq(value("stream.real_s"), 15.12, 1e-9);
	cr_assert_float_eq(value("stream.bogo_ops_per_s"), 2.38, 1e-9);
	cr_assert_float_eq(value("stream.bogo_ops_per_s_cpu"), 1.19, 1e-9);
	cr_assert_eq(better("stream.bogo_ops_per_s"), BETTER_HIGHER);
	cr_assert_float_eq(value("stream.memory_read_rate"), 167.05, 1e-9);
	cr_assert_float_eq(value("stream.memory_write_rate"), 111.37, 1e-9);
	cr_assert_float_eq(value("stream.memory_rate"), 14.60, 1e-9);
	cr_assert_str_eq(xm_find(&x, "stream.memory_read_rate")->unit, "MB/s");
	cr_assert_str_eq(xm_find(&x, "stream.memory_rate")->unit, "Mflop/s");
	cr_assert_eq(better("stream.memory_write_rate"), BETTER_HIGHER);
}

Test(extract, stress_ng_numa_brief)
{
	cr_assert_eq(run("stress-ng-numa", "stress-ng --numa 1 --numa-ops 1 --metrics-brief",
			 NULL), 0, "%s", why);
	cr_assert_float_eq(value("numa.bogo_ops"), 1, 1e-9, "the numa stressor ran (cpusets)");
	cr_assert_float_eq(value("numa.real_s"), 21.65, 1e-9);
	cr_assert_float_eq(value("numa.bogo_ops_per_s"), 0.05, 1e-9);
}

Test(extract, stress_ng_without_metrics_fails_naming_it)
{
	cr_assert_eq(run("stress-ng-no-metrics", "stress-ng --numa 1 --numa-ops 1", NULL), -1);
	cr_assert(strstr(why, "stress-ng --numa 1 --numa-ops 1"), "%s", why);
	cr_assert(strstr(why, "--metrics-brief"), "%s", why);
}

Test(extract, redis_benchmark_csv_rows)
{
	const char *cmd = "numactl --cpunodebind=0 redis-benchmark -t get,set -n 2000 --csv";

	cr_assert_eq(run("redis-csv", cmd, NULL), 0, "%s", why);
	cr_assert_float_eq(value("redis.set.rps"), 2212.39, 1e-9);
	cr_assert_float_eq(value("redis.get.rps"), 9090.91, 1e-9);
	cr_assert_float_eq(value("redis.get.avg_ms"), 66.861, 1e-9);
	cr_assert_float_eq(value("redis.get.p50_ms"), 48.575, 1e-9);
	cr_assert_float_eq(value("redis.get.p99_ms"), 117.247, 1e-9);
	cr_assert_float_eq(value("redis.set.max_ms"), 490.495, 1e-9);
	cr_assert_eq(better("redis.get.rps"), BETTER_HIGHER);
	cr_assert_eq(better("redis.get.p99_ms"), BETTER_LOWER);
	cr_assert_str_eq(xm_find(&x, "redis.get.rps")->unit, "req/s");
	/* the load phase's -q lines went to bnb-service's log, not here */
	cr_assert_eq(x.n, 15, "two tests x 7 columns and the elapsed time, got %d", x.n);
}

Test(extract, redis_benchmark_quiet_lines_after_progress)
{
	cr_assert_eq(run("redis-quiet", "redis-benchmark -t get,set -n 2000 -q", NULL), 0, "%s",
		     why);
	cr_assert_float_eq(value("redis.set.rps"), 1352.27, 1e-9);
	cr_assert_float_eq(value("redis.get.rps"), 1568.63, 1e-9);
	cr_assert_float_eq(value("redis.get.p50_ms"), 447.743, 1e-9);
}

Test(extract, memaslap_global_rows_and_the_whole_run)
{
	cr_assert_eq(run("memaslap", "memcaslap -s 127.0.0.1:11211 -T 1 -c 4 -t 3s -S 1s", NULL),
		     0, "%s", why);
	cr_assert_float_eq(value("memaslap.tps"), 338, 1e-9);
	cr_assert_float_eq(value("memaslap.run_s"), 3.1, 1e-9);
	cr_assert_float_eq(value("workload_fixed_s"), 3, 1e-9);	/* -t 3s */
	cr_assert_float_eq(value("memaslap.get_misses"), 0, 1e-9);
	cr_assert_float_eq(value("memaslap.total.tps"), 347, 1e-9);
	cr_assert_float_eq(value("memaslap.set.tps"), 35, 1e-9);
	/* the whole run's figures, not the last interval's Global row (257579) */
	cr_assert_float_eq(value("memaslap.get.max_us"), 855209, 1e-9);
	cr_assert_float_eq(value("memaslap.get.avg_us"), 12500, 1e-9);
	cr_assert_float_eq(value("memaslap.get.events"), 940, 1e-9);
	cr_assert_eq(better("memaslap.get.avg_us"), BETTER_LOWER);
}

Test(extract, pgbench_closing_lines)
{
	const char *cmd = "pgbench -h /tmp/bnb-service -U postgres -S -c 2 -T 3 postgres";

	cr_assert_eq(run("pgbench-select", cmd, NULL), 0, "%s", why);
	cr_assert_float_eq(value("pgbench.tps"), 94.847061, 1e-9);
	cr_assert_float_eq(value("workload_fixed_s"), 3, 1e-9);	/* -T 3 */
	cr_assert_float_eq(value("pgbench.latency_avg_ms"), 21.087, 1e-9);
	cr_assert_float_eq(value("pgbench.connect_ms"), 866.590, 1e-9);
	cr_assert_float_eq(value("pgbench.transactions"), 204, 1e-9);
	cr_assert_float_eq(value("pgbench.failed"), 0, 1e-9);
	cr_assert_eq(better("pgbench.tps"), BETTER_HIGHER);
}

Test(extract, pgbench_that_could_not_connect_fails_naming_it)
{
	const char *cmd = "pgbench -h /tmp/bnb-service -U postgres -S -c 2 -T 3 nosuchdb";

	cr_assert_eq(run("pgbench-failed", cmd, NULL), -1);
	cr_assert(strstr(why, "pgbench extractor found nothing") &&
		  strstr(why, "tps = N (without initial connection time)"), "%s", why);
}

Test(extract, sysbench_memory_and_threads)
{
	cr_assert_eq(run("sysbench-memory", "sysbench memory --memory-total-size=16M run", NULL),
		     0, "%s", why);
	cr_assert_float_eq(value("sysbench.ops_per_s"), 94615.72, 1e-9);
	cr_assert_float_eq(value("sysbench.mib_per_s"), 92.40, 1e-9);
	cr_assert_float_eq(value("sysbench.events_per_s"), 16384 / 0.1457, 1e-6);
	cr_assert_float_eq(value("sysbench.latency_max_ms"), 3.91, 1e-9);
	memset(&x, 0, sizeof(x));
	cr_assert_eq(run("sysbench-threads", "sysbench threads --threads=2 run", NULL), 0, "%s",
		     why);
	cr_assert_float_eq(value("sysbench.events_per_s"), 200 / 0.9137, 1e-6);
	cr_assert_float_eq(value("sysbench.latency_p95_ms"), 24.83, 1e-9);
	cr_assert_float_eq(value("sysbench.latency_avg_ms"), 8.52, 1e-9);
	cr_assert_null(xm_find(&x, "sysbench.mib_per_s"), "threads moves no memory");
}

/* A figure outside what the tool can mean is refused, not averaged. */
Test(extract, absurd_figures_are_refused)
{
	const struct extractor *e = &extract_redis;
	char state[4096] = { 0 };

	cr_assert_leq(e->state_size, sizeof(state));
	e->line("\"test\",\"rps\",\"avg_latency_ms\"", &x, state);
	e->line("\"GET\",\"-5\",\"99999999999\"", &x, state);
	cr_assert_null(xm_find(&x, "redis.get.rps"), "a negative throughput was taken");
	cr_assert_null(xm_find(&x, "redis.get.avg_ms"), "a latency of years was taken");
	cr_assert(strstr(x.refused, "redis.get.rps=-5"), "%s", x.refused);
	extract_pgbench.line("tps = -1.0 (without initial connection time)", &x, NULL);
	cr_assert_null(xm_find(&x, "pgbench.tps"));
}

Test(extract, tools_behind_numactl)
{
	cr_assert(tool_named("numactl --cpunodebind=0 redis-benchmark -q", "redis-benchmark"));
	cr_assert(tool_named("numactl -N 1 -m 1 pgbench -S", "pgbench"));
	cr_assert(tool_named("/usr/bin/sysbench memory run", "sysbench"));
	cr_assert_not(tool_named("numactl -N 1 sysbench", "pgbench"));
	cr_assert_eq(extractor_for("numactl -N 0 memcaslap -s x", NULL), &extract_memaslap);
}

Test(extract, elapsed_for_any_command)
{
	cr_assert_str_eq(extractor_for("sleep 1", NULL)->name, EXTRACT_ELAPSED);
	cr_assert_eq(run("perf-mem-quiet", "sleep 1", NULL), 0, "%s", why);
	cr_assert_eq(x.n, 1);
	cr_assert_float_eq(value(XM_ELAPSED), 2.496872, 1e-9);
	cr_assert_eq(better(XM_ELAPSED), BETTER_LOWER);
}

Test(extract, chosen_by_command_or_key)
{
	static const struct { const char *cmd, *metrics, *want; } cases[] = {
		{ "perf bench numa mem -p 2 -t 1", NULL, "perf-bench-numa" },
		{ "FOO=1 /usr/bin/perf bench -r 1 numa mem", NULL, "perf-bench-numa" },
		{ "perf stat -a sleep 1", NULL, EXTRACT_ELAPSED },
		{ "perf bench sched pipe", NULL, EXTRACT_ELAPSED },
		{ "stress-ng --numa 2 --metrics-brief", NULL, "stress-ng" },
		{ "stream --size 8M", NULL, EXTRACT_SUMMARY },
		{ "autonuma --test numa01 | tee /tmp/x", NULL, EXTRACT_SUMMARY },
		{ "(numa02 --size 8M)", NULL, EXTRACT_SUMMARY },
		{ "streamer --size 8M", NULL, EXTRACT_ELAPSED },
		{ "perf bench numa mem -p 2", "elapsed", EXTRACT_ELAPSED },
		{ "my-tool --numa", "stress-ng", "stress-ng" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_assert_str_eq(extractor_for(cases[i].cmd, cases[i].metrics)->name,
				 cases[i].want, "%s", cases[i].cmd);
	cr_assert_null(extractor_for("sleep 1", "bogus"));
	cr_assert_null(extractor_lookup("perf"));
}

static void perf_lines(const char *const *lines, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		extract_perf_numa.line(lines[i], &x, NULL);
}

Test(extract, perf_refuses_what_is_not_a_result)
{
	static const char *const lines[] = {
		" main,      nan, secs,   NUMA-convergence-latency",
		" main,      inf, secs,   runtime-max/thread",
		" main,      1.0, secs,   two words",
		" main,      1.0 secs,    no-comma",
		" main      1.0, secs,    no-name-comma",
		" # Running main, \"perf bench numa numa-mem -p 2\"",
		" main,      1.0,,   empty-unit",
		" main,      1e999, secs, overflow",
		" RAM-bw-local,   5.5, GB/sec,   total-speed",
		" main,      2.5, secs,   NUMA-convergence-latency   ",
	};

	perf_lines(lines, sizeof(lines) / sizeof(lines[0]));
	cr_assert_eq(x.n, 2, "only the last two are results, got %d", x.n);
	cr_assert_float_eq(value("RAM-bw-local/total-speed"), 5.5, 1e-9);
	cr_assert_float_eq(value("NUMA-convergence-latency"), 2.5, 1e-9);
}

Test(extract, names_are_bounded_and_cleaned)
{
	char line[512];
	int i;

	snprintf(line, sizeof(line), " main, 1.0, secs, %0200d", 7);
	extract_perf_numa.line(line, &x, NULL);
	cr_assert_eq(x.n, 0, "a metric name longer than the buffer is not a result");
	cr_assert_eq(xm_add(&x, "a\"b<c>\n", "u;", 1, BETTER_NONE), 0);
	cr_assert_str_eq(x.v[0].name, "a_b_c__");
	cr_assert_str_eq(x.v[0].unit, "u_");
	cr_assert_eq(xm_add(&x, "nan", "", NAN, BETTER_NONE), -1);
	for (i = 0; i < XM_MAX + 5; i++) {
		snprintf(line, sizeof(line), "m%d", i);
		xm_add(&x, line, "", i, BETTER_NONE);
	}
	cr_assert_eq(x.n, XM_MAX);
	cr_assert(x.truncated);
}

Test(extract, workload_csv_only_from_the_contract)
{
	char in[PATH_MAX + 160], out[] = "/tmp/bnb-test-wlcsv-XXXXXX";
	int fd = mkstemp(out);
	FILE *f;
	char line[256];

	cr_assert_geq(fd, 0);
	close(fd);
	unlink(out);
	snprintf(in, sizeof(in), "%s/perf-mem-2x1.log", fixtures);
	cr_assert_eq(wl_extract_csv(in, out), 0);
	cr_assert_neq(access(out, F_OK), 0, "perf's ' main, ...' lines are not a workload CSV");
	snprintf(in, sizeof(in), "%s/../runner/onoff/runs/on/rep1/out.log", fixtures);
	cr_assert_eq(wl_extract_csv(in, out), 0);
	f = fopen(out, "r");
	cr_assert(f && fgets(line, sizeof(line), f));
	cr_assert_str_eq(line, "t_s,rate,locality,iter\n");
	fclose(f);
	unlink(out);
}
