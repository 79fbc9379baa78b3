/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svg.h - a plot's SVG file as markup to set inline into an HTML page.
 * gnuplot's SVGs are XML documents with ids of their own (gpPt0,
 * gnuplot_canvas, textbox, ...), the same in every plot: set side by side
 * in one page they would clash, and a `use` of one plot would draw
 * another's marks. libxml2 reads the file (a damaged one is refused with
 * the parser's words), and what is kept is the <svg> element alone
 * (no prolog, no doctype) with every id and reference to one prefixed.
 */
#ifndef BNB_HTML_SVG_H
#define BNB_HTML_SVG_H

#include <stddef.h>

/* Files larger than this are not set into a page. */
#define SVG_MAX_BYTES (64L << 20)

/*
 * The <svg> element of the file PATH (malloc'd): ids and references to
 * them prefixed with PREFIX, its <title> set to TITLE, and nothing that
 * could run, load or restyle the page (scripts, styles, event handlers,
 * references out of the file, elements an SVG plot does not use).
 * NULL with WHY when the file is missing, too large or not an SVG.
 */
char *svg_inline(const char *path, const char *prefix, const char *title, char *why,
		 size_t len);

#endif
