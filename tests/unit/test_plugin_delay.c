// SPDX-License-Identifier: GPL-2.0
/* The remote-miss delay: measured base, distance factor, overshoot settling. */
#include <criterion/criterion.h>

#include "../../bench/plugin/delay.h"

static uint32_t mult[3];
static struct bnb_delay d;

static void setup(void)
{
	mult[0] = bnb_delay_mult(10);
	mult[1] = bnb_delay_mult(20);
	mult[2] = bnb_delay_mult(28);
	d = (struct bnb_delay){ .cap = 1000, .mult = mult };
}

TestSuite(plugin_delay, .init = setup);

Test(plugin_delay, distance_factor)
{
	cr_assert_eq(mult[0], 0, "local costs nothing extra");
	cr_assert_eq(mult[1], 256, "20/10: one extra base");
	cr_assert_eq(mult[2], 460, "28/10: 1.8 extra bases (1/256ths, rounded down)");
}

/* Accesses every step ticks, each interval starting where the last one ended. */
static void feed(uint64_t *t, uint64_t step, int n)
{
	for (int i = 0; i < n; i++) {
		*t += step;
		bnb_delay_observe(&d, *t);
	}
}

Test(plugin_delay, base_follows_interval)
{
	uint64_t t = 0;

	feed(&t, 300, 400);
	cr_assert_eq(bnb_delay_base(&d), 300);
	cr_assert_eq(bnb_delay_ticks(&d, 1), 300, "20/10 doubles a 300-tick access");
	cr_assert_eq(bnb_delay_ticks(&d, 0), 0);
	feed(&t, 100, 400);
	cr_assert_eq(bnb_delay_base(&d), 100, "adapts to a smaller working set");
}

Test(plugin_delay, long_gaps_are_capped)
{
	uint64_t t = 0;

	feed(&t, 200, 400);
	t += 5000000;			/* the vCPU halted or was preempted */
	bnb_delay_observe(&d, t);
	cr_assert_leq(bnb_delay_base(&d), 200 + (1000 - 200) / 16 + 1,
		      "one gap moves the base by at most (cap - base) / 16");
}

Test(plugin_delay, fixed_base_ignores_intervals)
{
	uint64_t t = 0;

	d.fixed = 150;
	feed(&t, 900, 100);
	cr_assert_eq(bnb_delay_ticks(&d, 1), 150);
}

Test(plugin_delay, overshoot_is_settled)
{
	uint64_t owed_total = 0, waited_total = 0;

	for (int i = 0; i < 1000; i++) {
		uint64_t owed = bnb_delay_owed(&d, 100);
		uint64_t waited = owed + 7;	/* every spin ends 7 ticks late */

		bnb_delay_paid(&d, 100, waited);
		owed_total += 100;
		waited_total += waited;
	}
	cr_assert_leq(waited_total - owed_total, 7, "overshoot does not accumulate");
}

Test(plugin_delay, credit_is_capped)
{
	bnb_delay_paid(&d, 100, 100000);	/* a preemption inside one spin */
	cr_assert_eq(bnb_delay_owed(&d, 100), 0, "the next miss is forgiven");
	bnb_delay_paid(&d, 100, 0);
	cr_assert_eq(bnb_delay_owed(&d, 100), 100, "but only that one");
}
