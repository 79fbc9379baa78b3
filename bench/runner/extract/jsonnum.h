/* SPDX-License-Identifier: GPL-2.0 */
/* jsonnum.h - a number from a JSON object that a run wrote (untrusted). */
#ifndef BNB_JSONNUM_H
#define BNB_JSONNUM_H

#include <json-c/json.h>
#include <math.h>

/* KEY of O as a number; NAN when O is NULL, KEY is missing, null or no number. */
static inline double json_num(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return NAN;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return NAN;
	return json_object_get_double(v);
}

#endif
