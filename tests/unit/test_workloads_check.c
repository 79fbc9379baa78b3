// SPDX-License-Identifier: GPL-2.0
/*
 * The runner's check of a variant's workload before anything boots
 * (bench/runner/extract/wlcheck.c), against the built guest programs and the
 * archives' command lists: what it refuses, with the experiment's
 * file:line:key and the program's own message, and the shell it leaves
 * alone; and every shipped experiment passes it.
 */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment/experiment.h"
#include "lib/err.h"
#include "extract/wlcheck.h"
#include "scratch.h"

static char tmpdir[64];
static char err[ERRLEN + 512];

static void setup(void)
{
	scratch_make(tmpdir, sizeof(tmpdir), "wlcheck");
}

static void teardown(void)
{
	scratch_remove(tmpdir);
}

TestSuite(wlcheck, .init = setup, .fini = teardown);

/* Load TEXT as t.ini and check its variant @name: workload_check()'s result. */
static int check_text(const char *text, const char *name)
{
	const char *path = scratch_write(tmpdir, "t.ini", text);
	struct experiment exp;
	int rc, i;

	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), 0, "%s", err);
	err[0] = '\0';
	for (i = 0; i < exp.n_variants; i++)
		if (!strcmp(exp.variants[i].name, name))
			break;
	cr_assert_lt(i, exp.n_variants, "no variant %s", name);
	rc = workload_check(&exp, &exp.variants[i], err, sizeof(err));
	experiment_free(&exp);
	return rc;
}

static int check(const char *workload)
{
	char text[1024];

	snprintf(text, sizeof(text), "[global]\nworkload = %s\n[a]\n", workload);
	return check_text(text, "a");
}

/* The reason after "t.ini:" */
static const char *reason(void)
{
	const char *p = strstr(err, "t.ini:");

	return p ? p + 6 : err;
}

Test(wlcheck, program_refusals_with_file_line_key)
{
	static const struct { const char *workload, *why; } bad[] = {
		{ "stream --bogus", "2: key 'workload': variant 'a': stream: unknown option "
		  "'--bogus' (see --help) (build/guest/bin/stream --check 2:1,1:512M,512M)" },
		{ "stream --threads 2", "stream: --threads 2 is more than the 1 CPUs of node 0" },
		{ "FOO=1 stream --iterations 0", "stream: --iterations: '0' is not an integer" },
		{ "/opt/bnb/bin/stream --bogus", "stream: unknown option '--bogus'" },
		{ "phases --phase-s 1 --nodes 0,2", "phases: --nodes: node 2: no such NUMA node" },
		{ "phases", "phases: give exactly one of --phase-s and --phase-passes" },
		{ "bnb-plugin-calib > /dev/null && autonuma --test numa02 --threads 3 "
		  "--placement local", "autonuma: numa02 HARD_BIND needs a multiple of the 2 nodes" },
		{ "true && latency --size 1G", "latency: --size needs 1024.0 MiB of memory" },
		{ "no-such-program --size 8M", "'no-such-program': the guest has no such program" },
		{ "sleep 1 && nosuch", "'nosuch': the guest has no such program" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(check(bad[i].workload), -1, "'%s' passed", bad[i].workload);
		cr_assert(strstr(reason(), bad[i].why), "'%s': '%s' lacks '%s'", bad[i].workload,
			  err, bad[i].why);
		cr_assert(strstr(err, "key 'workload': variant 'a': "), "%s", err);
	}
}

Test(wlcheck, what_the_guest_has_passes)
{
	static const char *const good[] = {
		"stream", "stream --size 8M --iterations 20 --placement misplaced",
		"phases --phase-s 1 --nodes 1,0", "true", "sleep 1", "echo ran",
		"perf bench numa mem -p 2 -t 1 -P 32 -s 8", "stress-ng --vm 1", "numactl -H",
		"kt-migrate", "sh -c 'sleep 1; printf abc'", "cd /opt/x && ./numa02",
		"/tmp/x/stream --bogus", "echo 'a && foo'", "yes 0123 | head -c 400",
		"for k in 1 2; do stream --bogus; done", "stream --size '8M' --bogus",
		"echo t_s,rate && echo oops >&2 && exit 3", "export X=1 && stream",
	};
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		cr_assert_eq(check(good[i]), 0, "'%s' refused: %s", good[i], err);
}

/* The program is asked about the variant's own topology, and the line is the variant's. */
Test(wlcheck, each_variant_its_topology_and_line)
{
	static const char text[] = "[global]\nworkload = stream --threads 2\n"
		"[one]\n[two]\ncpus = 2\n[three]\nnodes = 3\n"
		"workload = phases --phase-s 1 --nodes 0,2\n";

	cr_assert_eq(check_text(text, "one"), -1);
	cr_assert(strstr(reason(), "2: key 'workload': variant 'one': stream: --threads 2"),
		  "%s", err);
	cr_assert_eq(check_text(text, "two"), 0, "%s", err);
	cr_assert_eq(check_text(text, "three"), 0, "%s", err);
	cr_assert_eq(check_text("[global]\nworkload = stream\n[a]\n"
				"workload = phases --phase-s 1 --nodes 0,2\n", "a"), -1);
	cr_assert(strstr(reason(), "4: key 'workload': variant 'a': phases: --nodes"), "%s", err);
}

/* What the project ships runs as it is. */
Test(wlcheck, shipped_experiments_pass)
{
	char pattern[4096];
	struct experiment exp;
	glob_t g = { 0 };
	size_t f;
	int i, n = 0;

	for (const char *const *p = (const char *const[]){ "bench/experiments/*.ini",
		"bench/experiments/*/*.ini", NULL }; *p; p++) {
		snprintf(pattern, sizeof(pattern), "%s/%s", BNB_SRC_DIR, *p);
		glob(pattern, g.gl_pathc ? GLOB_APPEND : 0, NULL, &g);
	}
	cr_assert_gt(g.gl_pathc, 10, "found %zu experiments", g.gl_pathc);
	for (f = 0; f < g.gl_pathc; f++) {
		if (experiment_load(g.gl_pathv[f], &exp, err, sizeof(err)))
			continue;	/* published.ini and the like: not experiments */
		for (i = 0; i < exp.n_variants; i++, n++)
			cr_assert_eq(workload_check(&exp, &exp.variants[i], err, sizeof(err)), 0,
				     "%s", err);
		experiment_free(&exp);
	}
	globfree(&g);
	cr_assert_gt(n, 20, "%d variants checked", n);
}
