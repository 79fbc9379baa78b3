// SPDX-License-Identifier: GPL-2.0
/*
 * Reply parser.  It works on a bounded, complete reply: it never reads
 * past len, never trusts a count or an index it did not check, and
 * reports the first thing that was wrong.  The fuzz target in bench/fuzz
 * drives reply_frame() and reply_parse() directly.
 */
#include <stdio.h>
#include <string.h>

#include "lib/err.h"
#include "reply.h"

/* A cursor over one line: [p, end) with end at the line's '\n'. */
struct cursor {
	const char *p;
	const char *end;
};

size_t reply_frame(const char *buf, size_t len)
{
	static const char term[] = BNB_WIRE_END;
	const size_t tlen = sizeof(term) - 1;

	for (size_t i = 0; i + tlen <= len; i++) {
		if (i > 0 && buf[i - 1] != '\n')
			continue;
		if (!memcmp(buf + i, term, tlen))
			return i + tlen;
	}
	return 0;
}

/* Next space-separated field; false at end of line. */
static bool field(struct cursor *c, const char **start, size_t *flen)
{
	const char *q;

	if (c->p >= c->end)
		return false;
	q = memchr(c->p, ' ', c->end - c->p);
	if (!q)
		q = c->end;
	*start = c->p;
	*flen = q - c->p;
	c->p = q < c->end ? q + 1 : c->end;
	return *flen > 0;
}

static bool field_u64(struct cursor *c, unsigned long long *val)
{
	unsigned long long v = 0;
	const char *s;
	size_t n;

	if (!field(c, &s, &n) || n > 20)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9 || v > (~0ULL - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*val = v;
	return true;
}

static bool field_name(struct cursor *c, char *name)
{
	const char *s;
	size_t n;

	if (!field(c, &s, &n) || n > BNB_WIRE_MAX_NAME)
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'))
			return false;
	}
	memcpy(name, s, n);
	name[n] = '\0';
	return true;
}

static bool at_eol(const struct cursor *c)
{
	return c->p >= c->end;
}

static int parse_header(struct cursor *c, struct bnb_reply *r, char *err, size_t errlen)
{
	unsigned long long version;
	const char *tag;
	size_t n;

	if (!field(c, &tag, &n) || n != 3 || memcmp(tag, "bnb", 3))
		return errf(err, errlen, "reply does not start with a 'bnb' header");
	if (!field_u64(c, &version))
		return errf(err, errlen, "header has no protocol version");
	if (version != BNB_WIRE_VERSION)
		return errf(err, errlen, "protocol version %llu, expected %d",
			    version, BNB_WIRE_VERSION);
	if (!field_u64(c, &r->seq) || !field_u64(c, &r->guest_ns) || !at_eol(c))
		return errf(err, errlen, "header needs 'bnb VERSION SEQ MONO_NS'");
	return 0;
}

static int parse_counter(struct cursor *c, struct bnb_reply *r, char *err, size_t errlen)
{
	struct reply_counter *rc;

	if (r->nr_counters == BNB_WIRE_MAX_COUNTERS)
		return errf(err, errlen, "more than %d counters", BNB_WIRE_MAX_COUNTERS);
	rc = &r->counters[r->nr_counters];
	if (!field_name(c, rc->name) || !field_u64(c, &rc->value) || !at_eol(c))
		return errf(err, errlen, "bad counter line, want 'c NAME VALUE'");
	for (int i = 0; i < r->nr_counters; i++)
		if (!strcmp(r->counters[i].name, rc->name))
			return errf(err, errlen, "duplicate counter %s", rc->name);
	r->nr_counters++;
	return 0;
}

static int parse_node_id(struct cursor *c, uint64_t *seen, char *err, size_t errlen)
{
	unsigned long long node;

	if (!field_u64(c, &node) || node >= BNB_WIRE_MAX_NODES)
		return errf(err, errlen, "bad node number (0..%d)", BNB_WIRE_MAX_NODES - 1);
	if (*seen & (1ULL << node))
		return errf(err, errlen, "duplicate node %llu", node);
	*seen |= 1ULL << node;
	return node;
}

static int parse_node(struct cursor *c, struct bnb_reply *r, char *err, size_t errlen)
{
	int node = parse_node_id(c, &r->nodes, err, errlen);

	if (node < 0)
		return -1;
	if (!field_u64(c, &r->mem_total_kb[node]) ||
	    !field_u64(c, &r->mem_used_kb[node]) || !at_eol(c))
		return errf(err, errlen, "bad node line, want 'n NODE TOTAL_KB USED_KB'");
	if (r->mem_used_kb[node] > r->mem_total_kb[node])
		return errf(err, errlen, "node %d uses more memory than it has", node);
	return 0;
}

static int parse_pages(struct cursor *c, struct bnb_reply *r, char *err, size_t errlen)
{
	int node = parse_node_id(c, &r->page_nodes, err, errlen);

	if (node < 0)
		return -1;
	if (!r->has_maps)
		return errf(err, errlen, "'m' line before the 'w' line");
	if (!field_u64(c, &r->node_pages[node]) || !at_eol(c))
		return errf(err, errlen, "bad pages line, want 'm NODE PAGES'");
	return 0;
}

static int parse_walked(struct cursor *c, struct bnb_reply *r, char *err, size_t errlen)
{
	if (r->has_maps)
		return errf(err, errlen, "duplicate 'w' line");
	if (!field_u64(c, &r->pids_walked) || !at_eol(c))
		return errf(err, errlen, "bad walked line, want 'w NPIDS'");
	r->has_maps = true;
	return 0;
}

static int parse_missing(struct cursor *c, struct bnb_reply *r, char *err, size_t errlen)
{
	static const struct { const char *what; unsigned bit; } sources[] = {
		{ "vmstat", MISSING_VMSTAT },
		{ "meminfo", MISSING_MEMINFO },
		{ "maps", MISSING_MAPS },
	};
	const char *s;
	size_t n;

	if (!field(c, &s, &n) || !at_eol(c))
		return errf(err, errlen, "bad 'x' line, want 'x SOURCE'");
	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		if (strlen(sources[i].what) == n && !memcmp(s, sources[i].what, n)) {
			r->missing |= sources[i].bit;
			return 0;
		}
	}
	r->unknown_lines++;
	return 0;
}

typedef int (*line_parser)(struct cursor *, struct bnb_reply *, char *, size_t);

static const struct {
	const char *tag;
	line_parser parse;
} line_types[] = {
	{ "c", parse_counter },
	{ "n", parse_node },
	{ "w", parse_walked },
	{ "m", parse_pages },
	{ "x", parse_missing },
};

static int parse_line(struct cursor *c, struct bnb_reply *r, char *err, size_t errlen)
{
	const char *tag;
	size_t n;

	if (!field(c, &tag, &n))
		return errf(err, errlen, "empty line or leading space");
	if (n == 3 && !memcmp(tag, "bnb", 3))
		return errf(err, errlen, "second header: the reply before it was cut short");
	for (size_t i = 0; i < sizeof(line_types) / sizeof(line_types[0]); i++)
		if (strlen(line_types[i].tag) == n && !memcmp(tag, line_types[i].tag, n))
			return line_types[i].parse(c, r, err, errlen);
	r->unknown_lines++;	/* a newer agent's line type: skip it */
	return 0;
}

/* Printable ASCII and bounded lines: checked once, before any field. */
static int check_bytes(const char *buf, size_t len, char *err, size_t errlen)
{
	size_t line_len = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char ch = buf[i];

		if (ch == '\n') {
			line_len = 0;
			continue;
		}
		if (ch < 0x20 || ch > 0x7e)
			return errf(err, errlen, "byte 0x%02x at offset %zu is not printable", ch, i);
		if (++line_len > BNB_WIRE_MAX_LINE)
			return errf(err, errlen, "line longer than %d bytes at offset %zu",
				    BNB_WIRE_MAX_LINE, i);
	}
	return 0;
}

int reply_parse(const char *buf, size_t len, struct bnb_reply *r,
		char *err, size_t errlen)
{
	const size_t tlen = sizeof(BNB_WIRE_END) - 1;
	struct cursor c;
	const char *p = buf, *end;
	int lineno = 1;

	memset(r, 0, sizeof(*r));
	if (len > BNB_WIRE_MAX_REPLY)
		return errf(err, errlen, "reply of %zu bytes exceeds %d", len, BNB_WIRE_MAX_REPLY);
	if (len < tlen || reply_frame(buf, len) != len)
		return errf(err, errlen, "reply does not end with a single 'end' line");
	if (check_bytes(buf, len, err, errlen))
		return -1;
	end = buf + len - tlen;	/* the "end" line itself needs no parsing */
	for (; p < end; p = c.end + 1, lineno++) {
		int ret;

		c.p = p;
		c.end = memchr(p, '\n', end - p);
		if (!c.end)
			return errf(err, errlen, "line %d is not terminated", lineno);
		if (lineno == 1)
			ret = parse_header(&c, r, err, errlen);
		else
			ret = parse_line(&c, r, err, errlen);
		if (ret < 0) {
			size_t used = strlen(err);

			snprintf(err + used, errlen - used, " (line %d)", lineno);
			return -1;
		}
	}
	if (lineno == 1)
		return errf(err, errlen, "reply has no header");
	return 0;
}

bool reply_counter(const struct bnb_reply *r, const char *name,
		   unsigned long long *value)
{
	for (int i = 0; i < r->nr_counters; i++) {
		if (!strcmp(r->counters[i].name, name)) {
			*value = r->counters[i].value;
			return true;
		}
	}
	return false;
}
