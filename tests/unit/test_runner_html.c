// SPDX-License-Identifier: GPL-2.0
/*
 * summary.html's builder (bench/runner/html): a gnuplot SVG set inline
 * (prolog gone, ids prefixed, every reference still finding its id, two
 * plots sharing no id), hostile SVG and Markdown kept from becoming
 * markup, a missing or damaged SVG named in the page, the plots in the
 * guide's order, the page put in place whole, and the README's plot
 * table the guide's.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "docblock.h"
#include "fixture_dir.h"
#include "html/guide.h"
#include "html/html.h"
#include "html/markdown.h"
#include "html/svg.h"
#include "scratch.h"

static char dir[PATH_MAX];

static void setup(void)
{
	scratch_make(dir, sizeof(dir), "html");
}

static void teardown(void)
{
	scratch_remove(dir);
}

TestSuite(html, .init = setup, .fini = teardown);

static char *slurp(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r");

	cr_assert_not_null(f, "%s: cannot open", path);
	cr_assert_geq(getdelim(&text, &len, '\0', f), 0, "%s: cannot read", path);
	fclose(f);
	return text;
}

static char *fixture_svg(const char *prefix, const char *title, char *why, size_t len)
{
	char path[PATH_MAX * 2];

	fixture_dir(path, sizeof(path), "html/gnuplot.svg");
	return svg_inline(path, prefix, title, why, len);
}

/* How many times NEEDLE occurs in HAY. */
static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)); hay += strlen(needle))
		n++;
	return n;
}

/* Whether TEXT has the attribute id="ID". */
static bool has_id(const char *text, const char *id, size_t len)
{
	char want[256];

	snprintf(want, sizeof(want), "id=\"%.*s\"", (int)len, id);
	return strstr(text, want) != NULL;
}

/* Every reference OPEN...CLOSE in TEXT (href="#x", url(#x)) names an id of TEXT with PREFIX. */
static int refs_resolve(const char *text, const char *open, char close, const char *prefix)
{
	const char *s = text;
	int n = 0;

	while ((s = strstr(s, open))) {
		const char *id = s + strlen(open), *end = strchr(id, close);

		cr_assert_not_null(end);
		cr_assert(!strncmp(id, prefix, strlen(prefix)), "reference %.*s lacks the prefix %s",
			  (int)(end - id), id, prefix);
		cr_assert(has_id(text, id, end - id), "reference to %.*s, which is no id here",
			  (int)(end - id), id);
		n++;
		s = end;
	}
	return n;
}

Test(html, svg_is_inlined_with_its_ids_prefixed)
{
	char why[256], *a = fixture_svg("p0-", "convergence", why, sizeof(why));
	char *b = fixture_svg("p1-", "cost", why, sizeof(why));
	const char *s;

	cr_assert_not_null(a, "%s", why);
	cr_assert_not_null(b, "%s", why);
	cr_assert(!strncmp(a, "<svg", 4), "the <svg> element comes first: %.60s", a);
	cr_assert_null(strstr(a, "<?xml"), "the XML prolog is dropped");
	cr_assert_null(strstr(a, "<!DOCTYPE"));
	cr_assert_null(strstr(a, "id=\"gpPt"), "no id is left as gnuplot wrote it");
	cr_assert_gt(count(a, "id=\"p0-gpPt"), 10, "gnuplot's point marks are there, prefixed");
	cr_assert(has_id(a, "p0-textbox", 10));
	/* the marks are drawn with `use` and the label's box through url(): both still resolve */
	cr_assert_gt(refs_resolve(a, "href=\"#", '"', "p0-"), 5);
	cr_assert_gt(refs_resolve(a, "url(#", ')', "p0-"), 0);
	cr_assert_gt(refs_resolve(b, "href=\"#", '"', "p1-"), 5);
	/* two plots in one page share no id */
	for (s = a; (s = strstr(s, "id=\"")); s += 4)
		cr_assert(!has_id(b, s + 4, strcspn(s + 4, "\"")), "%.20s is in both plots", s);
	cr_assert_not_null(strstr(a, "<title>convergence</title>"), "the plot is titled by its name");
	cr_assert_not_null(strstr(a, "fixture: points, a boxed label"), "its text is kept");
	cr_assert_not_null(strstr(a, "viewBox=\"0 0 600 400\""));
	free(a);
	free(b);
}

static char *svg_text(const char *text, char *why, size_t len)
{
	return svg_inline(scratch_write(dir, "x.svg", text), "p7-", "x", why, len);
}

Test(html, hostile_svg_loses_what_could_run_or_load)
{
	char why[256], *out = svg_text(
		"<?xml version=\"1.0\"?>\n<!DOCTYPE svg [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
		"onload=\"alert(1)\"><script>alert(2)</script><style>body{display:none}</style>"
		"<g id=\"a\" onclick=\"alert(3)\"><text>&e;ok &amp; &lt;b&gt;</text></g>"
		"<use xlink:href=\"http://example.org/x.svg#a\"/><use href=\"#a\"/>"
		"<image href=\"http://example.org/x.png\"/><rect style=\"fill:url(http://x/y)\"/>"
		"<foreignObject><div xmlns=\"http://www.w3.org/1999/xhtml\">html</div></foreignObject>"
		"<a xlink:href=\"javascript:alert(4)\"><text>link</text></a>"
		"<set attributeName=\"href\" to=\"javascript:alert(5)\"/><!-- c --><?pi x?></svg>",
		why, sizeof(why));
	static const char *const gone[] = {
		"onload", "onclick", "<script", "alert", "<style", "display:none", "example.org",
		"http://x", "foreignObject", "<div", "javascript", "<set", "<!--", "<?", "passwd",
		"<a",
	};
	size_t i;

	cr_assert_not_null(out, "%s", why);
	for (i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		cr_assert_null(strstr(out, gone[i]), "%s is left in %s", gone[i], out);
	cr_assert_not_null(strstr(out, "ok &amp; &lt;b&gt;"), "text stays text: %s", out);
	cr_assert_not_null(strstr(out, "<use href=\"#p7-a\"/>"), "%s", out);
	cr_assert_not_null(strstr(out, "<rect/>"), "the style with an outside url goes: %s", out);
	free(out);
}

Test(html, damaged_svgs_say_why)
{
	char why[256];

	cr_assert_null(svg_text("<svg xmlns=\"http://www.w3.org/2000/svg\"><g><path d='M0,0'/>",
				why, sizeof(why)));
	cr_assert(!strncmp(why, "not well-formed XML (line 1: ", 29), "%s", why);
	cr_assert_null(svg_text("<html><body>no plot</body></html>", why, sizeof(why)));
	cr_assert_str_eq(why, "not an SVG (its root element is html)");
	cr_assert_null(svg_text("", why, sizeof(why)));
	cr_assert_str_eq(why, "empty");
	cr_assert_null(svg_inline("/nonexistent/plot.svg", "p0-", "x", why, sizeof(why)));
	cr_assert_str_eq(why, "missing");
}

/* DIR/summary.html from MD and the plots named in SVGS (file name, text) pairs. */
static char *page(const char *md, const char *const *files, int n)
{
	char path[PATH_MAX + 32];
	int i;

	scratch_write(dir, "summary.md", md);
	for (i = 0; i < n; i += 2)
		scratch_write(dir, files[i], files[i + 1]);
	cr_assert_eq(html_write(dir, "summary"), 0);
	snprintf(path, sizeof(path), "%s/summary.html.tmp", dir);
	cr_assert_neq(access(path, F_OK), 0, "the temporary file is gone");
	snprintf(path, sizeof(path), "%s/summary.html", dir);
	return slurp(path);
}

Test(html, missing_and_damaged_plots_are_named_in_the_page)
{
	char svg[PATH_MAX * 2], *good, *out;
	const char *files[] = {
		"plots/cost.png", "PNG but no SVG",
		"plots/rate.gp", "plot sin(x)",
		"plots/locality.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"><g>",
		"plots/data/x.svg", "<svg/>",	/* not a plot: data/ is a folder */
		"plots/gnuplot.log", "",
	};

	fixture_dir(svg, sizeof(svg), "html/gnuplot.svg");
	good = slurp(svg);
	scratch_write(dir, "plots/convergence.svg", good);
	free(good);
	out = page("# Experiment e\n\n## Verdict\n\nfine\n", files, sizeof(files) / sizeof(*files));
	cr_assert_eq(count(out, "<figure"), 4, "convergence, cost, rate, locality: %s", out);
	cr_assert_eq(count(out, "<svg"), 1, "only convergence is drawn");
	cr_assert_not_null(strstr(out, "<code>plots/cost.svg</code> is missing"), "%s", out);
	cr_assert_not_null(strstr(out, "<code>plots/rate.svg</code> is missing"));
	cr_assert_not_null(strstr(out, "<code>plots/locality.svg</code> is not well-formed XML"));
	cr_assert_null(strstr(out, "<?xml"));
	free(out);
}

Test(html, plots_follow_the_guide_then_their_names)
{
	static const char *const names[] = { "zeta", "rate", "extra", "faults-on", "cost",
					     "convergence", "monitor-sched", "account" };
	const char *want[] = { "convergence", "cost", "account", "faults-on", "rate",
			       "monitor-sched", "extra", "zeta" };
	char file[64], *out;
	const char *at, *prev = NULL;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(*names); i++) {
		snprintf(file, sizeof(file), "plots/%s.png", names[i]);
		scratch_write(dir, file, "x");
	}
	out = page("# e\n", NULL, 0);
	for (i = 0; i < sizeof(want) / sizeof(*want); i++) {
		snprintf(file, sizeof(file), "<figure id=\"plot-%s\">", want[i]);
		at = strstr(out, file);
		cr_assert_not_null(at, "%s is shown", want[i]);
		cr_assert(!prev || at > prev, "%s comes after the one before it", want[i]);
		prev = at;
	}
	cr_assert_not_null(strstr(out, "<strong>faults-on</strong>: local, remote hint faults/s"),
			   "a plot has its guide's line");
	cr_assert_not_null(strstr(out, "<code>bound =</code>"), "the guide's Markdown is rendered");
	cr_assert_not_null(strstr(out, "<strong>extra</strong></figcaption>"),
			   "a plot without a row in the guide is named alone");
	free(out);
}

Test(html, hostile_markdown_stays_text)
{
	char *out = page("# Experiment <b>x</b>\n\n## Verdict\n\n"
			 "| run | reason |\n|---|---|\n"
			 "| on | <script>alert(1)</script> |\n"
			 "| off | <img src=x onerror=alert(2)> [a](javascript:alert(3)) |\n\n"
			 "<div onclick=\"alert(4)\">block</div>\n\n"
			 "![i](http://example.org/x.png) <http://example.org/> [in](#s1)\n\n"
			 "bad bytes: \x01 \xff\xfe end\n", NULL, 0);
	static const char *const gone[] = {
		"<script", "<img", "<div", "<b>", "href=\"javascript", "src=\"", "href=\"http",
		"\x01", "\xff",
	};
	size_t i;

	for (i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		cr_assert_null(strstr(out, gone[i]), "%s became markup in %s", gone[i], out);
	cr_assert_not_null(strstr(out, "<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"),
			   "a reason with markup reads as it was written: %s", out);
	cr_assert_not_null(strstr(out, "&lt;img src=x onerror=alert(2)&gt; [a](javascript:alert(3))"));
	cr_assert_not_null(strstr(out, "<pre><code>&lt;div onclick="));
	cr_assert_not_null(strstr(out, "![i](http://example.org/x.png) [http://example.org/]"
				   "(http://example.org/)"));
	cr_assert_not_null(strstr(out, "<a href=\"#s1\">in</a>"), "a link within the page stays");
	cr_assert_not_null(strstr(out, "<title>Experiment &lt;b&gt;x&lt;/b&gt; - balancenuma"));
	cr_assert_not_null(strstr(out, "<section id=\"s1\" class=\"verdict\">\n<h2>Verdict</h2>"),
			   "the verdict's section stands out");
	cr_assert_not_null(strstr(out, "<li><a href=\"#s1\">Verdict</a></li>"), "the contents link it");
	cr_assert_not_null(strstr(out, "<table>"), "GFM tables are tables");
	cr_assert_not_null(strstr(out, "bad bytes: ? \xef\xbf\xbd\xef\xbf\xbd end"),
			   "a control character and bytes that are not UTF-8 are replaced");
	cr_assert_not_null(strstr(out, "Content-Security-Policy\" content=\"default-src 'none'"));
	free(out);
}

Test(html, a_page_that_cannot_be_put_in_place_is_not_left_half)
{
	char path[PATH_MAX + 32];

	scratch_write(dir, "summary.md", "# e\n");
	scratch_write(dir, "summary.html/in-the-way", "a folder where the page goes");
	cr_redirect_stderr();
	cr_assert_eq(html_write(dir, "summary"), -1);
	snprintf(path, sizeof(path), "%s/summary.html.tmp", dir);
	cr_assert_neq(access(path, F_OK), 0, "the temporary file is removed");
	cr_assert_eq(html_write(dir, "nothing"), -1, "no Markdown, no page");
	snprintf(path, sizeof(path), "%s/nothing.html", dir);
	cr_assert_neq(access(path, F_OK), 0);
}

Test(html, readme_plot_table_is_the_guide)
{
	char *doc = doc_block("README.md", "plot guide"), *now = printed(guide_markdown);

	cr_assert_not_null(doc, "no <!-- plot guide --> block in README.md");
	cr_assert_str_eq(doc, now, "README.md's plot table is stale: the table is "
			 "bench/runner/html/guide.c's");
	free(doc);
	free(now);
}
