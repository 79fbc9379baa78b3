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

#include "lib/opt.h"
#include "lib/err.h"

#define SEED_BYTES 32

/*
 * What only a guest bnb-vm booted has: a fixed seed credited on the host
 * would weaken the host's generator, so anywhere else it refuses.
 */
#define GUEST_MARK "/sys/firmware/qemu_fw_cfg/by_name/opt/bnb"

/* Any 32 bytes do; these spell what they are for. */
static const char seed_text[SEED_BYTES] = "balancenuma-bench guest rngseed";

static const struct opt_tool tool = {
	.synopsis = "bnb-rngseed",
	.about = "Credits a fixed 256-bit seed to the guest kernel's random number generator\n"
		 "(RNDADDENTROPY), so that getrandom() and /dev/random never wait: the guest's\n"
		 "/init runs it before the command.\n",
	.epilog = "Exit status: 0 seeded, 1 the kernel refused, 2 bad usage.\n",
};

int main(int argc, char **argv)
{
	/* struct rand_pool_info: entropy_count, buf_size, then the bytes */
	int req[2 + SEED_BYTES / sizeof(int)] = { SEED_BYTES * 8, SEED_BYTES };
	int first = opt_tool_main(&tool, argc, argv, NULL, false);
	int fd;

	if (first < 0)
		return 2;
	if (first < argc) {
		prog_error("takes no arguments, got '%s'", argv[first]);
		return 2;
	}
	if (access(GUEST_MARK, F_OK)) {
		prog_error("not in a guest bnb-vm booted (no %s): the host's generator is left alone",
			   GUEST_MARK);
		return 1;
	}
	memcpy(&req[2], seed_text, SEED_BYTES);
	fd = open("/dev/urandom", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		prog_error("/dev/urandom: %s", strerror(errno));
		return 1;
	}
	if (ioctl(fd, RNDADDENTROPY, req)) {
		prog_error("RNDADDENTROPY: %s", strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}
