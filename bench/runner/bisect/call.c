// SPDX-License-Identifier: GPL-2.0
/* Good or bad by the metric (call.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "call.h"
#include "lib/err.h"
#include "report/stats.h"

void step_mean(struct step *s)
{
	double sum = 0;
	int n = 0;

	for (int i = 0; i < s->n; i++)
		if (isfinite(s->v[i])) {
			sum += s->v[i];
			n++;
		}
	s->value = n ? sum / n : NAN;
}

static double welch_p(const struct step *a, const struct step *b)
{
	struct welch w;

	stats_welch(a->v, a->n, b->v, b->n, &w);
	return w.p;
}

int ends_differ(const struct bisection *b, char *why, size_t whylen)
{
	double g = b->good.value, x = b->bad.value, p;

	if (!isfinite(g) || !isfinite(x))
		return errf(why, whylen, "the %s end gave no value of %s",
			    isfinite(g) ? "bad" : "good", b->metric);
	if (b->has_threshold) {
		double t = b->threshold;

		if ((g < t && t < x) || (x < t && t < g))
			return 0;
		return errf(why, whylen, "--threshold %g does not lie between the good end's %s "
			    "%g and the bad end's %g", t, b->metric, g, x);
	}
	if (!b->wall) {
		if (g != x)
			return 0;
		return errf(why, whylen, "both ends give %s = %g: nothing to bisect", b->metric, g);
	}
	p = welch_p(&b->good, &b->bad);
	if (p < STATS_ALPHA)
		return 0;
	return errf(why, whylen, "the ends' %s do not differ significantly (%g against %g, "
		    "Welch p = %.3g over %d and %d runs): nothing to bisect", b->metric, g, x,
		    p, b->good.n, b->bad.n);
}

/* Which end S's mean is on: by the threshold, else by the nearer end. */
static enum verdict side(const struct bisection *b, double v)
{
	double g = b->good.value, x = b->bad.value;

	if (b->has_threshold) {
		double t = b->threshold;

		/* at the threshold itself: the bad side */
		return (x > t ? v >= t : v <= t) ? VERDICT_BAD : VERDICT_GOOD;
	}
	if (fabs(v - x) < fabs(v - g))
		return VERDICT_BAD;
	if (fabs(v - g) < fabs(v - x))
		return VERDICT_GOOD;
	return VERDICT_SKIP;
}

void call_step(const struct bisection *b, struct step *s)
{
	double v = s->value;
	enum verdict d;

	if (!isfinite(v)) {
		s->verdict = VERDICT_SKIP;
		snprintf(s->why, sizeof(s->why), "its run gave no value of %s", b->metric);
		return;
	}
	d = side(b, v);
	s->verdict = d;
	if (d == VERDICT_SKIP) {
		snprintf(s->why, sizeof(s->why), "%g lies midway between the ends", v);
		return;
	}
	if (b->has_threshold)
		snprintf(s->why, sizeof(s->why), "%g is on the %s side of %g", v,
			 verdict_name(d), b->threshold);
	else
		snprintf(s->why, sizeof(s->why), "%g is nearer the %s end's %g", v,
			 verdict_name(d), d == VERDICT_BAD ? b->bad.value : b->good.value);
	if (!b->wall)
		return;
	s->p_good = welch_p(&b->good, s);
	s->p_bad = welch_p(&b->bad, s);
	/* the same as the end it was called for, different from the other */
	if ((d == VERDICT_BAD ? s->p_good : s->p_bad) >= STATS_ALPHA ||
	    (d == VERDICT_BAD ? s->p_bad : s->p_good) < STATS_ALPHA)
		snprintf(s->why + strlen(s->why), sizeof(s->why) - strlen(s->why),
			 " (uncertain: Welch p = %.3g against the good end, %.3g against the "
			 "bad)", s->p_good, s->p_bad);
}
