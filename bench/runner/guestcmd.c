// SPDX-License-Identifier: GPL-2.0
/*
 * The guest side of one run: a shell command (run by /init with sh -c)
 * that sets the variant's sysctls, each checked by reading it back, and
 * then runs the workload. A sysctl that cannot be set stops the run with a
 * line naming it; the workload's stderr follows its CSV as comment lines so
 * the output stays parseable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "runner.h"
#include "wlout.h"

#define SYSCTL_EXIT 97
#define CALIB_EXIT 98

/* $1 sysctl name, $2 value, $3 debugfs fallback (may be empty). */
static const char set_function[] =
	"bnb_set() {\n"
	"\tf=/proc/sys/$(echo \"$1\" | tr . /)\n"
	"\t[ -e \"$f\" ] || f=$3\n"
	"\tif [ -z \"$f\" ] || [ ! -e \"$f\" ]; then\n"
	"\t\techo \"" WL_SYSCTL_MARK "$1: not present in this kernel\"; return 1\n"
	"\tfi\n"
	"\tif ! echo \"$2\" 2>/dev/null > \"$f\"; then\n"
	"\t\techo \"" WL_SYSCTL_MARK "$1: writing $2 to $f failed\"; return 1\n"
	"\tfi\n"
	"\tgot=$(cat \"$f\")\n"
	"\tif [ \"$got\" != \"$2\" ]; then\n"
	"\t\techo \"" WL_SYSCTL_MARK "$1: wrote $2 but $f reads $got\"; return 1\n"
	"\tfi\n"
	"\techo \"# bnb-run: sysctl $1 = $2 ($f)\"\n"
	"}\n";

char *guest_command(const struct variant *v, bool calibrate)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i;

	fputs(set_function, f);
	if (calibrate)	/* the plugin delays nothing until its map is verified */
		fprintf(f, "bnb-plugin-calib >/dev/null 2>&1 || { echo '%s'; exit %d; }\n",
			WL_CALIB_MARK, CALIB_EXIT);
	for (i = 0; i < v->n_settings; i++) {
		struct sysctl_target t;

		if (sysctl_target(v->settings[i].key, &t))
			continue;
		/* key and value were checked to be plain tokens by keys.c */
		fprintf(f, "bnb_set %s %s '%s' || exit %d\n", t.sysctl, v->settings[i].value,
			t.debugfs ? t.debugfs : "", SYSCTL_EXIT);
	}
	fprintf(f, "mkdir -p /tmp\n( %s\n) 2>/tmp/bnb-stderr\nrc=$?\n"
		"sed 's/^/# stderr: /' /tmp/bnb-stderr\nexit $rc\n", variant_get(v, "workload"));
	fclose(f);
	return buf;
}
