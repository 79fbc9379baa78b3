// SPDX-License-Identifier: GPL-2.0
/*
 * Promotion and demotion traffic per interval and over the workload's
 * work.  The counters themselves are ordinary series columns (deltas
 * already checked against a lying guest by series.c); this only adds the
 * rates in MB/s and the totals the summary reports.
 */
#include <string.h>

#include "series.h"
#include "tiering.h"

const char *const tiering_counters[N_TIER_COUNTERS] = {
	[TIER_PROMOTED] = "pgpromote_success",
	[TIER_CANDIDATES] = "pgpromote_candidate",
	[TIER_DEMOTED_KSWAPD] = "pgdemote_kswapd",
	[TIER_DEMOTED_DIRECT] = "pgdemote_direct",
	[TIER_DEMOTED_KHUGEPAGED] = "pgdemote_khugepaged",
};

static const struct counter_col *tier_col(const struct series *s, enum tier_counter c)
{
	int i = s->tier.col[c];

	return i >= 0 && s->cols[i].present ? &s->cols[i] : NULL;
}

static double mbps(const struct series *s, unsigned long long pages)
{
	return s->dt_s > 0 ? pages * s->seed.page_size / TIERING_MB / s->dt_s : 0;
}

/* Demoted pages this sample: every demotion counter the guest has. */
static bool demoted_now(const struct series *s, unsigned long long *pages)
{
	bool known = false;

	*pages = 0;
	for (int c = TIER_DEMOTED_KSWAPD; c <= TIER_DEMOTED_KHUGEPAGED; c++) {
		const struct counter_col *col = tier_col(s, c);

		if (!col)
			continue;
		known = true;
		*pages += col->delta;
	}
	return known;
}

void tiering_columns(struct series *s)
{
	for (int c = 0; c < N_TIER_COUNTERS; c++) {
		s->tier.col[c] = -1;
		for (int i = 0; i < s->nr_cols; i++)
			if (!strcmp(s->cols[i].name, tiering_counters[c]))
				s->tier.col[c] = i;
	}
}

/* After the counters of a sample; IN_WORK: its interval was the workload's. */
void tiering_update(struct series *s, bool in_work)
{
	struct tiering *t = &s->tier;
	const struct counter_col *promoted = tier_col(s, TIER_PROMOTED);
	unsigned long long demoted;

	t->promote_known = promoted;
	t->promote_mbps = promoted ? mbps(s, promoted->delta) : 0;
	t->demote_known = demoted_now(s, &demoted);
	t->demote_mbps = t->demote_known ? mbps(s, demoted) : 0;
	t->promote_ever |= t->promote_known;
	t->demote_ever |= t->demote_known;
	t->demoted += demoted;
	if (t->promote_mbps > t->promote_mbps_max)
		t->promote_mbps_max = t->promote_mbps;
	if (!in_work || s->dt_s <= 0)
		return;
	t->work_s += s->dt_s;
	t->work_promoted += promoted ? promoted->delta : 0;
	t->work_demoted += demoted;
}
