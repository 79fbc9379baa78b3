// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the collector's reply parser: frames the input the
 * way conn.c does, parses every frame, and checks the parser's promises
 * (bounded counts, valid names, node bits in range) on what it accepts.
 * The accepted replies of one input then go through the series, as the
 * sampler feeds them, which must keep its own promises (deltas bounded,
 * tiering rates finite and not negative) whatever the guest sent.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reply.h"
#include "series.h"

static void check_reply(const struct bnb_reply *r)
{
	if (r->nr_counters < 0 || r->nr_counters > BNB_WIRE_MAX_COUNTERS)
		abort();
	for (int i = 0; i < r->nr_counters; i++) {
		size_t n = strnlen(r->counters[i].name, sizeof(r->counters[i].name));

		if (n == 0 || n > BNB_WIRE_MAX_NAME)
			abort();
	}
	for (int node = 0; node < BNB_WIRE_MAX_NODES; node++)
		if ((r->nodes & (1ULL << node)) &&
		    r->mem_used_kb[node] > r->mem_total_kb[node])
			abort();
	if (r->page_nodes && !r->has_maps)
		abort();
}

static bool rate_ok(double v)
{
	return isfinite(v) && v >= 0;
}

/* Account R as the next sample of S, at the guest time it claims. */
static void check_series(struct series *s, const struct bnb_reply *r)
{
	struct sample_time t = { r->guest_ns, r->guest_ns, r->guest_ns };

	if (!s->samples)
		series_columns(s, r);
	series_update(s, r, &t);
	for (int i = 0; i < s->nr_cols; i++)
		if (s->cols[i].delta > SERIES_MAX_DELTA)
			abort();
	if (!rate_ok(s->tier.promote_mbps) || !rate_ok(s->tier.demote_mbps) ||
	    !rate_ok(s->tier.promote_mbps_max) || !(s->tier.work_s >= 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bnb_reply reply;
	static struct series series;
	const char *buf = (const char *)data;
	char err[256];
	size_t n;

	if (series_init(&series, 2.0, 100, 5))
		abort();
	while ((n = reply_frame(buf, size)) > 0) {
		if (n > size)
			abort();
		err[0] = '\0';
		if (reply_parse(buf, n, &reply, err, sizeof(err)) == 0) {
			check_reply(&reply);
			check_series(&series, &reply);
		} else if (!err[0] || !memchr(err, '\0', sizeof(err))) {
			abort();	/* every rejection must say why */
		}
		buf += n;
		size -= n;
	}
	series_free(&series);
	return 0;
}
