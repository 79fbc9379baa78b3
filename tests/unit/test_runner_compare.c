// SPDX-License-Identifier: GPL-2.0
/*
 * `bnb-run compare` with three folders made from the onoff fixture: A and
 * B identical, C with an extracted metric twice as large and provenance
 * that differs both where its experiment file says so (a sysctl) and where
 * it does not (the harness, the kernel build). Checks the MMTests-style
 * statistics, the significance mark, the three outputs and the warnings.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/compare.h"
#include "fixture_dir.h"
#include "run/runsummary.h"
#include "scratch.h"

static char tmpdir[64], dirs[3][PATH_MAX];

static void sh(const char *cmd)
{
	cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* Give every run of folder DIR an extracted metric and provenance; DELAY
 * is the scan delay variant "on" ran with ("off" always 1000). */
static void decorate(const char *dir, double elapsed, const char *harness, const char *key,
		     const char *delay)
{
	static const char *const variants[] = { "off", "on" };
	char rundir[PATH_MAX * 2];
	int v, rep;

	for (v = 0; v < 2; v++)
		for (rep = 1; rep <= 4; rep++) {
			struct xmetrics x = { 0 };
			struct json_object *p = json_object_new_object();

			snprintf(rundir, sizeof(rundir), "%s/runs/%s/rep%d", dir, variants[v], rep);
			if (access(rundir, F_OK))
				continue;
			xm_add(&x, "elapsed_s", "s", elapsed + rep, BETTER_LOWER);
			json_object_object_add(p, "harness", json_object_new_string(harness));
			json_object_object_add(p, "kernel_key", json_object_new_string(key));
			/* as bnb-vm's result file gives it: C ran another QEMU */
			json_object_object_add(p, "qemu_version",
					       json_object_new_string(elapsed > 10 ? "10.1.0" :
								      "10.0.0"));
			json_object_object_add(p, "guest.sysctl.kernel.numa_balancing_scan_delay_ms",
					       json_object_new_string(v ? delay : "1000"));
			json_object_object_add(p, "host_loadavg_start",
					       json_object_new_string(rep == 1 ? "1.00 0.50 0.25" : "9"));
			cr_assert_eq(run_summary_add(rundir, p, &x, NULL), 0);
		}
}

static void setup(void)
{
	char fixtures[PATH_MAX + 64], cmd[PATH_MAX * 5];
	int i;

	fixture_dir(fixtures, sizeof(fixtures), "runner/onoff");
	scratch_make(tmpdir, sizeof(tmpdir), "compare");
	for (i = 0; i < 3; i++) {
		snprintf(dirs[i], sizeof(dirs[i]), "%s/%c", tmpdir, 'a' + i);
		snprintf(cmd, sizeof(cmd), "cp -r '%s' '%s'", fixtures, dirs[i]);
		sh(cmd);
	}
	/* C's "on" (the last section) sets the scan delay: that is explained */
	snprintf(cmd, sizeof(cmd), "printf 'sysctl.scan_delay_ms = 500\\n' >> '%s/experiment.ini'",
		 dirs[2]);
	sh(cmd);
	decorate(dirs[0], 10, "v1-0-gabc", "k1", "1000");
	decorate(dirs[1], 10, "v1-0-gabc", "k1", "1000");
	decorate(dirs[2], 20, "v1-3-gdef-dirty", "k2", "500");
}

static void teardown(void)
{
	scratch_remove(tmpdir);
}

TestSuite(compare, .init = setup, .fini = teardown);

static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r");
	FILE *m = open_memstream(&buf, &len);
	int ch;

	cr_assert(f, "%s", path);
	while ((ch = fgetc(f)) != EOF)
		fputc(ch, m);
	fclose(f);
	fclose(m);
	return buf;
}

static const struct cmp_row *row_of(const struct cmp *c, const char *variant, const char *metric)
{
	int i;

	for (i = 0; i < c->n_rows; i++)
		if (!strcmp(c->pairs[c->rows[i].pair].name[0], variant) &&
		    !strcmp(c->rows[i].m.name, metric))
			return &c->rows[i];
	cr_assert_fail("no row %s/%s", variant, metric);
	return NULL;
}

Test(compare, three_folders)
{
	const char *d[3] = { dirs[0], dirs[1], dirs[2] };
	const struct cmp_row *row;
	char err[512];
	struct cmp c;

	cr_assert_eq(cmp_load(&c, d, 3, err, sizeof(err)), 0, "%s", err);
	cmp_build(&c);
	cr_assert_eq(c.n_pairs, 2);
	row = row_of(&c, "on", "elapsed_s");
	/* on has runs 1..3 ok (rep4 failed): 11, 12, 13 in A and B; 21, 22, 23 in C */
	cr_assert_eq(row->cell[0].n, 3);
	cr_assert_float_eq(row->cell[0].v[CS_AMEAN], 12, 1e-9);
	cr_assert_float_eq(row->cell[0].v[CS_STDDEV], 1, 1e-9);
	cr_assert_float_eq(row->cell[0].v[CS_CV], 100.0 / 12, 1e-9);
	cr_assert_float_eq(row->cell[0].v[CS_MIN], 11, 1e-9);
	cr_assert_float_eq(row->cell[0].v[CS_MAX], 13, 1e-9);
	cr_assert_float_eq(row->cell[1].pct[CS_AMEAN], 0, 1e-9);
	cr_assert_not(row->cell[1].w.significant);
	cr_assert_float_eq(row->cell[2].v[CS_AMEAN], 22, 1e-9);
	cr_assert_float_eq(row->cell[2].pct[CS_AMEAN], 100.0 * 10 / 12, 1e-9);
	cr_assert_float_eq(row->cell[2].pct[CS_MIN], 100.0 * 10 / 11, 1e-9);
	cr_assert(row->cell[2].w.significant, "p = %g", row->cell[2].w.p);
	cr_assert_eq(row->m.better, BETTER_LOWER);
	row = row_of(&c, "off", "work_s");
	cr_assert_float_eq(row->cell[2].pct[CS_AMEAN], 0, 1e-9, "fixed metrics too");
	cmp_free(&c);
}

Test(compare, provenance_beyond_the_experiment)
{
	const char *d[3] = { dirs[0], dirs[1], dirs[2] };
	char err[512];
	struct cmp c;
	int i, harness = 0, kernel = 0, delay = 0, load = 0, qemu = 0;

	cr_assert_eq(cmp_load(&c, d, 3, err, sizeof(err)), 0, "%s", err);
	cmp_provenance(&c);
	for (i = 0; i < c.n_warn; i++) {
		cr_assert_eq(c.warn[i].dir, 2, "A and B agree, only C differs: %s", c.warn[i].d.key);
		qemu += !strcmp(c.warn[i].d.key, "qemu_version");
		harness += !strcmp(c.warn[i].d.key, "harness");
		kernel += !strcmp(c.warn[i].d.key, "kernel_key");
		delay += !!strstr(c.warn[i].d.key, "scan_delay");
		load += !!strstr(c.warn[i].d.key, "loadavg");
	}
	cr_assert_eq(harness, 2, "one warning per variant");
	cr_assert_eq(qemu, 2, "the emulator is part of what produced the numbers");
	cr_assert_eq(kernel, 2);
	cr_assert_eq(delay, 0, "the experiment sets the scan delay: no warning");
	cr_assert_eq(load, 0, "load is reported, not warned about");
	cmp_free(&c);
}

/* Turning the plugin off makes bnb-vm run another QEMU: explained, not warned. */
Test(compare, provenance_explained_by_the_latency_key)
{
	const char *d[3] = { dirs[0], dirs[1], dirs[2] };
	char err[512], cmd[PATH_MAX + 64];
	struct cmp c;
	int i, qemu_on = 0, qemu_off = 0;

	snprintf(cmd, sizeof(cmd), "printf 'latency = off\\n' >> '%s/experiment.ini'", dirs[2]);
	sh(cmd);
	cr_assert_eq(cmp_load(&c, d, 3, err, sizeof(err)), 0, "%s", err);
	cmp_provenance(&c);
	for (i = 0; i < c.n_warn; i++) {
		if (strcmp(c.warn[i].d.key, "qemu_version"))
			continue;
		if (!strcmp(c.pairs[c.warn[i].pair].name[0], "on"))
			qemu_on++;
		else
			qemu_off++;
	}
	cr_assert_eq(qemu_on, 0, "C's \"on\" sets latency = off: its QEMU differs by design");
	cr_assert_eq(qemu_off, 1, "C's \"off\" sets nothing of the kind");
	cmp_free(&c);
}

/* Every file under DIR, its path, size and bytes, folded into one FNV-1a hash. */
static uint64_t tree_hash;

static int hash_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	unsigned char buf[4096];
	size_t n;
	FILE *f;

	for (const char *p = path; *p; p++)
		tree_hash = (tree_hash ^ (unsigned char)*p) * 0x100000001b3ULL;
	tree_hash = (tree_hash ^ (uint64_t)st->st_size) * 0x100000001b3ULL;
	if (type != FTW_F)
		return 0;
	f = fopen(path, "rb");
	cr_assert(f, "%s", path);
	while ((n = fread(buf, 1, sizeof(buf), f)))
		for (size_t i = 0; i < n; i++)
			tree_hash = (tree_hash ^ buf[i]) * 0x100000001b3ULL;
	fclose(f);
	return 0;
}

static uint64_t checksum(const char *dir)
{
	tree_hash = 0xcbf29ce484222325ULL;
	cr_assert_eq(nftw(dir, hash_entry, 16, FTW_PHYS), 0, "%s", dir);
	return tree_hash;
}

/* The three folders' checksums before, compared with after. */
static void snapshot(uint64_t sum[3])
{
	for (int i = 0; i < 3; i++)
		sum[i] = checksum(dirs[i]);
}

static void unchanged(const uint64_t before[3])
{
	for (int i = 0; i < 3; i++)
		cr_assert_eq(checksum(dirs[i]), before[i], "compare changed %s", dirs[i]);
}

Test(compare, outputs)
{
	char out[PATH_MAX], path[PATH_MAX * 2], *md, *csv;
	char *argv[] = { "compare", "--out", out, dirs[0], dirs[1], dirs[2] };
	struct json_object *j, *t, *cells, *cell;
	uint64_t before[3];

	snprintf(out, sizeof(out), "%s/report", tmpdir);
	snapshot(before);
	cr_redirect_stdout();
	cr_redirect_stderr();
	cr_assert_eq(cmd_compare(6, argv), 0);
	unchanged(before);
	snprintf(path, sizeof(path), "%s/compare.md", out);
	md = slurp(path);
	cr_assert(strstr(md, "| Amean | 12 | 12 (+0.00%) | 22 (+83.33%) * |"), "%s", md);
	cr_assert(strstr(md, "| Min | 11 | 11 (+0.00%) | 21 (+90.91%) |"), "%s", md);
	cr_assert(strstr(md, "### elapsed_s (s, lower is better)"), "%s", md);
	/* the effect with its CI, then Welch's p, then Holm's: 10 [7.73, 12.27] */
	cr_assert(strstr(md, "| Diff [95% CI] | | 0 [-2.267, 2.267] | 10 [7.733, 12.27] |"), "%s", md);
	cr_assert(strstr(md, "### workload time (s, lower is better; primary)"), "%s", md);
	cr_assert(strstr(md, "| p (Holm) | | primary | primary |"), "%s", md);
	cr_assert(strstr(md, "## Verdict") < strstr(md, "## Variant"), "the verdict comes first");
	cr_assert(strstr(md, "| harness | v1-0-gabc | v1-3-gdef-dirty |"), "%s", md);
	cr_assert(strstr(md, "- A: 1.00 0.50 0.25 .. unknown"), "%s", md);
	cr_assert(strstr(md, "Latency: uniform."), "%s", md);
	free(md);
	snprintf(path, sizeof(path), "%s/compare.csv", out);
	csv = slurp(path);
	cr_assert(strstr(csv, "\"on\",\"elapsed_s\",\"s\",lower,C,"), "%s", csv);
	cr_assert(strstr(csv, ",Amean,22,83.33333333,"), "%s", csv);
	free(csv);
	snprintf(path, sizeof(path), "%s/compare.json", out);
	j = json_object_from_file(path);
	cr_assert(j);
	cr_assert_eq(json_object_array_length(json_object_object_get(j, "folders")), 3);
	cr_assert_gt(json_object_array_length(json_object_object_get(j, "provenance_warnings")), 0);
	cr_assert_eq(json_object_array_length(json_object_object_get(j, "verdict")), 4,
		     "B and C against A, for off and on");
	t = json_object_object_get(j, "tables");
	cr_assert_gt(json_object_array_length(t), 10);
	for (size_t i = 0; i < json_object_array_length(t); i++) {
		struct json_object *ti = json_object_array_get_idx(t, i);

		if (strcmp(json_object_get_string(json_object_object_get(ti, "metric")), "elapsed_s") ||
		    strcmp(json_object_get_string(json_object_object_get(ti, "variant")), "on"))
			continue;
		cells = json_object_object_get(ti, "folders");
		cell = json_object_array_get_idx(cells, 2);
		cr_assert_float_eq(json_object_get_double(json_object_object_get(cell, "Amean")), 22,
				   1e-9);
		cr_assert(json_object_get_boolean(json_object_object_get(cell, "significant")),
			  "significant after Holm's correction too");
		cr_assert_gt(json_object_get_double(json_object_object_get(cell, "p_holm")),
			     json_object_get_double(json_object_object_get(cell, "p_value")));
	}
	json_object_put(j);
}

/*
 * Without --out the report goes to a new folder under the tree's
 * results/, and to stdout; the folders compared stay as they were, byte
 * for byte. Earlier versions wrote compare-*.md into the last one.
 */
Test(compare, leaves_its_inputs_unchanged)
{
	char *argv[] = { "compare", dirs[0], dirs[1], dirs[2] };
	char root[PATH_MAX], cmd[PATH_MAX * 3];
	uint64_t before[3];

	snprintf(root, sizeof(root), "%s/root", tmpdir);
	setenv("BNB_ROOT", root, 1);
	snapshot(before);
	cr_redirect_stdout();
	cr_redirect_stderr();
	cr_assert_eq(cmd_compare(4, argv), 0);
	unchanged(before);
	snprintf(cmd, sizeof(cmd), "test -s %s/results/*-compare-a+b+c/compare.md && "
		 "test -s %s/results/*-compare-a+b+c/compare.json", root, root);
	sh(cmd);
	fflush(stdout);
	cr_assert_stdout_neq_str("");
	unsetenv("BNB_ROOT");
}

/* --out inside a folder compared (or that folder) is refused, and nothing is created. */
Test(compare, refuses_to_write_into_an_input)
{
	char inside[PATH_MAX * 2], *argv[] = { "compare", "--out", inside, dirs[0], dirs[1] };
	uint64_t before[3];

	snapshot(before);
	cr_redirect_stdout();
	cr_redirect_stderr();
	snprintf(inside, sizeof(inside), "%s/new/report", dirs[1]);
	cr_assert_eq(cmd_compare(5, argv), 2);
	snprintf(inside, sizeof(inside), "%s/../b", dirs[0]);
	cr_assert_eq(cmd_compare(5, argv), 2);
	unchanged(before);
}

/*
 * Two folders, the second a copy whose "on" runs took twice as long: the
 * difference has its sign, is significant, and the untouched "off" runs
 * compare as equal.
 */
Test(compare, two_folders_signed_difference)
{
	const char *d[2] = { dirs[0], dirs[1] };
	const struct cmp_row *row;
	char cmd[PATH_MAX * 2], err[512];
	struct cmp c;

	snprintf(cmd, sizeof(cmd), "sed -i -e 's/work_s=8 /work_s=16 /' -e 's/work_s=9 /work_s=18 /' "
		 "-e 's/work_s=10 /work_s=20 /' '%s'/runs/on/rep[123]/out.log", dirs[1]);
	sh(cmd);
	cr_assert_eq(cmp_load(&c, d, 2, err, sizeof(err)), 0, "%s", err);
	cmp_build(&c);
	row = row_of(&c, "on", "work_s");
	cr_assert_float_eq(row->cell[0].v[CS_AMEAN], 9, 1e-9);
	cr_assert_float_eq(row->cell[1].v[CS_AMEAN], 18, 1e-9);
	cr_assert_float_eq(row->cell[1].pct[CS_AMEAN], 100, 1e-9, "B against A, signed");
	cr_assert(row->cell[1].w.significant);
	cr_assert_float_eq(row->cell[1].w.diff, 9, 1e-9);
	row = row_of(&c, "off", "work_s");
	cr_assert_float_eq(row->cell[1].pct[CS_AMEAN], 0, 1e-12);
	cr_assert_float_eq(row->cell[1].w.p, 1, 1e-9);
	cmp_free(&c);
}

/* A's on runs at 12000 per host second, B's at 24000. */
static void on_host_rates(void)
{
	char cmd[PATH_MAX * 3];

	snprintf(cmd, sizeof(cmd), "for d in '%s'/runs/on/rep[123]; do echo host_rate=12000 >> $d/status; "
		 "done; for d in '%s'/runs/on/rep[123]; do echo host_rate=24000 >> $d/status; done",
		 dirs[0], dirs[1]);
	sh(cmd);
}

/* compare A B into tmpdir/report: its compare.md, for the caller to free. */
static char *compare_md(void)
{
	char out[PATH_MAX], path[PATH_MAX * 2];
	char *argv[] = { "compare", "--out", out, dirs[0], dirs[1] };

	snprintf(out, sizeof(out), "%s/report", tmpdir);
	cr_redirect_stdout();
	cr_redirect_stderr();
	cr_assert_eq(cmd_compare(5, argv), 0);
	snprintf(path, sizeof(path), "%s/compare.md", out);
	return slurp(path);
}

/*
 * B's "on" guests ran twice as slow against the host as A's (12000 / {120,
 * 115, 110} against 24000 / the same: 104x and 209x; the host was
 * busier): the verdict says so beside its figures; "off" recorded no host
 * rate and gets no such line.
 */
Test(compare, verdict_cautions_when_the_host_load_differed)
{
	char *md, *caution;

	on_host_rates();
	md = compare_md();
	caution = strstr(md, "- caution: the time dilation differed, B on 209x and A on 104x");
	cr_assert(caution, "%s", md);
	cr_assert_not(strstr(caution + 1, "- caution"), "off has no host rate: no caution");
	cr_assert(strstr(md, "**B on** against **A on**") < caution);
	free(md);
}

Test(compare, refuses)
{
	char *one[] = { "compare", dirs[0] }, *bad[] = { "compare", dirs[0], "/nonexistent" };

	cr_redirect_stderr();
	cr_redirect_stdout();
	cr_assert_eq(cmd_compare(2, one), 2);
	cr_assert_eq(cmd_compare(3, bad), 2);
}

/* One folder twice, under any spelling, compares nothing with itself. */
Test(compare, refuses_a_folder_twice)
{
	char again[PATH_MAX * 4], err[512];
	const char *d[3] = { dirs[0], dirs[1], again };
	struct cmp c;

	snprintf(again, sizeof(again), "%s/./", dirs[0]);
	cr_assert_eq(cmp_load(&c, d, 3, err, sizeof(err)), -1);
	cr_assert(strstr(err, " is given twice (as folders A and C)"), "%s", err);
}

/* A's and B's "on" runs under deterministic timing, as their provenance says. */
static void on_deterministic(void)
{
	char rundir[PATH_MAX * 4];

	for (int d = 0; d < 2; d++)
		for (int rep = 1; rep <= 3; rep++) {
			struct xmetrics x = { 0 };
			struct json_object *p = json_object_new_object();

			json_object_object_add(p, "timing", json_object_new_string("deterministic"));
			snprintf(rundir, sizeof(rundir), "%s/runs/on/rep%d", dirs[d], rep);
			cr_assert_eq(run_summary_add(rundir, p, &x, NULL), 0);
		}
}

/*
 * The same host rates under deterministic timing: the guest's clock counts
 * its work, so a host that ran slower reaches no timing and the verdict
 * has no caution.
 */
Test(compare, no_host_caution_under_deterministic_timing)
{
	char *md;

	on_host_rates();
	on_deterministic();
	md = compare_md();
	cr_assert(strstr(md, "timing deterministic"), "%s", md);
	cr_assert_not(strstr(md, "- caution"), "%s", md);
	free(md);
}

/* The verdict entry of compare.json for VARIANT of folder B against A. */
static struct json_object *verdict_json(struct json_object *j, const char *variant)
{
	struct json_object *arr = json_object_object_get(j, "verdict");

	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *o = json_object_array_get_idx(arr, i);
		const char *b = json_object_get_string(json_object_object_get(o, "variant"));

		if (b && strstr(b, variant))
			return o;
	}
	cr_assert_fail("no verdict for %s", variant);
	return NULL;
}

static struct json_object *compare_json(void)
{
	char path[PATH_MAX * 2];
	struct json_object *j;

	snprintf(path, sizeof(path), "%s/report/compare.json", tmpdir);
	j = json_object_from_file(path);
	cr_assert(j, "%s", path);
	return j;
}

/*
 * Deterministic repetitions without start_jitter are one run n times: the
 * verdict names start_jitter beside a CI of zero width; "off" ran under
 * wall timing (no provenance) and gets no such line.
 */
Test(compare, verdict_names_start_jitter_when_repetitions_are_identical)
{
	struct json_object *j;
	char *md, *line;

	on_deterministic();
	md = compare_md();
	line = strstr(md, "- repetitions identical (deterministic, start_jitter off): the CI "
		      "has zero width");
	cr_assert(line, "%s", md);
	cr_assert(strstr(md, "**B on** against **A on**") < line, "%s", md);
	cr_assert_not(strstr(line + 10, "repetitions identical"), "off: wall timing");
	cr_assert_not(strstr(md, "start_jitter on"), "%s", md);
	free(md);
	j = compare_json();
	cr_assert(json_object_get_boolean(json_object_object_get(verdict_json(j, "on"),
								 "identical_repetitions")));
	cr_assert_not(json_object_get_boolean(json_object_object_get(verdict_json(j, "off"),
								     "identical_repetitions")));
	json_object_put(j);
}

/* With start_jitter = on the repetitions sample the tick's phase: it says so. */
Test(compare, verdict_says_start_jitter_on)
{
	char cmd[PATH_MAX * 3];
	struct json_object *j, *o;
	char *md;

	on_deterministic();
	/* [on] is the last section: the key is "on"'s */
	snprintf(cmd, sizeof(cmd), "for d in '%s' '%s'; do echo 'start_jitter = on' >> "
		 "$d/experiment.ini; done", dirs[0], dirs[1]);
	sh(cmd);
	md = compare_md();
	cr_assert(strstr(md, "timing deterministic, start_jitter on."), "%s", md);
	cr_assert_not(strstr(md, "repetitions identical"), "%s", md);
	free(md);
	j = compare_json();
	o = verdict_json(j, "on");
	cr_assert(json_object_get_boolean(json_object_object_get(o, "start_jitter")));
	cr_assert(json_object_get_boolean(json_object_object_get(o, "baseline_start_jitter")));
	cr_assert_not(json_object_get_boolean(json_object_object_get(o, "identical_repetitions")));
	json_object_put(j);
}
