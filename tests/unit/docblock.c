// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "docblock.h"

char *doc_block(const char *file, const char *name)
{
	char path[4096], begin[128], end[128], *text = NULL, *b, *e, *out;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", BNB_SRC_DIR, file);
	f = fopen(path, "r");
	if (!f || getdelim(&text, &len, '\0', f) < 0) {
		if (f)
			fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	snprintf(begin, sizeof(begin), "<!-- %s -->\n", name);
	snprintf(end, sizeof(end), "<!-- /%s -->", name);
	b = strstr(text, begin);
	e = b ? strstr(b, end) : NULL;
	out = e ? strndup(b + strlen(begin), e - b - strlen(begin)) : NULL;
	free(text);
	return out;
}

char *printed(void (*fn)(FILE *f))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fn(f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}
