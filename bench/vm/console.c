// SPDX-License-Identifier: GPL-2.0
/*
 * What a guest console line means to the launcher: the markers /init
 * prints, and the kernel's own reports of trouble.
 */
#include <stdlib.h>
#include <string.h>

#include "vm.h"

struct console_pattern {
	const char *text;
	enum console_event event;
};

/*
 * Matched anywhere in the line, first match wins. Stalls: RCU's stall
 * warnings (tree_stall.h, tree_exp.h, tasks.h), the hung-task and the
 * soft-lockup watchdogs, whose "BUG: " must not make it a panic. They say
 * a CPU or task made no progress for so many seconds of guest time, which
 * under wall timing a starved host thread can cause (bnb-vm decides).
 */
static const struct console_pattern patterns[] = {
	{ "self-detected stall on CPU",		CON_STALL },
	{ "detected stalls on",			CON_STALL },
	{ "detected expedited stalls on",	CON_STALL },
	{ "blocked for more than",		CON_STALL },
	{ "soft lockup - CPU#",			CON_STALL },
	{ "Kernel panic - not syncing",		CON_PANIC },
	{ "kernel BUG at",			CON_PANIC },
	{ "BUG: ",				CON_PANIC },
	{ "Oops: ",				CON_PANIC },
	{ "general protection fault",		CON_PANIC },
	{ "WARNING: ",				CON_WARNING },
	{ "INFO: possible recursive locking",	CON_WARNING },
};

enum console_event console_classify(const char *line, int *code)
{
	static const char exit_mark[] = "bnb-exit: ";
	size_t i;
	char *end;
	long v;

	if (!strncmp(line, "bnb-init: run", 13))
		return CON_RUN;
	if (!strcmp(line, "bnb-init: map check failed"))
		return CON_MAPCHECK_FAILED;
	if (!strncmp(line, exit_mark, sizeof(exit_mark) - 1)) {
		v = strtol(line + sizeof(exit_mark) - 1, &end, 10);
		if (end != line + sizeof(exit_mark) - 1 && v >= 0 && v <= 255) {
			*code = v;
			return CON_EXIT;
		}
	}
	for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
		if (strstr(line, patterns[i].text))
			return patterns[i].event;
	return CON_NONE;
}
