/* SPDX-License-Identifier: GPL-2.0 */
/* Sweep specifications: "a,b,c" lists and "start:end:step" ranges. */
#ifndef BNB_SWEEP_H
#define BNB_SWEEP_H

#include <stddef.h>

/* Split "a,b,c" or "start:end:step" into values; returns count or -1. */
int sweep_values(const char *spec, char ***values, char *err, size_t errlen);
void sweep_values_free(char **values, int n);
/* The numbers of a range "start:end:step" (at most EXP_MAX_SWEEP values). */
int sweep_range(const char *spec, long long *start, long long *end, long long *step,
		char *err, size_t errlen);

#endif
