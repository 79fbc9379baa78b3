// SPDX-License-Identifier: GPL-2.0
/*
 * The guest side of one run: a shell command (run by /init with sh -c)
 * that sets the variant's sysctls, each checked by reading it back, and
 * then runs the workload. A sysctl that cannot be set stops the run with a
 * line naming it; the workload's stderr follows its CSV as comment lines so
 * the output stays parseable.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment/dilation.h"
#include "lib/argv.h"
#include "experiment/keys.h"
#include "outcome.h"
#include "runner.h"
#include "extract/wlout.h"

#define SYSCTL_EXIT 97
#define MONITOR_INTERVAL_MS 1000	/* the monitors' sampling, their series' step */
#define NUMA_BALANCING "/proc/sys/kernel/numa_balancing"
#define STR(x) #x
#define XSTR(x) STR(x)
#define LIMIT XSTR(SCAN_PERIOD_LIMIT_MS)	/* as text, for the shell */

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
	"\tif [ \"$v\" -gt " LIMIT " ]; then\n"
	"\t\techo \"# bnb-run: $1: scaled value $v clamped to " LIMIT " ms\"; v=" LIMIT "\n"
	"\tfi\n"
	"\tbnb_set \"$1\" \"$v\" \"$2\"\n"
	"}\n";

/* $1 sysctl name, $2 debugfs fallback: the file that holds it, if any. */
static const char file_function[] =
	"bnb_file() {\n"
	"\tf=/proc/sys/$(echo \"$1\" | tr . /)\n"
	"\t[ -e \"$f\" ] || f=$2\n"
	"\t[ -n \"$f\" ] && [ -e \"$f\" ] && echo \"$f\"\n"
	"}\n";

/* Knob K of the plan, where V's kernel keeps it (knobs.c); -1: it has none. */
static int plan_knob(const struct variant *v, int k, struct sysctl_target *t)
{
	char key[96];

	snprintf(key, sizeof(key), SYSCTL_PREFIX "%s", scale_knobs[k].name);
	return knob_target(named_kernel(v->kernel), key, t, NULL, 0);
}

static void set_knob(FILE *f, const struct variant *v, const struct scale_plan *p, int k)
{
	struct sysctl_target t;

	if (plan_knob(v, k, &t)) {
		/* a named kernel without it (the table says so): nothing to try */
		fprintf(f, "echo '" WL_SCALE_UNSET_MARK "%s (not in this kernel)'\n",
			scale_knobs[k].name);
		return;
	}
	if (scale_knobs[k].required) {
		fprintf(f, "bnb_set %s %ld '%s' || exit %d\n", t.sysctl, p->guest[k],
			t.debugfs ? t.debugfs : "", SYSCTL_EXIT);
		return;
	}
	/* the series' own: a kernel without them runs, and the report says so */
	fprintf(f, "if bnb_file %s '%s' >/dev/null; then bnb_set %s %ld '%s' || exit %d; "
		"else echo '" WL_SCALE_UNSET_MARK "%s (not in this kernel)'; fi\n", t.sysctl,
		t.debugfs ? t.debugfs : "", t.sysctl, p->guest[k], t.debugfs ? t.debugfs : "",
		SYSCTL_EXIT, scale_knobs[k].name);
}

/*
 * scale_scan=hardware: the plan's values, computed on the host (scale.c),
 * written as they are. The kernel refuses min > max, so the minimum goes
 * after the maximum when it grows past the maximum in force.
 */
static void hardware_plan(FILE *f, const struct variant *v, const struct scale_plan *p)
{
	struct sysctl_target t;
	char text[512], line[600], quoted[1300];

	/* texts, quoted for the shell: "the guest's ticks" has a quote */
	scale_plan_describe(p, text, sizeof(text));
	snprintf(line, sizeof(line), WL_SCALE_PLAN_MARK "%s", text);
	fprintf(f, "echo %s\n", shell_quote(line, quoted, sizeof(quoted)));
	if (p->given_up[0]) {
		snprintf(line, sizeof(line), WL_SCALE_GIVEN_UP_MARK "%s", p->given_up);
		fprintf(f, "echo %s\n", shell_quote(line, quoted, sizeof(quoted)));
	}
	set_knob(f, v, p, SK_DELAY);
	set_knob(f, v, p, SK_SIZE);
	plan_knob(v, SK_MAX, &t);	/* every named kernel has it */
	fprintf(f, "m=$(cat \"$(bnb_file %s '%s')\" 2>/dev/null)\n", t.sysctl,
		t.debugfs ? t.debugfs : "");
	fprintf(f, "if [ \"${m:-0}\" -lt %ld ] 2>/dev/null; then\n", p->guest[SK_MIN]);
	set_knob(f, v, p, SK_MAX);
	set_knob(f, v, p, SK_MIN);
	fputs("else\n", f);
	set_knob(f, v, p, SK_MIN);
	set_knob(f, v, p, SK_MAX);
	fputs("fi\n", f);
	for (int k = SK_SIZE + 1; k < SCALE_N_KNOBS; k++)
		if (p->set[k])
			set_knob(f, v, p, k);
}

/*
 * scale_scan=auto: the dilation of this very guest, from a first pass of
 * the workload with free placement against the host's rate of the same.
 * Balancing is paused during the pass so that it adds nothing to the
 * counters the collector reports for the run.
 */
static void auto_factor(FILE *f, const struct scan_plan *sp)
{
	fputs("nb=$(cat " NUMA_BALANCING " 2>/dev/null)\n"
	      "[ -z \"$nb\" ] || echo 0 > " NUMA_BALANCING "\n", f);
	fprintf(f, "gs=$( (%s) 2>/dev/null | grep '^# summary ')\n", sp->free_line);
	fputs("gr=$(echo \"$gs\" | sed -n 's/.* rate_mean=\\([0-9.eE+-]*\\).*/\\1/p')\n"
	      "gt=$(echo \"$gs\" | sed -n 's/.* threads=\\([0-9]*\\).*/\\1/p')\n", f);
	fprintf(f, "milli=$(awk -v h=%.6g -v g=\"$gr\" -v t=\"$gt\" 'BEGIN { if (t + 0 >= 1) g /= t; "
		"if (g + 0 <= 0) exit 1; printf \"%%d\", h / g * 1000 + 0.5 }') || "
		"{ echo \"" WL_SYSCTL_MARK "scale_scan=auto: the guest pass of %s gave no rate\"; exit %d; }\n",
		sp->host_rate, sp->free_line, SYSCTL_EXIT);
	fprintf(f, "echo \"" WL_SCALE_MARK "$milli guest_rate=$gr threads=$gt host_thread_rate=%.6g\"\n",
		sp->host_rate);
	fputs("[ -z \"$nb\" ] || echo \"$nb\" > " NUMA_BALANCING "\n", f);
}

static void scale_one(FILE *f, const struct variant *v, const char *name)
{
	struct sysctl_target t;
	char key[64];

	snprintf(key, sizeof(key), SYSCTL_PREFIX "%s", name);
	/* every named kernel has the scan periods (knobs.c) */
	knob_target(named_kernel(v->kernel), key, &t, NULL, 0);
	fprintf(f, "bnb_scale %s '%s' \"$milli\" || exit %d\n", t.sysctl,
		t.debugfs ? t.debugfs : "", SYSCTL_EXIT);
}

/* Multiply the scan periods by the dilation, after the explicit sysctls. */
static void scale_tunables(FILE *f, const struct variant *v, const struct scan_plan *sp)
{
	if (sp->scale.mode == SCALE_AUTO) {
		auto_factor(f, sp);
	} else {
		fprintf(f, "milli=%ld\n", scale_milli(sp->scale.factor));
		fprintf(f, "echo \"" WL_SCALE_MARK "$milli\"\n");
	}
	/* the kernel keeps min <= max: grow max first, shrink min first */
	scale_one(f, v, scaled_tunables[0]);
	fprintf(f, "if [ \"$milli\" -ge 1000 ]; then\n");
	scale_one(f, v, scaled_tunables[1]);
	scale_one(f, v, scaled_tunables[2]);
	fprintf(f, "else\n");
	scale_one(f, v, scaled_tunables[2]);
	scale_one(f, v, scaled_tunables[1]);
	fprintf(f, "fi\n");
}

unsigned start_delay_us(int rep)
{
	if (rep < 1)
		return 0;
	return (unsigned)((unsigned long long)rep * START_JITTER_STEP_US % START_JITTER_SPAN_US);
}

/*
 * The wait is a sleep, so under timing=deterministic it is guest time: the
 * workload then starts at another phase of the timer tick, which decides
 * races such as first touch.  The comment line keeps the delay in the run's
 * output.
 */
static void start_delay(FILE *f, unsigned delay_us)
{
	fprintf(f, "echo '# bnb-run: start_jitter: %u us before the workload'\n", delay_us);
	fprintf(f, "usleep %u\n", delay_us);
}

/* One bnb-service option when its key is set: --NAME 'VALUE'. */
static void service_opt(FILE *f, const char *name, const char *value)
{
	char q[4096];

	if (value && *value)
		fprintf(f, " --%s %s", name, shell_quote(value, q, sizeof(q)));
}

/*
 * bnb-service and its options, for a variant with a server around its
 * workload (NULL: none; "" when out of memory).
 */
static char *service_wrap(const struct variant *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!*v->server)
		return NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fputs("bnb-service", f);
	service_opt(f, "server", v->server);
	service_opt(f, "ready", v->server_ready);
	service_opt(f, "setup", v->server_setup);
	service_opt(f, "user", v->server_user);
	service_opt(f, "load", v->server_load);
	fprintf(f, " --ready-timeout %d --move %d --", v->server_timeout, v->server_move);
	fclose(f);
	return buf;
}

/*
 * Does WORKLOAD run one of the project's guest programs (build/guest/bin)?
 * They mark their own measured work (after their memory is placed); any
 * other program's (sysbench, perf bench, stress-ng) is marked around the
 * whole command by bnb-monitor, so that the plugin's counts of the work,
 * its true locality and the account's window exist for them too.
 */
static bool runs_project_program(const char *workload)
{
	static const char seps[] = " \t\n;&|()<>`'\"";
	char words[4096], bin[PATH_MAX], path[PATH_MAX + 256], *w, *save = NULL;

	snprintf(words, sizeof(words), "%s", workload);
	root_path(bin, sizeof(bin), "build/guest/bin");
	for (w = strtok_r(words, seps, &save); w; w = strtok_r(NULL, seps, &save)) {
		const char *base = strrchr(w, '/');

		snprintf(path, sizeof(path), "%s/%s", bin, base ? base + 1 : w);
		if (*(base ? base + 1 : w) && !access(path, X_OK))
			return true;
	}
	return false;
}

char *guest_command(const struct variant *v, const struct scan_plan *sp,
		    unsigned delay_us)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool hardware = sp && sp->scale.mode == SCALE_HARDWARE;
	char *wrap;
	int i;

	if (!f)
		return NULL;
	fputs(set_function, f);
	if (hardware)
		fputs(file_function, f);
	else if (sp && sp->scale.mode != SCALE_OFF)
		fputs(scale_function, f);
	for (i = 0; i < v->n_sysctls; i++) {
		struct sysctl_target t;

		/* where the variant's kernel keeps it; refused at load if nowhere */
		if (knob_target(named_kernel(v->kernel), v->sysctls[i].key, &t, NULL, 0))
			continue;
		/* the hardware's value: the plan writes it scaled */
		if (hardware && scale_plan_sets(&sp->hw, v->sysctls[i].key))
			continue;
		/* key and value were checked to be plain tokens by keys.c */
		fprintf(f, "bnb_set %s %s '%s' || exit %d\n", t.sysctl, v->sysctls[i].value,
			t.debugfs ? t.debugfs : "", SYSCTL_EXIT);
	}
	if (hardware)
		hardware_plan(f, v, &sp->hw);
	else if (sp && sp->scale.mode != SCALE_OFF)
		scale_tunables(f, v, sp);
	if (delay_us)
		start_delay(f, delay_us);
	wrap = service_wrap(v);
	outcome_guest_lines(f, v->workload, v->monitors, v->perf_events, MONITOR_INTERVAL_MS,
			    wrap, !wrap && !runs_project_program(v->workload));
	free(wrap);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}
