// SPDX-License-Identifier: GPL-2.0
/*
 * tieringrun.c - the collector's promotion and demotion figures as run
 * metrics; see tieringrun.h. summary.json is the guest's data passed
 * through the collector and may have been edited since: a value that is
 * not a number, negative or absurd is refused, naming the key.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>

#include "extract.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tieringrun.h"

/* The "tiering" keys that become metrics, in run->tiering[] order. */
static const struct {
	const char *key, *unit;
} keys[] = {
	{ "promoted_pages", "pages" },
	{ "promote_candidates", "pages" },
	{ "demoted_pages", "pages" },
	{ "promote_mbps_mean", "MB/s" },
	{ "demote_mbps_mean", "MB/s" },
};

_Static_assert(ARRAY_SIZE(keys) == ARRAY_SIZE(((struct run *)0)->tiering),
	       "one run->tiering slot per key");

/* What one summary may hold: no guest moves 10^15 pages or 10^12 MB/s. */
#define TIERING_MAX 1e15

static double value_of(struct run *run, struct json_object *tiering, const char *key)
{
	struct json_object *v;
	double d;

	if (!json_object_object_get_ex(tiering, key, &v) || !v)
		return NAN;	/* absent on this kernel */
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)) {
		errf_append(run->refused, sizeof(run->refused), "tiering.%s is not a number", key);
		return NAN;
	}
	d = json_object_get_double(v);
	if (isfinite(d) && d >= 0 && d <= TIERING_MAX)
		return d;
	errf_append(run->refused, sizeof(run->refused),
		    "tiering.%s=%g is outside its sane range 0..%g", key, d, TIERING_MAX);
	return NAN;
}

void tiering_load(struct run *run, struct json_object *tiering)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		run->tiering[i] = NAN;
	if (!tiering || !json_object_is_type(tiering, json_type_object))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		run->tiering[i] = value_of(run, tiering, keys[i].key);
}

static bool tiers(const struct run *run)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (run->tiering[i] > 0)
			return true;
	return false;
}

void tiering_metrics(struct results *r)
{
	bool any = false;
	int i;

	for (i = 0; i < r->n_runs && !any; i++)
		any = r->runs[i].status == RUN_OK && tiers(&r->runs[i]);
	if (!any)
		return;
	for (i = 0; i < r->n_runs; i++) {
		struct run *run = &r->runs[i];

		for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
			if (isnan(run->tiering[k]))
				continue;
			if (!run->xm)
				run->xm = calloc(1, sizeof(*run->xm));
			if (run->xm)
				xm_add(run->xm, keys[k].key, keys[k].unit, run->tiering[k],
				       BETTER_NONE);
		}
	}
}
