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

/*
 * The keys that become metrics, in run->tiering[] order: the collector's
 * "tiering" object's, and the fast tier's share of the accesses from its
 * "plugin" object (a ratio, unlike the rest).
 */
static const struct {
	const char *key, *unit;
	bool plugin;
	enum better better;
} keys[] = {
	{ "promoted_pages", "pages", false, BETTER_NONE },
	{ "promote_candidates", "pages", false, BETTER_NONE },
	{ "demoted_pages", "pages", false, BETTER_NONE },
	{ "promote_mbps_mean", "MB/s", false, BETTER_NONE },
	{ "demote_mbps_mean", "MB/s", false, BETTER_NONE },
	{ "fast_tier_share", "", true, BETTER_HIGHER },
};

_Static_assert(ARRAY_SIZE(keys) == ARRAY_SIZE(((struct run *)0)->tiering),
	       "one run->tiering slot per key");

/* What one summary may hold: no guest moves 10^15 pages or 10^12 MB/s. */
#define TIERING_MAX 1e15

static double value_of(struct run *run, struct json_object *obj, const char *key, bool share)
{
	const char *from = share ? "plugin" : "tiering";
	double max = share ? 1 : TIERING_MAX;
	struct json_object *v;
	double d;

	if (!obj || !json_object_is_type(obj, json_type_object) ||
	    !json_object_object_get_ex(obj, key, &v) || !v)
		return NAN;	/* absent on this kernel or machine */
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)) {
		errf_append(run->refused, sizeof(run->refused), "%s.%s is not a number", from, key);
		return NAN;
	}
	d = json_object_get_double(v);
	if (isfinite(d) && d >= 0 && d <= max)
		return d;
	errf_append(run->refused, sizeof(run->refused),
		    "%s.%s=%g is outside its sane range 0..%g", from, key, d, max);
	return NAN;
}

void tiering_load(struct run *run, struct json_object *tiering, struct json_object *plugin)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		run->tiering[i] = value_of(run, keys[i].plugin ? plugin : tiering, keys[i].key,
					   keys[i].plugin);
}

/* Pages moved between tiers, or a slow tier the plugin saw. */
static bool tiers(const struct run *run)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (keys[i].plugin ? !isnan(run->tiering[i]) : run->tiering[i] > 0)
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
				       keys[k].better);
		}
	}
}
