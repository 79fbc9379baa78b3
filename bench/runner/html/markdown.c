// SPDX-License-Identifier: GPL-2.0
/*
 * A report's Markdown as HTML (markdown.h), by libcmark-gfm. Its own safe
 * mode would drop raw HTML; here it is kept as text instead, so that what
 * a guest wrote stays readable and never becomes markup.
 */
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "markdown.h"

struct md_doc {
	cmark_parser *parser;
	cmark_node *root;
};

/* CMARK_OPT_DEFAULT is cmark-gfm's safe mode: raw HTML would not pass. */
#define MD_OPTS (CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8 | \
		 CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES)

/* The length of the UTF-8 character at S (up to N bytes), 0 if it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned int c;

	if (s[0] < 0x80)
		return 1;
	len = s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
	if (!len || len > n)
		return 0;
	c = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, past U+10FFFF */
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return len;
}

static bool control(unsigned char c)
{
	return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f;
}

void html_text(FILE *f, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t n = strlen(text), k;

	while (n) {
		k = utf8_len(s, n);
		if (!k || control(*s))
			fputs("\xef\xbf\xbd", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fwrite(s, 1, k, f);
		k = k ? k : 1;
		s += k;
		n -= k;
	}
}

/* The text below NODE (its literals; line breaks as spaces) on F. */
static void flat_text(cmark_node *node, FILE *f)
{
	cmark_node *c;
	const char *lit;

	switch (cmark_node_get_type(node)) {
	case CMARK_NODE_SOFTBREAK:
	case CMARK_NODE_LINEBREAK:
		fputc(' ', f);
		return;
	case CMARK_NODE_TEXT:
	case CMARK_NODE_CODE:
	case CMARK_NODE_HTML_INLINE:
		lit = cmark_node_get_literal(node);
		fputs(lit ? lit : "", f);
		return;
	default:
		break;
	}
	for (c = cmark_node_first_child(node); c; c = cmark_node_next(c))
		flat_text(c, f);
}

/* The plain text of NODE, malloc'd (NULL when out of memory). */
static char *plain(cmark_node *node)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	if (!f)
		return NULL;
	flat_text(node, f);
	if (!fclose(f))
		return text;
	free(text);
	return NULL;
}

/* What NODE, an image or a link, said in the Markdown: "![alt](url)". */
static char *as_markdown(cmark_node *node)
{
	const char *url = cmark_node_get_url(node);
	char *text = plain(node), *md;

	if (asprintf(&md, "%s[%s](%s)", cmark_node_get_type(node) == CMARK_NODE_IMAGE ? "!" : "",
		     text ? text : "", url ? url : "") < 0)
		md = NULL;
	free(text);
	return md;
}

/* Whether NODE would become markup of the Markdown's own making. */
static bool foreign(cmark_node *node)
{
	const char *url;

	switch (cmark_node_get_type(node)) {
	case CMARK_NODE_HTML_INLINE:
	case CMARK_NODE_HTML_BLOCK:
	case CMARK_NODE_IMAGE:
		return true;
	case CMARK_NODE_LINK:
		url = cmark_node_get_url(node);
		return !url || url[0] != '#';
	default:
		return false;
	}
}

/* NODE replaced by its text: a code block for a block, else a text span. */
static void as_text(cmark_node *node)
{
	bool block = cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK;
	cmark_node *t = cmark_node_new(block ? CMARK_NODE_CODE_BLOCK : CMARK_NODE_TEXT);
	char *md = NULL;
	const char *lit;

	if (cmark_node_get_type(node) == CMARK_NODE_IMAGE ||
	    cmark_node_get_type(node) == CMARK_NODE_LINK)
		lit = md = as_markdown(node);
	else
		lit = cmark_node_get_literal(node);
	if (!t || !cmark_node_set_literal(t, lit ? lit : "") || !cmark_node_replace(node, t)) {
		/* out of memory: the node goes, its text with it */
		cmark_node_free(t);
		cmark_node_unlink(node);
	}
	cmark_node_free(node);
	free(md);
}

/* Every foreign node below ROOT as its text. */
static void sanitize(cmark_node *root)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_node **found = NULL, **more, *node;
	cmark_event_type ev;
	size_t n = 0, cap = 0, i;

	while (it && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		node = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || !foreign(node))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			more = realloc(found, cap * sizeof(*found));
			if (!more)
				break;
			found = more;
		}
		found[n++] = node;
		/* what it holds becomes its text with it */
		cmark_iter_reset(it, node, CMARK_EVENT_EXIT);
	}
	cmark_iter_free(it);
	for (i = 0; i < n; i++)
		as_text(found[i]);
	free(found);
}

struct md_doc *md_parse(const char *text, size_t len)
{
	struct md_doc *d = calloc(1, sizeof(*d));
	char *clean = malloc(len ? len : 1);
	cmark_syntax_extension *table;
	size_t i;

	if (!d || !clean) {
		free(d);
		free(clean);
		return NULL;
	}
	/* control characters are not allowed in a page; U+FFFD is 3 bytes */
	for (i = 0; i < len; i++)
		clean[i] = control(text[i]) ? '?' : text[i];
	cmark_gfm_core_extensions_ensure_registered();
	d->parser = cmark_parser_new(MD_OPTS);
	table = cmark_find_syntax_extension("table");
	if (d->parser && table)
		cmark_parser_attach_syntax_extension(d->parser, table);
	if (d->parser) {
		cmark_parser_feed(d->parser, clean, len);
		d->root = cmark_parser_finish(d->parser);
	}
	free(clean);
	if (!d->root) {
		md_free(d);
		return NULL;
	}
	sanitize(d->root);
	return d;
}

void md_free(struct md_doc *d)
{
	if (!d)
		return;
	if (d->root)
		cmark_node_free(d->root);
	if (d->parser)
		cmark_parser_free(d->parser);
	free(d);
}

static char *render(struct md_doc *d, cmark_node *node)
{
	return cmark_render_html(node, MD_OPTS, cmark_parser_get_syntax_extensions(d->parser));
}

static bool is_heading(cmark_node *node, int level)
{
	return cmark_node_get_type(node) == CMARK_NODE_HEADING &&
	       cmark_node_get_heading_level(node) == level;
}

const char *md_title(struct md_doc *d, char *buf, size_t len)
{
	cmark_node *c;
	char *text;

	buf[0] = 0;
	for (c = cmark_node_first_child(d->root); c && !is_heading(c, 1); c = cmark_node_next(c))
		;
	text = c ? plain(c) : NULL;
	if (text)
		snprintf(buf, len, "%s", text);
	free(text);
	return buf;
}

/* A level-2 heading opens a section: the contents link to it, the verdict stands out. */
static void open_section(FILE *f, cmark_node *h2, int s)
{
	char *text = plain(h2);

	fprintf(f, "<section id=\"s%d\"%s>\n", s,
		text && !strcmp(text, "Verdict") ? " class=\"verdict\"" : "");
	free(text);
}

void md_write(struct md_doc *d, FILE *f)
{
	cmark_node *c;
	int s = 0;

	for (c = cmark_node_first_child(d->root); c; c = cmark_node_next(c)) {
		char *html = render(d, c);

		if (is_heading(c, 2)) {
			fputs(s ? "</section>\n" : "", f);
			open_section(f, c, ++s);
		}
		fputs(html ? html : "", f);
		free(html);
	}
	fputs(s ? "</section>\n" : "", f);
}

void md_toc(struct md_doc *d, FILE *f)
{
	cmark_node *c;
	int s = 0;

	for (c = cmark_node_first_child(d->root); c; c = cmark_node_next(c)) {
		char *text;

		if (!is_heading(c, 2))
			continue;
		s++;	/* as md_write() counts them */
		text = plain(c);
		fprintf(f, "<li><a href=\"#s%d\">", s);
		html_text(f, text ? text : "?");
		fputs("</a></li>\n", f);
		free(text);
	}
}

void md_inline(FILE *f, const char *text)
{
	struct md_doc *d = md_parse(text, strlen(text));
	cmark_node *p = d ? cmark_node_first_child(d->root) : NULL;
	char *html = p && cmark_node_get_type(p) == CMARK_NODE_PARAGRAPH ? render(d, p) : NULL;
	size_t n = html ? strlen(html) : 0;

	/* "<p>...</p>\n": what is between */
	if (n > 8 && !strncmp(html, "<p>", 3) && !strcmp(html + n - 5, "</p>\n"))
		fwrite(html + 3, 1, n - 8, f);
	else
		html_text(f, text);
	free(html);
	md_free(d);
}
