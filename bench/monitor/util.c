// SPDX-License-Identifier: GPL-2.0
/* What the monitors share: the clock, guest strings, child signals. */
#include <ctype.h>
#include <signal.h>
#include <time.h>

#include "monitor.h"

double mon_t0;

void mon_child_signals(void)
{
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}

double mon_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void mon_printable(char *buf, size_t len, const char *text)
{
	size_t i;

	for (i = 0; i + 1 < len && text[i]; i++)
		buf[i] = isprint((unsigned char)text[i]) ? text[i] : '?';
	buf[i] = 0;
}
