// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling on the guest's own clock (deterministic timing).
 *
 * Under icount the guest's clock counts executed instructions, so a host
 * that asks every 100 ms of its own time lands its requests, and the
 * interrupts that carry them, at a different guest instruction in every
 * run. Here the agent samples by itself at the instants k * interval of
 * CLOCK_MONOTONIC and sends each sample unasked, with k as its sequence
 * number: the host only reads, and nothing it does reaches the guest. An
 * instant already past when the agent wakes is skipped, which the host
 * sees as a gap in the sequence.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "agent.h"
#include "lib/parse.h"

#define CMDLINE_MAX	4096

static unsigned long long mono_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (unsigned long long)now.tv_sec * 1000000000ULL + now.tv_nsec;
}

static void sleep_until(unsigned long long t_ns)
{
	struct timespec ts = { t_ns / 1000000000ULL, t_ns % 1000000000ULL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

void agent_stream(int fd, const struct stream_opts *s)
{
	unsigned long long step = s->interval_ms * 1000000ULL;
	unsigned long long k = mono_ns() / step + 1, now;

	for (;;) {
		sleep_until(k * step);
		if (!agent_answer(fd, k, s->maps_every && k % s->maps_every == 0))
			return;
		now = mono_ns() / step + 1;
		k = now > k + 1 ? now : k + 1;
	}
}

/* The value of " NAME=" in a kernel command line, checked; 0 when absent. */
static int cmdline_int(const char *cmdline, const char *name, int max)
{
	char key[64], word[32], err[128];
	const char *p = cmdline;
	size_t klen = (size_t)snprintf(key, sizeof(key), "%s=", name);
	int val;

	while ((p = strstr(p, key))) {
		if (p != cmdline && p[-1] != ' ') {
			p += klen;
			continue;
		}
		snprintf(word, sizeof(word), "%.*s", (int)strcspn(p + klen, " \n"), p + klen);
		if (!parse_int(word, 0, max, &val, err, sizeof(err)))
			return val;
		fprintf(stderr, "bnb-agent: %s%s: %s\n", key, word, err);
		return 0;
	}
	return 0;
}

void stream_from_cmdline(const char *path, struct stream_opts *s)
{
	char buf[CMDLINE_MAX];
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (!s->interval_ms)
		s->interval_ms = cmdline_int(buf, "bnb.agent_stream_ms", STREAM_MAX_MS);
	if (strstr(buf, "bnb.agent_maps_every="))
		s->maps_every = cmdline_int(buf, "bnb.agent_maps_every", 1000000);
}
