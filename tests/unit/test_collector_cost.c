// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model against values computed by hand from the seed's
 * formulas (commit 03c5a6e16322) with u = 8, struct page = 64 bytes,
 * PAGE_SIZE = 4096, Wlock = 8, Wi = 12, Cnumahint = 1000.
 */
#include <criterion/criterion.h>

#include "bnb_topology.h"
#include "lib/err.h"
#include "cost.h"

#define EQ(a, b) cr_expect_float_eq((double)(a), (double)(b), 1e-9, #a " = %g, want %g", (double)(a), (double)(b))

Test(cost, seed_parameters_wnuma_2)
{
	struct cost_params p;

	cost_params_seed(&p, 2.0);
	EQ(p.u, 8);
	EQ(p.Ca, 8);		/* 64 / 8 */
	EQ(p.Cpte, 8);		/* = Ca */
	EQ(p.Wlock, 8);
	EQ(p.Cupdate, 32);	/* 2*8 + 2*8 */
	EQ(p.Cnumahint, 1000);
	EQ(p.Cpagerw, 520);	/* 8 + 4096/8 */
	EQ(p.Wi, 12);
	EQ(p.Ci, 20);		/* 8 + 12 */
	EQ(p.Wnuma, 2);
	EQ(p.Cpagecopy, 1620);	/* 520 + 520*2 + 20 + 20*2 */
}

Test(cost, every_term)
{
	struct cost_params p;
	struct cost_terms t;

	cost_params_seed(&p, 2.0);
	cost_eval(&p, 100, 3, 2, &t);
	EQ(t.pte, 800);		/* 8 * 100 */
	EQ(t.hint, 3000);	/* 1000 * 3 */
	EQ(t.isolate, 40);	/* 20 * 2 */
	EQ(t.copy, 3240);	/* 1620 * 2 */
	EQ(t.total, 7080);
}

Test(cost, wnuma_scales_only_the_copy)
{
	struct cost_params p;
	struct cost_terms t;

	cost_params_seed(&p, 1.5);
	EQ(p.Cpagecopy, 1350);	/* 520 + 780 + 20 + 30 */
	cost_eval(&p, 1, 1, 1, &t);
	EQ(t.total, 8 + 1000 + 20 + 1350);
}

Test(cost, mmtests_variant)
{
	struct cost_params p;
	struct cost_terms t;

	cost_params_mmtests(&p, 2.0);
	EQ(p.Ca, 7);		/* 56 / 8 */
	EQ(p.Cpte, 7);
	EQ(p.Cnumahint, 5000);
	EQ(p.Ci, 19);		/* 7 + 12 */
	cr_expect_not(p.page_copy);
	cost_eval(&p, 100, 3, 2, &t);
	EQ(t.pte, 700);
	EQ(t.hint, 15000);
	EQ(t.isolate, 38);
	EQ(t.copy, 0);
	EQ(t.total, 15738);
}

Test(cost, zero_counts_cost_nothing)
{
	struct cost_params p;
	struct cost_terms t;

	cost_params_seed(&p, 2.0);
	cost_eval(&p, 0, 0, 0, &t);
	EQ(t.total, 0);
}

/* Wnuma is the mean remote distance / 10 (documented in FORMAT.md). */
Test(cost, wnuma_from_an_asymmetric_matrix)
{
	struct bnb_topology t;
	char err[ERRLEN];

	topo_init(&t, 3);
	cr_assert_eq(topo_parse_distance(&t, "10,20,30;20,10,40;30,40,10", err, sizeof(err)), 0, "%s", err);
	EQ(topo_wnuma(&t), 3.0);	/* (20+30+20+40+30+40) / 6 / 10 */
	topo_init(&t, 2);
	cr_assert_eq(topo_parse_distance(&t, "10,20;30,10", err, sizeof(err)), 0, "%s", err);
	EQ(topo_wnuma(&t), 2.5);
}
