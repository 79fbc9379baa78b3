// SPDX-License-Identifier: GPL-2.0
/* Sweep specifications: "a,b,c" lists and "start:end:step" ranges. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/parse.h"
#include "sweep.h"
#include "variant.h"

int sweep_range(const char *spec, long long *start, long long *end, long long *step,
		char *err, size_t errlen)
{
	char buf[128], *part[3];

	if (snprintf(buf, sizeof(buf), "%s", spec) >= (int)sizeof(buf) ||
	    split_list(buf, ':', part, 3) != 3 ||
	    parse_ll(part[0], -(1LL << 53), 1LL << 53, start, NULL, 0) ||
	    parse_ll(part[1], -(1LL << 53), 1LL << 53, end, NULL, 0) ||
	    parse_ll(part[2], 1, 1LL << 53, step, NULL, 0) || *end < *start)
		return errf(err, errlen, "bad range '%s' (want start:end:step, start <= end, "
			    "step > 0)", spec);
	if ((*end - *start) / *step >= EXP_MAX_SWEEP)
		return errf(err, errlen, "range '%s' has more than %d values", spec, EXP_MAX_SWEEP);
	return 0;
}

static int range_values(const char *spec, char ***values, char *err, size_t errlen)
{
	long long start, end, step, v;
	int n = 0;

	if (sweep_range(spec, &start, &end, &step, err, errlen))
		return -1;
	*values = calloc((end - start) / step + 1, sizeof(char *));
	for (v = start; v <= end; v += step)
		if (asprintf(&(*values)[n++], "%lld", v) < 0)
			return -1;
	return n;
}

int sweep_values(const char *spec, char ***values, char *err, size_t errlen)
{
	char *copy, *items[EXP_MAX_SWEEP + 1];
	int n, i;

	if (strchr(spec, ':'))
		return range_values(spec, values, err, errlen);
	copy = strdup(spec);
	n = split_list(copy, ',', items, EXP_MAX_SWEEP + 1);
	if (n < 0) {
		free(copy);
		return errf(err, errlen, "'%s' has an empty item or more than %d values",
			    spec, EXP_MAX_SWEEP);
	}
	*values = calloc(n, sizeof(char *));
	for (i = 0; i < n; i++)
		(*values)[i] = strdup(items[i]);
	free(copy);
	return n;
}

void sweep_values_free(char **values, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(values[i]);
	free(values);
}
