// SPDX-License-Identifier: GPL-2.0
/*
 * bench/runner/slurm's parts that need no cluster: the array's indexes as
 * sbatch writes them, the task list, squeue's lines (a reused job id is
 * not ours), a folder's record of its jobs (a damaged one is named), the
 * commands run as processes with their output kept, and the sbatch
 * options that are bnb-run's own. tests/guest/75-slurm.t runs the rest
 * against a real slurmctld and slurmd.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scratch.h"
#include "slurm/cmd.h"
#include "slurm/queue.h"
#include "slurm/record.h"
#include "slurm/slurm.h"
#include "slurm/tasklist.h"

static char tmpdir[64];

static void setup(void)
{
	scratch_make(tmpdir, sizeof(tmpdir), "slurm");
}

static void teardown(void)
{
	scratch_remove(tmpdir);
}

TestSuite(slurm, .init = setup, .fini = teardown);

Test(slurm, array_spec_ranges)
{
	static const struct {
		int k[8], n;
		const char *want;
	} cases[] = {
		{ { 1 }, 1, "1" },
		{ { 1, 2, 3, 4 }, 4, "1-4" },
		{ { 2 }, 1, "2" },
		{ { 1, 2, 3, 7 }, 4, "1-3,7" },
		{ { 1, 3, 5, 6, 7, 9 }, 6, "1,3,5-7,9" },
		{ { 4, 5, 100, 101 }, 4, "4-5,100-101" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *spec = slurm_array_spec(cases[i].k, cases[i].n);

		cr_expect_str_eq(spec, cases[i].want, "case %zu", i);
		free(spec);
	}
}

static char *slurp(const char *path)
{
	static char text[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	cr_assert_not_null(f, "%s", path);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = 0;
	fclose(f);
	return text;
}

/* Two folders: the second's indexes count on from the first's jobs. */
Test(slurm, task_list_counts_on)
{
	struct slurm_batch b = { 0 };
	static const int again[] = { 2, 4 };
	char err[512], want[1024];
	int *k = NULL, nk = 0;

	slurm_batch_add(&b, "/r/2n-numa01", NULL, 0, 3, 1);
	slurm_batch_add(&b, "/r/2n-numa02", again, 2, 4, 2);
	cr_expect_eq(b.cpus, 2, "the most CPUs a task's guest keeps busy");
	snprintf(b.workdir, sizeof(b.workdir), "%s", tmpdir);
	cr_assert_eq(slurm_list_write(&b, &k, &nk, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(nk, 5);
	snprintf(want, sizeof(want), "%s/tasks-1.tsv", tmpdir);
	cr_expect_str_eq(b.list, want);
	cr_expect_str_eq(slurp(b.list), "1\t/r/2n-numa01\t1\n2\t/r/2n-numa01\t2\n"
			 "3\t/r/2n-numa01\t3\n5\t/r/2n-numa02\t2\n7\t/r/2n-numa02\t4\n");
	cr_expect_eq(k[3], 5);
	cr_expect_eq(k[4], 7);
	free(k);
	/* the next submission's list beside it, the first kept */
	cr_assert_eq(slurm_list_write(&b, &k, &nk, err, sizeof(err)), 0, "%s", err);
	snprintf(want, sizeof(want), "%s/tasks-2.tsv", tmpdir);
	cr_expect_str_eq(b.list, want);
	free(k);
	slurm_batch_free(&b);
}

Test(slurm, task_list_refuses_a_tab)
{
	struct slurm_batch b = { 0 };
	char err[512];
	int *k = NULL, nk = 0;

	slurm_batch_add(&b, "/r/a\tb", NULL, 0, 2, 1);
	snprintf(b.workdir, sizeof(b.workdir), "%s", tmpdir);
	cr_expect_eq(slurm_list_write(&b, &k, &nk, err, sizeof(err)), -1);
	cr_expect(strstr(err, "has a tab or a newline"), "%s", err);
	free(k);
	slurm_batch_free(&b);
}

Test(slurm, squeue_lines)
{
	char out[] = "CLUSTER: bnb\n"
		     "1|COMPLETED|bnb1|None|0|/r/x/slurm\n"
		     "2|CANCELLED|bnb1|None|15|/r/x/slurm\n"
		     "3|FAILED|bnb1|NonZeroExitCode|768|/r/x/slurm\n"
		     "4|PENDING||Resources|0|/r/x/slurm\n";
	struct slurm_task *t;
	int n, running;

	cr_assert_eq(slurm_parse_tasks(out, "/r/x/slurm", &t, &n), 0);
	cr_assert_eq(n, 4, "the cluster's header is no task");
	cr_expect_eq(t[2].k, 3);
	cr_expect_str_eq(t[2].state, "FAILED");
	cr_expect_eq((t[2].wstatus >> 8) & 0xff, 3, "exit 3 as wait() has it");
	cr_expect_str_eq(t[3].reason, "Resources");
	cr_expect_eq(slurm_active(t, n, &running), 1);
	cr_expect_eq(running, 0);
	free(t);
}

Test(slurm, squeue_another_folders_job)
{
	char out[] = "1|RUNNING|bnb1|None|0|/somebody/else\n";
	struct slurm_task *t;
	int n;

	cr_expect_eq(slurm_parse_tasks(out, "/r/x/slurm", &t, &n), SLURM_Q_GONE,
		     "a job id given to another job since is not ours");
	free(t);
}

Test(slurm, states)
{
	static const char *const running[] = { "PENDING", "RUNNING", "COMPLETING",
						"CONFIGURING", "REQUEUED", "SUSPENDED" };
	static const char *const over[] = { "COMPLETED", "CANCELLED", "FAILED", "TIMEOUT",
					     "NODE_FAIL", "OUT_OF_MEMORY" };

	for (size_t i = 0; i < sizeof(running) / sizeof(running[0]); i++)
		cr_expect(slurm_state_active(running[i]), "%s", running[i]);
	for (size_t i = 0; i < sizeof(over) / sizeof(over[0]); i++)
		cr_expect(!slurm_state_active(over[i]), "%s", over[i]);
}

Test(slurm, record_newest)
{
	struct slurm_record r = { .job = 12 }, got;
	char err[512];

	cr_expect_eq(slurm_record_last(tmpdir, &got, err, sizeof(err)), 1, "none yet");
	snprintf(r.workdir, sizeof(r.workdir), "/r/x/slurm");
	snprintf(r.list, sizeof(r.list), "/r/x/slurm/tasks-1.tsv");
	cr_assert_eq(slurm_record_add(tmpdir, &r, err, sizeof(err)), 0, "%s", err);
	r.job = 15;
	snprintf(r.cluster, sizeof(r.cluster), "big");
	snprintf(r.list, sizeof(r.list), "/r/x/slurm/tasks-2.tsv");
	cr_assert_eq(slurm_record_add(tmpdir, &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(slurm_record_last(tmpdir, &got, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(got.job, 15);
	cr_expect_str_eq(got.cluster, "big");
	cr_expect_str_eq(got.list, "/r/x/slurm/tasks-2.tsv");
}

Test(slurm, record_damaged)
{
	char path[PATH_MAX], err[512];
	struct slurm_record got;
	FILE *f;

	snprintf(path, sizeof(path), "%s/" SLURM_RECORD_FILE, tmpdir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("12\t-\t/r/x/slurm\t/r/x/slurm/tasks-1.tsv\nthe job id\n", f);
	fclose(f);
	cr_expect_eq(slurm_record_last(tmpdir, &got, err, sizeof(err)), -1);
	cr_expect(strstr(err, "is damaged (line 2"), "%s", err);
}

Test(slurm, command_output_kept)
{
	char *const argv[] = { "sh", "-c", "echo 12; echo 'line one' >&2; echo two >&2; exit 3",
			       NULL };
	char *const missing[] = { "bnb-no-such-command", NULL };
	struct slurm_out r;
	char line[128];

	cr_expect_eq(slurm_cmd(argv, &r), 3);
	cr_expect_str_eq(r.out, "12\n");
	cr_expect_str_eq(slurm_oneline(r.err, line, sizeof(line)), "line one; two");
	slurm_out_free(&r);
	cr_expect_eq(slurm_cmd(missing, &r), -1);
	cr_expect(strstr(r.err, "bnb-no-such-command: not found"), "%s", r.err);
	slurm_out_free(&r);
}

Test(slurm, array_options_are_ours)
{
	char *opts[] = { "--partition=big", "--array=1-4" };
	struct slurm_opts o = { .sbatch = opts, .n_sbatch = 2 };

	cr_redirect_stderr();
	cr_expect_eq(slurm_check(&o), -1, "--array is bnb-run's to give");
	opts[1] = "--wrap=true";
	cr_expect_eq(slurm_check(&o), -1, "--wrap would replace the task script");
}
