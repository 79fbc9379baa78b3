// SPDX-License-Identifier: GPL-2.0
/*
 * One submission: its task list (tasklist.h), one `sbatch --array` of
 * slurm/task.sh over it, and the job's record in every folder it holds
 * runs of.
 */
#include <errno.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "cmd.h"
#include "lib/argv.h"
#include "lib/err.h"
#include "lib/path.h"
#include "lib/util.h"
#include "record.h"
#include "run/fsio.h"
#include "slurm.h"
#include "tasklist.h"

int slurm_opts_split(struct slurm_opts *o, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			o->sbatch = argv + i + 1;
			o->n_sbatch = argc - i - 1;
			return i;
		}
	return argc;
}

int slurm_check(const struct slurm_opts *o)
{
	static char *const version[] = { "sbatch", "--version", NULL };
	static const char *const ours[] = { "-a", "--array", "--wrap" };
	struct slurm_out r;
	char line[512];
	int rc;

	for (int i = 0; i < o->n_sbatch; i++)
		for (size_t k = 0; k < ARRAY_SIZE(ours); k++)
			if (!strncmp(o->sbatch[i], ours[k], strlen(ours[k]))) {
				prog_error("--slurm: '%s' is bnb-run's to give: the array is one task "
					   "a run", o->sbatch[i]);
				return -1;
			}
	rc = slurm_cmd(version, &r);
	if (rc)
		prog_error("--slurm: %s%s", rc < 0 ? "" : "sbatch --version failed: ",
			   slurm_oneline(r.err, line, sizeof(line)));
	slurm_out_free(&r);
	return rc ? -1 : 0;
}

void slurm_batch_add(struct slurm_batch *b, const char *dir, const int *ids, int n,
		     int total, int cpus)
{
	struct slurm_part *p;

	b->parts = realloc(b->parts, (size_t)(b->n + 1) * sizeof(*b->parts));
	if (!b->parts)
		abort();
	p = &b->parts[b->n++];
	snprintf(p->dir, sizeof(p->dir), "%s", dir);
	p->n = ids ? n : total;
	p->total = total;
	p->ids = calloc((size_t)p->n + 1, sizeof(*p->ids));
	if (!p->ids)
		abort();
	for (int i = 0; i < p->n; i++)
		p->ids[i] = ids ? ids[i] : i + 1;
	if (cpus > b->cpus)
		b->cpus = cpus;
}

void slurm_batch_free(struct slurm_batch *b)
{
	for (int i = 0; i < b->n; i++)
		free(b->parts[i].ids);
	free(b->parts);
	b->parts = NULL;
	b->n = 0;
}

/* Whether PATH is on storage that only this host sees. */
static bool node_local(const char *path)
{
	static const char *const local[] = { "/tmp/", "/var/tmp/", "/dev/shm/", "/run/" };
	struct statfs s;

	for (size_t i = 0; i < ARRAY_SIZE(local); i++)
		if (!strncmp(path, local[i], strlen(local[i])))
			return true;
	return !statfs(path, &s) && (s.f_type == TMPFS_MAGIC || s.f_type == RAMFS_MAGIC);
}

/* The cluster's nodes (sinfo), 0 when it cannot say. */
static int cluster_nodes(void)
{
	static char *const argv[] = { "sinfo", "--noheader", "--Node", "--format=%N", NULL };
	struct slurm_out r;
	char *line, *save = NULL, *seen[4];
	int n = 0;

	if (!slurm_cmd(argv, &r))
		for (line = strtok_r(r.out, "\n", &save); line && n < 2;
		     line = strtok_r(NULL, "\n", &save)) {
			int i;

			for (i = 0; i < n && strcmp(seen[i], line); i++)
				;
			if (i == n)
				seen[n++] = line;
		}
	slurm_out_free(&r);
	return n;
}

/* On a cluster of more than one node, a folder under /tmp is one node's. */
static void warn_local(const char *what[], const char *path[], int n)
{
	int nodes = -1;

	for (int i = 0; i < n; i++) {
		if (!node_local(path[i]))
			continue;
		if (nodes < 0)
			nodes = cluster_nodes();
		if (nodes > 1)
			fprintf(stderr, "bnb-run: warning: %s %s is on this host's own storage "
				"(/tmp, /run or a tmpfs) and this cluster has more than one node: "
				"a task on another node fails (exit %d) unless the path is shared\n",
				what[i], path[i], 3 + i);
	}
}

static void sbatch_args(struct argv *a, const struct slurm_batch *b, const char *spec,
			const char *cache, const struct slurm_opts *o)
{
	char path[PATH_MAX];

	argv_add(a, "sbatch");
	argv_add(a, "--parsable");
	argv_add(a, "--job-name=%s", b->name);
	argv_add(a, "--array=%s", spec);
	argv_add(a, "--chdir=%s", b->workdir);
	argv_add(a, "--output=task-%%A_%%a.log");	/* in --chdir */
	argv_add(a, "--cpus-per-task=%d", b->cpus > 0 ? b->cpus : 1);
	/* a failed or killed task's run stays incomplete: --resume reruns it */
	argv_add(a, "--no-requeue");
	for (int i = 0; i < o->n_sbatch; i++)
		argv_add(a, "%s", o->sbatch[i]);
	argv_add(a, "%s", root_path(path, sizeof(path), "bench/runner/slurm/task.sh"));
	argv_add(a, "%s", root_path(path, sizeof(path), "build/bin/bnb-run"));
	argv_add(a, "%s", cache);
	argv_add(a, "%s", b->list);
}

/* Record B's job in every folder it holds runs of. */
static void record(const struct slurm_batch *b)
{
	struct slurm_record r = { .job = b->job };
	char err[ERRLEN];

	snprintf(r.cluster, sizeof(r.cluster), "%s", b->cluster);
	snprintf(r.workdir, sizeof(r.workdir), "%s", b->workdir);
	snprintf(r.list, sizeof(r.list), "%s", b->list);
	for (int i = 0; i < b->n; i++)
		if (slurm_record_add(b->parts[i].dir, &r, err, sizeof(err)))
			prog_error("%s; the job runs all the same (scancel %ld stops it)", err,
				   b->job);
}

/* sbatch --parsable's "JOB[;CLUSTER]" into B; -1 when it is not that. */
static int parse_id(const char *out, struct slurm_batch *b)
{
	char *end;

	b->job = strtol(out, &end, 10);
	if (end == out || b->job <= 0 || (*end && *end != ';' && *end != '\n'))
		return -1;
	b->cluster[0] = 0;
	if (*end == ';')
		snprintf(b->cluster, sizeof(b->cluster), "%.*s", (int)strcspn(end + 1, "\n"),
			 end + 1);
	return 0;
}

/* Run sbatch; 0 with B's job id, or 2 having shown why not. */
static int sbatch(struct slurm_batch *b, const char *spec, const char *cache,
		  const struct slurm_opts *o)
{
	struct argv a = { 0 };
	struct slurm_out r;
	char line[1024];
	int rc;

	sbatch_args(&a, b, spec, cache, o);
	rc = slurm_cmd(a.v, &r);
	argv_free(&a);
	if (!rc && parse_id(r.out, b)) {
		prog_error("sbatch said '%s', not a job id", slurm_oneline(r.out, line, sizeof(line)));
		rc = 1;
	} else if (rc) {
		prog_error("%s%s", rc < 0 ? "--slurm: " : "sbatch refused the array: ",
			   slurm_oneline(r.err, line, sizeof(line)));
	}
	slurm_out_free(&r);
	if (rc)
		unlink(b->list);	/* nothing was submitted with it */
	return rc ? 2 : 0;
}

int slurm_submit(struct slurm_batch *b, const char *top, const struct slurm_opts *o)
{
	char cache[PATH_MAX], tree[PATH_MAX], err[ERRLEN], why[256], *spec;
	const char *what[] = { "the tree", "the results folder", "the build cache" };
	const char *paths[] = { tree, top, cache };
	int *k = NULL, nk = 0, rc;

	cache_root(cache, sizeof(cache));
	snprintf(tree, sizeof(tree), "%s/", bnb_root());
	if (access(cache, F_OK)) {
		prog_error("--slurm: the build cache %s is not there: build first (./run.sh, "
			   "or make qemu and make kernel)", cache);
		return 2;
	}
	snprintf(b->workdir, sizeof(b->workdir), "%s/slurm", top);
	if (mkdir_p(b->workdir, 0755)) {
		prog_error("cannot create %s: %s", b->workdir,
			   write_errstr(b->workdir, errno, why, sizeof(why)));
		return 2;
	}
	if (slurm_list_write(b, &k, &nk, err, sizeof(err))) {
		prog_error("%s", err);
		free(k);
		return 2;
	}
	warn_local(what, paths, 3);
	spec = slurm_array_spec(k, nk);
	rc = sbatch(b, spec, cache, o);
	if (!rc) {
		printf("bnb-run: Slurm job %ld%s%s: %d runs, array tasks %s; task logs in "
		       "%s/task-%ld_K.log\n", b->job, b->cluster[0] ? " on cluster " : "",
		       b->cluster, nk, spec, b->workdir, b->job);
		fflush(stdout);
		record(b);	/* said when it fails; the job runs all the same */
	}
	free(spec);
	free(k);
	return rc;
}
