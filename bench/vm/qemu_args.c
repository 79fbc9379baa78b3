// SPDX-License-Identifier: GPL-2.0
/*
 * The QEMU command line for a guest of a given topology.
 *
 * Node memdevs are declared before anything else and in node order: QEMU
 * 7.2 lays RAM blocks out in creation order, and the latency plugin's
 * address-to-node decoding depends on that order.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "vm.h"

/* Nominal HMAT figures: 100 ns and 20 GB/s locally, scaled by distance. */
#define HMAT_LOCAL_NS		100
#define HMAT_LOCAL_MBPS		20480

int hmat_latency_ns(int distance)
{
	return HMAT_LOCAL_NS * distance / BNB_LOCAL_DISTANCE;
}

/* HMAT bandwidth must be a multiple of 1 MB/s: round down, at least 1. */
int hmat_bandwidth_mbps(int distance)
{
	int bw = HMAT_LOCAL_MBPS * BNB_LOCAL_DISTANCE / distance;

	return bw > 0 ? bw : 1;
}

/* The HMAT's latency of node j's memory from initiator i: the model's, else the distance's. */
static int hmat_pair_ns(const struct vm_config *c, int i, int j)
{
	const struct bnb_model_params *p = c->model_params;

	if (!p)
		return hmat_latency_ns(c->topo.dist[i][j]);
	return (int)((p->lat_ps[i][j] + 500) / 1000);
}

/* The same for the bandwidth, MB/s. */
static int hmat_pair_mbps(const struct vm_config *c, int i, int j)
{
	const struct bnb_model_params *p = c->model_params;
	uint64_t mbs;

	if (!p)
		return hmat_bandwidth_mbps(c->topo.dist[i][j]);
	mbs = bnb_model_peak_mbs(p, (unsigned int)i, (unsigned int)j);
	return mbs > INT_MAX ? INT_MAX : mbs ? (int)mbs : 1;
}

/*
 * QEMU keeps each HMAT entry as a 16-bit multiple of one base per data
 * type, a power of 10 ns for latencies and a power of 2 of bytes/s for
 * bandwidths, and refuses a table that does not fit (hw/core/numa.c).
 * Each entry is rounded to a multiple of the least base under which the
 * largest fits in 15 bits: exact for real machines' figures (2socket's
 * 69300, 34400 and 22000 MB/s are multiples of 4), a rounding only for a
 * model whose figures span more than 1:32767, such as a latency-bound
 * test's 100 TB/s node beside 34 GB/s links.
 */
struct hmat_bases {
	uint64_t ns, mbps;
};

static struct hmat_bases hmat_bases(const struct vm_config *c)
{
	const struct bnb_topology *t = &c->topo;
	struct hmat_bases b = { 1, 1 };
	uint64_t ns = 0, mbps = 0;

	for (int i = 0; i < t->nodes; i++)
		for (int j = 0; j < t->nodes && t->cpus[i]; j++) {
			uint64_t pair_ns = (uint64_t)hmat_pair_ns(c, i, j);
			uint64_t pair_mbps = (uint64_t)hmat_pair_mbps(c, i, j);

			ns = pair_ns > ns ? pair_ns : ns;
			mbps = pair_mbps > mbps ? pair_mbps : mbps;
		}
	while (ns / b.ns >= 32767)
		b.ns *= 10;
	while (mbps / b.mbps >= 32767)
		b.mbps *= 2;
	return b;
}

/* v to the nearest multiple of base, at least base. */
static uint64_t hmat_round(int v, uint64_t base)
{
	uint64_t r = ((uint64_t)v + base / 2) / base * base;

	return r ? r : base;
}

/* First CPU of a node, or of the nearest node that has CPUs. */
static int initiator_of(const struct bnb_topology *t, int node)
{
	int i, best = -1;

	if (t->cpus[node])
		return node;
	for (i = 0; i < t->nodes; i++)
		if (t->cpus[i] && (best < 0 || t->dist[i][node] < t->dist[best][node]))
			best = i;
	return best;
}

static void add_numa(const struct vm_config *c, struct argv *a)
{
	const struct bnb_topology *t = &c->topo;
	struct hmat_bases b;
	int i, j, cpu = 0;

	for (i = 0; i < t->nodes; i++) {
		char bind[64] = "";

		if (c->host)	/* KVM: the guest node's memory on its own host node */
			snprintf(bind, sizeof(bind), ",host-nodes=%d,policy=bind",
				 c->host->node[c->host_node[i]].id);
		argv_add(a, "-object");
		argv_add(a, "memory-backend-ram,id=mem%d,size=%llu%s", i,
			 (unsigned long long)t->mem[i], bind);
	}
	for (i = 0; i < t->nodes; i++) {
		char cpus[32] = "";

		if (t->cpus[i] == 1)
			snprintf(cpus, sizeof(cpus), ",cpus=%d", cpu);
		else if (t->cpus[i] > 1)
			snprintf(cpus, sizeof(cpus), ",cpus=%d-%d", cpu, cpu + t->cpus[i] - 1);
		cpu += t->cpus[i];
		argv_add(a, "-numa");
		if (c->hmat)
			argv_add(a, "node,nodeid=%d,memdev=mem%d%s,initiator=%d", i, i, cpus,
				 initiator_of(t, i));
		else
			argv_add(a, "node,nodeid=%d,memdev=mem%d%s", i, i, cpus);
	}
	/* Every ordered pair, so an asymmetric table stays asymmetric. */
	for (i = 0; i < t->nodes; i++)
		for (j = 0; j < t->nodes; j++) {
			if (i == j)
				continue;
			argv_add(a, "-numa");
			argv_add(a, "dist,src=%d,dst=%d,val=%d", i, j, t->dist[i][j]);
		}
	if (!c->hmat)
		return;
	b = hmat_bases(c);
	for (i = 0; i < t->nodes; i++) {
		if (!t->cpus[i])
			continue;
		for (j = 0; j < t->nodes; j++) {
			argv_add(a, "-numa");
			argv_add(a, "hmat-lb,initiator=%d,target=%d,hierarchy=memory,"
				 "data-type=access-latency,latency=%llu", i, j,
				 (unsigned long long)hmat_round(hmat_pair_ns(c, i, j), b.ns));
			argv_add(a, "-numa");
			argv_add(a, "hmat-lb,initiator=%d,target=%d,hierarchy=memory,"
				 "data-type=access-bandwidth,bandwidth=%lluM", i, j,
				 (unsigned long long)hmat_round(hmat_pair_mbps(c, i, j), b.mbps));
		}
	}
}

static void add_plugin(const struct vm_config *c, struct argv *a)
{
	const struct bnb_topology *t = &c->topo;
	char buf[16384];
	size_t used;
	int i, j;

	used = snprintf(buf, sizeof(buf), "%s,nodes=%d,cpus=", c->plugin, t->nodes);
	for (i = 0; i < t->nodes; i++)
		used += snprintf(buf + used, sizeof(buf) - used, "%s%d", i ? ":" : "", t->cpus[i]);
	used += snprintf(buf + used, sizeof(buf) - used, ",mem_mib=");
	for (i = 0; i < t->nodes; i++)
		used += snprintf(buf + used, sizeof(buf) - used, "%s%llu", i ? ":" : "",
				 (unsigned long long)(t->mem[i] >> 20));
	used += snprintf(buf + used, sizeof(buf) - used, ",dist=");
	for (i = 0; i < t->nodes; i++)
		for (j = 0; j < t->nodes; j++)
			used += snprintf(buf + used, sizeof(buf) - used, "%s%d",
					 i || j ? ":" : "", t->dist[i][j]);
	if (c->timing == TIMING_DETERMINISTIC)
		used += snprintf(buf + used, sizeof(buf) - used, ",icount_shift=%d,insn_ps=%llu",
				 c->icount_shift, (unsigned long long)c->insn_ps);
	for (i = 0; i < c->plugin_opts.n; i++)
		used += snprintf(buf + used, sizeof(buf) - used, ",%s", c->plugin_opts.v[i]);
	argv_add(a, "-plugin");
	argv_add(a, "%s", buf);
}

/*
 * Under deterministic timing the ports' queues are served on the vCPU
 * thread, as the guest writes the notify register (ioeventfd=off): with
 * an ioeventfd the main loop serves them whenever the host schedules it,
 * and the interrupt that completes the guest's write reaches the guest,
 * and ends the running vCPU's turn, at a host-timed point (the first
 * cause of variation in multi-vCPU runs, bench/plugin/README.md).
 */
static void add_ports(const struct vm_config *c, struct argv *a)
{
	argv_add(a, "-device");
	argv_add(a, "virtio-serial-pci,id=vser%s",
		 c->timing == TIMING_DETERMINISTIC ? ",ioeventfd=off" : "");
	argv_add(a, "-chardev");
	argv_add(a, "file,id=out,path=%s/out.log", c->run_dir);
	argv_add(a, "-device");
	argv_add(a, "virtserialport,bus=vser.0,chardev=out,name=bnb.out");
	if (!c->agent_socket)
		return;
	argv_add(a, "-chardev");
	argv_add(a, "socket,id=agent,path=%s,server=on,wait=off", c->agent_socket);
	argv_add(a, "-device");
	argv_add(a, "virtserialport,bus=vser.0,chardev=agent,name=bnb.agent");
}

/*
 * One socket per node when every node with CPUs has as many: CPUs of
 * different nodes must not share a last-level cache, or the guest's
 * scheduler warns and builds odd domains. Otherwise a socket per CPU.
 */
static void add_smp(const struct bnb_topology *t, struct argv *a)
{
	int i, per = 0, total = topo_total_cpus(t);

	for (i = 0; i < t->nodes; i++) {
		if (!t->cpus[i])
			continue;
		if (!per)
			per = t->cpus[i];
		else if (per != t->cpus[i])
			per = 1;
	}
	if (!per)
		per = 1;
	argv_add(a, "-smp");
	argv_add(a, "%d,sockets=%d,cores=%d,threads=1", total, total / per, per);
}

/*
 * The kernel command line. Five words only save boot time:
 * no_timer_check skips the IO-APIC timer test, 40 ms of busy wait that
 * panics ("IO-APIC + timer doesn't work!") when a loaded host starves the
 * vCPU; pty.legacy_count=0 spares creating 512 BSD pty nodes;
 * cpu_init_udelay=0 spares the 10 ms busy wait after each secondary CPU's
 * INIT IPI, which Linux keeps for CPUs it does not know as modern (TCG's
 * max CPU is AMD family 6): 5.8 M of the 7.0 M PAUSEs of a 16-vCPU
 * boot, 0.15 s of guest time; lpj= spares each secondary CPU its delay-loop
 * calibration and tsc_early_khz= the boot CPU its TSC calibration
 * (bootargs.c).
 */
static void add_append(const struct vm_config *c, struct argv *a)
{
	char lpj[64] = "", stream[48] = "";
	int n = 0;

	if (c->lpj)
		n = snprintf(lpj, sizeof(lpj), " lpj=%lu", c->lpj);
	if (c->tsc_khz > 0)
		snprintf(lpj + n, sizeof(lpj) - n, " tsc_early_khz=%ld", c->tsc_khz);
	if (c->agent_stream_ms)
		snprintf(stream, sizeof(stream), " bnb.agent_stream_ms=%d", c->agent_stream_ms);
	argv_add(a, "-append");
	argv_add(a, "console=ttyS0 loglevel=%d panic=-1 no_timer_check pty.legacy_count=0 "
		 "cpu_init_udelay=0%s "
		 "numa_balancing=%s%s%s%s%s", c->loglevel, lpj, c->balancing ? "enable" : "disable",
		 c->timing == TIMING_DETERMINISTIC ? DETERMINISTIC_CMDLINE : "", stream,
		 c->append ? " " : "", c->append ? c->append : "");
}

/*
 * Deterministic: one host thread runs every vCPU, the clock counts their
 * instructions and jumps over idle time (sleep=off) instead of following
 * the host.
 */
/*
 * What else reaches a deterministic guest from the host: the CPU's random
 * number instructions (TCG fills them from the host's generator: hidden,
 * and -seed makes whatever QEMU still draws for the guest a fixed
 * sequence) and the real-time clock (the VM's own clock, from a fixed
 * date). The command line turns off user-space ASLR and tells the kernel
 * not to trust the CPU's generator.
 *
 * Under TCG the CPU model hides ERMS and FSRM: with them glibc's memset
 * and memcpy use rep stosb/movsb, which TCG runs one byte per iteration
 * (one instruction and one memory callback per byte, where hardware moves
 * 16-64 bytes a cycle), so string-heavy programs would measure the
 * emulator's string loop.  Without them glibc uses vector stores.
 *
 * Deterministic runs ask for the TSC-deadline timer, which the project's
 * QEMU offers under icount only (bench/qemu, patch 0005): with it the
 * kernel skips calibrating its local APIC timer, a 100 ms busy wait of
 * guest time that took about half the boot's host CPU time.
 */
#define TCG_CPU	"max,erms=off,fsrm=off"

static void add_pinned(const struct vm_config *c, struct argv *a)
{
	argv_add(a, "-cpu");
	if (c->accel == ACCEL_KVM) {
		argv_add(a, "host");
		return;
	}
	if (c->timing == TIMING_WALL) {
		argv_add(a, TCG_CPU);
		return;
	}
	argv_add(a, TCG_CPU ",rdrand=off,rdseed=off,tsc-deadline=on");
	argv_add(a, "-rtc");
	argv_add(a, "base=" DETERMINISTIC_DATE ",clock=vm");
	argv_add(a, "-seed");
	argv_add(a, "1");
}

static void add_accel(const struct vm_config *c, struct argv *a)
{
	argv_add(a, "-accel");
	if (c->accel == ACCEL_KVM) {
		argv_add(a, "kvm");
		return;
	}
	if (c->timing == TIMING_WALL) {
		argv_add(a, "tcg,thread=multi");
		return;
	}
	argv_add(a, "tcg,thread=single");
	argv_add(a, "-icount");
	argv_add(a, "shift=%d,sleep=off,align=off", c->icount_shift);
}

void qemu_build_args(const struct vm_config *c, struct argv *a)
{
	const struct bnb_topology *t = &c->topo;

	argv_add(a, "%s", c->qemu);
	add_numa(c, a);
	argv_add(a, "-machine");
	argv_add(a, "q35%s", c->hmat ? ",hmat=on" : "");
	add_accel(c, a);
	add_pinned(c, a);
	add_smp(t, a);
	argv_add(a, "-m");
	argv_add(a, "%lluM", (unsigned long long)(topo_total_mem(t) >> 20));
	if (c->bios) {
		argv_add(a, "-bios");
		argv_add(a, "%s", c->bios);
	}
	argv_add(a, "-nodefaults");
	argv_add(a, "-no-user-config");
	argv_add(a, "-nographic");
	argv_add(a, "-no-reboot");
	/* paused until the vCPU threads are pinned, the collector is there,
	 * or the plugin's address map is checked (layout.c) */
	if (c->host || vm_holds_for_collector(c) || vm_checks_layout(c))
		argv_add(a, "-S");
	argv_add(a, "-chardev");
	argv_add(a, "stdio,id=con,signal=off");
	argv_add(a, "-serial");
	argv_add(a, "chardev:con");
	argv_add(a, "-qmp");
	argv_add(a, "unix:%s/qmp.sock,server=on,wait=off", c->run_dir);
	argv_add(a, "-fw_cfg");
	argv_add(a, "name=opt/bnb/cmd,file=%s/cmd", c->run_dir);
	add_ports(c, a);
	if (c->plugin) {
		add_plugin(c, a);
		/* /init runs the plugin's map check before the command */
		argv_add(a, "-fw_cfg");
		argv_add(a, "name=" VM_FWCFG_MAPCHECK ",string=1");
	}
	argv_add(a, "-kernel");
	argv_add(a, "%s", c->kernel);
	argv_add(a, "-initrd");
	argv_add(a, "%s", c->initrd);
	add_append(c, a);
}
