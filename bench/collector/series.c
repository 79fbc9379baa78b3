// SPDX-License-Identifier: GPL-2.0
/*
 * Per-sample accounting: counter deltas, cost, convergence and plugin
 * ground truth.  Every counter comes from the guest, so a counter that
 * goes backwards, jumps absurdly or vanishes is reported and contributes
 * a zero delta instead of poisoning the totals.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "series.h"

#define MAX_WARNINGS	50	/* printed; the rest are only counted */

/* Always columns, in this order, present in the guest or not. */
static const char *const model_counters[] = {
	"numa_pte_updates", "numa_huge_pte_updates", "numa_hint_faults",
	"numa_hint_faults_local", "numa_huge_hint_faults", "numa_huge_hint_faults_local",
	"numa_pages_migrated",
	"pgmigrate_success", "pgmigrate_fail",
	"thp_migration_success", "thp_migration_fail", "pgfault",
	/* added by the project's patch series (kernel/patches) */
	"numa_migrate_ratelimited", "numa_pte_scan_ratelimited",
	/* memory tiering (tiering.h): absent on kernels without them */
	"pgpromote_success", "pgpromote_candidate", "pgdemote_kswapd", "pgdemote_direct",
	"pgdemote_khugepaged",
};

void series_warn(struct series *s, const char *fmt, ...)
{
	va_list ap;

	if (++s->warnings > MAX_WARNINGS) {
		if (s->warnings == MAX_WARNINGS + 1)
			fprintf(stderr, "bnb-collect: further warnings only counted\n");
		return;
	}
	fprintf(stderr, "bnb-collect: sample %llu: ", s->samples + 1);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int series_init(struct series *s, double wnuma, unsigned long long min_hints, double span_s)
{
	memset(s, 0, sizeof(*s));
	cost_params_seed(&s->seed, wnuma);
	cost_params_mmtests(&s->mmtests, wnuma);
	s->t_conv90 = s->t_conv95 = s->t_conv90_pages = -1;
	s->pte = s->hint = s->local = s->migrated = s->huge = s->huge_local = -1;
	for (int c = 0; c < N_TIER_COUNTERS; c++)
		s->tier.col[c] = -1;
	if (window_init(&s->win, min_hints, span_s))
		return -1;
	return window_init(&s->win_pages, min_hints, span_s);
}

void series_free(struct series *s)
{
	window_free(&s->win);
	window_free(&s->win_pages);
	plugin_close(&s->plugin);
}

static int find_col(const struct series *s, const char *name)
{
	for (int i = 0; i < s->nr_cols; i++)
		if (!strcmp(s->cols[i].name, name))
			return i;
	return -1;
}

static void add_col(struct series *s, const char *name)
{
	if (s->nr_cols == BNB_WIRE_MAX_COUNTERS || find_col(s, name) >= 0)
		return;
	snprintf(s->cols[s->nr_cols++].name, sizeof(s->cols[0].name), "%s", name);
}

void series_columns(struct series *s, const struct bnb_reply *first)
{
	for (size_t i = 0; i < sizeof(model_counters) / sizeof(model_counters[0]); i++)
		add_col(s, model_counters[i]);
	for (int i = 0; i < first->nr_counters; i++)
		add_col(s, first->counters[i].name);
	s->pte = find_col(s, "numa_pte_updates");
	s->hint = find_col(s, "numa_hint_faults");
	s->local = find_col(s, "numa_hint_faults_local");
	s->migrated = find_col(s, "numa_pages_migrated");
	s->huge = find_col(s, "numa_huge_hint_faults");
	s->huge_local = find_col(s, "numa_huge_hint_faults_local");
	s->nodes = first->nodes;
	tiering_columns(s);
}

static void update_counter(struct series *s, struct counter_col *c,
			   const struct bnb_reply *r)
{
	unsigned long long v;

	c->delta = 0;
	c->present = reply_counter(r, c->name, &v);
	if (!c->present) {
		if (c->ever && !c->warned)
			series_warn(s, "counter %s disappeared", c->name);
		c->warned |= c->ever;
		return;
	}
	if (c->ever && v < c->prev)
		series_warn(s, "counter %s went backwards (%llu -> %llu)", c->name, c->prev, v);
	else if (c->ever && v - c->prev > SERIES_MAX_DELTA)
		series_warn(s, "counter %s jumped by %llu", c->name, v - c->prev);
	else if (c->ever)
		c->delta = v - c->prev;
	c->total += c->delta;
	c->prev = v;
	c->ever = true;
}

static bool col_present(const struct series *s, int i)
{
	return i >= 0 && s->cols[i].present;
}

static void update_cost(struct series *s)
{
	struct cost_terms d, mm;

	s->cost_defined = col_present(s, s->pte) && col_present(s, s->hint) &&
			  col_present(s, s->migrated);
	s->cost_d = s->mmtests_d = 0;
	if (!s->cost_defined)
		return;
	cost_eval(&s->seed, s->cols[s->pte].delta, s->cols[s->hint].delta,
		  s->cols[s->migrated].delta, &d);
	s->cost_cum.pte += d.pte;
	s->cost_cum.hint += d.hint;
	s->cost_cum.isolate += d.isolate;
	s->cost_cum.copy += d.copy;
	s->cost_cum.total += d.total;
	s->cost_d = d.total;
	cost_eval(&s->mmtests, s->cols[s->pte].delta, s->cols[s->hint].delta,
		  s->cols[s->migrated].delta, &mm);
	s->mmtests_cum += mm.total;
	s->mmtests_d = mm.total;
}

/*
 * Time to converge: the start of the final stretch at or above the level.
 * A first crossing would be meaningless: the first few hints are often
 * all local by chance (convergence 1 from 4 hints), long before the
 * misplaced memory has moved.
 */
static void note_threshold(struct series *s, double conv, double *since, double level)
{
	if (conv < level)
		*since = -1;
	else if (*since < 0)
		*since = s->t_s;
}

/* The window's N over the run, for the summary. */
static void note_window(struct series *s)
{
	unsigned long long n = window_hints(&s->win);

	if (!s->n_count || n < s->n_min)
		s->n_min = n;
	if (n > s->n_max)
		s->n_max = n;
	s->n_sum += n;
	s->n_count++;
}

/*
 * The convergence by pages: a huge PMD's fault is SERIES_HUGE_PAGES base
 * pages. The guest's counts are clamped to what they can be (huge faults
 * are among all faults, their local ones among both local and huge).
 */
static void update_conv_pages(struct series *s, unsigned long long hints,
			      unsigned long long local)
{
	unsigned long long huge, huge_local, pages, local_pages;

	if (!col_present(s, s->huge) || !col_present(s, s->huge_local) ||
	    !col_present(s, s->hint) || !col_present(s, s->local))
		return;
	huge = s->cols[s->huge].delta;
	huge_local = s->cols[s->huge_local].delta;
	huge = huge > hints ? hints : huge;
	huge_local = huge_local > huge ? huge : huge_local;
	huge_local = huge_local > local ? local : huge_local;
	if (local - huge_local > hints - huge)
		local = hints - huge + huge_local;
	pages = hints - huge + huge * SERIES_HUGE_PAGES;
	local_pages = local - huge_local + huge_local * SERIES_HUGE_PAGES;
	window_add(&s->win_pages, s->guest_t_s, pages, local_pages);
	s->conv_pages_defined = window_value(&s->win_pages, &s->conv_pages);
	if (!s->conv_pages_defined || s->plugin.work_over)
		return;
	s->conv_pages_end_defined = true;
	s->conv_pages_end = s->conv_pages;
	note_threshold(s, s->conv_pages, &s->t_conv90_pages, 0.9);
}

static void update_convergence(struct series *s)
{
	unsigned long long hints = 0, local = 0;
	bool frozen;

	s->remote_d = 0;
	if (col_present(s, s->hint) && col_present(s, s->local)) {
		hints = s->cols[s->hint].delta;
		local = s->cols[s->local].delta;
		if (local > hints) {
			series_warn(s, "%llu local hints out of %llu", local, hints);
			local = hints;
		}
		s->remote_d = hints - local;
		s->remote_total += s->remote_d;
	}
	/* on the guest's clock: the scanner's periods run on it */
	s->guest_t_s += s->dt_s;
	window_add(&s->win, s->guest_t_s, hints, local);
	update_conv_pages(s, hints, local);
	/*
	 * Once the workload's work is over (an earlier sample saw its end
	 * marker), the column goes on but the run's figures stand: the
	 * faults of the exit and of whatever runs after it are not the
	 * workload's placement.
	 */
	frozen = s->plugin.work_over;
	/* The value over the interval that just ended weights by its length. */
	if (!frozen && s->conv_defined && s->dt_s > 0) {
		s->conv_weighted += s->conv * s->dt_s;
		s->conv_time += s->dt_s;
	}
	s->conv_defined = window_value(&s->win, &s->conv);
	if (!s->conv_defined || frozen)
		return;
	s->conv_end_defined = true;
	s->conv_end = s->conv;
	note_window(s);
	note_threshold(s, s->conv, &s->t_conv90, 0.9);
	note_threshold(s, s->conv, &s->t_conv95, 0.95);
}


/*
 * The seed's benefit, remote accesses before minus after balancing, in the
 * cost model's unit u (one local word access) so that it can be set
 * against the cost: turning a remote miss from node c to node m into a
 * local one saves distance[c][m] / 10 - 1 (Wnuma - 1) local accesses'
 * time. Only misses count: a cache hit costs the same on every node.
 *
 * "Before" is the first second of the workload's measured work (the
 * intervals after the sample that first saw its WORK marker); boot,
 * calibration and setup come earlier and say nothing about it. Its misses'
 * mean extra latency, excess0, is the baseline; each later interval adds
 * what it saved against it: excess0 * misses - its own extra latency (over
 * the window itself that sum is 0 by construction). Per miss rather than
 * per second, so that an idle or slower interval neither earns nor loses
 * credit. Balancing may already act within that second (a misplaced
 * stream's first-touch phase lets the scanner start early), so the figure
 * is a lower bound; the runner's on-vs-off comparison is the cleaner one.
 * acc_avoided_cum is the old count, remote accesses (hits included) avoided
 * at the "before" remote share, kept as a count.
 */
static void update_benefit(struct series *s, uint64_t work_marks)
{
	struct plugin_state *p = &s->plugin;
	unsigned long long all = p->d_local + p->d_remote;

	if (!p->work_seen) {
		p->work_seen = work_marks > 0;	/* this interval began before it */
		/* it started within this interval: say in its middle */
		if (p->work_seen)
			p->t_work = s->t_s - (s->guest_clock ? s->dt_s / 2 :
					      (s->now.req_ns - s->prev.req_ns) / 2e9);
		return;
	}
	if (p->work_over)
		return;
	p->work_local += p->d_local;
	p->work_remote += p->d_remote;
	p->work_fast += p->d_fast;
	p->work_slow += p->d_slow;
	p->work_misses += p->d_misses;
	p->work_excess10 += p->d_excess10;
	if (!p->baseline_set) {
		p->base_s += s->dt_s;
		all = p->work_local + p->work_remote;
		/* ten 0.1 s intervals add up to a hair under 1.0 in binary */
		if (p->base_s < PLUGIN_BASELINE_S - 1e-6 || all < PLUGIN_BASELINE_MIN_ACCESSES)
			return;
		p->remote_share0 = (double)p->work_remote / all;
		p->excess0 = p->work_misses ? p->work_excess10 / 10.0 / p->work_misses : 0;
		p->baseline_set = true;
		return;
	}
	p->acc_avoided_cum += p->remote_share0 * all - p->d_remote;
	p->benefit_cum += p->excess0 * p->d_misses - p->d_excess10 / 10.0;
}

/*
 * The vCPUs' busy time in the interval: a vCPU whose time went back (a
 * restarted plugin, a hostile file) counts nothing this once.
 */
static void update_busy(struct plugin_state *p, const struct plugin_totals *t)
{
	uint64_t sum = 0, max = 0;

	for (unsigned int v = 0; v < t->n_busy; v++) {
		uint64_t d = p->n_busy == t->n_busy && t->busy_ps[v] >= p->raw_busy_ps[v] ?
			     t->busy_ps[v] - p->raw_busy_ps[v] : 0;

		sum += d;
		max = d > max ? d : max;
		p->raw_busy_ps[v] = t->busy_ps[v];
	}
	p->n_busy = t->n_busy;
	p->d_busy_sum_s = sum / 1e12;
	p->d_busy_max_s = max / 1e12;
}

static void update_plugin(struct series *s)
{
	struct plugin_state *p = &s->plugin;
	struct plugin_totals t;
	char err[160];

	p->valid = false;
	p->locality_defined = false;
	p->d_local = p->d_remote = p->d_misses = p->d_excess10 = 0;
	p->d_fast = p->d_slow = 0;
	p->d_miss_local = p->d_miss_remote = 0;
	p->d_stall_local_ns = p->d_stall_remote_ns = 0;
	p->d_busy_sum_s = p->d_busy_max_s = 0;
	p->tier_share_defined = false;
	if (!p->path)
		return;
	if (!plugin_read(p, &t, err, sizeof(err))) {
		if (!p->warned)
			series_warn(s, "plugin counters: %s", err);
		p->warned = true;
		p->have_prev = false;
		return;
	}
	p->warned = false;
	p->valid = true;
	if (p->have_prev && t.local >= p->raw_local && t.remote >= p->raw_remote &&
	    t.misses >= p->raw_misses && t.excess10 >= p->raw_excess10 &&
	    t.fast >= p->raw_fast && t.slow >= p->raw_slow &&
	    t.miss_local >= p->raw_miss_local && t.miss_remote >= p->raw_miss_remote &&
	    t.stall_local_ns >= p->raw_stall_local_ns &&
	    t.stall_remote_ns >= p->raw_stall_remote_ns) {
		p->d_fast = t.fast - p->raw_fast;
		p->d_slow = t.slow - p->raw_slow;
		p->d_local = t.local - p->raw_local;
		p->d_remote = t.remote - p->raw_remote;
		p->d_misses = t.misses - p->raw_misses;
		p->d_excess10 = t.excess10 - p->raw_excess10;
		p->d_miss_local = t.miss_local - p->raw_miss_local;
		p->d_miss_remote = t.miss_remote - p->raw_miss_remote;
		p->d_stall_local_ns = t.stall_local_ns - p->raw_stall_local_ns;
		p->d_stall_remote_ns = t.stall_remote_ns - p->raw_stall_remote_ns;
	}
	update_busy(p, &t);
	p->model = t.model;
	p->raw_miss_local = t.miss_local;
	p->raw_miss_remote = t.miss_remote;
	p->raw_stall_local_ns = t.stall_local_ns;
	p->raw_stall_remote_ns = t.stall_remote_ns;
	p->raw_local = t.local;
	p->raw_remote = t.remote;
	p->raw_misses = t.misses;
	p->raw_excess10 = t.excess10;
	p->raw_fast = t.fast;
	p->raw_slow = t.slow;
	p->tiered = t.tiered;
	p->fast += p->d_fast;
	p->slow += p->d_slow;
	p->local += p->d_local;
	p->remote += p->d_remote;
	if (!p->have_prev || s->dt_s <= 0) {
		p->have_prev = true;
		return;
	}
	if (p->d_local + p->d_remote) {
		p->locality_defined = true;
		p->true_locality = (double)p->d_local / (p->d_local + p->d_remote);
	}
	if (p->tiered && p->d_fast + p->d_slow) {
		p->tier_share_defined = true;
		p->fast_tier_share = (double)p->d_fast / (p->d_fast + p->d_slow);
	}
	update_benefit(s, t.work_marks);
	/* ended within this interval: it counted, later ones will not */
	if (p->work_seen && !p->work_over && t.work_ends >= t.work_marks) {
		p->work_over = true;
		p->t_work_end = s->t_s;
	}
}

/*
 * Rates use the guest's clock: that is where the counters tick.  A guest
 * clock that does not advance falls back to the host's.
 */
static void update_time(struct series *s, const struct sample_time *t)
{
	uint64_t mid = t->req_ns + (t->rep_ns - t->req_ns) / 2;

	if (s->guest_clock)
		mid = t->guest_ns;
	if (s->samples == 0)
		s->t0_ns = s->guest_clock ? t->guest_ns : t->req_ns;
	s->prev = s->now;
	s->now = *t;
	/* a hostile guest clock may go back: t_s then stays at 0 */
	s->t_s = mid > s->t0_ns ? (mid - s->t0_ns) / 1e9 : 0;
	s->dt_s = 0;
	if (s->samples == 0)
		return;
	if (t->guest_ns > s->prev.guest_ns) {
		s->dt_s = (t->guest_ns - s->prev.guest_ns) / 1e9;
		return;
	}
	series_warn(s, "guest clock did not advance, using the host clock");
	s->dt_s = (t->rep_ns - s->prev.rep_ns) / 1e9;
}

void series_update(struct series *s, const struct bnb_reply *r,
		   const struct sample_time *t)
{
	/* as the benefit: the intervals after the WORK marker's, to WORK_END's */
	bool in_work = s->plugin.work_seen && !s->plugin.work_over;

	s->reply = r;
	update_time(s, t);
	for (int i = 0; i < s->nr_cols; i++)
		update_counter(s, &s->cols[i], r);
	if (r->nodes != s->nodes)
		series_warn(s, "node set changed from %#llx to %#llx",
			    (unsigned long long)s->nodes, (unsigned long long)r->nodes);
	update_cost(s);
	update_convergence(s);
	update_plugin(s);
	tiering_update(s, in_work);
	s->samples++;
}
