// SPDX-License-Identifier: GPL-2.0
/*
 * locrise.c - the rise of a run's true locality over its work (locrise.h).
 *
 * One 100 ms interval swings widely (the guest's other activity comes and
 * goes, a thread is between slices), so the locality is taken over
 * windows of a twentieth of the work: the first window is the start,
 * the best window the peak, and the rise is reached at the end of the
 * first window at or above 90 % of the way from the one to the other.
 * The peak, not the end: the work's last stretch is its slowest
 * threads', which are the ones whose pages stayed remote (numa02's
 * threads each do the same work and finish one by one), so the end
 * understates where the balancer got the run.
 */
#include <math.h>
#include <stdlib.h>

#include "csv.h"
#include "locrise.h"

/* Local share of the accesses of intervals [from, to], NAN when none. */
static double share(const double *local, const double *remote, int from, int to)
{
	double l = 0, all = 0;

	for (int i = from; i <= to; i++) {
		l += local[i];
		all += local[i] + remote[i];
	}
	return all > 0 ? l / all : NAN;
}

/*
 * Each interval's share over the intervals that end within SPAN s up to
 * its own end, into V: a window moved along with running sums, so that a
 * table of a million rows (the most csv.c takes) costs a million steps.
 */
static void smooth(const double *t, const double *local, const double *remote, int n,
		   double span, double *v)
{
	double l = 0, all = 0;
	int from = 0;

	for (int i = 0; i < n; i++) {
		l += local[i];
		all += local[i] + remote[i];
		for (; from < i && t[from] <= t[i] - span; from++) {
			l -= local[from];
			all -= local[from] + remote[from];
		}
		v[i] = all > 0 ? l / all : NAN;
	}
}

int loc_rise(const double *t, const double *local, const double *remote, int n, double t0,
	     struct loc_rise *out)
{
	double span, mark, *v;
	int first, i;

	out->start = out->peak = out->to90_s = NAN;
	out->flat = false;
	if (n < 3 || !(t[0] > t0) || !(t[n - 1] > t0))
		return -1;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -1;
	span = LOCRISE_SPAN * (t[n - 1] - t0);
	smooth(t, local, remote, n, span, v);
	/* the first window: the intervals that end within SPAN of the work's start */
	for (first = 0; first + 1 < n && t[first + 1] <= t0 + span; first++)
		;
	out->start = share(local, remote, 0, first);
	for (i = first; i < n; i++)
		if (v[i] > out->peak || isnan(out->peak))
			out->peak = v[i];
	if (isnan(out->start) || isnan(out->peak)) {
		free(v);
		return -1;
	}
	out->flat = out->peak - out->start < LOCRISE_MIN_GAIN;
	mark = out->start + 0.9 * (out->peak - out->start);
	for (i = first; i < n && !out->flat; i++)
		if (v[i] >= mark) {
			out->to90_s = t[i] - t0;
			break;
		}
	free(v);
	return 0;
}

int loc_rise_table(const struct csv *tab, double t0, double t1, struct loc_rise *out)
{
	int ct = csv_col(tab, "t_s"), cl = csv_col(tab, "acc_local_d");
	int cr = csv_col(tab, "acc_remote_d"), n = 0, ret;
	double *t, *local, *remote, prev = -INFINITY;

	out->start = out->peak = out->to90_s = NAN;
	out->flat = false;
	if (ct < 0 || cl < 0 || cr < 0 || !isfinite(t0) || tab->nrows < 1)
		return -1;
	t = calloc(tab->nrows, sizeof(*t));
	local = calloc(tab->nrows, sizeof(*local));
	remote = calloc(tab->nrows, sizeof(*remote));
	if (!t || !local || !remote) {
		ret = -1;
		goto out;
	}
	for (int r = 0; r < tab->nrows; r++) {
		double tr = csv_at(tab, r, ct);

		/*
		 * Untrusted: time must move on.  The intervals in which the
		 * work began and ended hold what came before and after it
		 * (setup; the exit), as the collector's own figures leave out.
		 */
		if (!isfinite(tr) || tr <= prev)
			continue;
		if (prev >= t0 - 1e-9 && (isnan(t1) || tr < t1 - 1e-9)) {
			t[n] = tr;
			/* fmax: an empty or negative cell counts nothing */
			local[n] = fmax(csv_at(tab, r, cl), 0);
			remote[n] = fmax(csv_at(tab, r, cr), 0);
			n++;
		}
		prev = tr;
	}
	ret = loc_rise(t, local, remote, n, t0, out);
out:
	free(t);
	free(local);
	free(remote);
	return ret;
}
