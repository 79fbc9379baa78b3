// SPDX-License-Identifier: GPL-2.0
/*
 * What every plot file shares (plot_gp.h): a data file's columns, the
 * variants' colours, gnuplot's quoting, the plot elements of a `plot`
 * command, and the script that draws a body as PNG and SVG and runs
 * gnuplot on it.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plot_gp.h"
#include "run/fsio.h"
#include "runner.h"

static const char *const colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
};
#define N_COLORS (sizeof(colors) / sizeof(colors[0]))

/* Whether column COL (1-based) of data file REL has a finite value. */
bool plot_data_has(const struct plot_ctx *p, const char *rel, int col)
{
	char path[PATH_MAX * 3], line[4096], *tok, *save;
	bool found = false;
	FILE *f;
	int c;

	snprintf(path, sizeof(path), "%s/%s", p->dir, rel);
	f = fopen(path, "r");
	while (f && !found && fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		save = NULL;
		for (c = 1, tok = strtok_r(line, " \n", &save); tok && c < col;
		     c++, tok = strtok_r(NULL, " \n", &save))
			;
		found = tok && strcmp(tok, "?");
	}
	if (f)
		fclose(f);
	return found;
}

const char *plot_color(const struct results *r, const char *variant)
{
	int i;

	for (i = 0; i < r->exp.n_variants; i++)
		if (!strcmp(r->exp.variants[i].name, variant))
			return colors[i % N_COLORS];
	return colors[0];
}

const char *gp_str(char *buf, size_t len, const char *text)
{
	size_t used = 0;

	if (!len)
		return buf;
	for (; *text; text++) {
		size_t need = *text == '\'' ? 2 : 1;

		if (used + need >= len)
			break;
		/* a line break would end the gnuplot command mid-string */
		buf[used++] = *text == '\n' || *text == '\r' ? ' ' : *text;
		if (need == 2)
			buf[used++] = '\'';
	}
	buf[used] = 0;
	return buf;
}

/* Out of memory leaves E without a stream: nothing is added, nothing drawn. */
void gp_elems_open(struct gp_elems *e)
{
	memset(e, 0, sizeof(*e));
	e->f = open_memstream(&e->buf, &e->len);
}

void gp_elem(struct gp_elems *e, const char *fmt, ...)
{
	va_list ap;

	if (!e->f)
		return;
	fputs(e->n++ ? ", \\\n     " : "plot ", e->f);
	va_start(ap, fmt);
	vfprintf(e->f, fmt, ap);
	va_end(ap);
}

char *gp_elems_close(struct gp_elems *e)
{
	if (!e->f)
		return NULL;
	if (e->n)
		fputc('\n', e->f);
	if (fclose(e->f)) {
		free(e->buf);
		e->buf = NULL;
		e->n = 0;
	}
	e->f = NULL;
	return e->buf;
}

void plot_write_failed(struct plot_ctx *p, const char *path, int errnum)
{
	char why[256];

	fprintf(stderr, "bnb-run: cannot write %s: %s\n", path,
		write_errstr(path, errnum, why, sizeof(why)));
	p->failed++;
}

bool plot_file_done(struct plot_ctx *p, FILE *f, const char *path)
{
	if (!f)
		return false;
	if (!fclose_checked(f))
		return true;
	plot_write_failed(p, path, errno);
	return false;
}

/*
 * Whether gnuplot's output PATH is whole: a PNG ends with its IEND
 * chunk, an SVG with </svg>. gnuplot exits 0 when a full disk cut them.
 */
static bool image_whole(const char *path)
{
	static const char png_end[] = "IEND\xae\x42\x60\x82";
	const char *dot = strrchr(path, '.');
	bool png = dot && !strcmp(dot, ".png");
	char tail[16] = "";
	FILE *f = fopen(path, "rb");
	long n = 0;

	if (f && !fseek(f, -(long)(sizeof(tail) - 1), SEEK_END))
		n = (long)fread(tail, 1, sizeof(tail) - 1, f);
	if (f)
		fclose(f);
	if (n != (long)sizeof(tail) - 1)
		return false;
	if (png)
		return !memcmp(tail + n - (sizeof(png_end) - 1), png_end, sizeof(png_end) - 1);
	return memmem(tail, (size_t)n, "</svg>", 6) != NULL;
}

/* NAME.png and NAME.svg whole, or removed and said: a cut plot is no plot. */
static bool images_whole(struct plot_ctx *p, const char *name)
{
	static const char *const exts[] = { "png", "svg" };
	char path[PATH_MAX * 2], why[256];
	bool whole = true;

	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s.%s", p->dir, name, exts[i]);
		if (image_whole(path))
			continue;
		whole = false;
		fprintf(stderr, "bnb-run: gnuplot's %s is cut short or missing%s%s; removed\n",
			path, space_free(p->dir) < RESERVE_BYTES ? ": " : "",
			space_free(p->dir) < RESERVE_BYTES ?
			write_errstr(path, ENOSPC, why, sizeof(why)) : "");
		unlink(path);
	}
	return whole;
}

static int run_gnuplot(struct plot_ctx *p, const char *name)
{
	char log[PATH_MAX * 2], script[PATH_MAX + 32];
	pid_t pid;
	int status;

	snprintf(log, sizeof(log), "%s/gnuplot.log", p->dir);
	snprintf(script, sizeof(script), "%s.gp", name);
	pid = fork();
	if (!pid) {
		if (!freopen(log, "a", stderr) || chdir(p->dir))
			_exit(127);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "bnb-run: gnuplot %s/%s failed (see %s)\n", p->dir, script, log);
		p->failed++;
		return -1;
	}
	if (!images_whole(p, name)) {
		p->failed++;
		return -1;
	}
	p->made++;
	return 0;
}

/*
 * Write NAME.gp: common settings, then BODY for PNG and again for SVG,
 * and run it. BODY is freed.
 */
int gp_emit(struct plot_ctx *p, const char *name, char *body, int height)
{
	char path[PATH_MAX * 2], out[GP_STR_MAX];
	FILE *f;

	if (!body)
		return -1;	/* out of memory composing it */
	gp_str(out, sizeof(out), name);
	snprintf(path, sizeof(path), "%s/%s.gp", p->dir, name);
	f = fopen(path, "w");
	if (!f) {
		free(body);
		return -1;
	}
	fprintf(f, "# generated by bnb-run for %s; re-run: cd %s && gnuplot %s.gp\n"
		"set datafile missing '?'\nset grid\nset key outside right top\n"
		"set termoption noenhanced\n\n"
		"set terminal pngcairo noenhanced size 1100,%d font 'sans,10'\n"
		"set output '%s.png'\n%s\n"
		"set terminal svg noenhanced size 1100,%d dynamic font 'sans,10'\n"
		"set output '%s.svg'\n%s\nset output\n",
		p->r->dir, p->dir, name, height, out, body, height, out, body);
	free(body);
	if (!plot_file_done(p, f, path))
		return -1;
	return run_gnuplot(p, name);
}
