// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-pingpong: what it costs, in guest time, for one CPU to hand over to
 * another.  The time keeper's wake-up figures use it: a thread woken by
 * another vCPU must go on from the waker's time, not from wherever the
 * clock has got to meanwhile.
 *
 *   bnb-pingpong --mode futex|spin|ipi [--partner pause|busy] [--cpus A,B] [--rounds N]
 *
 * futex: two threads, pinned to A and B, hand a turn back and forth
 *   through one futex word; each sleeps in FUTEX_WAIT until the other
 *   wakes it (a round trip: two sleeps, two wake-ups across CPUs, the
 *   way a blocking mutex or condition variable ping-pongs).
 * spin: the same hand-over, each side spinning with PAUSE on the word
 *   (a round trip: the line moves to the other cache and back).
 * ipi: the thread on A calls membarrier(PRIVATE_EXPEDITED), which
 *   interrupts every other CPU running a thread of the process and waits
 *   until each has run the barrier: with the other thread on B, one IPI
 *   there and back.  The same calls with no other thread running (no
 *   IPI) are timed first; ipi_us is the difference.  The thread on B
 *   waits for the end spinning with PAUSE (--partner pause), or in a
 *   loop without it (--partner busy): under the time keeper the first
 *   keeps the two vCPUs' times within a spin step, the second shows what
 *   the keeper's lag between busy vCPUs does to an interrupt's timing.
 *
 * Prints CSV mode,cpu_a,cpu_b,rounds,elapsed_s,round_trip_us, then
 * "# summary status=ok mode=... round_trip_us=..." (and base_us, ipi_us
 * for --mode ipi), every time on the guest's CLOCK_MONOTONIC.
 */
#include <errno.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/util.h"

enum mode { MODE_FUTEX, MODE_SPIN, MODE_IPI };

struct pp_opts {
	int mode;
	int partner;
	uint64_t rounds;
};

static int cpu[2] = { 0, 1 };
static uint64_t rounds;
static _Atomic int turn;		/* whose turn: 0 (A) or 1 (B) */
static _Atomic int stop;		/* ipi: the partner may end */
static bool partner_pauses;		/* ipi: it spins with PAUSE */
static pthread_barrier_t ready;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin(int c)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "bnb-pingpong: cannot pin to CPU %d: %s\n", c, strerror(errno));
		exit(1);
	}
}

static long futex(_Atomic int *word, int op, int val)
{
	return syscall(SYS_futex, word, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

/* Sleep until the turn is me's (a futex wait returns early on a change). */
static void futex_take(int me)
{
	int t;

	while ((t = atomic_load(&turn)) != me)
		futex(&turn, FUTEX_WAIT, t);
}

static void futex_give(int other)
{
	atomic_store(&turn, other);
	futex(&turn, FUTEX_WAKE, 1);
}

static void spin_take(int me)
{
	while (atomic_load_explicit(&turn, memory_order_acquire) != me)
		__builtin_ia32_pause();
}

static void spin_give(int other)
{
	atomic_store_explicit(&turn, other, memory_order_release);
}

static int mode;

/* me = 0 (A, starts with the turn) or 1 (B): rounds hand-overs each way. */
static void play(int me)
{
	for (uint64_t i = 0; i < rounds; i++) {
		if (mode == MODE_FUTEX) {
			futex_take(me);
			futex_give(!me);
		} else {
			spin_take(me);
			spin_give(!me);
		}
	}
}

static void *partner(void *arg)
{
	(void)arg;
	pin(cpu[1]);
	pthread_barrier_wait(&ready);
	if (mode == MODE_IPI) {
		/* in user space: membarrier interrupts this CPU */
		while (!atomic_load_explicit(&stop, memory_order_relaxed))
			if (partner_pauses)
				__builtin_ia32_pause();
		return NULL;
	}
	play(1);
	return NULL;
}

static long membarrier(int cmd)
{
	return syscall(SYS_membarrier, cmd, 0, 0);
}

/* Mean seconds of one membarrier(PRIVATE_EXPEDITED) call. */
static double time_membarriers(void)
{
	double t0 = now_s();

	for (uint64_t i = 0; i < rounds; i++)
		if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)) {
			fprintf(stderr, "bnb-pingpong: membarrier: %s\n", strerror(errno));
			exit(1);
		}
	return (now_s() - t0) / rounds;
}

static int parse_cpus(const struct opt_def *o, const char *list, void *field,
		      char *err, size_t errlen)
{
	char *end;
	long a, b;

	(void)o;
	(void)field;
	errno = 0;
	a = strtol(list, &end, 10);
	if (end == list || *end != ',' || errno)
		return errf(err, errlen, "'%s' is not two CPU numbers A,B", list);
	list = end + 1;
	b = strtol(list, &end, 10);
	if (end == list || *end || errno || a < 0 || b < 0 || a >= CPU_SETSIZE || b >= CPU_SETSIZE)
		return errf(err, errlen, "'%s' is not two CPU numbers A,B", list);
	if (a == b)
		return errf(err, errlen, "A and B must differ (both %ld)", a);
	cpu[0] = a;
	cpu[1] = b;
	return 0;
}

#define P(f) OPT_FIELD(struct pp_opts, f)

static const struct opt_def options[] = {
	{ "mode", OPT_CHOICE, P(mode), .choices = "futex|spin|ipi", .def = "futex",
	  .help = "futex: sleep and wake each other; spin: PAUSE on a shared word; "
		  "ipi: membarrier interrupts the other CPU" },
	{ "partner", OPT_CHOICE, P(partner), .choices = "pause|busy", .def = "pause",
	  .help = "ipi: the interrupted thread spins with PAUSE, or without it" },
	{ "cpus", OPT_FUNC, 0, .parse = parse_cpus, .metavar = "A,B", .def = "0,1",
	  .help = "the two CPUs (the timed thread runs on A)" },
	{ "rounds", OPT_U64, P(rounds), .min = 1, .max = 100000000, .def = "10000",
	  .help = "round trips (ipi: calls, with and without the IPI)" },
};

static const struct opt_tool tool = {
	.synopsis = "bnb-pingpong [--mode futex|spin|ipi] [--partner pause|busy] [--cpus A,B] [--rounds N]",
	.about = "Two CPUs hand a turn back and forth (a futex, a spun-on word) or one\n"
		 "interrupts the other (membarrier); the round trip in guest time.\n"
		 "Prints CSV mode,cpu_a,cpu_b,rounds,elapsed_s,round_trip_us and a '# summary' line.\n",
	.opts = options,
	.n = ARRAY_SIZE(options),
};

static const char *const mode_names[] = { "futex", "spin", "ipi" };

int main(int argc, char **argv)
{
	struct pp_opts o;
	int first = opt_tool_main(&tool, argc, argv, &o, false);
	double base = 0, t0, elapsed, trip;
	pthread_t tid;

	if (first < 0)
		return 2;
	if (first < argc) {
		fprintf(stderr, "bnb-pingpong: unexpected argument '%s'\n", argv[first]);
		return 2;
	}
	mode = o.mode;
	partner_pauses = o.partner == 0;
	rounds = o.rounds;
	pin(cpu[0]);
	if (mode == MODE_IPI) {
		if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED)) {
			fprintf(stderr, "bnb-pingpong: membarrier register: %s\n", strerror(errno));
			return 1;
		}
		base = time_membarriers();	/* alone: no other CPU to interrupt */
	}
	pthread_barrier_init(&ready, NULL, 2);
	if (pthread_create(&tid, NULL, partner, NULL)) {
		fprintf(stderr, "bnb-pingpong: cannot start a thread\n");
		return 1;
	}
	pthread_barrier_wait(&ready);
	t0 = now_s();
	if (mode == MODE_IPI) {
		elapsed = time_membarriers() * rounds;
		atomic_store(&stop, 1);
	} else {
		play(0);
		elapsed = now_s() - t0;
	}
	pthread_join(tid, NULL);
	trip = elapsed / rounds * 1e6;
	printf("mode,cpu_a,cpu_b,rounds,elapsed_s,round_trip_us\n");
	printf("%s,%d,%d,%llu,%.6f,%.3f\n", mode_names[mode], cpu[0], cpu[1],
	       (unsigned long long)rounds, elapsed, trip);
	printf("# summary status=ok mode=%s round_trip_us=%.3f", mode_names[mode], trip);
	if (mode == MODE_IPI)
		printf(" partner=%s base_us=%.3f ipi_us=%.3f", partner_pauses ? "pause" : "busy",
		       base * 1e6, trip - base * 1e6);
	putchar('\n');
	return 0;
}
