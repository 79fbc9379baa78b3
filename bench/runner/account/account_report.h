/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The account of balancing in the report: what it cost and what it saved,
 * in hardware seconds of the modelled machine, per run, per variant and
 * for a variant against the baseline.
 *
 * Against a baseline that differs in balancing (off, another policy,
 * another kernel) the saving is the counterfactual one: the baseline's
 * memory stall less the variant's (account_stall_s: the machine model's
 * stall outside the balancer's own functions, over D). A variant's own
 * runs also estimate it (account_run.h: their misses against the remote
 * share before the balancer acted), which is all there is without such a
 * baseline. The cost is the balancer's measured work within the
 * workload's work (account_cost_s). The check: the workload's time
 * should change by cost - saving, spread over the vCPUs busy at once; the
 * residual says how well the account closes.
 */
#ifndef BNB_ACCOUNT_REPORT_H
#define BNB_ACCOUNT_REPORT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "report/results.h"
#include "report/stats.h"

/* What the baseline is to the variant. */
enum acct_against {
	ACCT_VS_OFF,		/* balancing off: the saving is balancing's */
	ACCT_VS_POLICY,		/* balancing on too, another policy or kernel */
	ACCT_VS_SAME,		/* the same balancing: the difference is not its */
};

/* Beyond this share of the change in workload time the account does not close. */
#define ACCT_CLOSE_SHARE 0.10
/* The seed's cost model against the measured work: said beyond this factor. */
#define ACCT_MODEL_FACTOR 2.0

struct acct_pair {
	enum acct_against against;
	bool model;			/* both sides have the model's stall */
	bool measured;			/* the variant's cost is the balancer's measured work */
	struct welch saved;		/* baseline's stall - the variant's */
	struct welch cost;		/* the variant's cost - the baseline's */
	struct welch net;		/* saved - cost */
	struct welch dwork;		/* the variant's workload time - the baseline's */
	struct describe estimate;	/* the variant's own estimate of the saving */
	struct describe breakeven;	/* of the variant's runs that broke even */
	struct describe cost_model;	/* the seed's cost at the class's u, whole run */
	struct describe cost_run;	/* the measured cost, whole run */
	struct describe vcpus;		/* busy at once, both sides */
	int runs;			/* the variant's finished runs */
	double predicted;		/* (cost - saved) / vcpus */
	double residual, share;		/* dwork - predicted, and of |dwork| */
	bool closes;
	bool in_noise;			/* the change and the residual within its CI */
	double fixed_s;			/* the generator's fixed time (pgbench -T), else NAN */
	double model_factor;		/* cost_model / cost_run, NAN unknown */
};

/* VB of RB against VA of RA into P; -1 when neither side has an account. */
int account_pair(const struct results *ra, const char *va, const struct results *rb,
		 const char *vb, struct acct_pair *p);

/* The verdict's lines for P (LA, LB: the two sides' labels). */
void account_verdict(FILE *f, const struct acct_pair *p, const char *la, const char *lb);

struct json_object *account_pair_json(const struct acct_pair *p);

/* Why VB of RB has no account at all (account_pair() said -1), when it ran. */
void account_none(FILE *f, const struct results *rb, const char *vb);

/* The report's section: every run's account and each variant's means. */
void account_section(FILE *md, const struct results *r, struct json_object *root);

#endif
