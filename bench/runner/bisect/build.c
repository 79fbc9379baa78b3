// SPDX-License-Identifier: GPL-2.0
/* One commit's kernel through kernel/build.sh's ksrc: path (build.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "lib/path.h"
#include "proc.h"
#include "runner.h"

void tail_lines(const char *path, int n, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char *text = NULL, *p;
	size_t cap = 0, got;
	int lines = 0;

	out[0] = 0;
	if (!f)
		return;
	got = getdelim(&text, &cap, 0, f);	/* the whole file: logs are small */
	fclose(f);
	if ((ssize_t)got <= 0) {
		free(text);
		return;
	}
	while (got && text[got - 1] == '\n')
		text[--got] = 0;
	for (p = text + got; p > text; p--)
		if (p[-1] == '\n' && ++lines == n)
			break;
	/* the end of what does not fit is what matters */
	if (strlen(p) >= len)
		p += strlen(p) - len + 1;
	snprintf(out, len, "%s", p);
	free(text);
}

/* kernel/build.sh --ksrc TREE --patches none [EXTRA]: its first line of output. */
static int ask(const char *tree, const char *extra, char *out, size_t len)
{
	char script[PATH_MAX];
	const char *argv[] = { script, "--ksrc", tree, "--patches", "none", extra, NULL };
	struct proc_out p;
	int rc;

	root_path(script, sizeof(script), "kernel/build.sh");
	rc = proc_capture(argv, &p);
	snprintf(out, len, "%.*s", (int)strcspn(p.out, "\n"), p.out);
	if (rc)
		snprintf(out, len, "%.*s", (int)strcspn(p.err, "\n"), p.err);
	proc_out_free(&p);
	return rc ? -1 : 0;
}

/* kbuild's steps and compiled C files in LOG (its "  CC      file" lines). */
static void count_steps(const char *log, struct build_result *b)
{
	FILE *f = fopen(log, "r");
	char line[1024];

	b->steps = b->compiled = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] != ' ' || line[1] != ' ' || line[2] < 'A' || line[2] > 'Z')
			continue;
		b->steps++;
		b->compiled += !strncmp(line + 2, "CC ", 3);
	}
	fclose(f);
}

static int built(const char *tree, const char *folder, struct build_result *b)
{
	char script[PATH_MAX], log[PATH_MAX + 16], obj[PATH_MAX], kbuild[PATH_MAX + 16];
	const char *argv[] = { script, "--ksrc", tree, "--patches", "none", NULL };
	int rc;

	root_path(script, sizeof(script), "kernel/build.sh");
	snprintf(log, sizeof(log), "%s/build.log", folder);
	if (ask(tree, "--print-obj", obj, sizeof(obj)))
		obj[0] = 0;
	rc = proc_tee(argv, log, "  ");
	if (rc == 130 || runner_interrupted) {
		b->interrupted = true;
		return -1;
	}
	if (rc || access(b->image, R_OK)) {
		tail_lines(log, 15, b->log_end, sizeof(b->log_end));
		return -1;
	}
	snprintf(log, sizeof(log), "%s/build.log", obj);
	snprintf(kbuild, sizeof(kbuild), "%s/kbuild.log", folder);
	if (obj[0] && !copy_file(log, kbuild))
		count_steps(kbuild, b);
	return 0;
}

int bisect_build(const char *tree, const char *folder, struct build_result *b)
{
	char dir[PATH_MAX];
	double t0 = runner_now();
	int rc = 0;

	memset(b, 0, sizeof(*b));
	b->steps = b->compiled = -1;
	if (ask(tree, "--print-dir", dir, sizeof(dir)) || dir[0] != '/') {
		snprintf(b->log_end, sizeof(b->log_end), "kernel/build.sh --print-dir: %.1900s", dir);
		return -1;
	}
	snprintf(b->key, sizeof(b->key), "%s", strrchr(dir, '/') + 1);
	if (path_join(b->image, sizeof(b->image), dir, "bzImage"))
		return -1;
	b->cached = !access(b->image, R_OK);
	if (!b->cached)
		rc = built(tree, folder, b);
	b->secs = runner_now() - t0;
	b->ok = !rc;
	return rc;
}
