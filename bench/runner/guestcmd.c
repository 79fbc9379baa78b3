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

#include "dilation.h"
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

/*
 * $1 sysctl name, $2 debugfs fallback, $3 factor in thousandths: scale the
 * value in force, which is the experiment's own when it set one.
 */
static const char scale_function[] =
	"bnb_scale() {\n"
	"\tf=/proc/sys/$(echo \"$1\" | tr . /)\n"
	"\t[ -e \"$f\" ] || f=$2\n"
	"\tv=$(cat \"$f\" 2>/dev/null)\n"
	"\tcase $v in ''|*[!0-9]*)\n"
	"\t\techo \"" WL_SYSCTL_MARK "$1: cannot read a number to scale (got '$v')\"; return 1;;\n"
	"\tesac\n"
	"\tv=$((v * $3 / 1000))\n"
	"\tif [ \"$v\" -gt 2147483647 ]; then\n"
	"\t\techo \"" WL_SYSCTL_MARK "$1: scaled value $v is too large\"; return 1\n"
	"\tfi\n"
	"\tbnb_set \"$1\" \"$v\" \"$2\"\n"
	"}\n";

/*
 * scale_scan=auto: the dilation of this very guest, from a first pass of
 * the workload with free placement against the host's rate of the same.
 */
static void auto_factor(FILE *f, const struct scan_plan *sp)
{
	fprintf(f, "gr=$( (%s) 2>/dev/null | sed -n 's/^# summary .* rate_mean=\\([0-9.eE+-]*\\).*/\\1/p')\n",
		sp->free_line);
	fprintf(f, "milli=$(awk -v h=%.6g -v g=\"$gr\" 'BEGIN { if (g + 0 <= 0) exit 1; "
		"printf \"%%d\", h / g * 1000 + 0.5 }') || "
		"{ echo \"" WL_SYSCTL_MARK "scale_scan=auto: the guest pass of %s gave no rate\"; exit %d; }\n",
		sp->host_rate, sp->free_line, SYSCTL_EXIT);
	fprintf(f, "echo \"" WL_SCALE_MARK "$milli guest_rate=$gr host_rate=%.6g\"\n",
		sp->host_rate);
}

/* Multiply the scan periods by the dilation, after the explicit sysctls. */
static void scale_tunables(FILE *f, const struct scan_plan *sp)
{
	char key[64];
	size_t i;

	if (sp->scale.mode == SCALE_AUTO) {
		auto_factor(f, sp);
	} else {
		fprintf(f, "milli=%ld\n", scale_milli(sp->scale.factor));
		fprintf(f, "echo \"" WL_SCALE_MARK "$milli\"\n");
	}
	for (i = 0; i < sizeof(scaled_tunables) / sizeof(scaled_tunables[0]); i++) {
		struct sysctl_target t;

		snprintf(key, sizeof(key), SYSCTL_PREFIX "%s", scaled_tunables[i]);
		sysctl_target(key, &t);
		fprintf(f, "bnb_scale %s '%s' \"$milli\" || exit %d\n", t.sysctl,
			t.debugfs ? t.debugfs : "", SYSCTL_EXIT);
	}
}

char *guest_command(const struct variant *v, bool calibrate, const struct scan_plan *sp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i;

	fputs(set_function, f);
	if (sp && sp->scale.mode != SCALE_OFF)
		fputs(scale_function, f);
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
	if (sp && sp->scale.mode != SCALE_OFF)
		scale_tunables(f, sp);
	fprintf(f, "mkdir -p /tmp\n( %s\n) 2>/tmp/bnb-stderr\nrc=$?\n"
		"sed 's/^/# stderr: /' /tmp/bnb-stderr\nexit $rc\n", variant_get(v, "workload"));
	fclose(f);
	return buf;
}
