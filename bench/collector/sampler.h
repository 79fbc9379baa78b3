/* SPDX-License-Identifier: GPL-2.0 */
/* The sampling loop: request, await, account, write, sleep. */
#ifndef BNB_COLLECTOR_SAMPLER_H
#define BNB_COLLECTOR_SAMPLER_H

#include <signal.h>

struct sampler_opts {
	const char *socket;
	const char *out_dir;
	const char *plugin_shm;		/* NULL: none */
	double wnuma;
	unsigned long long window_hints;
	unsigned interval_ms;
	unsigned maps_every;		/* 0: never walk numa_maps */
	unsigned reply_timeout_ms;
	unsigned connect_timeout_ms;
	unsigned start_timeout_ms;	/* first reply, the guest is booting */
	unsigned stall_timeout_ms;	/* then, no valid reply for this long */
	unsigned long long max_samples;	/* 0: until the guest goes away */
};

/* Returns the process exit status. */
int sampler_run(const struct sampler_opts *o, volatile sig_atomic_t *stop);

#endif /* BNB_COLLECTOR_SAMPLER_H */
