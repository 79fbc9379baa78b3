// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the VM launcher: topology input, QEMU arguments, console. */
#include <criterion/criterion.h>
#include <string.h>

#include "../../bench/vm/vm.h"
#include "docblock.h"
#include "model/machine.h"
#include "model/model.h"
#include "lib/err.h"
#include "lib/util.h"

static struct bnb_topology topo;
static char err[ERRLEN];

static void two_nodes(void)
{
	topo_init(&topo, 2);
	err[0] = '\0';
}

TestSuite(topology, .init = two_nodes);

Test(topology, defaults_are_valid)
{
	cr_assert_eq(topo_validate(&topo, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(topo_total_cpus(&topo), 2);
	cr_assert_eq(topo_total_mem(&topo), 1024ULL << 20);
	cr_assert_eq(topo.dist[0][1], 20);
	cr_assert_eq(topo.dist[1][1], 10);
}

Test(topology, asymmetric_matrix_kept_as_given)
{
	topo_init(&topo, 3);
	cr_assert_eq(topo_parse_distance(&topo, "10,16,22;17,10,16;22,16,10", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(topo.dist[0][1], 16);
	cr_assert_eq(topo.dist[1][0], 17);
	cr_assert_eq(topo.dist[2][0], 22);
	cr_assert_eq(topo_validate(&topo, err, sizeof(err)), 0, "%s", err);
}

Test(topology, slash_separates_rows_too)
{
	cr_assert_eq(topo_parse_distance(&topo, "10,30/30,10", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(topo.dist[1][0], 30);
}

Test(topology, matrix_not_square_rows)
{
	cr_assert_neq(topo_parse_distance(&topo, "10,20;20,10;10,10", err, sizeof(err)), 0);
	cr_assert(strstr(err, "not square"), "%s", err);
}

Test(topology, matrix_not_square_columns)
{
	cr_assert_neq(topo_parse_distance(&topo, "10,20,30;20,10", err, sizeof(err)), 0);
	cr_assert(strstr(err, "row 0") && strstr(err, "not square"), "%s", err);
}

Test(topology, value_outside_range)
{
	cr_assert_neq(topo_parse_distance(&topo, "10,256;20,10", err, sizeof(err)), 0);
	cr_assert(strstr(err, "[0][1]") && strstr(err, "10..255"), "%s", err);
	cr_assert_neq(topo_parse_distance(&topo, "10,9;20,10", err, sizeof(err)), 0);
	cr_assert_neq(topo_parse_distance(&topo, "10,x;20,10", err, sizeof(err)), 0);
}

Test(topology, self_distance_must_be_10)
{
	cr_assert_eq(topo_parse_distance(&topo, "12,20;20,10", err, sizeof(err)), 0);
	cr_assert_neq(topo_validate(&topo, err, sizeof(err)), 0);
	cr_assert(strstr(err, "self-distance [0][0] is 12"), "%s", err);
}

Test(topology, remote_distance_of_10_is_refused)
{
	/* Linux ignores a SLIT whose remote entries are not above 10. */
	cr_assert_eq(topo_parse_distance(&topo, "10,10;20,10", err, sizeof(err)), 0);
	cr_assert_neq(topo_validate(&topo, err, sizeof(err)), 0);
	cr_assert(strstr(err, "[0][1]"), "%s", err);
}

Test(topology, memory_must_be_2mib_multiple)
{
	cr_assert_neq(topo_parse_mem(&topo, "511M", err, sizeof(err)), 0);
	cr_assert(strstr(err, "2 MiB"), "%s", err);
	cr_assert_neq(topo_parse_mem(&topo, "1000K", err, sizeof(err)), 0);
	cr_assert_eq(topo_parse_mem(&topo, "256M,1G", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(topo.mem[0], 256ULL << 20);
	cr_assert_eq(topo.mem[1], 1ULL << 30);
}

Test(topology, memory_list_length)
{
	cr_assert_neq(topo_parse_mem(&topo, "256M,256M,256M", err, sizeof(err)), 0);
	cr_assert(strstr(err, "one per node"), "%s", err);
}

/* The one size grammar (bench/lib/parse.h): units binary, bare = bytes. */
Test(topology, memory_sizes)
{
	cr_assert_eq(topo_parse_mem(&topo, "2G,4096KiB", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(topo.mem[0], 2ULL << 30);
	cr_assert_eq(topo.mem[1], 4ULL << 20);
	cr_assert_eq(topo_parse_mem(&topo, "64MB", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(topo.mem[1], 64ULL << 20);
	cr_assert_eq(topo_parse_mem(&topo, "2097152", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(topo.mem[0], 2ULL << 20, "a bare number is bytes");
	cr_assert_neq(topo_parse_mem(&topo, "", err, sizeof(err)), 0);
	cr_assert_neq(topo_parse_mem(&topo, "-1M", err, sizeof(err)), 0);
	cr_assert_neq(topo_parse_mem(&topo, "2T", err, sizeof(err)), 0);
	cr_assert_neq(topo_parse_mem(&topo, "1Mx", err, sizeof(err)), 0);
	cr_assert_neq(topo_parse_mem(&topo, "512M,,512M", err, sizeof(err)), 0);
}

/* It used to be 512 MiB here, 512 bytes in the workloads, refused by the runner. */
Test(topology, bare_mem_is_bytes_and_asks_for_a_unit)
{
	cr_assert_neq(topo_parse_mem(&topo, "512", err, sizeof(err)), 0, "512 taken as %llu bytes",
		      (unsigned long long)topo.mem[0]);
	cr_assert_str_eq(err, "'512': a size needs a unit, did you mean 512M?");
}

Test(topology, zero_cpus_in_total)
{
	cr_assert_eq(topo_parse_cpus(&topo, "0", err, sizeof(err)), 0);
	cr_assert_neq(topo_validate(&topo, err, sizeof(err)), 0);
	cr_assert(strstr(err, "zero CPUs"), "%s", err);
}

Test(topology, memory_only_node_is_fine)
{
	cr_assert_eq(topo_parse_cpus(&topo, "2,0", err, sizeof(err)), 0);
	cr_assert_eq(topo_validate(&topo, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(topo_cpu_node(&topo, 1), 0);
	cr_assert_eq(topo_cpu_node(&topo, 2), -1);
}

Test(topology, node_count_bounds)
{
	cr_assert_neq(topo_parse_nodes(&topo, "65", err, sizeof(err)), 0);
	cr_assert(strstr(err, "1 to 64"), "%s", err);
	cr_assert_neq(topo_parse_nodes(&topo, "0", err, sizeof(err)), 0);
	cr_assert_eq(topo_parse_nodes(&topo, "64", err, sizeof(err)), 0);
	cr_assert_eq(topo_validate(&topo, err, sizeof(err)), 0, "%s", err);
}

Test(topology, cpu_numbering_is_node_by_node)
{
	cr_assert_eq(topo_parse_cpus(&topo, "2,3", err, sizeof(err)), 0);
	cr_assert_eq(topo_cpu_node(&topo, 0), 0);
	cr_assert_eq(topo_cpu_node(&topo, 1), 0);
	cr_assert_eq(topo_cpu_node(&topo, 2), 1);
	cr_assert_eq(topo_cpu_node(&topo, 4), 1);
	cr_assert_eq(topo_cpu_node(&topo, 5), -1);
}

Test(topology, wnuma_is_mean_remote_distance)
{
	topo_init(&topo, 3);
	cr_assert_eq(topo_parse_distance(&topo, "10,20,30;20,10,20;30,20,10", err, sizeof(err)), 0);
	/* (20+30+20+20+30+20)/6 = 23.33 -> 2.333 */
	cr_assert_float_eq(topo_wnuma(&topo), 70.0 / 30.0, 1e-9);
	topo_init(&topo, 1);
	cr_assert_float_eq(topo_wnuma(&topo), 1.0, 1e-9);
}

Test(topology, format_round_trips)
{
	struct bnb_topology back;
	char buf[256];

	cr_assert_eq(topo_parse_distance(&topo, "10,25;31,10", err, sizeof(err)), 0);
	cr_assert_eq(topo_format_distance(&topo, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "10,25;31,10");
	topo_init(&back, 2);
	cr_assert_eq(topo_parse_distance(&back, buf, err, sizeof(err)), 0);
	cr_assert_eq(back.dist[1][0], 31);
}

/* QEMU command line */

static struct vm_config cfg;
static struct argv args;

static void config(void)
{
	memset(&cfg, 0, sizeof(cfg));
	memset(&args, 0, sizeof(args));
	topo_init(&cfg.topo, 2);
	cfg.qemu = "qemu";
	cfg.kernel = "K";
	cfg.initrd = "I";
	cfg.run_dir = "/r";
	cfg.hmat = true;
	cfg.balancing = true;
	cfg.loglevel = 5;
}

static void release(void)
{
	argv_free(&args);
}

static int find_arg(const char *text)
{
	int i;

	for (i = 0; i < args.n; i++)
		if (!strcmp(args.v[i], text))
			return i;
	return -1;
}

static int find_prefix(const char *text)
{
	int i;

	for (i = 0; i < args.n; i++)
		if (!strncmp(args.v[i], text, strlen(text)))
			return i;
	return -1;
}

TestSuite(qemu_args, .init = config, .fini = release);

/* A host with four NUMA nodes of two CPUs each, numbered 10..13. */
static struct host_numa four_node_host(void)
{
	struct host_numa h = { .n = 4 };
	int i;

	for (i = 0; i < 4; i++) {
		h.node[i].id = 10 + i;
		CPU_SET(2 * i, &h.node[i].cpus);
		CPU_SET(2 * i + 1, &h.node[i].cpus);
		h.node[i].n_cpus = 2;
	}
	return h;
}

Test(qemu_args, kvm_binds_each_node_to_a_host_node)
{
	struct host_numa h = four_node_host();

	cfg.accel = ACCEL_KVM;
	cfg.host = &h;
	cfg.host_node[0] = 2;
	cfg.host_node[1] = 0;
	qemu_build_args(&cfg, &args);
	cr_assert_str_eq(args.v[2], "memory-backend-ram,id=mem0,size=536870912,host-nodes=12,policy=bind");
	cr_assert_str_eq(args.v[4], "memory-backend-ram,id=mem1,size=536870912,host-nodes=10,policy=bind");
	cr_assert_neq(find_arg("-S"), -1, "paused until the vCPUs are pinned");
}

Test(qemu_args, unbound_guests_neither_bind_nor_pause)
{
	cfg.accel = ACCEL_KVM;
	qemu_build_args(&cfg, &args);
	cr_assert_str_eq(args.v[2], "memory-backend-ram,id=mem0,size=536870912");
	cr_assert_eq(find_arg("-S"), -1);
	cr_assert_eq(find_prefix("host-nodes"), -1);
}

/* QEMU's query-cpus-fast reply names each vCPU's thread. */
Test(qemu_args, vcpu_threads_go_to_their_nodes_cpus)
{
	static const char reply[] = "{\"return\": [{\"thread-id\": 4101, \"props\": {}, "
		"\"cpu-index\": 0, \"target\": \"x86_64\"}, {\"thread-id\": 4102, \"cpu-index\": 1}, "
		"{\"thread-id\": 4103, \"cpu-index\": 2}]}";
	struct host_numa h = four_node_host();
	struct vcpu_pin pins[8];

	cr_assert_eq(topo_parse_cpus(&cfg.topo, "2,1", err, sizeof(err)), 0);
	cfg.host = &h;
	cfg.host_node[0] = 3;
	cfg.host_node[1] = 1;
	cr_assert_eq(vm_pin_plan(&cfg, reply, pins, 8, err, sizeof(err)), 3, "%s", err);
	cr_assert_eq(pins[1].thread_id, 4102);
	cr_assert(CPU_ISSET(6, pins[1].cpus) && CPU_ISSET(7, pins[1].cpus),
		  "guest node 0's vCPUs on host node 13's CPUs 6-7");
	cr_assert_eq(CPU_COUNT(pins[1].cpus), 2);
	cr_assert(CPU_ISSET(2, pins[2].cpus) && CPU_ISSET(3, pins[2].cpus),
		  "guest node 1's vCPU on host node 11's CPUs 2-3");
	cr_assert_eq(vm_pin_plan(&cfg, "{\"return\": []}", pins, 8, err, sizeof(err)), -1);
	cr_assert(strstr(err, "0 vCPUs, the topology has 3"), "%s", err);
	cr_assert_eq(vm_pin_plan(&cfg, "{\"error\": {}}", pins, 8, err, sizeof(err)), -1);
}

Test(qemu_args, memdevs_first_and_in_node_order)
{
	cfg.topo.mem[1] = 256ULL << 20;
	qemu_build_args(&cfg, &args);
	cr_assert_str_eq(args.v[1], "-object");
	cr_assert_str_eq(args.v[2], "memory-backend-ram,id=mem0,size=536870912");
	cr_assert_str_eq(args.v[4], "memory-backend-ram,id=mem1,size=268435456");
	cr_assert_neq(find_arg("node,nodeid=1,memdev=mem1,cpus=1,initiator=1"), -1);
}

Test(qemu_args, every_ordered_pair_has_a_distance)
{
	cfg.topo.dist[0][1] = 21;
	cfg.topo.dist[1][0] = 34;
	qemu_build_args(&cfg, &args);
	cr_assert_neq(find_arg("dist,src=0,dst=1,val=21"), -1);
	cr_assert_neq(find_arg("dist,src=1,dst=0,val=34"), -1);
}

Test(qemu_args, hmat_scaled_by_distance)
{
	cfg.topo.dist[0][1] = 30;
	qemu_build_args(&cfg, &args);
	cr_assert_neq(find_arg("q35,hmat=on"), -1);
	cr_assert_neq(find_arg("hmat-lb,initiator=0,target=1,hierarchy=memory,"
			       "data-type=access-latency,latency=300"), -1);
	cr_assert_neq(find_arg("hmat-lb,initiator=0,target=0,hierarchy=memory,"
			       "data-type=access-latency,latency=100"), -1);
	cr_assert_eq(hmat_bandwidth_mbps(20), 10240);
}

/*
 * With the machine model on, the HMAT states the model's own figures:
 * 2socket's 108 ns local, 216 remote (x distance 20 / 10: its measured
 * 196 holds for 2 nodes only), 69.3 and 34.4 GB/s, a CXL node's 250 ns
 * from the nearest CPU node (216 + 250 - 108 from the other) at its 22 GB/s.
 */
Test(qemu_args, hmat_from_the_machine_model)
{
	static struct bnb_model_params p;
	struct bnb_machine_spec spec = { .model = BNB_MACHINE_DEFAULT, .cxl_nodes = "2" };
	static const struct { int i, j, ns, mbs; } want[] = {
		{ 0, 0, 108, 69300 }, { 0, 1, 216, 34400 }, { 0, 2, 250, 22000 },
		{ 1, 1, 108, 69300 }, { 1, 0, 216, 34400 }, { 1, 2, 358, 22000 },
	};
	const char *key;
	char arg[256];

	topo_init(&cfg.topo, 3);
	cfg.topo.cpus[2] = 0;
	cr_assert_eq(bnb_machine_check(&spec, &cfg.topo, true, &p, &key, err, sizeof(err)), 0,
		     "%s: %s", key, err);
	cfg.model_params = &p;
	qemu_build_args(&cfg, &args);
	for (size_t k = 0; k < ARRAY_SIZE(want); k++) {
		snprintf(arg, sizeof(arg), "hmat-lb,initiator=%d,target=%d,hierarchy=memory,"
			 "data-type=access-latency,latency=%d", want[k].i, want[k].j, want[k].ns);
		cr_expect_neq(find_arg(arg), -1, "no %s", arg);
		snprintf(arg, sizeof(arg), "hmat-lb,initiator=%d,target=%d,hierarchy=memory,"
			 "data-type=access-bandwidth,bandwidth=%dM", want[k].i, want[k].j,
			 want[k].mbs);
		cr_expect_neq(find_arg(arg), -1, "no %s", arg);
	}
	cr_assert_eq(find_prefix("hmat-lb,initiator=2"), -1, "a CPU-less node initiates nothing");
}

/*
 * QEMU keeps HMAT entries as 16-bit multiples of one base: a model whose
 * figures span more than that (82-model.t's latency-bound node of 100 TB/s
 * beside 2socket's 34.4 GB/s links) is rounded to what QEMU takes, the
 * largest entry kept, the smallest at least the base.
 */
Test(qemu_args, hmat_rounded_to_what_qemu_encodes)
{
	static struct bnb_model_params p;
	struct bnb_machine_spec spec = { .model = BNB_MACHINE_DEFAULT,
					 .node_bandwidth_mbs = 100000000 };
	const char *key;
	char arg[256];

	cr_assert_eq(bnb_machine_check(&spec, &cfg.topo, true, &p, &key, err, sizeof(err)), 0,
		     "%s: %s", key, err);
	cfg.model_params = &p;
	qemu_build_args(&cfg, &args);
	/* 10^8 / 32767 > 2^11: the base is 4096 MB/s */
	snprintf(arg, sizeof(arg), "hmat-lb,initiator=0,target=0,hierarchy=memory,"
		 "data-type=access-bandwidth,bandwidth=%lluM", 24414ull * 4096);
	cr_expect_neq(find_arg(arg), -1, "no %s", arg);
	snprintf(arg, sizeof(arg), "hmat-lb,initiator=0,target=1,hierarchy=memory,"
		 "data-type=access-bandwidth,bandwidth=%lluM", 8ull * 4096);
	cr_expect_neq(find_arg(arg), -1, "no %s", arg);
	cr_expect_neq(find_arg("hmat-lb,initiator=1,target=0,hierarchy=memory,"
			       "data-type=access-latency,latency=196"), -1, "latencies kept");
}

Test(qemu_args, no_hmat)
{
	cfg.hmat = false;
	qemu_build_args(&cfg, &args);
	cr_assert_neq(find_arg("q35"), -1);
	cr_assert_eq(find_prefix("hmat-lb"), -1);
	cr_assert_neq(find_arg("node,nodeid=0,memdev=mem0,cpus=0"), -1);
}

Test(qemu_args, memory_only_node_gets_nearest_initiator)
{
	topo_init(&cfg.topo, 3);
	cfg.topo.cpus[2] = 0;
	cfg.topo.dist[1][2] = 15;
	qemu_build_args(&cfg, &args);
	cr_assert_neq(find_arg("node,nodeid=2,memdev=mem2,initiator=1"), -1);
	cr_assert_eq(find_prefix("hmat-lb,initiator=2"), -1);
}

Test(qemu_args, balancing_and_cmdline)
{
	cfg.balancing = false;
	cfg.append = "foo=1";
	qemu_build_args(&cfg, &args);
	cr_assert_str_eq(args.v[args.n - 1],
			 "console=ttyS0 loglevel=5 panic=-1 no_timer_check pty.legacy_count=0 "
			 "cpu_init_udelay=0 numa_balancing=disable foo=1");
}

Test(qemu_args, plugin_gets_topology)
{
	cfg.plugin = "/p.so";
	argv_add(&cfg.plugin_opts, "shm=/x");
	cfg.topo.cpus[1] = 2;
	cfg.topo.dist[1][0] = 25;
	qemu_build_args(&cfg, &args);
	cr_assert_neq(find_arg("/p.so,nodes=2,cpus=1:2,mem_mib=512:512,dist=10:20:25:10,shm=/x"), -1);
}

Test(qemu_args, agent_port_only_when_asked)
{
	qemu_build_args(&cfg, &args);
	cr_assert_eq(find_prefix("socket,id=agent"), -1);
	argv_free(&args);
	cfg.agent_socket = "/s";
	qemu_build_args(&cfg, &args);
	cr_assert_neq(find_arg("socket,id=agent,path=/s,server=on,wait=off"), -1);
	cr_assert_neq(find_arg("virtserialport,bus=vser.0,chardev=agent,name=bnb.agent"), -1);
}

Test(qemu_args, tcg_multithreaded_by_default)
{
	qemu_build_args(&cfg, &args);
	cr_assert_neq(find_arg("tcg,thread=multi"), -1);
	cr_assert_neq(find_arg("name=opt/bnb/cmd,file=/r/cmd"), -1);
}

Test(qemu_args, deterministic_pins_what_the_host_would_vary)
{
	qemu_build_args(&cfg, &args);
	cr_assert_neq(find_arg("max,erms=off,fsrm=off"), -1);
	cr_assert_eq(find_arg("-rtc"), -1);
	cr_assert_eq(find_arg("-seed"), -1);
	cr_assert_null(strstr(args.v[args.n - 1], "norandmaps"));
	cr_assert_neq(find_arg("virtio-serial-pci,id=vser"), -1);
	argv_free(&args);
	cfg.timing = TIMING_DETERMINISTIC;
	cfg.agent_stream_ms = 250;
	qemu_build_args(&cfg, &args);
	cr_assert_neq(find_arg("max,erms=off,fsrm=off,rdrand=off,rdseed=off,tsc-deadline=on"), -1);
	cr_assert_neq(find_arg("base=2024-01-01T00:00:00,clock=vm"), -1);
	cr_assert_neq(find_arg("-seed"), -1);
	cr_assert_neq(find_arg("shift=0,sleep=off,align=off"), -1);
	/* the ports' queues served on the vCPU thread, not the main loop */
	cr_assert_neq(find_arg("virtio-serial-pci,id=vser,ioeventfd=off"), -1);
	cr_assert_not_null(strstr(args.v[args.n - 1],
				  " norandmaps random.trust_cpu=off random.trust_bootloader=off "
				  "bnb.agent_stream_ms=250"));
}

Test(qemu_args, deterministic_streaming_waits_paused_for_the_collector)
{
	cfg.agent_socket = "/s";
	qemu_build_args(&cfg, &args);
	cr_assert_eq(find_arg("-S"), -1);
	argv_free(&args);
	cfg.timing = TIMING_DETERMINISTIC;
	cfg.agent_stream_ms = 100;
	qemu_build_args(&cfg, &args);
	cr_assert_neq(find_arg("-S"), -1);
	cr_assert(vm_holds_for_collector(&cfg));
}

Test(hold, the_agent_port_is_connected_when_its_socket_has_a_client)
{
	cr_assert_eq(agent_client_connected("{\"return\": [{\"frontend-open\": true, "
		"\"filename\": \"disconnected:unix:/r/agent.sock,server=on\", \"label\": \"agent\"}, "
		"{\"filename\": \"stdio\", \"label\": \"con\"}]}"), 0);
	cr_assert_eq(agent_client_connected("{\"return\": [{\"filename\": "
		"\"unix:/r/agent.sock,server=on\", \"label\": \"agent\"}]}"), 1);
	cr_assert_eq(agent_client_connected("{\"return\": [{\"label\": \"con\"}]}"), -1);
	cr_assert_eq(agent_client_connected("{\"error\": {}}"), -1);
	cr_assert_eq(agent_client_connected("not json"), -1);
}

Test(qemu_args, a_socket_per_node_when_balanced)
{
	cfg.topo.cpus[0] = cfg.topo.cpus[1] = 2;
	qemu_build_args(&cfg, &args);
	cr_assert_neq(find_arg("4,sockets=2,cores=2,threads=1"), -1);
}

Test(qemu_args, a_socket_per_cpu_when_unbalanced)
{
	cfg.topo.cpus[0] = 1;
	cfg.topo.cpus[1] = 2;
	qemu_build_args(&cfg, &args);
	cr_assert_neq(find_arg("3,sockets=3,cores=1,threads=1"), -1);
}

/* Console classification */

Test(console, markers)
{
	int code = -1;

	cr_assert_eq(console_classify("bnb-init: run uptime=1.2", &code), CON_RUN);
	cr_assert_eq(console_classify("bnb-exit: 0", &code), CON_EXIT);
	cr_assert_eq(code, 0);
	cr_assert_eq(console_classify("bnb-exit: 42", &code), CON_EXIT);
	cr_assert_eq(code, 42);
	cr_assert_eq(console_classify("bnb-exit: x", &code), CON_NONE);
	cr_assert_eq(console_classify("bnb-exit: 999", &code), CON_NONE);
	cr_assert_eq(console_classify("say bnb-exit: 0", &code), CON_NONE);
}

Test(console, kernel_trouble)
{
	int code;

	cr_assert_eq(console_classify("[ 1.0] Kernel panic - not syncing: VFS", &code), CON_PANIC);
	cr_assert_eq(console_classify("BUG: unable to handle page fault", &code), CON_PANIC);
	cr_assert_eq(console_classify("Oops: 0002 [#1] SMP", &code), CON_PANIC);
	cr_assert_eq(console_classify("WARNING: CPU: 0 PID: 1 at mm/x.c:1", &code), CON_WARNING);
	cr_assert_eq(console_classify("Freeing unused kernel memory", &code), CON_NONE);
}

/* Console text as Linux 6.1 prints these reports (timestamps as on our console). */
Test(console, stalls_are_not_panics)
{
	static const char *const stalls[] = {
		"[   42.100000] rcu: INFO: rcu_sched self-detected stall on CPU",
		"[   42.100000] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:",
		"[   42.100000] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
		"[   42.100000] rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: { 1-... } 21002 jiffies s: 93 root: 0x2/.",
		"[   42.100000] INFO: rcu_tasks detected stalls on tasks:",
		"[  243.520000] INFO: task kworker/0:1:23 blocked for more than 120 seconds.",
		"[   50.000000] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [stream:91]",
	};
	static const char *const not_stalls[] = {
		"[   42.100000] rcu: \t1-...!: (0 ticks this GP) idle=d4c/0/0x0 softirq=1/1 fqs=0",
		"[   42.100000] rcu: rcu_sched kthread starved for 21004 jiffies! g-1 f0x0",
		"[    0.100000] rcu: Hierarchical RCU implementation.",
		"[    0.100000] rcu: \tRCU CPU stall warnings timeout set to 21 (rcu_cpu_stall_timeout).",
	};
	size_t i;
	int code;

	for (i = 0; i < ARRAY_SIZE(stalls); i++)
		cr_assert_eq(console_classify(stalls[i], &code), CON_STALL, "%s", stalls[i]);
	for (i = 0; i < ARRAY_SIZE(not_stalls); i++)
		cr_assert_eq(console_classify(not_stalls[i], &code), CON_NONE, "%s", not_stalls[i]);
}

/* The command line, through the options table */

static struct vm_cli cli;

static int cli_parse(int argc, char **argv)
{
	err[0] = '\0';
	return vm_cli_parse(&cli, argc, argv, err, sizeof(err));
}

#define CLI(...) ({ char *argv_[] = { "bnb-vm", __VA_ARGS__, NULL }; \
	cli_parse((int)ARRAY_SIZE(argv_) - 1, argv_); })

static void cli_free(void)
{
	vm_cli_free(&cli);
}

TestSuite(cli, .fini = cli_free);

Test(cli, defaults)
{
	cr_assert_eq(CLI("true"), 1, "%s", err);
	cr_assert_eq(cli.cfg.topo.nodes, 2);
	cr_assert_eq(cli.cfg.topo.mem[1], 512ULL << 20);
	cr_assert(cli.cfg.hmat && cli.cfg.balancing);
	cr_assert_eq(cli.cfg.accel, ACCEL_TCG);
	cr_assert_eq(cli.cfg.timeout_s, 300);
	cr_assert_null(cli.cfg.qemu, "no --qemu: bnb-vm picks the project's QEMU or 7.2 (emulator.c)");
	cr_assert_eq(cli.cfg.timing, TIMING_WALL);
	cr_assert_str_eq(cli.cfg.cmd, "true");
}

Test(cli, options_in_any_order_fill_the_config)
{
	cr_assert_eq(CLI("--cpus=2,1", "--mem", "1G,256M", "--nodes=2", "--no-hmat", "--accel=kvm",
			 "--balancing", "off", "--plugin-opt", "a=1", "--plugin-opt=b=2", "--bios=default",
			 "--", "echo --nodes=9"), 14, "%s", err);
	cr_assert_eq(cli.cfg.topo.cpus[0], 2);
	cr_assert_eq(cli.cfg.topo.mem[0], 1ULL << 30);
	cr_assert_eq(cli.cfg.topo.mem[1], 256ULL << 20);
	cr_assert(!cli.cfg.hmat && !cli.cfg.balancing);
	cr_assert_eq(cli.cfg.accel, ACCEL_KVM);
	cr_assert_eq(cli.cfg.plugin_opts.n, 2);
	cr_assert_str_eq(cli.cfg.plugin_opts.v[1], "b=2");
	cr_assert_null(cli.cfg.bios, "default: QEMU's own firmware");
	cr_assert_str_eq(cli.cfg.cmd, "echo --nodes=9");
}

Test(cli, errors_name_the_option)
{
	cr_assert_eq(CLI("--mem=512", "true"), -1);
	cr_assert_str_eq(err, "--mem: '512': a size needs a unit, did you mean 512M?");
	cr_assert_eq(CLI("--cpus=1,1,1", "true"), -1);
	cr_assert_str_eq(err, "--cpus: '1,1,1' has 3 values: give one, or one per node (2)");
	cr_assert_eq(CLI("--plugin-opt=a=1,b=2", "true"), -1);
	cr_assert(strstr(err, "without commas"), "%s", err);
	cr_assert_eq(CLI("--timeout=0", "true"), -1);
	cr_assert_str_eq(err, "--timeout: '0' is not an integer from 1 to 86400");
	cr_assert_eq(CLI("--nodes=2"), -1);
	cr_assert(strstr(err, "exactly one guest command"), "%s", err);
	cr_assert_eq(CLI("--help"), OPT_HELP);
}

Test(cli, many_plugin_options_all_reach_qemu)
{
	char *argv[2 * 100 + 3] = { "bnb-vm" };
	struct argv a = { 0 };
	char opt[100][16];
	int i, n = 1, plugin;

	for (i = 0; i < 100; i++) {
		snprintf(opt[i], sizeof(opt[i]), "k%d=%d", i, i);
		argv[n++] = "--plugin-opt";
		argv[n++] = opt[i];
	}
	argv[n++] = "--plugin=p.so";
	argv[n++] = "true";
	cr_assert_eq(cli_parse(n, argv), n - 1, "%s", err);
	cli.cfg.run_dir = "/r";
	qemu_build_args(&cli.cfg, &a);
	for (plugin = 0; plugin < a.n && strcmp(a.v[plugin], "-plugin"); plugin++)
		;
	cr_assert_lt(plugin, a.n - 1);
	cr_assert(strstr(a.v[plugin + 1], ",k0=0,") && strstr(a.v[plugin + 1], ",k99=99"),
		  "%s", a.v[plugin + 1]);
	cli.cfg.run_dir = NULL;
	argv_free(&a);
}

static void vm_markdown(FILE *f)
{
	opt_tool_markdown(f, &vm_tool);
}

static void vm_usage(FILE *f)
{
	opt_tool_usage(f, &vm_tool);
}

/* docs/HACKING.md's option table is the options table, printed. */
Test(cli, hacking_table_is_the_options_table)
{
	char *doc = doc_block("docs/HACKING.md", "bnb-vm options"), *now = printed(vm_markdown);

	cr_assert_not_null(doc, "no <!-- bnb-vm options --> block in docs/HACKING.md");
	cr_assert_str_eq(doc, now, "docs/HACKING.md is stale: put build/bin/bnb-vm --help=markdown "
			 "between its markers");
	free(doc);
	free(now);
}

Test(cli, usage_lists_every_option)
{
	char *text = printed(vm_usage), key[64];
	size_t i;

	for (i = 0; i < vm_n_options; i++) {
		snprintf(key, sizeof(key), "\n  --%s", vm_options[i].name);
		cr_assert(strstr(text, key), "--help lacks %s", key + 1);
	}
	free(text);
}
