// SPDX-License-Identifier: GPL-2.0
/*
 * workloads/registry.def is the one list of the project's workloads: the
 * documentation's table of the programs names exactly its rows, in its
 * order, and holds each program's options table as the program prints it
 * (the built guest programs run here: static x86_64 binaries); the runner
 * takes each row (and nothing else) for a project workload whose summary
 * line holds the metrics.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>

#include "docblock.h"
#include "extract/extract.h"
#include "lib/util.h"

static const char *const registry[] = {
#define WORKLOAD(name) #name,
#include "registry.def"
#undef WORKLOAD
};

/* The first cell of each row of the Markdown table @doc, after its header. */
static int first_column(char *doc, char **names, int max)
{
	char *line, *save = NULL;
	int n = 0, row = 0;

	for (line = strtok_r(doc, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != '|' || row++ < 2)	/* the header and its rule */
			continue;
		line += strspn(line, "| ");
		line[strcspn(line, " |")] = '\0';
		if (n < max)
			names[n] = line;
		n++;
	}
	return n;
}

Test(registry, readme_table_lists_the_registry_in_order)
{
	char *doc = doc_block("workloads/README.md", "workload programs"), *names[64];
	int n, i;

	cr_assert_not_null(doc, "no <!-- workload programs --> block in workloads/README.md");
	n = first_column(doc, names, 64);
	for (i = 0; i < n && i < (int)ARRAY_SIZE(registry); i++)
		cr_assert_str_eq(names[i], registry[i], "workloads/README.md's row %d is '%s', "
				 "workloads/registry.def's '%s'", i + 1, names[i], registry[i]);
	cr_assert_eq(n, (int)ARRAY_SIZE(registry), "workloads/README.md lists %d programs, "
		     "workloads/registry.def %zu", n, ARRAY_SIZE(registry));
	free(doc);
}

/* A row as the build's sed reads it: "WORKLOAD(name)" and nothing else. */
static bool build_row(const char *line, char *name, size_t len)
{
	size_t n;

	if (strncmp(line, "WORKLOAD(", 9))
		return false;
	line += 9;
	n = strspn(line, "abcdefghijklmnopqrstuvwxyz0123456789_");
	if (!n || n >= len || strcmp(line + n, ")\n"))
		return false;
	memcpy(name, line, n);
	name[n] = '\0';
	return true;
}

/* What the preprocessor sees is what workloads/module.mk builds. */
Test(registry, the_build_reads_every_row)
{
	char path[4096], line[256], name[64];
	size_t i = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/workloads/registry.def", BNB_SRC_DIR);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "WORKLOAD(") || strstr(line, "WORKLOAD(name)"))
			continue;	/* prose, and the comment's pattern */
		cr_assert(build_row(line, name, sizeof(name)), "registry.def: '%.*s' is not "
			  "one 'WORKLOAD(name)' alone on its line", (int)strcspn(line, "\n"), line);
		cr_assert(i < ARRAY_SIZE(registry));
		cr_assert_str_eq(name, registry[i], "build row %zu '%s', C row '%s'", i + 1, name,
				 registry[i]);
		i++;
	}
	fclose(f);
	cr_assert_eq(i, ARRAY_SIZE(registry), "the build reads %zu rows, C %zu", i,
		     ARRAY_SIZE(registry));
}

Test(registry, runner_takes_every_row_for_a_project_workload)
{
	char command[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(registry); i++) {
		snprintf(command, sizeof(command), "%s --size 4M", registry[i]);
		cr_assert(is_project_workload(command), "'%s' not a project workload", command);
		snprintf(command, sizeof(command), "/opt/bnb/bin/%s", registry[i]);
		cr_assert(is_project_workload(command), "'%s' not a project workload", command);
		snprintf(command, sizeof(command), "%sx --size 4M", registry[i]);
		cr_assert(!is_project_workload(command), "'%s' taken for a project workload",
			  command);
	}
	cr_assert(!is_project_workload("perf bench numa mem -p 2"));
	cr_assert(!is_project_workload("stress-ng --vm 1"));
}

/* What `PROGRAM ARGS` prints on stdout (malloc'd); its exit status in *status. */
static char *run_program(const char *name, const char *args, int *status)
{
	char cmd[512], *text = NULL;
	size_t len = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s/%s %s", BNB_GUEST_BIN, name, args);
	p = popen(cmd, "r");
	cr_assert_not_null(p, "%s", cmd);
	if (getdelim(&text, &len, '\0', p) < 0) {
		free(text);
		text = strdup("");
	}
	*status = pclose(p);
	return text;
}

/* workloads/README.md's "NAME options" tables are the programs' own. */
Test(registry, readme_option_tables_are_the_programs_help)
{
	char block[64], *doc, *now;
	int status;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(registry); i++) {
		now = run_program(registry[i], "--help=markdown", &status);
		cr_assert_eq(status, 0, "%s --help=markdown: exit status %d", registry[i], status);
		snprintf(block, sizeof(block), "%s options", registry[i]);
		doc = doc_block("workloads/README.md", block);
		cr_assert_not_null(doc, "no <!-- %s --> block in workloads/README.md", block);
		cr_assert_str_eq(doc, now, "workloads/README.md is stale: put build/guest/bin/%s "
				 "--help=markdown between its <!-- %s --> markers", registry[i],
				 block);
		free(doc);
		free(now);
	}
}

/* The arguments a program needs besides its defaults to be runnable. */
static const char *needs(const char *name)
{
	return strcmp(name, "phases") ? "" : "--phase-s 1";
}

/*
 * --check: every program checks its options against the topology given
 * and exits 0 having printed nothing, or 2 with one line on stderr: it
 * never starts the work (these run on the host, whose topology is not
 * the one given).
 */
Test(registry, every_program_checks_without_running)
{
	char args[256], *out;
	int status;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(registry); i++) {
		snprintf(args, sizeof(args), "%s --check 2:1:512M 2>/dev/null", needs(registry[i]));
		out = run_program(registry[i], args, &status);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0 && !*out,
			  "%s %s: status %d, printed '%s'", registry[i], args, status, out);
		free(out);
		snprintf(args, sizeof(args), "%s --check 2:1:512M --bogus 2>&1 >/dev/null",
			 needs(registry[i]));
		out = run_program(registry[i], args, &status);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 2, "%s %s: status %d",
			  registry[i], args, status);
		cr_assert(strstr(out, "unknown option '--bogus'") && strchr(out, '\n') ==
			  out + strlen(out) - 1, "%s %s: '%s' is not one line", registry[i], args, out);
		free(out);
		/* more than the topology given holds (this host may have room for it) */
		snprintf(args, sizeof(args), "%s --check 2:1:512M --size 2G 2>&1 >/dev/null",
			 needs(registry[i]));
		out = run_program(registry[i], args, &status);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 2 && strstr(out, "MiB"),
			  "%s %s: status %d, '%s'", registry[i], args, status, out);
		free(out);
	}
}
