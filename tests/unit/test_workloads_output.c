// SPDX-License-Identifier: GPL-2.0
/*
 * Output of the workloads: the CSV contract (workloads/csvout.c), the
 * latency histogram, page-locality sampling with the real move_pages(2),
 * the smaps and THP-mode parsers, pid registration and /proc/vmstat.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"
#include "hist.h"
#include "smaps.h"
#include "scratch.h"

static char *buf;
static size_t len;

static FILE *open_buf(void)
{
	free(buf);
	buf = NULL;
	return open_memstream(&buf, &len);
}

Test(wl_out, header_rows_summary)
{
	static const char *const cols[] = { "iter", "copy_mbs", NULL };
	const double v1[] = { 1, 1234.5 }, v2[] = { 2, NAN };
	struct wl_out o;
	FILE *f = open_buf();

	wl_out_begin(&o, f, "MB/s", cols);
	wl_out_row(&o, 0.5, 100.0, 0.25, v1);
	wl_out_comment(&o, "note %d", 7);
	wl_out_row(&o, 1.25, 300.0, NAN, v2);
	wl_out_summary(&o, true, 1.5, "threads=%u", 2u);
	fclose(f);
	cr_assert_str_eq(buf,
		"# unit rate=MB/s\n"
		"t_s,rate,locality,iter,copy_mbs\n"
		"0.500000,100.000,0.2500,1,1234.5\n"
		"# note 7\n"
		"1.250000,300.000,,2,\n"
		"# summary status=ok work_s=1.500000 rate_mean=200.000 "
		"locality_end=0.2500 threads=2\n");
}

Test(wl_out, start_and_end_locality)
{
	const double none[1] = { 0 };
	struct wl_out o;
	FILE *f = open_buf();

	wl_out_begin(&o, f, "u", NULL);
	wl_out_start_locality(&o, 0.125);
	wl_out_row(&o, 1, 1, 0.5, none);
	wl_out_row(&o, 2, 3, NAN, none);
	wl_out_summary(&o, true, 2, NULL);
	fclose(f);
	cr_assert_str_eq(buf, "# unit rate=u\nt_s,rate,locality\n# locality_start=0.1250\n"
			 "1.000000,1.000,0.5000\n2.000000,3.000,\n"
			 "# summary status=ok work_s=2.000000 rate_mean=2.000 "
			 "locality_start=0.1250 locality_end=0.5000\n");
}

Test(wl_out, interrupted_is_failed)
{
	struct wl_out o;
	FILE *f = open_buf();

	wl_out_begin(&o, f, "u", NULL);
	o.interrupted = true;
	wl_out_summary(&o, true, 1, "k=%d", 1);
	fclose(f);
	cr_assert_str_eq(buf, "# unit rate=u\nt_s,rate,locality\n# summary status=failed "
			 "work_s=1.000000 rate_mean=0.000 interrupted=yes k=1\n");
}

Test(wl_ticker, a_signal_ends_the_rows)
{
	struct wl_ticker t;

	wl_catch_signals();
	wl_ticker_start(&t, 10);
	cr_assert(wl_ticker_next(&t, 5));
	raise(SIGTERM);
	cr_assert_not(wl_ticker_next(&t, 5));
	cr_assert_eq(wl_interrupted, SIGTERM);
	wl_interrupted = 0;
}

Test(wl_out, no_extra_columns_and_failed)
{
	struct wl_out o;
	FILE *f = open_buf();

	wl_out_begin(&o, f, "records/s", NULL);
	wl_out_summary(&o, false, 0.0, NULL);
	fclose(f);
	cr_assert_str_eq(buf, "# unit rate=records/s\nt_s,rate,locality\n"
			 "# summary status=failed work_s=0.000000 rate_mean=0.000\n");
}

Test(wl_out, every_row_has_the_header_width)
{
	static const char *const cols[] = { "a", "b", "c", NULL };
	const double v[] = { NAN, 2, NAN };
	struct wl_out o;
	FILE *f = open_buf();
	char *line, *save;
	int commas, header = -1;

	wl_out_begin(&o, f, "x", cols);
	for (int i = 0; i < 5; i++)
		wl_out_row(&o, i, i * 1e9, i % 2 ? NAN : 1.0 / (i + 1), v);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		commas = 0;
		for (char *c = line; *c; c++)
			commas += *c == ',';
		if (header < 0)
			header = commas;
		cr_assert_eq(commas, header, "%s", line);
	}
	cr_assert_eq(header, 5);
}

Test(wl_hist, buckets_bound_their_values)
{
	const uint64_t vals[] = { 0, 1, 15, 16, 17, 31, 32, 100, 1000, 123456789,
				  1ull << 40, UINT64_MAX };

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		unsigned int b = wl_hist_bucket(vals[i]);

		cr_assert_lt(b, WL_HIST_BUCKETS);
		cr_assert_leq(wl_hist_floor(b), vals[i]);
		if (b + 1 < WL_HIST_BUCKETS)
			cr_assert_gt(wl_hist_floor(b + 1), vals[i], "%lu", (unsigned long)vals[i]);
		/* within one eighth of an octave */
		cr_assert_geq((double)wl_hist_floor(b), (double)vals[i] * 8 / 9 - 1);
	}
	for (unsigned int b = 0; b < WL_HIST_BUCKETS; b++)
		cr_assert_eq(wl_hist_bucket(wl_hist_floor(b)), b);
}

Test(wl_hist, percentiles)
{
	static uint64_t hist[WL_HIST_BUCKETS];

	cr_assert_eq(wl_hist_percentile(hist, 50), 0);
	hist[wl_hist_bucket(100)] = 90;
	hist[wl_hist_bucket(5000)] = 9;
	hist[wl_hist_bucket(80000)] = 1;
	cr_assert_eq(wl_hist_percentile(hist, 50), wl_hist_floor(wl_hist_bucket(100)));
	cr_assert_eq(wl_hist_percentile(hist, 90), wl_hist_floor(wl_hist_bucket(100)));
	cr_assert_eq(wl_hist_percentile(hist, 91), wl_hist_floor(wl_hist_bucket(5000)));
	cr_assert_eq(wl_hist_percentile(hist, 99), wl_hist_floor(wl_hist_bucket(5000)));
	cr_assert_eq(wl_hist_percentile(hist, 100), wl_hist_floor(wl_hist_bucket(80000)));
}

Test(wl_sample, spreads_pages_and_owners)
{
	long page = sysconf(_SC_PAGESIZE);
	char *base = (char *)(16 * page);	/* never dereferenced */
	struct wl_sample s;

	cr_assert_eq(wl_sample_init(&s, 8, 0), 0);
	cr_assert_eq(wl_sample_add(&s, base, 100 * page, 4, 0, 2), 4);
	cr_assert_eq(s.pages[0], base + 12 * page);
	cr_assert_eq(s.pages[3], base + 87 * page);
	cr_assert_eq(s.owner[0], 0);
	cr_assert_eq(s.owner[1], 0);
	cr_assert_eq(s.owner[2], 1);
	cr_assert_eq(s.owner[3], 1);
	/* capped by the pages there are and by the room left */
	cr_assert_eq(wl_sample_add(&s, base, 2 * page, 10, 5, 1), 2);
	cr_assert_eq(s.owner[5], 5);
	cr_assert_eq(wl_sample_add(&s, base, 100 * page, 10, 0, 1), 2);
	cr_assert_eq(s.n, 8);
	wl_sample_free(&s);
}

/* The real move_pages(2) on this host: one node, so touched pages are on 0. */
Test(wl_sample, move_pages_sees_touched_pages)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t bytes = 64 * (size_t)page;
	char *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	int here = 0, elsewhere = 5, owners[2];
	struct wl_sample s;
	int before[16];

	cr_assert_neq(mem, MAP_FAILED);
	cr_assert_eq(wl_sample_init(&s, 16, 0), 0);
	wl_sample_add(&s, mem, bytes, 16, 0, 1);
	cr_assert_eq(wl_sample_query(&s), 0);
	cr_assert(isnan(wl_sample_locality(&s, &here)), "untouched pages are not present");
	memset(mem, 1, bytes / 2);	/* the first 8 sampled pages */
	cr_assert_eq(wl_sample_query(&s), 0);
	memcpy(before, s.status, sizeof(before));
	cr_assert_geq(s.status[0], 0);
	cr_assert_lt(s.status[15], 0);
	here = s.status[0];
	cr_assert_float_eq(wl_sample_locality(&s, &here), 1.0, 1e-9);
	cr_assert_float_eq(wl_sample_locality(&s, &elsewhere), 0.0, 1e-9);
	owners[0] = -1;		/* any node counts */
	cr_assert_float_eq(wl_sample_locality(&s, owners), 1.0, 1e-9);
	cr_assert_eq(wl_sample_moved(&s, before), 0);
	before[0] = here + 1;
	cr_assert_eq(wl_sample_moved(&s, before), 1);
	wl_sample_free(&s);
	munmap(mem, bytes);
}

static const char smaps_text[] =
	"00400000-00452000 r-xp 00000000 08:02 173521 /usr/bin/x\n"
	"Size:                328 kB\n"
	"AnonHugePages:      2048 kB\n"
	"7f0000000000-7f0004000000 rw-p 00000000 00:00 0\n"
	"Size:              65536 kB\n"
	"AnonHugePages:     61440 kB\n"
	"VmFlags: rd wr mr mw me ac hg\n"
	"7f0004000000-7f0004200000 rw-p 00000000 00:00 0\n"
	"AnonHugePages:      2048 kB\n"
	"7f0008000000-7f0008001000 rw-p 00000000 00:00 0\n"
	"AnonHugePages:         0 kB\n";

static long long smaps_kb(uintptr_t start, uintptr_t end)
{
	FILE *f = fmemopen((void *)smaps_text, sizeof(smaps_text) - 1, "r");
	long long kb = wl_smaps_anon_huge_kb(f, start, end);

	fclose(f);
	return kb;
}

Test(wl_smaps, sums_the_overlapping_mappings)
{
	cr_assert_eq(smaps_kb(0x7f0000000000, 0x7f0004000000), 61440);
	cr_assert_eq(smaps_kb(0x7f0001000000, 0x7f0004100000), 63488);
	cr_assert_eq(smaps_kb(0x7f0008000000, 0x7f0008001000), 0);
	cr_assert_eq(smaps_kb(0x10000000, 0x20000000), -1);
}

/* The kernel's own total over the process: AnonHugePages of smaps_rollup. */
static long long rollup_huge_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long long kb = -1;

	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %lld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static long long own_smaps_kb(const void *start, size_t bytes)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	long long kb;

	cr_assert_not_null(f);
	kb = wl_smaps_anon_huge_kb(f, (uintptr_t)start, (uintptr_t)start + bytes);
	fclose(f);
	return kb;
}

/*
 * Against the live file: a madvised, 2 MiB-aligned region holds what the
 * kernel's rollup gained when it was touched (4096 kB where THP is
 * available, as on Debian's madvise default), a region that refuses huge
 * pages holds exactly 0 (found, not -1), and the whole address space sums
 * to the rollup.
 */
Test(wl_smaps, reads_our_own_smaps)
{
	size_t huge = 2 << 20, bytes = 2 * huge, small = 1 << 20;
	char *raw = mmap(NULL, bytes + huge, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *plain = mmap(NULL, small, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0);
	char *mem = (char *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
	long long before, after;

	cr_assert_neq(raw, MAP_FAILED);
	cr_assert_neq(plain, MAP_FAILED);
	madvise(mem, bytes, MADV_HUGEPAGE);	/* fails only without THP */
	madvise(plain, small, MADV_NOHUGEPAGE);
	before = rollup_huge_kb();
	memset(mem, 1, bytes);
	memset(plain, 1, small);
	after = rollup_huge_kb();
	cr_assert_geq(before, 0, "no AnonHugePages in smaps_rollup");
	cr_assert_eq(own_smaps_kb(mem, bytes), after - before);
	cr_assert_eq(own_smaps_kb(plain, small), 0);
	cr_assert_eq(own_smaps_kb(NULL, UINTPTR_MAX), after);
	munmap(raw, bytes + huge);
	munmap(plain, small);
}

Test(wl_thp, mode_word)
{
	char text[] = "always [madvise] never\n", bad[] = "always madvise\n", mode[16];
	FILE *f = fmemopen(text, strlen(text), "r");

	cr_assert_eq(wl_thp_mode(f, mode, sizeof(mode)), 0);
	cr_assert_str_eq(mode, "madvise");
	fclose(f);
	f = fmemopen(bad, strlen(bad), "r");
	cr_assert_neq(wl_thp_mode(f, mode, sizeof(mode)), 0);
	fclose(f);
}

Test(wl_pid, registers_when_the_directory_exists)
{
	char dir[64], path[128], line[32];
	FILE *f;

	cr_assert_eq(wl_register_pid("/nonexistent/bnb"), 0);
	scratch_make(dir, sizeof(dir), "wl-pid");
	cr_assert_eq(wl_register_pid(dir), 1);
	cr_assert_eq(wl_register_pid(dir), 1);
	snprintf(path, sizeof(path), "%s/pids", dir);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	for (int i = 0; i < 2; i++) {
		cr_assert_not_null(fgets(line, sizeof(line), f));
		cr_assert_eq(atoi(line), getpid());
	}
	cr_assert_null(fgets(line, sizeof(line), f));
	fclose(f);
	scratch_remove(dir);
}

Test(wl_vmstat, reads_counters)
{
	cr_assert_gt(wl_vmstat("nr_free_pages"), 0);
	cr_assert_eq(wl_vmstat("no_such_counter"), -1);
}

Test(wl_clock, monotonic)
{
	double a = wl_now(), b;

	wl_sleep_until(a + 0.02);
	b = wl_now();
	cr_assert_geq(b - a, 0.02);
}

Test(wl_ticker, rows_on_a_fixed_grid)
{
	struct wl_ticker t;
	unsigned int rows = 0;

	wl_ticker_start(&t, 10);
	while (wl_ticker_next(&t, 3)) {
		rows++;
		cr_assert_geq(wl_ticker_elapsed(&t), 0.010 * t.row);
		cr_assert_gt(wl_ticker_dt(&t), 0);
	}
	cr_assert_eq(rows, 3);
	cr_assert_eq(t.row, 3);
	cr_assert_not(wl_ticker_next(&t, 3));
}
