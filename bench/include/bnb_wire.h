/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bnb_wire.h - the request/reply protocol between the guest agent
 * (bench/agent, build/guest/bin/bnb-agent) and the host collector
 * (bench/collector, build/bin/bnb-collect) over the virtio-serial port
 * "bnb.agent".
 *
 * The protocol is line-oriented ASCII so that a reply can be read in a
 * hexdump and so that the parser that consumes untrusted guest output is
 * small enough to fuzz exhaustively.  Every line ends with '\n'; fields
 * are separated by one space; numbers are unsigned decimal without sign,
 * leading '+' or exponent.
 *
 * Request (host -> guest), one line, at most BNB_WIRE_MAX_REQUEST bytes:
 *
 *	get SEQ FLAGS\n
 *
 *   SEQ    sequence number chosen by the host, echoed in the reply, so a
 *          late reply to an earlier request is recognised and dropped;
 *   FLAGS  "-" for a plain snapshot, "maps" to also walk
 *          /proc/PID/numa_maps of the followed processes (costly, so the
 *          host asks for it only every Nth sample).
 *
 * The agent never speaks unless asked, except in stream mode: started with
 * --stream-ms MS (or bnb.agent_stream_ms=MS on the guest kernel's command
 * line), it sends a reply at each instant k * MS of its CLOCK_MONOTONIC
 * with SEQ = k, "maps" every Nth instant, and ignores requests. The host
 * then only reads (deterministic timing: nothing host-timed reaches the
 * guest).
 *
 * Reply (guest -> host), at most BNB_WIRE_MAX_REPLY bytes in total:
 *
 *	bnb 1 SEQ MONO_NS\n            header: version, echoed SEQ, guest
 *	                               CLOCK_MONOTONIC in ns when sampled
 *	c NAME VALUE\n                 a /proc/vmstat counter that exists, or
 *	                               BNB_WIRE_PASSES (below)
 *	n NODE MEMTOTAL_KB MEMUSED_KB\n  per node, from nodeN/meminfo
 *	w NPIDS\n                      only with "maps": processes walked
 *	m NODE PAGES\n                 only with "maps": pages of the followed
 *	                               processes on NODE, in 4 KiB units
 *	                               (huge pages count as 512)
 *	x WHAT\n                       a source the agent could not read
 *	                               (WHAT is vmstat, meminfo or maps)
 *	end\n                          last line of every reply
 *
 * In a reply with a "w" line, a node without an "m" line holds none of the
 * followed pages.  A counter that the running kernel does not have (an unpatched kernel)
 * is simply not sent: absent is not zero.  NAME is 1..BNB_WIRE_MAX_NAME
 * characters of [a-z0-9_].  NODE is below BNB_WIRE_MAX_NODES.  A reply
 * carries at most BNB_WIRE_MAX_COUNTERS "c" lines.  Duplicate names or
 * nodes make the reply malformed.
 *
 * The counter BNB_WIRE_PASSES is the agent's own, not /proc/vmstat's: the
 * NUMA scanner's passes over the followed processes, the most of their
 * mm->numa_scan_seq (/proc/PID/sched), held after they exit; 0 until a
 * process is followed. Sent in every reply.
 *
 * Compatibility: the header's version field is BNB_WIRE_VERSION; a
 * collector rejects other versions.  Within one version new line types
 * may be added: a reader skips a line whose tag (first field) it does not
 * know, provided the line is well-formed ASCII.
 */
#ifndef BNB_WIRE_H
#define BNB_WIRE_H

#define BNB_WIRE_VERSION	1
#define BNB_WIRE_PORT_NAME	"bnb.agent"

#define BNB_WIRE_MAX_REQUEST	64
#define BNB_WIRE_MAX_REPLY	16384
#define BNB_WIRE_MAX_LINE	128
#define BNB_WIRE_MAX_NAME	47
#define BNB_WIRE_MAX_COUNTERS	96
#define BNB_WIRE_MAX_NODES	64

#define BNB_WIRE_PASSES		"numa_scan_seq"

#define BNB_WIRE_FLAG_NONE	"-"
#define BNB_WIRE_FLAG_MAPS	"maps"
#define BNB_WIRE_END		"end\n"

#endif /* BNB_WIRE_H */
