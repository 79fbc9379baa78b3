// SPDX-License-Identifier: GPL-2.0
/*
 * Replays the fuzz seed corpus and every saved crash input
 * (bench/fuzz/regressions) through the fuzz target itself, which aborts
 * when the parser breaks one of its promises.  ASan is not in this build;
 * the fuzzer run is where memory errors are caught, this keeps them fixed.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_dir(const char *sub)
{
	char path[1024];
	static uint8_t buf[1 << 20];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s", BNB_FUZZ_DIR, sub);
	d = opendir(path);
	cr_assert(d, "cannot open %s", path);
	while ((e = readdir(d))) {
		FILE *f;
		size_t len;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "README"))
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s", BNB_FUZZ_DIR, sub, e->d_name);
		f = fopen(path, "rb");
		cr_assert(f, "cannot open %s", path);
		len = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		n++;
	}
	closedir(d);
	return n;
}

Test(fuzz, seed_corpus)
{
	cr_expect_geq(replay_dir("corpus"), 5);
}

/* Saved crash inputs, and the hand-made promise-* inputs (README there). */
Test(fuzz, regressions)
{
	cr_expect_geq(replay_dir("regressions"), 4);
}
