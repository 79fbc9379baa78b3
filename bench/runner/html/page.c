// SPDX-License-Identifier: GPL-2.0
/*
 * The page (html.h): the report's Markdown as HTML, then each plot under
 * its name and what to look for in it (guide.c), its SVG inline (svg.c).
 * Plots are what DIR/plots holds (*.svg, and the *.png or *.gp of a plot
 * whose SVG went missing), in the guide's order, the others after them
 * by name, so a new plot shows without a change here.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guide.h"
#include "html.h"
#include "markdown.h"
#include "svg.h"
#include "run/fsio.h"

#define MAX_PLOTS 512

static const char style[] =
	"body{margin:0;font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
	"color:#1b1f23;background:#fff}\n"
	"main{max-width:1180px;margin:0 auto;padding:.5em 1.5em 3em}\n"
	"nav{background:#f4f6f8;border-bottom:1px solid #d8dde3;padding:.4em 1.5em;"
	"font-size:13px}\n"
	"nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.2em 1.2em}\n"
	"nav ul ul{display:inline-flex;gap:.2em .8em;margin-left:.4em}\n"
	"a{color:#0a58ca;text-decoration:none}a:hover{text-decoration:underline}\n"
	"h1{font-size:1.6em;margin:.6em 0 .2em}\n"
	"h2{font-size:1.3em;margin:1.6em 0 .5em;padding-bottom:.2em;"
	"border-bottom:1px solid #d8dde3}\n"
	"h3{font-size:1.08em;margin:1.3em 0 .4em}\n"
	".verdict{background:#f5f9ff;border:1px solid #cddcf0;border-radius:6px;"
	"padding:0 1.2em .4em;margin-top:1em}\n.verdict h2{border:none;margin-top:.8em}\n"
	"table{border-collapse:collapse;margin:.4em 0 1.2em;font-size:13px;display:block;"
	"overflow-x:auto;max-width:100%}\n"
	"th,td{border:1px solid #d0d7de;padding:.2em .55em;vertical-align:top;"
	"font-variant-numeric:tabular-nums}\n"
	"th{background:#f0f3f6;text-align:left}\n"
	"tbody tr:nth-child(even){background:#fafbfc}\n"
	"code{font:.92em ui-monospace,'DejaVu Sans Mono',monospace;background:#f2f4f6;"
	"padding:0 .25em;border-radius:3px}\n"
	"pre{background:#f6f8fa;padding:.6em;overflow-x:auto}pre code{background:none}\n"
	"figure{margin:1.2em 0 2em;padding:0}\n"
	"figcaption{margin-bottom:.3em}\n"
	"figure svg{display:block;width:100%;height:auto;border:1px solid #e1e4e8}\n"
	".missing{color:#b42318;border:1px dashed #e4a3a3;padding:.6em}\n";

struct plot {
	char name[NAME_MAX + 1];
	int rank;
};

static int by_rank(const void *a, const void *b)
{
	const struct plot *x = a, *y = b;

	return x->rank != y->rank ? x->rank - y->rank : strcmp(x->name, y->name);
}

/* The plot NAME stands for, from a file name, or 0 when it is no plot. */
static bool plot_name(const char *file, char *name, size_t len)
{
	static const char *const ext[] = { ".svg", ".png", ".gp" };
	size_t n = strlen(file), i, e;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		e = strlen(ext[i]);
		if (n > e && n - e < len && !strcmp(file + n - e, ext[i])) {
			snprintf(name, len, "%.*s", (int)(n - e), file);
			return true;
		}
	}
	return false;
}

/* The plots in DIR/plots, in the order they are shown; how many. */
static int find_plots(const char *dir, struct plot *p, int max)
{
	char path[PATH_MAX], name[NAME_MAX + 1];
	struct dirent *de;
	int n = 0, i;
	DIR *d;

	snprintf(path, sizeof(path), "%s/plots", dir);
	d = opendir(path);
	while (d && (de = readdir(d)) && n < max) {
		if (de->d_type != DT_REG && de->d_type != DT_UNKNOWN)
			continue;
		if (!plot_name(de->d_name, name, sizeof(name)))
			continue;
		for (i = 0; i < n && strcmp(p[i].name, name); i++)
			;
		if (i < n)
			continue;
		snprintf(p[n].name, sizeof(p[n].name), "%s", name);
		p[n++].rank = guide_rank(name);
	}
	if (d)
		closedir(d);
	qsort(p, n, sizeof(*p), by_rank);
	return n;
}

/* The id of plot I's figure: plot-NAME, or plot-I when NAME has other characters. */
static void plot_anchor(FILE *f, const struct plot *p, int i)
{
	if (strspn(p->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") ==
	    strlen(p->name))
		fprintf(f, "plot-%s", p->name);
	else
		fprintf(f, "plot-%d", i);
}

static void caption(FILE *f, const struct plot *p)
{
	const struct plot_guide *g = guide_find(p->name);

	fputs("<figcaption><strong>", f);
	html_text(f, p->name);
	fputs("</strong>", f);
	if (g) {
		fputs(": ", f);
		md_inline(f, g->shows);
		fputs(". <em>Look for:</em> ", f);
		md_inline(f, g->look_for);
		fputs(".", f);
	}
	fputs("</figcaption>\n", f);
}

static void figure(FILE *f, const char *dir, const struct plot *p, int i)
{
	char path[PATH_MAX * 2], prefix[32], why[512], *svg;

	snprintf(path, sizeof(path), "%s/plots/%.*s.svg", dir, NAME_MAX, p->name);
	snprintf(prefix, sizeof(prefix), "p%d-", i);
	svg = svg_inline(path, prefix, p->name, why, sizeof(why));
	fputs("<figure id=\"", f);
	plot_anchor(f, p, i);
	fputs("\">\n", f);
	caption(f, p);
	if (svg) {
		fputs(svg, f);
		fputc('\n', f);
	} else {
		fputs("<p class=\"missing\">Not drawn: <code>plots/", f);
		html_text(f, p->name);
		fputs(".svg</code> is ", f);
		html_text(f, why);
		fputs(" (<code>plots/gnuplot.log</code> may say why).</p>\n", f);
	}
	fputs("</figure>\n", f);
	free(svg);
}

static void nav(FILE *f, struct md_doc *md, const struct plot *p, int n)
{
	int i;

	fputs("<nav><ul>\n", f);
	md_toc(md, f);
	if (n) {
		fputs("<li><a href=\"#plots\">Plots</a>:<ul>\n", f);
		for (i = 0; i < n; i++) {
			fputs("<li><a href=\"#", f);
			plot_anchor(f, &p[i], i);
			fputs("\">", f);
			html_text(f, p[i].name);
			fputs("</a></li>\n", f);
		}
		fputs("</ul></li>\n", f);
	}
	fputs("</ul></nav>\n", f);
}

static void page(FILE *f, const char *dir, const char *name, struct md_doc *md)
{
	static struct plot plots[MAX_PLOTS];
	int n = find_plots(dir, plots, MAX_PLOTS), i;
	char title[512];

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"bnb-run\">\n<title>", f);
	html_text(f, md_title(md, title, sizeof(title))[0] ? title : name);
	fprintf(f, " - balancenuma-bench</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
	nav(f, md, plots, n);
	fputs("<main>\n", f);
	md_write(md, f);
	if (n)
		fputs("<section id=\"plots\">\n<h2>Plots</h2>\n<p>From <code>plots/</code> "
		      "(the PNG and gnuplot script of each beside it).</p>\n", f);
	for (i = 0; i < n; i++)
		figure(f, dir, &plots[i], i);
	if (n)
		fputs("</section>\n", f);
	fprintf(f, "</main>\n</body>\n</html>\n");
}

static char *slurp(const char *path, size_t *len)
{
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	n = getdelim(&text, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(text);
		/* an empty file reads as nothing at all */
		return errno ? NULL : strdup("");
	}
	*len = n;
	return text;
}

int html_write(const char *dir, const char *name)
{
	char src[PATH_MAX], path[PATH_MAX], tmp[PATH_MAX + 8], why[256];
	struct md_doc *md;
	size_t len = 0;
	char *text;
	FILE *f;
	int rc;

	snprintf(src, sizeof(src), "%s/%s.md", dir, name);
	snprintf(path, sizeof(path), "%s/%s.html", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	errno = 0;
	text = slurp(src, &len);
	if (!text) {
		fprintf(stderr, "bnb-run: cannot write %s: cannot read %s: %s\n", path, src,
			strerror(errno ? errno : ENOMEM));
		return -1;
	}
	md = md_parse(text, len);
	free(text);
	f = md ? fopen(tmp, "w") : NULL;
	if (!f) {
		fprintf(stderr, "bnb-run: cannot write %s: %s\n", tmp,
			md ? write_errstr(tmp, errno, why, sizeof(why)) : strerror(ENOMEM));
		md_free(md);
		return -1;
	}
	page(f, dir, name, md);
	md_free(md);
	rc = fclose_checked(f);
	if (!rc)
		rc = rename(tmp, path);
	if (rc) {
		fprintf(stderr, "bnb-run: cannot write %s: %s\n", path,
			write_errstr(tmp, errno, why, sizeof(why)));
		unlink(tmp);
	}
	return rc ? -1 : 0;
}
