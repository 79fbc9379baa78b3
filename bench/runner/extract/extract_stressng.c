// SPDX-License-Identifier: GPL-2.0
/*
 * stress-ng --metrics / --metrics-brief: the per-stressor table
 *   stress-ng: metrc: [PID] stressor  bogo ops real time  usr time  sys time
 *                                     bogo ops/s (real time) bogo ops/s (usr+sys time) ...
 *   stress-ng: metrc: [PID] numa            20      2.42      0.04      1.10   8.28  17.55
 * ("info:" instead of "metrc:" in older versions), and the lines after
 * "miscellaneous metrics:", such as the stream stressor's memory rates:
 *   stress-ng: metrc: [PID] stream   9726.63 memory read rate (MB per sec) (geometic mean ...)
 * Metrics: STRESSOR.bogo_ops, .bogo_ops_per_s (real time, the headline),
 * .bogo_ops_per_s_cpu (usr+sys time), .real_s, and for the others
 * STRESSOR.DESCRIPTION in the unit of its first parenthesis.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract.h"

struct sng_state {
	bool table;	/* after the "stressor ... bogo ops" header */
	bool misc;	/* after "miscellaneous metrics:" */
};

/* The text after "stress-ng: metrc: [PID] " (or info:), or NULL. */
static const char *payload(const char *line)
{
	const char *p;

	if (strncmp(line, "stress-ng: ", 11))
		return NULL;
	p = line + 11;
	if (strncmp(p, "metrc:", 6) && strncmp(p, "info:", 5))
		return NULL;
	p = strchr(p, '[');
	if (!p || !(p = strchr(p, ']')))
		return NULL;
	return p + 1 + strspn(p + 1, " ");
}

static bool stressor_name(const char *p, char *buf, size_t len)
{
	size_t n = 0;

	while (p[n] && (isalnum((unsigned char)p[n]) || p[n] == '-' || p[n] == '_'))
		n++;
	if (!n || n >= len || !isspace((unsigned char)p[n]))
		return false;
	memcpy(buf, p, n);
	buf[n] = 0;
	return true;
}

/* "numa  20  2.42  0.04  1.10  8.28  17.55 [...]": at least six numbers */
static void table_row(const char *p, struct xmetrics *x)
{
	char name[32], key[XM_NAME_MAX];
	double v[6];
	char *end;
	int i;

	if (!stressor_name(p, name, sizeof(name)))
		return;
	p += strlen(name);
	for (i = 0; i < 6; i++) {
		errno = 0;
		v[i] = strtod(p, &end);
		if (errno || end == p || (*end && !isspace((unsigned char)*end)))
			return;
		p = end;
	}
	snprintf(key, sizeof(key), "%s.bogo_ops", name);
	xm_add(x, key, "ops", v[0], BETTER_NONE);
	snprintf(key, sizeof(key), "%s.real_s", name);
	xm_add(x, key, "s", v[1], BETTER_NONE);
	snprintf(key, sizeof(key), "%s.bogo_ops_per_s", name);
	xm_add(x, key, "ops/s", v[4], BETTER_HIGHER);
	snprintf(key, sizeof(key), "%s.bogo_ops_per_s_cpu", name);
	xm_add(x, key, "ops/s", v[5], BETTER_HIGHER);
}

/* "MB per sec" -> "MB/s"; "Mflop per sec" -> "Mflop/s" */
static void unit_of(const char *paren, char *buf, size_t len)
{
	const char *close = strchr(paren, ')');
	size_t n = close ? (size_t)(close - paren - 1) : 0;
	char *per;

	buf[0] = 0;
	if (!n || n >= len)
		return;
	memcpy(buf, paren + 1, n);
	buf[n] = 0;
	per = strstr(buf, " per sec");
	if (per)
		strcpy(per, "/s");
}

/* "stream   9726.63 memory read rate (MB per sec) (geometic mean of 2 instances)" */
static void misc_row(const char *p, struct xmetrics *x)
{
	char name[23], desc[40], unit[XM_UNIT_MAX], key[XM_NAME_MAX];
	const char *paren;
	char *end;
	size_t n, i;
	double v;

	if (!stressor_name(p, name, sizeof(name)))
		return;
	p += strlen(name);
	errno = 0;
	v = strtod(p, &end);
	if (errno || end == p || !isspace((unsigned char)*end))
		return;
	p = end + strspn(end, " ");
	paren = strchr(p, '(');
	n = paren ? (size_t)(paren - p) : strlen(p);
	while (n && p[n - 1] == ' ')
		n--;
	if (!n)
		return;
	n = n < sizeof(desc) ? n : sizeof(desc) - 1;
	for (i = 0; i < n; i++)
		desc[i] = isalnum((unsigned char)p[i]) ? p[i] : '_';
	desc[n] = 0;
	unit_of(paren ? paren : "", unit, sizeof(unit));
	snprintf(key, sizeof(key), "%s.%s", name, desc);
	xm_add(x, key, unit, v, strstr(unit, "/s") ? BETTER_HIGHER : BETTER_NONE);
}

static bool claims_stress_ng(const char *command)
{
	char word[64];

	return command_word(command, 0, word, sizeof(word)) && !strcmp(word, "stress-ng");
}

static void sng_line(const char *line, struct xmetrics *x, void *state)
{
	struct sng_state *s = state;
	const char *p = payload(line);

	if (!p)
		return;
	if (!strncmp(p, "stressor ", 9) && strstr(p, "bogo ops")) {
		s->table = true;
		s->misc = false;
	} else if (!strncmp(p, "miscellaneous metrics:", 22)) {
		s->misc = true;
	} else if (s->misc) {
		misc_row(p, x);
	} else if (s->table) {
		table_row(p, x);
	}
}

const struct extractor extract_stress_ng = {
	"stress-ng",
	"stress-ng --metrics or --metrics-brief: bogo ops/s per stressor "
	"(STRESSOR.bogo_ops_per_s), and miscellaneous metrics such as the stream "
	"stressor's memory rates",
	claims_stress_ng, sng_line, sizeof(struct sng_state),
	"metrics table (run stress-ng with --metrics-brief or --metrics)",
};
