// SPDX-License-Identifier: GPL-2.0
/* What a finished run produced (outcome.h). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bnb_monitor.h"
#include "fsio.h"
#include "extract/monitors.h"
#include "account/account_run.h"
#include "extract/modelrun.h"
#include "extract/numawork.h"
#include "outcome.h"
#include "bootcheck.h"
#include "provenance.h"
#include "runsummary.h"
#include "extract/scalerun.h"

#define WORKLOAD_FILE "/tmp/bnb-workload"
#define HEREDOC_END "BNB_WORKLOAD_EOF"

/* Note the first file of the run that could not be written, errno saying why. */
static void write_failed(struct outcome *o, const char *rundir, const char *file)
{
	char why[256], path[PATH_MAX + 32];

	if (o->write_error[0])
		return;
	snprintf(path, sizeof(path), "%s/%s", rundir, file);
	snprintf(o->write_error, sizeof(o->write_error), "cannot write %s: %s", file,
		 write_errstr(path, errno, why, sizeof(why)));
}

/* Copy the monitor totals into X as well, so they get statistics. */
static void add_all(struct xmetrics *to, const struct xmetrics *from)
{
	int i;

	for (i = 0; i < from->n; i++)
		xm_add(to, from->v[i].name, from->v[i].unit, from->v[i].value, from->v[i].better);
}

/* "# bnb-monitor: monitor_error=WHY" when a monitor could not start. */
static void monitor_error(const char *path, char *buf, size_t len)
{
	const size_t plen = strlen(BNB_MON_DONE "monitor_error=");
	char line[1024];
	size_t i;
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	while (f && !buf[0] && fgets(line, sizeof(line), f)) {
		if (strncmp(line, BNB_MON_DONE "monitor_error=", plen))
			continue;
		for (i = 0; line[plen + i] && line[plen + i] != '\n' && i + 1 < len; i++)
			buf[i] = isprint((unsigned char)line[plen + i]) ? line[plen + i] : '?';
		buf[i] = 0;
	}
	if (f)
		fclose(f);
}

void outcome_collect(const char *rundir, const char *workload, const char *metrics,
		     struct json_object *prov, struct outcome *o)
{
	static struct xmetrics mon;
	char out[PATH_MAX + 16];
	struct json_object *totals;

	memset(o, 0, sizeof(*o));
	memset(&mon, 0, sizeof(mon));
	snprintf(out, sizeof(out), "%s/out.log", rundir);
	monitor_error(out, o->monitor_error, sizeof(o->monitor_error));
	if (monitors_split(out, rundir) && errno != ENOENT)
		write_failed(o, rundir, "monitor/");
	totals = monitors_load(rundir, &mon);
	o->extractor = extractor_for(workload, metrics);
	o->project = o->extractor && !strcmp(o->extractor->name, EXTRACT_SUMMARY);
	if (!o->extractor)
		snprintf(o->why, sizeof(o->why), "unknown metrics extractor '%s'", metrics);
	else
		o->found = !extract_run(o->extractor, out, workload, &o->x, o->why,
					sizeof(o->why));
	add_all(&o->x, &mon);
	numawork_add(rundir, &o->x);
	modelrun_add(rundir, &o->x);
	scalerun_add(rundir, &o->x);
	accountrun_add(rundir, &o->x);
	if (prov) {
		prov_end(prov);
		snprintf(out, sizeof(out), "%s/result", rundir);
		prov_add_vm(prov, out);
		snprintf(out, sizeof(out), "%s/out.log", rundir);
		prov_add_guest(prov, out);
		boot_check(prov, o->boot_error, sizeof(o->boot_error));
	}
	if (run_summary_add(rundir, prov, &o->x, totals))
		write_failed(o, rundir, "summary.json");
}

void outcome_guest_lines(FILE *f, const char *workload, const char *monitors,
			 const char *events, int interval_ms, const char *wrap, bool mark_work)
{
	/* a quoted here-document keeps the command exactly as written */
	fprintf(f, "mkdir -p /tmp\ncat > " WORKLOAD_FILE " <<'" HEREDOC_END "'\n%s\n"
		HEREDOC_END "\n", workload);
	fprintf(f, "bnb-monitor --provenance --out /tmp/bnb-monitor --interval-ms %d "
		"--monitors '%s'", interval_ms, monitors && *monitors ? monitors : "none");
	if (events && *events)
		fprintf(f, " --perf-events '%s'", events);
	if (mark_work)
		fputs(" --mark-work", f);
	fprintf(f, " -- %s%ssh " WORKLOAD_FILE " 2>/tmp/bnb-stderr\nrc=$?\n"
		"sed 's/^/# stderr: /' /tmp/bnb-stderr\nexit $rc\n", wrap ? wrap : "", wrap ? " " : "");
}
