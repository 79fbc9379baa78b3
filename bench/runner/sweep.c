// SPDX-License-Identifier: GPL-2.0
/* Sweep specifications: "a,b,c" lists and "start:end:step" ranges. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"

static int range_values(const char *spec, char ***values, char *err, size_t errlen)
{
	long start, end, step, v;
	int n = 0;

	if (sscanf(spec, "%ld:%ld:%ld", &start, &end, &step) != 3 || step <= 0 ||
	    end < start || (end - start) / step >= EXP_MAX_SWEEP) {
		snprintf(err, errlen, "bad range '%s'", spec);
		return -1;
	}
	*values = calloc((end - start) / step + 1, sizeof(char *));
	for (v = start; v <= end; v += step)
		if (asprintf(&(*values)[n++], "%ld", v) < 0)
			return -1;
	return n;
}

int sweep_values(const char *spec, char ***values, char *err, size_t errlen)
{
	char *copy, *item, *save = NULL;
	int n = 0;

	if (strchr(spec, ':'))
		return range_values(spec, values, err, errlen);
	*values = calloc(EXP_MAX_SWEEP, sizeof(char *));
	copy = strdup(spec);
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (n == EXP_MAX_SWEEP) {
			snprintf(err, errlen, "more than %d values in '%s'", EXP_MAX_SWEEP, spec);
			sweep_values_free(*values, n);
			free(copy);
			return -1;
		}
		(*values)[n++] = strdup(item);
	}
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
