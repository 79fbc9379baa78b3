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
 * The keys that become metrics, in struct tiering order: the collector's
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

_Static_assert(ARRAY_SIZE(keys) == TIERING_FIGURES, "one struct tiering slot per key");

/* What one summary may hold: no guest moves 10^15 pages or 10^12 MB/s. */
#define TIERING_MAX 1e15

static double value_of(char *refused, size_t len, struct json_object *obj, const char *key,
		       bool share)
{
	const char *from = share ? "plugin" : "tiering";
	double max = share ? 1 : TIERING_MAX;
	struct json_object *v;
	double d;

	if (!obj || !json_object_is_type(obj, json_type_object) ||
	    !json_object_object_get_ex(obj, key, &v) || !v)
		return NAN;	/* absent on this kernel or machine */
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)) {
		errf_append(refused, len, "%s.%s is not a number", from, key);
		return NAN;
	}
	d = json_object_get_double(v);
	if (isfinite(d) && d >= 0 && d <= max)
		return d;
	errf_append(refused, len, "%s.%s=%g is outside its sane range 0..%g", from, key, d, max);
	return NAN;
}

void tiering_load(struct tiering *t, char *refused, size_t len, struct json_object *tiering,
		  struct json_object *plugin)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		t->figure[i] = value_of(refused, len, keys[i].plugin ? plugin : tiering, keys[i].key,
					keys[i].plugin);
}

bool tiering_moved(const struct tiering *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (keys[i].plugin ? !isnan(t->figure[i]) : t->figure[i] > 0)
			return true;
	return false;
}

void tiering_add(const struct tiering *t, struct xmetrics **x)
{
	for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
		if (isnan(t->figure[k]))
			continue;
		if (!*x)
			*x = calloc(1, sizeof(**x));
		if (*x)
			xm_add(*x, keys[k].key, keys[k].unit, t->figure[k], keys[k].better);
	}
}
