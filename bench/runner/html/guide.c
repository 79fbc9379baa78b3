// SPDX-License-Identifier: GPL-2.0
/*
 * The plots' guide (guide.h). A new plot gets its row here; the README's
 * table is this one printed, and a unit test holds them equal.
 */
#include <string.h>

#include "guide.h"
#include "lib/util.h"

static const struct plot_guide guide[] = {
	{ "convergence", NULL, "convergence over time", "how soon \"on\" passes 0.9 and stays" },
	{ "true-locality", NULL, "local share of all memory accesses",
	  "\"on\" rising to near 1, \"off\" flat" },
	{ "convergence-pages", NULL, "convergence by pages (the patched kernel's counters)",
	  "with huge pages, the rise the faults' convergence misses" },
	{ "cost", NULL, "the seed's cost, cumulative and per second",
	  "when balancing spends; whether it stops" },
	{ "account", NULL, "cumulative cost and saving, hardware s",
	  "the saving overtaking the cost (marked), and how soon" },
	{ "faults-", "VARIANT", "local, remote hint faults/s; pages migrated/s",
	  "remote faults giving way to local" },
	{ "rate", NULL, "the workload's own rate over time",
	  "the jump once pages are local; `bound =` variants as lines" },
	{ "locality", NULL, "the workload's page locality, its own samples",
	  "pages moving to the local node" },
	{ "monitor-", "*", "(`monitors =`) tracepoints, scan periods, perf counters",
	  "what the balancer did, when" },
	{ "sweep-", "NAME", "time to 90 %, cost, workload time against the swept value",
	  "the best point by `objective`" },
	{ "tiering", NULL, "(memory tiering) pages promoted and demoted, MB/s; the fast tier's share",
	  "promotion settling as hot pages reach the fast tier" },
};

int guide_rank(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(guide); i++) {
		size_t n = strlen(guide[i].name);

		if (guide[i].part ? !strncmp(name, guide[i].name, n) && name[n] :
				    !strcmp(name, guide[i].name))
			return i;
	}
	return ARRAY_SIZE(guide);
}

const struct plot_guide *guide_find(const char *name)
{
	size_t i = guide_rank(name);

	return i < ARRAY_SIZE(guide) ? &guide[i] : NULL;
}

void guide_markdown(FILE *f)
{
	size_t i;

	fprintf(f, "| plot | shows | look for |\n|---|---|---|\n");
	for (i = 0; i < ARRAY_SIZE(guide); i++)
		fprintf(f, "| `%s%s` | %s | %s |\n", guide[i].name,
			guide[i].part ? guide[i].part : "", guide[i].shows, guide[i].look_for);
}
