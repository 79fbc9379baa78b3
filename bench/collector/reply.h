/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser of the agent's replies (bench/include/bnb_wire.h).  The input
 * comes from the guest and is untrusted: every field is range-checked and
 * the result lives in a fixed-size structure.
 */
#ifndef BNB_COLLECTOR_REPLY_H
#define BNB_COLLECTOR_REPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bnb_wire.h"

/* Sources the agent reported unreadable ("x WHAT" lines). */
enum reply_missing {
	MISSING_VMSTAT = 1 << 0,
	MISSING_MEMINFO = 1 << 1,
	MISSING_MAPS = 1 << 2,
};

struct reply_counter {
	char name[BNB_WIRE_MAX_NAME + 1];
	unsigned long long value;
};

struct bnb_reply {
	unsigned long long seq;
	unsigned long long guest_ns;
	int nr_counters;
	struct reply_counter counters[BNB_WIRE_MAX_COUNTERS];
	uint64_t nodes;			/* bit N: an "n N ..." line was seen */
	unsigned long long mem_total_kb[BNB_WIRE_MAX_NODES];
	unsigned long long mem_used_kb[BNB_WIRE_MAX_NODES];
	bool has_maps;			/* a "w" line was seen */
	unsigned long long pids_walked;
	uint64_t page_nodes;		/* bit N: an "m N ..." line was seen */
	unsigned long long node_pages[BNB_WIRE_MAX_NODES];
	unsigned missing;		/* enum reply_missing */
	unsigned unknown_lines;
};

/*
 * Length of the first complete reply in buf (up to and including its
 * "end" line), or 0 when no "end" line has arrived yet.
 */
size_t reply_frame(const char *buf, size_t len);

/*
 * Parse one complete reply of len bytes.  Returns 0, or -1 with a one-line
 * reason in err.  On error *r holds no meaningful data.
 */
int reply_parse(const char *buf, size_t len, struct bnb_reply *r,
		char *err, size_t errlen);

/* Value of a counter, if the reply has it. */
bool reply_counter(const struct bnb_reply *r, const char *name,
		   unsigned long long *value);

#endif /* BNB_COLLECTOR_REPLY_H */
