// SPDX-License-Identifier: GPL-2.0
/*
 * kt-stress [SECONDS]: write every balancenuma knob at random, valid and
 * invalid values alike, for SECONDS (default 120) while other programs
 * run; kernel/stress.sh runs the workloads and checks the console.
 *
 * Every write must either succeed or fail with EINVAL; at the end every
 * knob is put back and must read its original value.
 */
#include "kt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct knob {
	const char *name;
	long lo, hi;		/* the valid range, to draw values near it */
};

/* The scan periods are kept small so that scanning stays busy */
static const struct knob knobs[] = {
	{ "numa_balancing", 0, 1 },
	{ "numa_balancing_scan_delay_ms", 0, 2000 },
	{ "numa_balancing_scan_period_min_ms", 0, 2000 },
	{ "numa_balancing_scan_period_max_ms", 0, 5000 },
	{ "numa_balancing_scan_size_mb", 1, 512 },
	{ "numa_balancing_migrate_policy", 0, 2 },
	{ "numa_balancing_migrate_ratelimit_mb", 0, 64 },
	{ "numa_balancing_migrate_interval_ms", 1, 500 },
	{ "numa_balancing_scan_adapt", 0, 1 },
	{ "numa_balancing_scan_period_reset_ms", 1, 5000 },
	{ "numa_balancing_scan_first_node", 0, 1 },
	{ "numa_balancing_task_placement", 0, 1 },
};
#define NR_KNOBS (sizeof(knobs) / sizeof(knobs[0]))

static const char *const garbage[] = { "-1", "x", "4294967296", "1e3", "" };

/* A value in range most of the time, sometimes just outside or garbage */
static void random_value(const struct knob *k, char *text, size_t len)
{
	int dice = rand() % 10;

	if (dice < 7)
		snprintf(text, len, "%ld", k->lo + rand() % (k->hi - k->lo + 1));
	else if (dice < 9)
		snprintf(text, len, "%ld", rand() % 2 ? k->lo - 1 : 5000000L);
	else
		snprintf(text, len, "%s", garbage[rand() % 5]);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 120, end;
	long writes = 0, refused = 0, odd = 0, orig[NR_KNOBS];
	size_t i;

	if (secs <= 0)
		kt_bail("usage: kt-stress [SECONDS > 0], got '%s'", argv[1]);
	srand(time(NULL) ^ getpid());
	/* Remember the original values; kt_done() puts them back */
	for (i = 0; i < NR_KNOBS; i++) {
		if (kt_sysctl_read(knobs[i].name, &orig[i]))
			kt_bail("kernel.%s is missing", knobs[i].name);
		kt_sysctl_set(knobs[i].name, orig[i]);
	}

	end = kt_now() + secs;
	while (kt_now() < end) {
		const struct knob *k = &knobs[rand() % NR_KNOBS];
		char text[32];
		int err;

		random_value(k, text, sizeof(text));
		err = kt_sysctl_write(k->name, text);
		writes++;
		refused += err == -EINVAL;
		if (err && err != -EINVAL && odd++ < 5)
			kt_diag("%s <- '%s': %s", k->name, text, strerror(-err));
		usleep(1000 + rand() % 20000);
	}
	kt_diag("%ld writes in %.0f s, %ld refused with EINVAL", writes, secs,
		refused);
	kt_ok(odd == 0, "every write succeeded or failed with EINVAL (%ld did not)",
	      odd);
	kt_ok(refused > 0 && refused < writes,
	      "both valid and invalid writes were made");

	kt_sysctl_restore();
	for (i = 0; i < NR_KNOBS; i++) {
		long val = -1;

		kt_sysctl_read(knobs[i].name, &val);
		kt_ok(val == orig[i], "%s is back to %ld (%ld)", knobs[i].name,
		      orig[i], val);
	}
	return kt_done();
}
