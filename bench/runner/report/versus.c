// SPDX-License-Identifier: GPL-2.0
/* One variant against a baseline, metric by metric; see versus.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "versus.h"

#define MAX_REPS 1024

bool metric_is_primary(const struct argv *primary, const char *name)
{
	for (int i = 0; primary && i < primary->n; i++)
		if (!strcmp(primary->v[i], name))
			return true;
	return false;
}

static void fill_row(struct vs_row *row, const struct results *ra, const char *va,
		     const struct results *rb, const char *vb)
{
	static double a[MAX_REPS], b[MAX_REPS];
	int na = results_values_named(ra, va, row->m.name, a, MAX_REPS);
	int nb = results_values_named(rb, vb, row->m.name, b, MAX_REPS);

	stats_describe(a, na, &row->a);
	stats_describe(b, nb, &row->b);
	stats_welch(a, na, b, nb, &row->w);
	row->t = (struct family_test) { .p = row->w.p, .primary = row->primary };
}

/* Primary metrics first, in the order the experiment names them. */
static int rank(const struct vs_row *row, const struct argv *primary)
{
	for (int i = 0; row->primary && i < primary->n; i++)
		if (!strcmp(primary->v[i], row->m.name))
			return i;
	return primary ? primary->n : 0;
}

int versus_build(struct versus *v, const struct results *ra, const char *va,
		 const struct results *rb, const char *vb, const struct argv *primary)
{
	static struct metric_info metrics[METRICS_MAX];
	struct family_test *t;
	int n = results_metrics(ra, va, metrics, METRICS_MAX), i, k = 0, r;

	memset(v, 0, sizeof(*v));
	v->rows = calloc(n ? n : 1, sizeof(*v->rows));
	t = calloc(n ? n : 1, sizeof(*t));
	if (!v->rows || !t) {
		free(t);
		versus_free(v);
		return -1;
	}
	/* a stable order: primary ones by rank, then the report's order */
	for (r = 0; r <= (primary ? primary->n : 0); r++) {
		for (i = 0; i < n; i++) {
			struct vs_row row = { .m = metrics[i] };

			row.primary = metric_is_primary(primary, row.m.name);
			if (rank(&row, primary) == r)
				v->rows[k++] = row;
		}
	}
	v->n = k;
	for (i = 0; i < v->n; i++) {
		fill_row(&v->rows[i], ra, va, rb, vb);
		t[i] = v->rows[i].t;
	}
	v->secondary = stats_family(t, v->n);
	for (i = 0; i < v->n; i++) {
		v->rows[i].t = t[i];
		if (v->rows[i].primary || !isfinite(t[i].p))
			continue;
		v->secondary_raw += t[i].p < STATS_ALPHA;
		v->secondary_adj += t[i].significant;
	}
	free(t);
	return 0;
}

void versus_free(struct versus *v)
{
	free(v->rows);
	memset(v, 0, sizeof(*v));
}

const struct vs_row *versus_row(const struct versus *v, const char *name)
{
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->rows[i].m.name, name))
			return &v->rows[i];
	return NULL;
}
