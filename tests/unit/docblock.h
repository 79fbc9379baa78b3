/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generated tables in the documentation sit between "<!-- NAME -->" and
 * "<!-- /NAME -->" lines; the tests compare them with what the option
 * tables print now, so the documents cannot drift from the code.
 */
#ifndef BNB_TEST_DOCBLOCK_H
#define BNB_TEST_DOCBLOCK_H

#include <stdio.h>

/* The lines between the markers in the tree's FILE (malloc'd), or NULL. */
char *doc_block(const char *file, const char *name);

/* What FN prints, as a malloc'd string. */
char *printed(void (*fn)(FILE *f));

#endif
