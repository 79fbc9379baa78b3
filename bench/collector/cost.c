// SPDX-License-Identifier: GPL-2.0
/* Cost model parameters and evaluation; see cost.h. */
#include "cost.h"

void cost_params_derive(struct cost_params *p)
{
	p->Ca = p->struct_page / p->u;
	p->Cpte = p->Ca;
	p->Cupdate = 2 * p->Cpte + 2 * p->Wlock;
	p->Cpagerw = p->Ca + p->page_size / p->u;
	p->Ci = p->Ca + p->Wi;
	p->Cpagecopy = p->Cpagerw + p->Cpagerw * p->Wnuma + p->Ci + p->Ci * p->Wnuma;
}

void cost_params_seed(struct cost_params *p, double wnuma)
{
	*p = (struct cost_params) {
		.u = COST_U,
		.page_size = COST_PAGE_SIZE,
		.struct_page = COST_STRUCT_PAGE,
		.Wlock = COST_WLOCK,
		.Cnumahint = COST_CNUMAHINT,
		.Wi = COST_WI,
		.Wnuma = wnuma,
		.page_copy = true,
	};
	cost_params_derive(p);
}

void cost_params_mmtests(struct cost_params *p, double wnuma)
{
	cost_params_seed(p, wnuma);
	p->struct_page = MMTESTS_STRUCT_PAGE;
	p->Cnumahint = MMTESTS_CNUMAHINT;
	p->page_copy = false;
	cost_params_derive(p);
}

void cost_eval(const struct cost_params *p, unsigned long long pte_updates,
	       unsigned long long hint_faults, unsigned long long pages_migrated,
	       struct cost_terms *out)
{
	out->pte = p->Cpte * pte_updates;
	out->hint = p->Cnumahint * hint_faults;
	out->isolate = p->Ci * pages_migrated;
	out->copy = p->page_copy ? p->Cpagecopy * pages_migrated : 0;
	out->total = out->pte + out->hint + out->isolate + out->copy;
}
