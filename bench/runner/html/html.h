/* SPDX-License-Identifier: GPL-2.0 */
/*
 * html.h - a report as one self-contained page: DIR/NAME.md (summary.md,
 * compare.md) as HTML with every plot of DIR/plots set inline as SVG,
 * a small style sheet, no script and nothing loaded from elsewhere
 * (its Content-Security-Policy allows nothing outside the file).
 */
#ifndef BNB_HTML_H
#define BNB_HTML_H

/*
 * Write DIR/NAME.html from DIR/NAME.md and DIR/plots/ (through
 * NAME.html.tmp, so that no reader sees half a page). A plot whose SVG is
 * missing or damaged is named in the page, with why. 0, or -1 having
 * said on stderr what could not be read or written.
 */
int html_write(const char *dir, const char *name);

#endif
