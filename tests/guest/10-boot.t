#!/bin/bash
# Guests of 2 and 4 nodes with asymmetric tables boot; the guest sees the
# configured topology; the launcher reports guest failures and hangs.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "boot tests"

# Print the guest's view: distances, HMAT, counters, numa_balancing.
# shellcheck disable=SC2016 # expanded by the guest's shell
probe='for n in /sys/devices/system/node/node[0-9]*; do
	echo "dist ${n##*node} $(cat $n/distance)"
	for f in read_latency read_bandwidth; do
		[ -r $n/access0/initiators/$f ] && echo "hmat ${n##*node} $f $(cat $n/access0/initiators/$f)"
	done
done
grep -E "^numa_(pte_updates|hint_faults|hint_faults_local|pages_migrated) " /proc/vmstat
echo "balancing $(cat /proc/sys/kernel/numa_balancing)"'

# expect_matrix RUN_DIR "row0;row1;..." (values space separated)
expect_matrix() {
	local got want
	got=$(sed -n 's/^dist [0-9]* //p' "$1/out.log" | paste -sd';')
	want=$2
	[ "$got" = "$want" ] || { diag "distance matrix: got '$got', want '$want'"; return 1; }
}

d2=$(run_dir boot2)
bnb_vm "$d2" --nodes 2 --distance '10,20;25,10' -- "$probe"
rc=$?
check "2-node guest boots and runs its command (exit $rc)" test "$rc" -eq 0
check "2-node asymmetric distance matrix seen exactly" expect_matrix "$d2" "10 20;25 10"
check "HMAT local read latency visible for node 0 (100 ns)" \
	grep -qx 'hmat 0 read_latency 100' "$d2/out.log"
check "HMAT read bandwidth visible for node 1" grep -q '^hmat 1 read_bandwidth [0-9]' "$d2/out.log"
for c in numa_pte_updates numa_hint_faults numa_hint_faults_local numa_pages_migrated; do
	check "/proc/vmstat has $c" grep -q "^$c [0-9]" "$d2/out.log"
done
check "numa_balancing=enable reads 1" grep -qx 'balancing 1' "$d2/out.log"
boot_ms=$(result_field "$d2" boot_ms)
diag "boot to first guest command: ${boot_ms} ms (TCG, 2 nodes)"
check "result records the boot time" test "${boot_ms:--1}" -gt 0

d4=$(run_dir boot4)
m4='10,16,22,28;16,10,16,22;22,16,10,16;28,22,17,10'
bnb_vm "$d4" --nodes 4 --cpus 1,1,1,0 --mem 256M --distance "$m4" --balancing off -- "$probe"
rc=$?
check "4-node guest (one memory-only node) boots (exit $rc)" test "$rc" -eq 0
check "4-node asymmetric distance matrix seen exactly" \
	expect_matrix "$d4" "10 16 22 28;16 10 16 22;22 16 10 16;28 22 17 10"
check "numa_balancing=disable reads 0" grep -qx 'balancing 0' "$d4/out.log"
diag "boot to first guest command: $(result_field "$d4" boot_ms) ms (TCG, 4 nodes)"

# One guest fails its command after its kernel printed a WARNING and a
# stall report (written through /dev/kmsg, as the kernel's own would be
# printed): bnb-vm's verdict on each, and the boot check's below.
df=$(run_dir fail)
"$BNB_VM" --run-dir "$df" -- \
	'echo "<4>WARNING: CPU: 0 PID: 1 at mm/bnb-test.c:1 injected by 10-boot.t" > /dev/kmsg;
	echo "<3>rcu: INFO: rcu_sched self-detected stall on CPU (injected)" > /dev/kmsg;
	echo about to fail; exit 7' 2>/dev/null
rc=$?
check "a guest command exiting 7 makes bnb-vm exit 1 (got $rc)" test "$rc" -eq 1
check "result says failed with exit_code 7" \
	test "$(result_field "$df" status)/$(result_field "$df" exit_code)" = failed/7
check "guest output reached out.log" grep -qx 'about to fail' "$df/out.log"
# A stall under wall timing may be the loaded host's: counted, not a warning.
check "a stall report is counted apart from the warnings" \
	test "$(result_field "$df" stalls)/$(result_field "$df" warnings)" = 1/1
check "... and its line kept" grep -q '^stall=rcu: INFO: rcu_sched self-detected stall' "$df/result"

dh=$(run_dir hang)
start=$(date +%s)
BNB_VM_EXPECT=timeout bnb_vm "$dh" --timeout 15 -- 'sleep 1000' 2>"$dh/stderr"
rc=$?
took=$(( $(date +%s) - start ))
check "a hung guest makes bnb-vm exit 3 (got $rc)" test "$rc" -eq 3
check "result says timeout" test "$(result_field "$dh" status)" = timeout
check "the hang is reported with console lines" grep -q 'last .* console lines' "$dh/stderr"
check "a failed boot ends with the command that retries it" \
	grep -q "^bnb-vm: retry with: .*--timeout 15 -- 'sleep 1000'\$" "$dh/stderr"
check "the hung guest is stopped after the 15 s timeout, not left hanging (${took} s)" test "$took" -lt 90

# The per-boot check of tap.sh (vm_clean) itself, its verdict captured
# instead of reported: a hung guest, a guest command that failed, and a
# kernel WARNING each fail it; the failed guest without its WARNING (the
# same result, warnings=0) passes when a failure is what was expected.
verdict() { (_tap_fd=1 && vm_clean "$1"); }
check "the boot check fails a hung guest" grep -q '^not ok .*status timeout (want ok)' <<<"$(verdict "$dh")"
dc=$(run_dir fail-clean)
cp "$df/result" "$df/console.log" "$dc/" && sed -i 's/^warnings=1$/warnings=0/' "$dc/result"
check "the boot check fails a guest command exiting 7" \
	grep -q '^not ok .*status failed (want ok), kernel warnings 0' <<<"$(verdict "$dc")"
check "... and passes it when a failure was expected" \
	grep -q '^ok .*no kernel warning, status failed' <<<"$(BNB_VM_EXPECT=failed verdict "$dc")"
v=$(BNB_VM_EXPECT=failed verdict "$df")
diag "$(head -n 1 <<<"$v")"
check "the boot check fails a boot whose kernel printed a WARNING" \
	grep -q '^not ok .*status failed (want failed), kernel warnings 1' <<<"$v"
check "... and shows the WARNING line" grep -q '^#   .*WARNING: CPU: 0 PID: 1 at mm/bnb-test.c:1' <<<"$v"

# The KVM binding path (memory on a host node, vCPU threads pinned over
# QMP while QEMU waits paused) forced under TCG, on a node this host has.
db=$(run_dir bind)
bnb_vm "$db" --nodes 1 --host-bind on -- true
rc=$?
check "a guest bound to host node 0 boots (exit $rc)" test "$rc" -eq 0
check "result records the binding" test "$(result_field "$db" host_bound)" = 1

[ -n "${BNB_KEEP:-}" ] || rm -rf "$d2" "$d4" "$df" "$dc" "$dh" "$db"
done_testing
