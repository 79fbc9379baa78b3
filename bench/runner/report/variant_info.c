// SPDX-License-Identifier: GPL-2.0
/* What a variant's runs recorded (variant_info.h). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "variant_info.h"

/* The baseline is the first variant of the file that has runs. */
const char *variant_baseline(const struct results *r)
{
	int i;

	for (i = 0; i < r->exp.n_variants; i++)
		if (results_has_runs(r, r->exp.variants[i].name))
			return r->exp.variants[i].name;
	return NULL;
}

const char *variant_latency(const struct results *r, const char *variant)
{
	const char *any = NULL;
	int i;

	/* a run that ended ok says what the variant ran with; one that never started less */
	for (i = 0; i < r->n_runs; i++) {
		if (strcmp(r->runs[i].variant, variant) || !r->runs[i].latency[0])
			continue;
		if (r->runs[i].status == RUN_OK)
			return r->runs[i].latency;
		any = any ? any : r->runs[i].latency;
	}
	return any ? any : "unknown";
}

/* The provenance of VARIANT's first run that has one; NULL if none. */
static struct json_object *variant_prov(const struct results *r, const char *variant)
{
	int i;

	for (i = 0; i < r->n_runs; i++)
		if (!strcmp(r->runs[i].variant, variant) && r->runs[i].prov)
			return r->runs[i].prov;
	return NULL;
}

static const char *prov_str(struct json_object *prov, const char *key)
{
	struct json_object *v;
	const char *s;

	if (!prov || !json_object_object_get_ex(prov, key, &v))
		return NULL;
	s = json_object_get_string(v);
	return s && *s && strcmp(s, "unknown") ? s : NULL;
}

static const char *asked_kernel(const struct results *r, const char *variant)
{
	const struct variant *v = experiment_variant(&r->exp, variant);

	return v && v->kernel[0] ? v->kernel : "default";
}

const char *variant_kernel(const struct results *r, const char *variant, char *buf, size_t len)
{
	struct json_object *prov = variant_prov(r, variant);
	const char *release = prov_str(prov, "guest.uname_r") ?: prov_str(prov, "kernel_release");
	const char *build = prov_str(prov, "kernel_key");

	if (!release) {
		snprintf(buf, len, "unknown");
		return buf;
	}
	snprintf(buf, len, "%s (%s%s%s)", release, asked_kernel(r, variant),
		 build ? ", build " : "", build ? build : "");
	return buf;
}

struct json_object *variant_kernel_json(const struct results *r, const char *variant)
{
	static const char *const fields[][2] = {
		{ "release", "guest.uname_r" }, { "version", "guest.uname_v" },
		{ "build", "kernel_key" }, { "image_hash", "kernel_image_hash" },
	};
	struct json_object *prov = variant_prov(r, variant), *o = json_object_new_object();
	const char *s;
	size_t i;

	json_object_object_add(o, "asked", json_object_new_string(asked_kernel(r, variant)));
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		s = prov_str(prov, fields[i][1]);
		json_object_object_add(o, fields[i][0], s ? json_object_new_string(s) : NULL);
	}
	return o;
}

const char *variant_timing(const struct results *r, const char *variant)
{
	struct json_object *t;

	for (int i = 0; i < r->n_runs; i++)
		if (!strcmp(r->runs[i].variant, variant) && r->runs[i].prov &&
		    json_object_object_get_ex(r->runs[i].prov, "timing", &t) &&
		    json_object_is_type(t, json_type_string))
			return json_object_get_string(t);
	return "wall";
}
