// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/vmstat: one pread() of the whole file into a static buffer per
 * sample, then forward the lines whose name starts with a followed prefix.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"

/*
 * 6.1's /proc/vmstat is about 5 KiB; twice the reply size leaves room for
 * kernels with more counters.  A read that fills the buffer means it was
 * cut, and the agent says so with an "x vmstat" line.
 */
static char vmstat_buf[2 * BNB_WIRE_MAX_REPLY];

/*
 * numa_*: the balancing counters (numa_pte_updates, numa_hint_faults,
 * numa_hint_faults_local, numa_pages_migrated, ...) and the allocator's
 * numa_hit/miss/local; pgmigrate_* and thp_migration_*: migration
 * outcome; pgfault: all faults, for scale.  Counters added by the
 * project's patch series are expected to share these prefixes; others can
 * be followed with --counter-prefix.
 */
static const char *prefixes[AGENT_MAX_PREFIXES] = {
	"numa_", "pgmigrate_", "thp_migration_", "pgfault", "pgmajfault",
	"pgpromote_", "pgdemote_",
};
static int nr_prefixes = 7;

void vmstat_add_prefix(const char *prefix)
{
	if (nr_prefixes == AGENT_MAX_PREFIXES) {
		fprintf(stderr, "bnb-agent: too many --counter-prefix, ignoring %s\n",
			prefix);
		return;
	}
	prefixes[nr_prefixes++] = prefix;
}

int vmstat_open(void)
{
	return open("/proc/vmstat", O_RDONLY | O_CLOEXEC);
}

static bool followed(const char *name, size_t len)
{
	for (int i = 0; i < nr_prefixes; i++) {
		size_t plen = strlen(prefixes[i]);

		if (len >= plen && !memcmp(name, prefixes[i], plen))
			return true;
	}
	return false;
}

static bool valid_name(const char *name, size_t len)
{
	if (len == 0 || len > BNB_WIRE_MAX_NAME)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			return false;
	}
	return true;
}

/*
 * A followed "name value" line is forwarded as "c name value" by copying
 * it: no number is parsed or formatted, which matters in a TCG guest
 * where every instruction of the agent is emulated.
 */
static void emit_line(const char *line, size_t len, struct reply *r)
{
	const char *sp = memchr(line, ' ', len);
	size_t vlen;

	if (!sp || !valid_name(line, sp - line) || !followed(line, sp - line))
		return;
	vlen = len - (sp - line) - 1;
	if (vlen == 0 || vlen > 20 || strspn(sp + 1, "0123456789") < vlen)
		return;
	reply_add_raw(r, "c ", 2);
	reply_add_raw(r, line, len);
	reply_add_raw(r, "\n", 1);
}

void vmstat_emit(int fd, struct reply *r)
{
	ssize_t n = fd < 0 ? -1 : pread(fd, vmstat_buf, sizeof(vmstat_buf) - 1, 0);
	const char *line, *end, *nl;

	if (n <= 0 || (size_t)n == sizeof(vmstat_buf) - 1) {
		reply_add(r, "x vmstat\n");
		if (n <= 0)
			return;
	}
	vmstat_buf[n] = '\0';
	end = vmstat_buf + n;
	for (line = vmstat_buf; line < end; line = nl + 1) {
		nl = memchr(line, '\n', end - line);
		if (!nl)
			break;		/* a cut last line */
		emit_line(line, nl - line, r);
	}
}
