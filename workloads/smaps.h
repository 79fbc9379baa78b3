/* SPDX-License-Identifier: GPL-2.0 */
/* Transparent huge page facts from /proc: smaps and the THP mode. */
#ifndef WL_SMAPS_H
#define WL_SMAPS_H

#include <stdint.h>
#include <stdio.h>

/*
 * Sum of AnonHugePages (KiB) over the mappings of an smaps text that
 * overlap [start, end); -1 when none does.
 */
long long wl_smaps_anon_huge_kb(FILE *smaps, uintptr_t start, uintptr_t end);

/* The same for this process's [mem, mem + len), from /proc/self/smaps; -1 unreadable. */
long long wl_region_huge_kb(const void *mem, size_t len);

/* The selected word of a "always [madvise] never" line, into @mode. */
int wl_thp_mode(FILE *enabled, char *mode, size_t len);

#endif
