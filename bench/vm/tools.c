// SPDX-License-Identifier: GPL-2.0
/*
 * Does a guest command need the tools archive (perf, stress-ng, numactl,
 * lstopo and their libraries)? The base archive boots faster, so the
 * launcher adds the tools only when the command names one of them. The
 * archive's builder lists its commands one a line in tools.list, so this
 * never carries a copy of that list.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "vm.h"

/* Characters that can be part of a command's name. */
static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.' || c == '+';
}

/* Is name a word of cmd (bounded by anything that cannot be in a name)? */
static bool has_word(const char *cmd, const char *name)
{
	size_t len = strlen(name);
	const char *p = cmd;

	if (!len)
		return false;
	while ((p = strstr(p, name))) {
		bool starts = p == cmd || !name_char(p[-1]);

		if (starts && !name_char(p[len]))
			return true;
		p++;
	}
	return false;
}

/* Does the list file PATH (NULL: none) hold NAME? */
static bool listed(const char *path, const char *name)
{
	char line[256];
	bool found = false;
	FILE *f = path ? fopen(path, "r") : NULL;

	while (f && !found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		found = !strcmp(line, name);
	}
	if (f)
		fclose(f);
	return found;
}

int cmd_names_tool(const char *cmd, const char *list_path, const char *have_path)
{
	char line[256];
	int found = 0;
	FILE *f;

	f = fopen(list_path, "r");
	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		found = has_word(cmd, line) && !listed(have_path, line);
	}
	fclose(f);
	return found;
}
