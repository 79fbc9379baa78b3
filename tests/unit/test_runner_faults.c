// SPDX-License-Identifier: GPL-2.0
/*
 * The second fault pass (issue 42): nothing lost, nothing stranded. A
 * results folder stays reportable, a finished run is never overwritten
 * without a kept copy, a damaged file is named as damaged and a figure
 * from the guest is range-checked before it is averaged. Each test edits
 * a copy of the hand-made fixture folder fixtures/runner/onoff.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "experiment/experiment.h"
#include "extract/extract.h"
#include "fixture_dir.h"
#include "lib/util.h"
#include "report/compare.h"
#include "report/report.h"
#include "report/verdict.h"
#include "report/results.h"
#include "run/bootcheck.h"
#include "run/runsummary.h"
#include "runner.h"
#include "scratch.h"
#include "slurm/slurm.h"

static char tmpdir[64], dir[PATH_MAX];

static void setup(void)
{
	char fixtures[PATH_MAX * 2], cmd[PATH_MAX * 5];

	fixture_dir(fixtures, sizeof(fixtures), "runner");
	scratch_make(tmpdir, sizeof(tmpdir), "faults");
	setenv("BNB_ROOT", tmpdir, 1);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/onoff' '%s/'", fixtures, tmpdir);
	cr_assert_eq(system(cmd), 0);
	snprintf(dir, sizeof(dir), "%s/onoff", tmpdir);
}

static void teardown(void)
{
	scratch_remove(tmpdir);
}

TestSuite(faults, .init = setup, .fini = teardown);

/* Write TEXT into the file REL of the folder: MODE "w" replaces, "a" appends. */
static void write_rel(const char *rel, const char *mode, const char *text)
{
	char path[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, mode);
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

#define put(rel, text) write_rel(rel, "w", text)
#define append(rel, text) write_rel(rel, "a", text)

/*
 * Item 1: `kernel = mykernel`, a bzImage beside the experiment file, is
 * found where jobs.conf says the experiment was (not in the results
 * folder), and a report does not need it at all: the runs are done.
 */
Test(faults, bare_kernel_name_resolved_from_the_source_folder)
{
	char src[PATH_MAX * 2], conf[PATH_MAX * 5], basedir[PATH_MAX], err[1024];
	struct experiment exp;
	struct results r;

	snprintf(src, sizeof(src), "%s/src", tmpdir);
	cr_assert_eq(mkdir(src, 0755), 0);
	scratch_write(src, "mykernel", "not really a bzImage\n");
	append("experiment.ini", "[later]\nkernel = mykernel\n");
	snprintf(conf, sizeof(conf), "name=onoff\nsource=%s/x.ini\nbasedir=%s\n", src, src);
	put("jobs.conf", conf);

	cr_assert_eq(results_load(dir, &r, err, sizeof(err)), 0, "%s", err);
	results_free(&r);
	cr_assert_eq(results_experiment(dir, false, &exp, basedir, sizeof(basedir), err,
					sizeof(err)), 0, "resume/job: %s", err);
	cr_assert_str_eq(basedir, src);
	experiment_free(&exp);

	/* the image moved away since: the report still reads the runs */
	snprintf(conf, sizeof(conf), "%s/mykernel", src);
	cr_assert_eq(unlink(conf), 0);
	cr_assert_eq(results_load(dir, &r, err, sizeof(err)), 0, "%s", err);
	results_free(&r);
	/* a run still to do needs it, and says so before anything runs */
	cr_assert_eq(results_experiment(dir, false, &exp, basedir, sizeof(basedir), err,
					sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "unknown kernel 'mykernel'"), "%s", err);
}

static char *slurp(const char *rel)
{
	char path[PATH_MAX * 2];
	char *buf = calloc(1, 1 << 20);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	buf[fread(buf, 1, (1 << 20) - 1, f)] = 0;
	fclose(f);
	return buf;
}

static bool exists(const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return !access(path, F_OK);
}

/*
 * Item 2: `bnb-run job D '1;id'` (or '1abc') is no job at all, and job 1
 * again of a run that ended ok keeps it; a run that did not end ok is
 * moved aside to repN.prev-K before it runs again.
 */
Test(faults, job_id_whole_and_finished_runs_kept)
{
	char *before, *after;

	put("jobs.tsv", "1\ton\t1\n2\ton\t2\n");
	put("runs/on/rep2/status", "status=failed\nreason=the guest hung\n");
	before = slurp("runs/on/rep1/status");
	cr_redirect_stderr();
	cr_redirect_stdout();
	cr_assert_eq(cmd_job(dir, "1;id"), 2);
	cr_assert_eq(cmd_job(dir, "1abc"), 2);
	cr_assert_eq(cmd_job(dir, "1"), 0, "job 1 ended ok: nothing to do");
	after = slurp("runs/on/rep1/status");
	cr_assert_str_eq(after, before, "a finished run was run again in place");
	cr_assert(!exists("runs/on/rep1.prev-1"));
	free(before);
	free(after);

	/* no kernel in this tree: the rerun fails before anything boots */
	cmd_job(dir, "2");
	after = slurp("runs/on/rep2.prev-1/status");
	cr_assert_not_null(strstr(after, "the guest hung"), "%s", after);
	free(after);
	cr_assert(exists("runs/on/rep2/status"), "the new attempt has its own status");
}

/*
 * Items 3 and 11: --out may not be a folder of the user's with files a
 * run would overwrite (summary.md), nor lie inside another results
 * folder (D/runs/off while D runs); a new or empty folder is fine, and so
 * is a results folder, whose runner checks it under its lock.
 */
Test(faults, out_folder_never_overwrites)
{
	char user[PATH_MAX], path[PATH_MAX * 2];
	char *md;

	snprintf(user, sizeof(user), "%s/mine", tmpdir);
	cr_assert_eq(mkdir(user, 0755), 0);
	cr_assert(out_dir_usable(user), "an empty folder");
	scratch_write(user, "summary.md", "my own notes\n");
	cr_redirect_stderr();
	cr_assert_not(out_dir_usable(user), "a folder with the user's summary.md");
	snprintf(path, sizeof(path), "%s/summary.md", user);
	md = calloc(1, 64);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f);
	cr_assert_gt(fread(md, 1, 63, f), 0);
	fclose(f);
	cr_assert_str_eq(md, "my own notes\n");
	free(md);

	snprintf(path, sizeof(path), "%s/new/deeper", tmpdir);
	cr_assert(out_dir_usable(path), "a folder still to make");
	put("jobs.conf", "name=onoff\n");
	cr_assert(out_dir_usable(dir), "a results folder: its runner checks for runs");
	snprintf(path, sizeof(path), "%s/runs/off", dir);
	cr_assert_not(out_dir_usable(path), "a live variant's folder");
	snprintf(path, sizeof(path), "%s/runs/new", dir);
	cr_assert_not(out_dir_usable(path), "a new folder inside a results folder");
	snprintf(path, sizeof(path), "%s/runs/../../mine2", dir);
	cr_assert(out_dir_usable(path), "beside it, by any path");
	/* one shell line per run in jobs.txt, tab-separated Slurm task lists */
	snprintf(path, sizeof(path), "%s/a\nb", tmpdir);
	cr_assert_not(out_dir_usable(path), "a line break in the path");
	snprintf(path, sizeof(path), "%s/a\tb", tmpdir);
	cr_assert_not(out_dir_usable(path), "a tab in the path");
}

/* What report_problems() and report_unfinished() say on the console for DIR. */
static char *console(int *n_damaged, int *n_unfinished, int *n_lost)
{
	struct results r;
	char *text = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_eq(results_load(dir, &r, err, sizeof(err)), 0, "%s", err);
	*n_damaged = report_problems(&r, NULL, f);
	*n_unfinished = report_unfinished(&r, f, n_lost);
	fclose(f);
	results_free(&r);
	return text;
}

/* A collector file as bnb-collect writes it: the end column and the end row. */
#define TS_HEAD "sample,t_s,status,numa_hint_faults,numa_hint_faults_local,cost_cum,convergence,end\n"
#define TS_ROWS "1,0.1,ok,10,5,100,0.5,\n2,0.2,ok,20,15,200,0.75,\n"
#define TS_END "2,0.2,end,,,,,agent-gone\n"

/*
 * Item 5: a timeseries.csv cut inside its header, or at a row boundary
 * (its end row gone), is named as damaged, and report exits 1.
 */
Test(faults, timeseries_cut_at_a_boundary_is_damaged)
{
	int damaged, unfinished, lost;
	char *text;

	put("runs/off/rep1/timeseries.csv", TS_HEAD TS_ROWS TS_END);
	text = console(&damaged, &unfinished, &lost);
	cr_assert_eq(damaged, 0, "a whole file: %s", text);
	free(text);

	put("runs/off/rep1/timeseries.csv", TS_HEAD TS_ROWS);
	put("runs/off/rep2/timeseries.csv", "sample,t_s,sta");
	text = console(&damaged, &unfinished, &lost);
	cr_assert_eq(damaged, 2, "%s", text);
	cr_assert_not_null(strstr(text, "run off/rep1 ended ok but timeseries.csv ends without "
				  "the collector's end row"), "%s", text);
	cr_assert_not_null(strstr(text, "run off/rep2 ended ok but timeseries.csv has no column "
				  "status (its header cut short?)"), "%s", text);
	free(text);
	cr_redirect_stdout();
	cr_redirect_stderr();
	cr_assert_eq(cmd_report(dir, false), 1);
}

/*
 * Items 5 and 15: a status file without a status= line is damaged, not
 * "never finished"; one removed after its run is named; a run jobs.tsv
 * lists without a folder is incomplete, not silently absent; report of a
 * folder with any run not ok exits 1, and compare names what it leaves
 * out, exiting 1 when it lost a run to a damaged status file.
 */
Test(faults, status_damaged_or_gone_is_said)
{
	char whole[PATH_MAX * 2], out[PATH_MAX * 2], fixtures[PATH_MAX * 2], cmd[PATH_MAX * 5];
	char *argv[] = { "compare", "--out", out, whole, dir, NULL };
	int damaged, unfinished, lost;
	struct results r;
	char err[512], *text;

	put("runs/off/rep1/status", "\x1b[2Jgarbage\nmore garbage\n");
	snprintf(cmd, sizeof(cmd), "%s/runs/off/rep2/status", dir);
	cr_assert_eq(unlink(cmd), 0);
	put("jobs.tsv", "1\toff\t1\n2\toff\t2\n3\toff\t3\n4\toff\t4\n");
	cr_assert_eq(results_load(dir, &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(r.runs[0].status, RUN_INCOMPLETE);
	cr_assert_str_eq(r.runs[0].reason, "the status file is damaged: no status= line");
	cr_assert_str_eq(r.runs[1].reason, "the status file is missing, though the launcher's "
			 "result is there (removed or lost)");
	cr_assert_eq(r.runs[3].rep, 4);
	cr_assert_eq(r.runs[3].status, RUN_INCOMPLETE);
	cr_assert_not_null(strstr(r.runs[3].reason, "no run folder"), "%s", r.runs[3].reason);
	results_free(&r);

	text = console(&damaged, &unfinished, &lost);
	cr_assert_eq(lost, 2, "%s", text);
	cr_assert_eq(unfinished, 5, "off rep1, 2, 4 and the fixture's on rep4, 5: %s", text);
	cr_assert_not_null(strstr(text, "run off/rep2 incomplete: the status file is missing"),
			   "%s", text);
	free(text);

	cr_redirect_stdout();
	cr_redirect_stderr();
	cr_assert_eq(cmd_report(dir, false), 1, "report: not every run ended ok");
	fixture_dir(fixtures, sizeof(fixtures), "runner");
	snprintf(whole, sizeof(whole), "%s/whole", tmpdir);
	snprintf(out, sizeof(out), "%s/cmp", tmpdir);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/onoff' '%s'", fixtures, whole);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(cmd_compare(ARRAY_SIZE(argv) - 1, argv), 1,
		     "compare lost runs to damaged status files");
}

/*
 * Item 6: every extractor's figures get the sane range of their unit, as
 * the "# summary" figures do: a negative time or a bandwidth above
 * physics is refused, named, and averaged nowhere; the same holds for
 * the values a run's summary.json gives the report.
 */
Test(faults, extracted_figures_range_checked)
{
	static const char *const lines[] = {
		" main,      -5, secs,   runtime-max/thread",
		" main,    1e17, GB/sec, total-speed",
		" main,     150, %,      spread-runtime/thread",
		" main,     2.5, secs,   NUMA-convergence-latency",
		" main,     1.3, GB/sec, thread-speed",
	};
	struct xmetrics x = { 0 };
	struct results r;
	char err[512];

	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		extract_perf_numa.line(lines[i], &x, NULL);
	cr_assert_eq(x.n, 2, "only the sane two are kept, got %d", x.n);
	cr_assert_not_null(xm_find(&x, "NUMA-convergence-latency"));
	cr_assert_not_null(xm_find(&x, "thread-speed"));
	cr_assert_str_eq(x.refused, "runtime-max/thread=-5, total-speed=1e+17, "
			 "spread-runtime/thread=150");

	cr_assert(xm_in_range("ops/s", 0, NULL, NULL));
	cr_assert_not(xm_in_range("ops", -1, NULL, NULL), "stress-ng's bogo ops");
	cr_assert_not(xm_in_range("s", 2e9, NULL, NULL));
	cr_assert(xm_in_range("furlongs", -7, NULL, NULL), "an unknown unit: magnitude only");

	put("runs/on/rep1/summary.json", "{ \"metrics\": { \"runtime-max/thread\": { \"value\": -5,"
	    " \"unit\": \"secs\" }, \"total-speed\": { \"value\": 1e17, \"unit\": \"GB/sec\" },"
	    " \"thread-speed\": { \"value\": 1.5, \"unit\": \"GB/sec\" } } }");
	cr_assert_eq(results_load(dir, &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_not_null(strstr(r.runs[3].refused, "runtime-max/thread=-5 is outside its sane "
				  "range 0..1e+09 secs"), "%s", r.runs[3].refused);
	cr_assert_not_null(strstr(r.runs[3].refused, "total-speed=1e+17 is outside its sane "
				  "range 0..100000 GB/sec"), "%s", r.runs[3].refused);
	cr_assert(isnan(run_metric(&r.runs[3], "runtime-max/thread")));
	cr_assert_float_eq(run_metric(&r.runs[3], "thread-speed"), 1.5, 1e-9);
	results_free(&r);
}

/*
 * Item 7: an endless input is read only so far: /dev/zero is refused for
 * its NUL bytes after 16 MiB at most, not read until memory runs out,
 * and a text file that goes on past 16 MiB is no experiment file.
 */
Test(faults, endless_experiment_file_bounded)
{
	struct experiment exp;
	char err[512];
	const char *path;
	char *text = malloc(17 << 20);
	size_t n;

	cr_assert_eq(experiment_load("/dev/zero", &exp, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "/dev/zero:1: a NUL byte: this is not a text file");
	n = (size_t)sprintf(text, "[global]\nworkload = sleep 1\n");
	while (n < (17 << 20) - 8)
		n += (size_t)sprintf(text + n, "; more\n");
	path = scratch_write(tmpdir, "endless.ini", text);
	free(text);
	cr_assert_eq(experiment_load(path, &exp, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, ": the file goes on past 16 MiB: not an experiment file"),
			   "%s", err);
}

/*
 * Provenance of every run of folder D: plugin options OPTS then ksym=
 * the System.map of build k1 (off) or ON_KEY (on), and the 2012 knob
 * where the kernel has it (k1).
 */
static void provenance(const char *d, const char *opts, const char *on_key)
{
	char rundir[PATH_MAX * 2];

	for (int v = 0; v < 2; v++)
		for (int rep = 1; rep <= 3; rep++) {
			struct json_object *p = json_object_new_object();

			const char *key = v ? on_key : "k1";
			char all[256];

			snprintf(rundir, sizeof(rundir), "%s/runs/%s/rep%d", d, v ? "on" : "off", rep);
			snprintf(all, sizeof(all), "%s ksym=/c/%s/System.map", opts, key);
			json_object_object_add(p, "plugin_opts", json_object_new_string(all));
			if (!strcmp(key, "k1"))
				json_object_object_add(p, "guest.sysctl.kernel.numa_balancing_"
						       "migrate_policy", json_object_new_string("0"));
			cr_assert_eq(run_summary_add(rundir, p, NULL, NULL), 0);
		}
}

/*
 * Item 8: what the experiment files explain is not a provenance warning:
 * a [machine] key on one side explains the plugin's options, another
 * kernel its System.map (ksym=) and the knobs it has or lacks.
 */
Test(faults, provenance_explained_by_machine_and_kernel)
{
	char other[PATH_MAX * 2], cmd[PATH_MAX * 5], err[512];
	const char *d[2] = { dir, other };
	struct cmp c;

	snprintf(other, sizeof(other), "%s/other", tmpdir);
	snprintf(cmd, sizeof(cmd), "cp -r '%s' '%s'", dir, other);
	cr_assert_eq(system(cmd), 0);
	put("experiment.ini", "[global]\nnodes = 2\ntiming = deterministic\nworkload = stream\n"
	    "[machine]\nlatency_ns = 90\n[off]\nbalancing = off\n[on]\n");
	provenance(dir, "delay=off model=2socket latency_ns=90", "k1");
	snprintf(cmd, sizeof(cmd), "%s/experiment.ini", other);
	scratch_write(other, "experiment.ini", "[global]\nnodes = 2\ntiming = deterministic\n"
		      "workload = stream\n[off]\nbalancing = off\n[on]\nkernel = debian-6.12\n");
	provenance(other, "delay=off model=2socket", "k2");

	cr_assert_eq(cmp_load(&c, d, 2, err, sizeof(err)), 0, "%s", err);
	cmp_provenance(&c);
	for (int i = 0; i < c.n_warn; i++)
		cr_assert_fail("warned on %s: '%s' against '%s'", c.warn[i].d.key, c.warn[i].d.a,
			       c.warn[i].d.b);
	cmp_free(&c);
}

/*
 * Item 12: a kernel that is a folder, a text file or a bzImage cut short
 * is refused before anything boots, from its boot-protocol header.
 */
Test(faults, kernel_image_checked_before_boot)
{
	unsigned char hdr[2048] = { 0 };
	char path[PATH_MAX * 2], why[512];
	FILE *f;

	cr_assert_eq(bzimage_check(tmpdir, why, sizeof(why)), -1);
	cr_assert_not_null(strstr(why, "is not a file (a bzImage)"), "%s", why);
	cr_assert_eq(bzimage_check("/etc/passwd", why, sizeof(why)), -1);
	cr_assert_not_null(strstr(why, "is not a bzImage (no boot protocol header)"), "%s", why);
	/* setup_sects 1, syssize 100 paragraphs: 1024 + 1600 bytes */
	hdr[0x1f1] = 1;
	hdr[0x1f4] = 100;
	memcpy(hdr + 0x202, "HdrS", 4);
	snprintf(path, sizeof(path), "%s/bzImage", tmpdir);
	f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(hdr, 1, sizeof(hdr), f), sizeof(hdr));
	fclose(f);
	cr_assert_eq(bzimage_check(path, why, sizeof(why)), -1);
	cr_assert_not_null(strstr(why, "is cut short: 2048 bytes of the 2624 its setup header "
				  "gives"), "%s", why);
	cr_assert_eq(truncate(path, 2624), 0);
	cr_assert_eq(bzimage_check(path, why, sizeof(why)), 0, "%s", why);
}

/* The verdict's Markdown for DIR's results. */
static char *verdict_text(void)
{
	struct results r;
	char *text = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_eq(results_load(dir, &r, err, sizeof(err)), 0, "%s", err);
	json_object_put(verdict_results(&r, f));
	fclose(f);
	results_free(&r);
	return text;
}

/*
 * Item 13: runs that never finished (mem = 1T, a full disk) record a
 * latency but say nothing of what remote memory cost: no "cost nothing"
 * line from them.
 */
Test(faults, no_free_memory_verdict_without_finished_runs)
{
	char *text;

	for (int rep = 1; rep <= 3; rep++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "runs/off/rep%d/status", rep);
		put(rel, "status=failed\nreason=QEMU could not run: cannot set up guest memory\n"
		    "latency=uniform\nlatency_why=plugin.shm missing\n");
	}
	text = verdict_text();
	cr_assert_null(strstr(text, "Remote memory cost nothing in the runs of **off**"), "%s",
		       text);
	free(text);
	put("runs/off/rep1/status", "status=ok\nlatency=uniform\nlatency_why=model = off\n");
	text = verdict_text();
	cr_assert_not_null(strstr(text, "Remote memory cost nothing in the runs of **off**, "
				  "**on** (latency uniform: model = off)"), "%s", text);
	free(text);
}

/* Item 14: `description` is shown under the report's title and kept in summary.json. */
Test(faults, description_in_the_report)
{
	struct json_object *root, *v;
	char path[PATH_MAX * 2], *md;

	cr_redirect_stdout();
	cr_redirect_stderr();
	cmd_report(dir, false);
	md = slurp("summary.md");
	cr_assert_not_null(strstr(md, "\n\nfixture for the runner unit tests\n\n## Verdict"), "%s",
			   md);
	free(md);
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	root = json_object_from_file(path);
	cr_assert_not_null(root);
	cr_assert(json_object_object_get_ex(root, "description", &v));
	cr_assert_str_eq(json_object_get_string(v), "fixture for the runner unit tests");
	v = json_object_array_get_idx(json_object_object_get(root, "variants"), 0);
	cr_assert_str_eq(json_object_get_string(json_object_object_get(v, "description")),
			 "fixture for the runner unit tests");
	json_object_put(root);
}

/* A damaged slurm.jobs is named when a report looks for the folder's queued tasks. */
Test(faults, damaged_slurm_record_named)
{
	put("slurm.jobs", "garbage\n");
	cr_redirect_stderr();
	cr_assert_not(slurm_folder_note(dir));
	fflush(stderr);
	cr_assert_stderr_neq_str("", "a damaged slurm.jobs went unsaid");
}
