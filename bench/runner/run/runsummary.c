// SPDX-License-Identifier: GPL-2.0
/* The runner's additions to a run's summary.json (runsummary.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "runsummary.h"

const char *better_name(enum better b)
{
	return b == BETTER_LOWER ? "lower" : b == BETTER_HIGHER ? "higher" : "none";
}

static struct json_object *metrics_json(const struct xmetrics *x)
{
	struct json_object *o = json_object_new_object(), *m;
	int i;

	for (i = 0; x && i < x->n; i++) {
		m = json_object_new_object();
		json_object_object_add(m, "value", json_object_new_double(x->v[i].value));
		json_object_object_add(m, "unit", json_object_new_string(x->v[i].unit));
		json_object_object_add(m, "better", json_object_new_string(better_name(x->v[i].better)));
		json_object_object_add(o, x->v[i].name, m);
	}
	return o;
}

int run_summary_add(const char *rundir, struct json_object *prov, const struct xmetrics *x,
		    struct json_object *monitors)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 32];
	struct json_object *root;
	int rc;

	snprintf(path, sizeof(path), "%s/summary.json", rundir);
	snprintf(tmp, sizeof(tmp), "%s/summary.json.tmp", rundir);
	root = json_object_from_file(path);
	if (!root || !json_object_is_type(root, json_type_object)) {
		if (root)
			json_object_put(root);
		root = json_object_new_object();
	}
	if (prov)
		json_object_object_add(root, "provenance", prov);
	json_object_object_add(root, "metrics", metrics_json(x));
	if (x && x->refused[0])
		json_object_object_add(root, "refused_metrics", json_object_new_string(x->refused));
	if (monitors)
		json_object_object_add(root, "monitors", monitors);
	rc = json_object_to_file_ext(tmp, root, JSON_C_TO_STRING_PRETTY |
				     JSON_C_TO_STRING_NOSLASHESCAPE);
	json_object_put(root);
	if (rc) {
		int saved = errno;

		unlink(tmp);	/* a full disk must not keep half a file */
		errno = saved;
		return -1;
	}
	return rename(tmp, path);
}
