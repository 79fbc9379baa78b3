// SPDX-License-Identifier: GPL-2.0
/*
 * lpj= and tsc_early_khz= for the guest's kernel command line.
 *
 * Each secondary CPU calibrates its delay loop at boot unless a CPU of the
 * same package already did; with a socket per node none has, and under TCG
 * the failed direct calibration plus the slow converging one cost 0.1 to
 * 0.4 s per CPU. The value it would find is the TSC rate per jiffy (x86
 * delays count TSC cycles). The boot CPU measures the TSC rate itself
 * against the PIT, which under TCG with wall timing fails ("Unable to
 * calibrate against PIT") and falls back to 70 ms of PIT and HPET
 * references; tsc_early_khz= gives it the rate.
 *
 * A wall-timed guest's TSC runs at the host's, and the host's BogoMIPS is
 * its TSC rate in kHz / 500. Under deterministic timing QEMU's TSC counts
 * nanoseconds of the instruction-counted clock: 1 GHz. The guest's jiffy
 * comes from CONFIG_HZ in the .config kept beside a cached kernel; a
 * kernel without one calibrates its delay loop as usual.
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

long config_int(FILE *config, const char *key)
{
	char line[512];
	size_t len = strlen(key);
	long v;

	while (fgets(line, sizeof(line), config))
		if (!strncmp(line, key, len) && line[len] == '=' &&
		    sscanf(line + len + 1, "%ld", &v) == 1)
			return v > 0 ? v : 0;
	return 0;
}

int config_hz(FILE *config)
{
	return (int)config_int(config, "CONFIG_HZ");
}

long kernel_config_int(const char *kernel, const char *key)
{
	char copy[PATH_MAX], path[PATH_MAX];
	long v = 0;
	FILE *f;

	snprintf(copy, sizeof(copy), "%s", kernel);
	snprintf(path, sizeof(path), "%s/.config", dirname(copy));
	f = fopen(path, "r");
	if (f) {
		v = config_int(f, key);
		fclose(f);
	}
	return v;
}

long guest_tsc_khz(enum vm_timing timing)
{
	long khz = 0;
	FILE *f;

	if (timing == TIMING_DETERMINISTIC)
		return ICOUNT_TSC_KHZ;
	f = fopen("/proc/cpuinfo", "r");
	if (f) {
		khz = cpuinfo_tsc_khz(f);
		fclose(f);
	}
	return khz;
}

unsigned long guest_lpj(const char *kernel, long tsc_khz)
{
	long hz = kernel_config_int(kernel, "CONFIG_HZ");

	return hz && tsc_khz > 0 ? (unsigned long)tsc_khz * 1000 / hz : 0;
}
