// SPDX-License-Identifier: GPL-2.0
/*
 * What bnb-vm does for a short boot: which guest commands get the tools
 * archive (--tools auto), and lpj= and tsc_early_khz= from the guest's
 * TSC rate (the host's, or 1 GHz under deterministic timing) and the
 * kernel's HZ.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../bench/vm/vm.h"
#include "scratch.h"

static char list[] = "/tmp/test_vm_boot.XXXXXX";

/* The list as mkinitramfs.sh writes it: ls of the archive's bin dir. */
static void write_list(void)
{
	int fd = mkstemp(list);
	FILE *f = fdopen(fd, "w");

	cr_assert_not_null(f);
	fputs("lstopo\nlstopo-no-graphics\nnumactl\nperf\nstress-ng\n", f);
	fclose(f);
}

static void remove_list(void)
{
	unlink(list);
}

TestSuite(tools, .init = write_list, .fini = remove_list);

Test(tools, a_named_tool_is_found_as_a_word)
{
	cr_assert_eq(cmd_names_tool("perf stat -e cycles stream", list, NULL), 1);
	cr_assert_eq(cmd_names_tool("numactl -H; grep numa_ /proc/vmstat", list, NULL), 1);
	cr_assert_eq(cmd_names_tool("stress-ng --vm 2 --timeout 5", list, NULL), 1);
	cr_assert_eq(cmd_names_tool("x=$(lstopo-no-graphics --of console)", list, NULL), 1);
	cr_assert_eq(cmd_names_tool("/opt/bnb/bin/perf record -a", list, NULL), 1);
	cr_assert_eq(cmd_names_tool("true && lstopo", list, NULL), 1);
}

Test(tools, parts_of_other_words_are_not_tools)
{
	cr_assert_eq(cmd_names_tool("stream --placement misplaced", list, NULL), 0);
	cr_assert_eq(cmd_names_tool("perfect --numactlish", list, NULL), 0);
	cr_assert_eq(cmd_names_tool("stress --mode x_perf", list, NULL), 0);
	cr_assert_eq(cmd_names_tool("echo superf", list, NULL), 0);
	cr_assert_eq(cmd_names_tool("", list, NULL), 0);
}

Test(tools, a_tool_a_package_brings_needs_no_tools_archive)
{
	char have[] = "/tmp/bnb-test-have-XXXXXX";
	int fd = mkstemp(have);
	const char *cmd = "bnb-service --server 'numactl -N 0 redis-server' -- redis-benchmark";

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "numactl\nredis-server\n", 21), 21);
	close(fd);
	cr_assert_eq(cmd_names_tool(cmd, list, NULL), 1);
	cr_assert_eq(cmd_names_tool(cmd, list, have), 0, "the packages' numactl asked for the tools");
	cr_assert_eq(cmd_names_tool("numactl -H; perf stat true", list, have), 1,
		     "perf is still the tools archive's");
	unlink(have);
}

Test(tools, an_unreadable_list_says_so)
{
	cr_assert_eq(cmd_names_tool("perf", "/nonexistent/tools.list", NULL), -1);
}

static long khz_of(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	long khz = cpuinfo_tsc_khz(f);

	fclose(f);
	return khz;
}

static int hz_of(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int hz = config_hz(f);

	fclose(f);
	return hz;
}

Test(lpj, host_tsc_rate_from_bogomips)
{
	cr_assert_eq(khz_of("processor\t: 0\nflags\t\t: fpu tsc\nbogomips\t: 4189.86\n"), 2094930);
	cr_assert_eq(khz_of("bogomips : 5000.00\n"), 2500000);
	cr_assert_eq(khz_of("processor\t: 0\nmodel name\t: x\n"), 0);
	cr_assert_eq(khz_of("bogomips\t: 0.00\n"), 0);
}

Test(lpj, guest_hz_from_the_config)
{
	cr_assert_eq(hz_of("CONFIG_HZ_250=y\nCONFIG_HZ=250\n"), 250);
	cr_assert_eq(hz_of("# CONFIG_HZ_1000 is not set\nCONFIG_HZ=1000\n"), 1000);
	cr_assert_eq(hz_of("CONFIG_NUMA=y\n"), 0);
}

/* The guest kernel's CPU limit, not a longer key that starts the same. */
Test(lpj, nr_cpus_from_the_config)
{
	static const char text[] = "CONFIG_NR_CPUS_RANGE_BEGIN=2\nCONFIG_NR_CPUS_DEFAULT=64\n"
				   "CONFIG_NR_CPUS=48\n";
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	cr_assert_eq(config_int(f, "CONFIG_NR_CPUS"), 48);
	fclose(f);
	cr_assert_eq(kernel_config_int("/nonexistent/bzImage", "CONFIG_NR_CPUS"), 0,
		     "no .config: unknown, trusted");
}

Test(lpj, no_config_beside_the_kernel_means_no_lpj)
{
	cr_assert_eq(guest_lpj("/nonexistent/bzImage", 2000000), 0);
}

/* A .config beside the kernel, as the kernel cache keeps it. */
Test(lpj, per_jiffy_of_the_guest_tsc_rate)
{
	char dir[64], path[128];

	scratch_make(dir, sizeof(dir), "lpj");
	scratch_write(dir, ".config", "CONFIG_HZ_250=y\nCONFIG_HZ=250\n");
	snprintf(path, sizeof(path), "%s/bzImage", dir);
	cr_assert_eq(guest_lpj(path, 2095995), 8383980);
	cr_assert_eq(guest_lpj(path, ICOUNT_TSC_KHZ), 4000000);
	cr_assert_eq(guest_lpj(path, 0), 0);
	scratch_remove(dir);
}

/* QEMU's TSC under icount counts nanoseconds of the virtual clock. */
Test(lpj, deterministic_guest_tsc_runs_at_1ghz)
{
	cr_assert_eq(guest_tsc_khz(TIMING_DETERMINISTIC), 1000000);
}

Test(lpj, on_the_command_line_only_when_known)
{
	struct vm_config c = { .kernel = "K", .initrd = "I", .run_dir = "/r", .qemu = "q" };
	struct argv a = { 0 };

	topo_init(&c.topo, 2);
	qemu_build_args(&c, &a);
	cr_assert_null(strstr(a.v[a.n - 1], "lpj="), "%s", a.v[a.n - 1]);
	cr_assert_null(strstr(a.v[a.n - 1], "tsc_early_khz="), "%s", a.v[a.n - 1]);
	argv_free(&a);
	c.lpj = 8379720;
	c.tsc_khz = 2094930;
	qemu_build_args(&c, &a);
	cr_assert_not_null(strstr(a.v[a.n - 1], " lpj=8379720 tsc_early_khz=2094930 "), "%s",
			   a.v[a.n - 1]);
	argv_free(&a);
}
