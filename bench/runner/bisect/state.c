// SPDX-License-Identifier: GPL-2.0
/* bisect.json: the bisection written and read back (state.h). */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/err.h"
#include "lib/util.h"
#include "state.h"

static const char *const verdict_names[] = {
	[VERDICT_NONE] = "", [VERDICT_GOOD] = "good", [VERDICT_BAD] = "bad",
	[VERDICT_SKIP] = "skip",
};
static const char *const state_names[] = {
	[STATE_RUNNING] = "running", [STATE_DONE] = "done",
	[STATE_UNRESOLVED] = "unresolved", [STATE_REFUSED] = "refused",
};

const char *verdict_name(enum verdict v)
{
	return verdict_names[v];
}

enum verdict verdict_parse(const char *s)
{
	for (size_t i = 1; i < ARRAY_SIZE(verdict_names); i++)
		if (!strcmp(s, verdict_names[i]))
			return i;
	return VERDICT_NONE;
}

const char *state_name(enum bisect_state s)
{
	return state_names[s];
}

void step_init(struct step *s, const char *role, const char *commit)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->role, sizeof(s->role), "%s", role);
	snprintf(s->commit, sizeof(s->commit), "%s", commit);
	s->value = s->p_good = s->p_bad = NAN;
	s->kbuild_steps = s->compiled = -1;
}

/* ---- writing ------------------------------------------------------------ */

static void put_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

/* A number, or null where there is none (JSON has no NaN). */
static void put_num(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, isfinite(v) ? json_object_new_double(v) : NULL);
}

static void put_int(struct json_object *o, const char *k, int v)
{
	json_object_object_add(o, k, json_object_new_int(v));
}

static struct json_object *step_json(const struct step *s)
{
	struct json_object *o = json_object_new_object(), *v = json_object_new_array();

	put_str(o, "role", s->role);
	put_str(o, "commit", s->commit);
	put_str(o, "subject", s->subject);
	put_str(o, "folder", s->folder);
	for (int i = 0; i < s->n; i++)
		json_object_array_add(v, json_object_new_double(s->v[i]));
	json_object_object_add(o, "values", v);
	put_num(o, "value", s->value);
	put_num(o, "p_good", s->p_good);
	put_num(o, "p_bad", s->p_bad);
	put_str(o, "verdict", verdict_name(s->verdict));
	put_str(o, "why", s->why);
	put_str(o, "log_end", s->log_end);
	put_num(o, "build_s", s->build_s);
	put_num(o, "run_s", s->run_s);
	json_object_object_add(o, "kernel_cached", json_object_new_boolean(s->cached));
	put_int(o, "kbuild_steps", s->kbuild_steps);
	put_int(o, "compiled", s->compiled);
	put_str(o, "kernel_key", s->kernel_key);
	return o;
}

static struct json_object *bisection_json(const struct bisection *b)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	struct json_object *c = json_object_new_array();

	put_str(o, "experiment", b->experiment);
	put_str(o, "experiment_name", b->exp_name);
	put_str(o, "variant", b->variant);
	put_str(o, "metric", b->metric);
	put_str(o, "tree", b->tree);
	put_str(o, "good_rev", b->good_rev);
	put_str(o, "bad_rev", b->bad_rev);
	put_num(o, "threshold", b->has_threshold ? b->threshold : NAN);
	json_object_object_add(o, "no_plots", json_object_new_boolean(b->no_plots));
	put_str(o, "repository", b->repo);
	put_str(o, "worktree", b->worktree);
	put_str(o, "timing", b->wall ? "wall" : "deterministic");
	put_int(o, "runs_per_commit", b->reps);
	put_int(o, "range_commits", b->range);
	json_object_object_add(o, "good", step_json(&b->good));
	json_object_object_add(o, "bad", step_json(&b->bad));
	for (int i = 0; i < b->n_steps; i++)
		json_object_array_add(a, step_json(&b->steps[i]));
	json_object_object_add(o, "steps", a);
	put_str(o, "state", state_name(b->state));
	put_str(o, "message", b->message);
	put_str(o, "first_bad", b->first_bad);
	put_str(o, "last_good", b->last_good);
	for (int i = 0; i < b->n_candidates; i++)
		json_object_array_add(c, json_object_new_string(b->candidates[i]));
	json_object_object_add(o, "candidates", c);
	put_num(o, "wall_s", b->wall_s);
	put_str(o, "started", b->started);
	return o;
}

int state_save(const struct bisection *b, char *why, size_t whylen)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 40];
	struct json_object *o = bisection_json(b);
	int rc;

	snprintf(path, sizeof(path), "%s/" BISECT_JSON, b->dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	rc = json_object_to_file_ext(tmp, o, JSON_C_TO_STRING_PRETTY |
				     JSON_C_TO_STRING_NOSLASHESCAPE);
	json_object_put(o);
	if (rc || rename(tmp, path))
		return errf(why, whylen, "cannot write %s: %m", path);
	return 0;
}

/* ---- reading ------------------------------------------------------------ */

static const char *get_str(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_string))
		return "";
	return json_object_get_string(v);
}

static double get_num(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return NAN;
	return json_object_get_double(v);
}

static int get_int(struct json_object *o, const char *k, int def)
{
	double v = get_num(o, k);

	return isfinite(v) ? (int)v : def;
}

static bool get_bool(struct json_object *o, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(o, k, &v) && json_object_get_boolean(v);
}

#define COPY(dst, o, k) snprintf(dst, sizeof(dst), "%s", get_str(o, k))

static void step_read(struct json_object *o, struct step *s)
{
	struct json_object *v;

	step_init(s, get_str(o, "role"), get_str(o, "commit"));
	COPY(s->subject, o, "subject");
	COPY(s->folder, o, "folder");
	if (json_object_object_get_ex(o, "values", &v) && json_object_is_type(v, json_type_array))
		for (size_t i = 0; i < json_object_array_length(v) && s->n < BISECT_MAX_REPS; i++)
			s->v[s->n++] = json_object_get_double(json_object_array_get_idx(v, i));
	s->value = get_num(o, "value");
	s->p_good = get_num(o, "p_good");
	s->p_bad = get_num(o, "p_bad");
	s->verdict = verdict_parse(get_str(o, "verdict"));
	COPY(s->why, o, "why");
	COPY(s->log_end, o, "log_end");
	s->build_s = get_num(o, "build_s");
	s->run_s = get_num(o, "run_s");
	s->cached = get_bool(o, "kernel_cached");
	s->kbuild_steps = get_int(o, "kbuild_steps", -1);
	s->compiled = get_int(o, "compiled", -1);
	COPY(s->kernel_key, o, "kernel_key");
}

static void bisection_read(struct json_object *o, struct bisection *b)
{
	struct json_object *v;
	const char *st = get_str(o, "state");

	COPY(b->experiment, o, "experiment");
	COPY(b->exp_name, o, "experiment_name");
	COPY(b->variant, o, "variant");
	COPY(b->metric, o, "metric");
	COPY(b->tree, o, "tree");
	COPY(b->good_rev, o, "good_rev");
	COPY(b->bad_rev, o, "bad_rev");
	b->threshold = get_num(o, "threshold");
	b->has_threshold = isfinite(b->threshold);
	b->no_plots = get_bool(o, "no_plots");
	COPY(b->repo, o, "repository");
	COPY(b->worktree, o, "worktree");
	b->wall = !strcmp(get_str(o, "timing"), "wall");
	b->reps = get_int(o, "runs_per_commit", 1);
	b->range = get_int(o, "range_commits", 0);
	if (json_object_object_get_ex(o, "good", &v))
		step_read(v, &b->good);
	if (json_object_object_get_ex(o, "bad", &v))
		step_read(v, &b->bad);
	if (json_object_object_get_ex(o, "steps", &v) && json_object_is_type(v, json_type_array))
		for (size_t i = 0; i < json_object_array_length(v) && b->n_steps < BISECT_MAX_STEPS;
		     i++)
			step_read(json_object_array_get_idx(v, i), &b->steps[b->n_steps++]);
	for (size_t i = 0; i < ARRAY_SIZE(state_names); i++)
		if (!strcmp(st, state_names[i]))
			b->state = i;
	COPY(b->message, o, "message");
	COPY(b->first_bad, o, "first_bad");
	COPY(b->last_good, o, "last_good");
	if (json_object_object_get_ex(o, "candidates", &v) && json_object_is_type(v, json_type_array))
		for (size_t i = 0; i < json_object_array_length(v) &&
		     b->n_candidates < BISECT_MAX_CANDIDATES; i++)
			snprintf(b->candidates[b->n_candidates++], GIT_SHA_LEN + 1, "%s",
				 json_object_get_string(json_object_array_get_idx(v, i)));
	b->wall_s = get_num(o, "wall_s");
	if (!isfinite(b->wall_s))
		b->wall_s = 0;
	COPY(b->started, o, "started");
}

int state_load(const char *dir, struct bisection *b, char *why, size_t whylen)
{
	char path[PATH_MAX + 32];
	struct json_object *o;

	memset(b, 0, sizeof(*b));
	snprintf(b->dir, sizeof(b->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/" BISECT_JSON, dir);
	o = json_object_from_file(path);
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return errf(why, whylen, "%s is not a bisection's log (no readable %s)", dir,
			    BISECT_JSON);
	}
	bisection_read(o, b);
	json_object_put(o);
	if (strlen(b->good.commit) != GIT_SHA_LEN || strlen(b->bad.commit) != GIT_SHA_LEN ||
	    !b->metric[0] || !b->variant[0])
		return errf(why, whylen, "%s/%s lacks the ends, the metric or the variant", dir,
			    BISECT_JSON);
	return 0;
}

struct step *state_find(struct bisection *b, const char *commit)
{
	if (!strcmp(b->good.commit, commit))
		return &b->good;
	if (!strcmp(b->bad.commit, commit))
		return &b->bad;
	for (int i = 0; i < b->n_steps; i++)
		if (!strcmp(b->steps[i].commit, commit))
			return &b->steps[i];
	return NULL;
}
