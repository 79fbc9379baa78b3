// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the collector's reply parser: frames the input the
 * way conn.c does, parses every frame, and checks the parser's promises
 * (bounded counts, valid names, node bits in range) on what it accepts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reply.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bnb_reply reply;
	const char *buf = (const char *)data;
	char err[256];
	size_t n;

	while ((n = reply_frame(buf, size)) > 0) {
		if (n > size)
			abort();
		err[0] = '\0';
		if (reply_parse(buf, n, &reply, err, sizeof(err)) == 0)
			check_reply(&reply);
		else if (!err[0] || !memchr(err, '\0', sizeof(err)))
			abort();	/* every rejection must say why */
		buf += n;
		size -= n;
	}
	return 0;
}
