// SPDX-License-Identifier: GPL-2.0
/* Convergence over the last N hints, computed by hand. */
#include <criterion/criterion.h>

#include "window.h"

static struct conv_window w;

#define CONV(want) do { \
	double c_ = -1; \
	cr_assert(window_value(&w, &c_), "convergence undefined"); \
	cr_expect_float_eq(c_, (want), 1e-12, "convergence %g, want %g", c_, (double)(want)); \
} while (0)

static void fini(void)
{
	window_free(&w);
}

Test(window, undefined_without_hints, .fini = fini)
{
	double c = 42;

	cr_assert_eq(window_init(&w, 10), 0);
	cr_expect_not(window_value(&w, &c));
	window_add(&w, 0, 0);
	cr_expect_not(window_value(&w, &c));
	cr_expect_eq(c, 42);
	cr_expect_eq(window_hints(&w), 0);
}

Test(window, below_n_is_the_plain_ratio, .fini = fini)
{
	cr_assert_eq(window_init(&w, 10), 0);
	window_add(&w, 4, 4);
	CONV(1.0);
	window_add(&w, 4, 0);
	CONV(0.5);
	cr_expect_eq(window_hints(&w), 8);
}

/* 12 hints for N = 10: only 2 of the oldest sample's 4 count, pro rata. */
Test(window, boundary_inside_the_oldest_sample, .fini = fini)
{
	cr_assert_eq(window_init(&w, 10), 0);
	window_add(&w, 4, 4);
	window_add(&w, 4, 0);
	window_add(&w, 4, 2);
	CONV(0.4);		/* (2*4/4 + 0 + 2) / 10 */
	cr_expect_eq(window_hints(&w), 10);
}

/* Exactly N newer hints: the oldest sample leaves entirely. */
Test(window, boundary_on_a_sample_edge, .fini = fini)
{
	cr_assert_eq(window_init(&w, 8), 0);
	window_add(&w, 4, 4);
	window_add(&w, 4, 0);
	CONV(0.5);
	window_add(&w, 4, 4);
	CONV(0.5);		/* (0 + 4) / 8: the first sample is out */
	cr_expect_eq(w.count, 2);
	window_add(&w, 8, 8);
	CONV(1.0);
	cr_expect_eq(w.count, 1);
}

Test(window, one_sample_larger_than_n, .fini = fini)
{
	cr_assert_eq(window_init(&w, 10), 0);
	window_add(&w, 100, 30);
	CONV(0.3);
	cr_expect_eq(window_hints(&w), 10);
}

Test(window, window_of_one, .fini = fini)
{
	cr_assert_eq(window_init(&w, 1), 0);
	window_add(&w, 1, 1);
	CONV(1.0);
	window_add(&w, 1, 0);
	CONV(0.0);
	window_add(&w, 3, 2);
	CONV(2.0 / 3);
}

Test(window, stays_defined_once_hints_were_seen, .fini = fini)
{
	cr_assert_eq(window_init(&w, 10), 0);
	window_add(&w, 5, 1);
	window_add(&w, 0, 0);
	CONV(0.2);
}

/* More samples than ring entries: merging must keep the sums exact. */
Test(window, bounded_ring_merges, .fini = fini)
{
	cr_assert_eq(window_init(&w, 1000000), 0);
	cr_expect_eq(w.cap, WINDOW_MAX_ENTRIES);
	for (int i = 0; i < 70000; i++)
		window_add(&w, 1, i % 2);
	cr_expect_eq(w.count, WINDOW_MAX_ENTRIES);
	cr_expect_eq(w.hints, 70000);
	CONV(0.5);
}

Test(window, zero_size_is_refused)
{
	struct conv_window z;

	cr_expect_eq(window_init(&z, 0), -1);
}

/* The last N hints of a full history, the oldest sample's share pro rata. */
static double reference(const unsigned *hints, const unsigned *local, int n, unsigned long long size)
{
	unsigned long long seen = 0;
	double sum = 0;
	int i;

	for (i = n - 1; i >= 0 && seen < size; i--) {
		unsigned long long take = hints[i] < size - seen ? hints[i] : size - seen;

		sum += hints[i] ? (double)local[i] * take / hints[i] : 0;
		seen += take;
	}
	return sum / seen;
}

/*
 * Against the reference over random streams, for small and large N. A
 * ring of N entries was one short: a sample arriving at a full ring merged
 * the two oldest before the oldest would have left, and the value was off
 * by up to 1/N (0.25 after three one-hint samples 1/1, 1/0, 1/0 at N = 2).
 */
Test(window, matches_the_hand_reference, .fini = fini)
{
	static const unsigned long long sizes[] = { 1, 2, 3, 5, 10, 100 };
	unsigned hints[600], local[600];
	unsigned seed = 1;

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		int seen = 0;

		cr_assert_eq(window_init(&w, sizes[s]), 0);
		for (int i = 0; i < 600; i++) {
			double c = -1;

			hints[i] = rand_r(&seed) % 4;
			local[i] = hints[i] ? rand_r(&seed) % (hints[i] + 1) : 0;
			window_add(&w, hints[i], local[i]);
			seen += hints[i];
			if (!seen)
				continue;
			cr_assert(window_value(&w, &c));
			cr_assert_float_eq(c, reference(hints, local, i + 1, sizes[s]), 1e-12,
					   "N = %llu after %d samples: %g, the reference %g", sizes[s],
					   i + 1, c, reference(hints, local, i + 1, sizes[s]));
		}
		window_free(&w);
	}
}

Test(window, three_unit_samples_at_n_2, .fini = fini)
{
	cr_assert_eq(window_init(&w, 2), 0);
	window_add(&w, 1, 1);
	window_add(&w, 1, 0);
	window_add(&w, 1, 0);
	CONV(0.0);
}
