// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-rngseed: make the guest kernel's random number generator ready
 * before the command runs, from a fixed seed.
 *
 * getrandom() without GRND_NONBLOCK, /dev/random and every library that
 * seeds itself from them (OpenSSL, jemalloc's and Redis' seeds, Python)
 * block until the kernel credits 256 bits of entropy. The guest has no
 * hardware source (RDRAND is hidden under deterministic timing, the
 * bootloader's seed is not trusted), and the kernel's timer-jitter
 * source finds no jitter when the plugin's time keeper owns the clock:
 * the TSC moves only at the keeper's steps, so consecutive reads agree
 * and no bit is ever credited. A server then never starts.
 *
 * The guest is a measuring instrument, not a machine with secrets, and
 * a run must repeat: so the seed is fixed, and credited in full with
 * RNDADDENTROPY, which makes the generator ready at once. The kernel's
 * own input keeps being mixed in as usual.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/random.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define SEED_BYTES 32

/* Any 32 bytes do; these spell what they are for. */
static const char seed_text[SEED_BYTES] = "balancenuma-bench guest rngseed";

int main(void)
{
	/* struct rand_pool_info: entropy_count, buf_size, then the bytes */
	int req[2 + SEED_BYTES / sizeof(int)] = { SEED_BYTES * 8, SEED_BYTES };
	int fd = open("/dev/urandom", O_WRONLY | O_CLOEXEC);

	memcpy(&req[2], seed_text, SEED_BYTES);
	if (fd < 0) {
		fprintf(stderr, "bnb-rngseed: /dev/urandom: %s\n", strerror(errno));
		return 1;
	}
	if (ioctl(fd, RNDADDENTROPY, req)) {
		fprintf(stderr, "bnb-rngseed: RNDADDENTROPY: %s\n", strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}
