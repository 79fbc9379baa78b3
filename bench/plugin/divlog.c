// SPDX-License-Identifier: GPL-2.0
/* divlog.c - the divergence log; see divlog.h. */
#include <string.h>

#include "divlog.h"

#define FNV_OFFSET	0xcbf29ce484222325ULL
#define FNV_PRIME	0x100000001b3ULL

void bnb_divlog_init(struct bnb_divlog *d, FILE *out, unsigned int n_vcpus)
{
	memset(d, 0, sizeof(*d));
	d->out = out;
	d->n_vcpus = n_vcpus;
	d->last = -1;
	for (unsigned int i = 0; i < BNB_SHM_MAX_VCPUS; i++)
		d->hash[i] = FNV_OFFSET;
}

static uint64_t fnv_u64(uint64_t h, uint64_t x)
{
	for (int i = 0; i < 8; i++, x >>= 8)
		h = (h ^ (x & 0xff)) * FNV_PRIME;
	return h;
}

void bnb_divlog_block(struct bnb_divlog *d, unsigned int v, uint64_t pc, unsigned int n)
{
	if (v >= d->n_vcpus)
		return;
	if (d->last >= 0 && (unsigned int)d->last != v) {
		unsigned int u = d->last;

		fprintf(d->out, "turn %llu v%u insns=%llu hash=%016llx -> v%u insns=%llu",
			(unsigned long long)++d->turns, u,
			(unsigned long long)d->insns[u], (unsigned long long)d->hash[u],
			v, (unsigned long long)d->insns[v]);
		if (d->clock_ns)
			fprintf(d->out, " clock=%llu", (unsigned long long)d->clock_ns());
		fputc('\n', d->out);
	}
	d->last = v;
	d->hash[v] = fnv_u64(d->hash[v], pc);
	d->insns[v] += n;
}

void bnb_divlog_event(struct bnb_divlog *d, unsigned int v, const char *what, uint64_t arg)
{
	if (v >= d->n_vcpus)
		return;
	fprintf(d->out, "%s v%u insns=%llu hash=%016llx %llu\n", what, v,
		(unsigned long long)d->insns[v], (unsigned long long)d->hash[v],
		(unsigned long long)arg);
}
