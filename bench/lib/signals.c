// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>

#include "signals.h"

static volatile sig_atomic_t *stop_flag;

static void on_stop(int sig)
{
	*stop_flag = sig;
}

void catch_stop_signals(volatile sig_atomic_t *flag)
{
	struct sigaction sa = { .sa_handler = on_stop };

	stop_flag = flag;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
