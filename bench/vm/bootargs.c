// SPDX-License-Identifier: GPL-2.0
/*
 * lpj= for the guest's kernel command line.
 *
 * Each secondary CPU calibrates its delay loop at boot unless a CPU of the
 * same package already did; with a socket per node none has, and under TCG
 * the failed direct calibration plus the slow converging one cost 0.1 to
 * 0.4 s per CPU. The value it would find is the TSC rate per jiffy (x86
 * delays count TSC cycles), and a guest's TSC runs at the host's: the
 * host's BogoMIPS is its TSC rate in kHz / 500. The guest's jiffy comes
 * from CONFIG_HZ in the .config kept beside a cached kernel; a kernel
 * without one calibrates as usual.
 */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm.h"

long cpuinfo_tsc_khz(FILE *cpuinfo)
{
	char line[512];
	double mips;

	while (fgets(line, sizeof(line), cpuinfo))
		if (sscanf(line, "bogomips : %lf", &mips) == 1 ||
		    sscanf(line, "bogomips\t: %lf", &mips) == 1)
			return mips > 0 ? (long)(mips * 500 + 0.5) : 0;
	return 0;
}

int config_hz(FILE *config)
{
	char line[512];
	int hz;

	while (fgets(line, sizeof(line), config))
		if (sscanf(line, "CONFIG_HZ=%d", &hz) == 1)
			return hz > 0 ? hz : 0;
	return 0;
}

unsigned long guest_lpj(const char *kernel)
{
	char copy[PATH_MAX], path[PATH_MAX];
	long khz = 0;
	int hz = 0;
	FILE *f;

	snprintf(copy, sizeof(copy), "%s", kernel);
	snprintf(path, sizeof(path), "%s/.config", dirname(copy));
	f = fopen(path, "r");
	if (f) {
		hz = config_hz(f);
		fclose(f);
	}
	f = hz ? fopen("/proc/cpuinfo", "r") : NULL;
	if (f) {
		khz = cpuinfo_tsc_khz(f);
		fclose(f);
	}
	return hz && khz ? (unsigned long)khz * 1000 / hz : 0;
}
