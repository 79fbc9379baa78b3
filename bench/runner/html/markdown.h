/* SPDX-License-Identifier: GPL-2.0 */
/*
 * markdown.h - a report's Markdown as HTML, by libcmark-gfm (CommonMark
 * with GitHub's tables). The reports carry text from the guest (a run's
 * reason, an extractor's metric names), so nothing in the Markdown
 * becomes markup of its own: raw HTML is shown as the text it is, and an
 * image or a link out of the page as its Markdown, so the page loads
 * nothing and leads nowhere.
 */
#ifndef BNB_HTML_MARKDOWN_H
#define BNB_HTML_MARKDOWN_H

#include <stdio.h>

struct md_doc;

/* TEXT (LEN bytes) parsed; NULL when out of memory. */
struct md_doc *md_parse(const char *text, size_t len);
void md_free(struct md_doc *d);

/* The plain text of the document's first level-1 heading into BUF ("" if none). */
const char *md_title(struct md_doc *d, char *buf, size_t len);

/*
 * The document as HTML on F, each level-2 heading opening a <section>
 * with the id s1, s2, ... (the Verdict's of class "verdict").
 */
void md_write(struct md_doc *d, FILE *f);

/* Links to the level-2 headings, as <li> items on F. */
void md_toc(struct md_doc *d, FILE *f);

/* Markdown TEXT as HTML (inline elements only, no <p>) on F: a caption. */
void md_inline(FILE *f, const char *text);

/*
 * TEXT on F as HTML text or an attribute's value: &, <, > and " as
 * entities, and what HTML does not allow in a page (a byte that is not
 * UTF-8, a control character) as U+FFFD.
 */
void html_text(FILE *f, const char *text);

#endif
