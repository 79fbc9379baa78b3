// SPDX-License-Identifier: GPL-2.0
/* The account of balancing in one run; see account.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"

#define EPS 1e-9

/*
 * The work's intervals, as the collector counts them: from the one after
 * the sample that saw the workload's WORK marker (that one holds setup)
 * to the one that saw its end.
 */
static bool in_work(const struct acct_interval *iv, int i, const struct acct_params *p)
{
	double start = i ? iv[i - 1].t_s : -INFINITY;

	return start >= p->work_from_s - EPS &&
	       (isnan(p->work_to_s) || iv[i].t_s <= p->work_to_s + EPS);
}

static double nonneg(double v)
{
	return isfinite(v) && v > 0 ? v : 0;
}

/* Work intervals; their number, into W (the caller's array of N). */
static int work_rows(const struct acct_interval *iv, int n, const struct acct_params *p,
		     int *w)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (in_work(iv, i, p))
			w[k++] = i;
	return k;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The remote misses that stay remote when balancing is done, and their
 * stall, per interval: the medians over the work's last half.
 */
static void remote_floor(const struct acct_interval *iv, const int *w, int k, double *misses,
			 double *stall)
{
	double m[k ? k : 1], s[k ? k : 1];
	int h = k / 2, j;

	for (j = h; j < k; j++) {
		m[j - h] = nonneg(iv[w[j]].miss_remote);
		s[j - h] = nonneg(iv[w[j]].stall_remote_ns);
	}
	j = k - h;
	qsort(m, j, sizeof(*m), by_value);
	qsort(s, j, sizeof(*s), by_value);
	*misses = j ? m[j / 2] : 0;
	*stall = j ? s[j / 2] : 0;
}

/*
 * A remote miss as balancing removed it: the remote misses and stall of
 * the intervals above the floor that remains when balancing is done, less
 * that floor. The misses that stay remote are not the ones it moved (a
 * stream's lines go local, stragglers stay, at several times the price),
 * so the work's mean remote price would put the moved ones too high.
 * False when no interval stands out (balancing moved nothing, or moved it
 * all before the work).
 */
static bool removed_price(const struct acct_interval *iv, const int *w, int k, double *price)
{
	double floor_m, floor_s, m = 0, s = 0;

	remote_floor(iv, w, k, &floor_m, &floor_s);
	for (int j = 0; j < k; j++) {
		double r = nonneg(iv[w[j]].miss_remote);

		if (r <= 2 * floor_m || r <= 0)
			continue;
		m += r - floor_m;
		s += fmax(0, nonneg(iv[w[j]].stall_remote_ns) - floor_s);
	}
	if (m < ACCT_MIN_WINDOW || s <= 0)
		return false;
	*price = s / m;
	return true;
}

/*
 * What a local and a remote miss cost in this run: the model's stall over
 * the misses of each kind, over the work, else over the whole run (a
 * workload whose every miss was remote during its work still had local
 * ones while it set up); a remote one as balancing removed it where that
 * is known (removed_price()).
 */
static void prices(const struct acct_interval *iv, int n, const struct acct_params *p,
		   struct account *a)
{
	double ml[2] = { 0 }, mr[2] = { 0 }, sl[2] = { 0 }, sr[2] = { 0 };
	int w[n ? n : 1], k = work_rows(iv, n, p, w);

	for (int i = 0; i < n; i++) {
		for (int all = 0; all < 2; all++) {
			if (!all && !in_work(iv, i, p))
				continue;
			ml[all] += nonneg(iv[i].miss_local);
			mr[all] += nonneg(iv[i].miss_remote);
			sl[all] += nonneg(iv[i].stall_local_ns);
			sr[all] += nonneg(iv[i].stall_remote_ns);
		}
	}
	a->price_local_ns = ml[0] > 0 ? sl[0] / ml[0] : ml[1] > 0 ? sl[1] / ml[1] : NAN;
	a->price_remote_ns = mr[0] > 0 ? sr[0] / mr[0] : mr[1] > 0 ? sr[1] / mr[1] : NAN;
	a->price_removed = removed_price(iv, w, k, &a->price_remote_ns);
	a->priced = isfinite(a->price_local_ns) && isfinite(a->price_remote_ns) &&
		    sl[1] + sr[1] > 0;
	if (!a->priced)
		snprintf(a->why, sizeof(a->why), sl[1] + sr[1] > 0 ?
			 "no %s misses to price a miss made local" :
			 "no model stalls (the machine model was off)",
			 isfinite(a->price_local_ns) ? "remote" : "local");
}

const char *const acct_r0_names[] = {
	[ACCT_R0_NONE] = "none", [ACCT_R0_WINDOW] = "before_balancing",
	[ACCT_R0_WORK] = "work", [ACCT_R0_FIRST] = "first_interval",
};

static void set_r0(struct account *a, double remote, double misses, enum acct_r0_from from)
{
	if (!(misses > 0))
		return;
	a->r0 = remote / misses;
	a->r0_misses = misses;
	a->r0_from = from;
}

/*
 * The remote share without balancing: the misses the plugin counted from
 * the work's start to the balancer's first work after it, when there were
 * enough. Without a window (a plugin without ksym=, or the balancer acted
 * at once) the work's first interval stands in, and the benefit is a lower
 * bound: balancing may already have moved pages by its end.
 */
static void remote_share(const struct acct_interval *iv, int n, const struct acct_params *p,
			 struct account *a)
{
	double m = 0, r = 0;
	int first = -1;

	a->r0 = a->r0_misses = NAN;
	a->r0_from = ACCT_R0_NONE;
	if (p->win_local + p->win_remote >= ACCT_MIN_WINDOW) {
		set_r0(a, p->win_remote, p->win_local + p->win_remote, ACCT_R0_WINDOW);
		return;
	}
	for (int i = 0; i < n; i++) {
		if (!in_work(iv, i, p) || (p->acted && first >= 0))
			continue;
		first = first < 0 ? i : first;
		m += nonneg(iv[i].miss_local) + nonneg(iv[i].miss_remote);
		r += nonneg(iv[i].miss_remote);
	}
	set_r0(a, r, m, p->acted ? ACCT_R0_FIRST : ACCT_R0_WORK);
}

/* One interval's saving: the misses it would have sent remote, less those it did. */
static double saved_s(const struct acct_interval *v, const struct account *a)
{
	double misses = nonneg(v->miss_local) + nonneg(v->miss_remote);

	return (a->r0 * misses - nonneg(v->miss_remote)) *
	       (a->price_remote_ns - a->price_local_ns) * 1e-9;
}

/* t_hw_s,cost_hw_s,benefit_hw_s; no benefit: an empty field */
static void row(FILE *out, double t, double cost, bool priced, double benefit)
{
	fprintf(out, "%.9g,%.9g,", t, cost);
	if (priced)
		fprintf(out, "%.9g", benefit);
	fputc('\n', out);
}

int account_compute(const struct acct_interval *iv, int n, const struct acct_params *p,
		    struct account *a, FILE *out)
{
	double benefit = 0, cost = 0, t0 = NAN, busy = 0, busy_max = 0;
	bool even = false;

	memset(a, 0, sizeof(*a));
	a->benefit_s = a->net_s = a->first_scan_s = a->breakeven_s = a->vcpus = NAN;
	for (int i = 0; i < n; i++) {
		a->cost_all_s += nonneg(iv[i].cost_u) * p->hw_s_per_u;
		if (isnan(a->first_scan_s) && iv[i].pte_updates > 0)
			a->first_scan_s = iv[i].t_s;
	}
	prices(iv, n, p, a);
	remote_share(iv, n, p, a);
	if (isnan(a->r0) && a->priced) {
		a->priced = false;
		snprintf(a->why, sizeof(a->why), "no misses in the work's first intervals");
	}
	for (int i = 0; i < n; i++) {
		if (!in_work(iv, i, p))
			continue;
		if (isnan(t0))
			t0 = i ? iv[i - 1].t_s : iv[i].t_s;
		cost += nonneg(iv[i].cost_u) * p->hw_s_per_u;
		busy += nonneg(iv[i].busy_sum_s);
		busy_max += nonneg(iv[i].busy_max_s);
		if (a->priced)
			benefit += saved_s(&iv[i], a);
		if (a->priced && !even && cost > 0 && benefit >= cost && isfinite(a->first_scan_s)) {
			even = true;
			a->breakeven_s = fmax(0, iv[i].t_s - a->first_scan_s) / p->d;
		}
		if (out)
			row(out, (iv[i].t_s - t0) / p->d, cost, a->priced, benefit);
	}
	if (isnan(t0)) {
		snprintf(a->why, sizeof(a->why), "no interval of the work");
		return -1;
	}
	a->cost_s = cost;
	a->vcpus = busy_max > 0 && busy >= busy_max ? busy / busy_max : NAN;
	if (a->priced) {
		/* never acted: its own share, nothing saved (not rounding noise) */
		a->benefit_s = a->r0_from == ACCT_R0_WORK ? 0 : benefit;
		a->net_s = a->benefit_s - cost;
	}
	return 0;
}
