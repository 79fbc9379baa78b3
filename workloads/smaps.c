// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "smaps.h"

long long wl_smaps_anon_huge_kb(FILE *smaps, uintptr_t start, uintptr_t end)
{
	char line[512];
	uintptr_t lo, hi;
	long long kb, total = -1;
	bool inside = false;

	while (fgets(line, sizeof(line), smaps)) {
		/* a mapping starts with "lo-hi perms ..."; field lines with "Name:" */
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2 &&
		    strchr(line, ' ') > strchr(line, '-')) {
			inside = lo < end && hi > start;
			continue;
		}
		if (inside && sscanf(line, "AnonHugePages: %lld kB", &kb) == 1)
			total = (total < 0 ? 0 : total) + kb;
	}
	return total;
}

int wl_thp_mode(FILE *enabled, char *mode, size_t len)
{
	char line[256], *open, *close;

	if (!fgets(line, sizeof(line), enabled))
		return -1;
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close || (size_t)(close - open) > len)
		return -1;
	memcpy(mode, open + 1, (size_t)(close - open - 1));
	mode[close - open - 1] = '\0';
	return 0;
}

long long wl_region_huge_kb(const void *mem, size_t len)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	long long kb;

	if (!f)
		return -1;
	kb = wl_smaps_anon_huge_kb(f, (uintptr_t)mem, (uintptr_t)mem + len);
	fclose(f);
	return kb;
}
