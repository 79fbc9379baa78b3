#!/bin/bash
# The plugin's address-to-node map check: the guest touches memory bound
# to each node and the plugin must attribute >= 99 % of it to that node.
# It passes on the real layout (unequal node sizes, 3 nodes; 4 x 1 GiB,
# half of it above q35's 4 GiB hole) and, given a wrong map on purpose,
# stops the run with a message saying why.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "plugin map check"

SO=$BNB_ROOT/build/bin/bnb-plugin.so
CHECK=$BNB_ROOT/build/bin/bnb-plugin-check

# map_share SHM NODE: on_node/total of NODE's phase, as a percentage
map_share() {
	"$CHECK" "$1" 2>/dev/null |
		awk -F'[=/]' -v k="map_node$2" '$1 == k && $3 > 0 { printf "%.2f", 100 * $2 / $3 }'
}

ok_dir=$(run_dir plugin-map-ok)
bnb_vm "$ok_dir" --nodes 3 --mem 256M,512M,258M --distance '10,20,30;20,10,20;30,20,10' \
	--plugin "$SO" --plugin-opt shm="$ok_dir/counters.shm" -- 'echo calibrated'
rc=$?
check "3-node guest with the plugin runs the calibration at boot (exit $rc)" test "$rc" -eq 0
"$CHECK" "$ok_dir/counters.shm" > "$ok_dir/check.out" 2>&1
rc=$?
check "bnb-plugin-check reports the map as verified (exit $rc)" test "$rc" -eq 0
for node in 0 1 2; do
	share=$(map_share "$ok_dir/counters.shm" "$node")
	check "node $node: ${share:-no}% of its calibration accesses attributed to it" \
		awk -v s="${share:-0}" 'BEGIN { exit !(s >= 99) }'
done
grep -q '^state=exited$' "$ok_dir/check.out"
check "the counters file says QEMU exited" test $? -eq 0

# 4 x 1 GiB on q35: nodes 2 and 3 lie above the 4 GiB hole (QEMU 10's
# guest-physical addresses, deterministic timing); bnb-vm checked the map
# against QEMU's memory map before the guest ran
big_dir=$(run_dir plugin-map-4x1g)
bnb_vm "$big_dir" --timing deterministic --nodes 4 --mem 1G --plugin "$SO" \
	--plugin-opt shm="$big_dir/counters.shm" -- 'echo checked at boot'
rc=$?
check "4 x 1 GiB guest passes QEMU's memory map and the calibration (exit $rc)" test "$rc" -eq 0
"$CHECK" "$big_dir/counters.shm" > "$big_dir/check.out" 2>&1
rc=$?
check "bnb-plugin-check: map verified on 4 x 1 GiB (exit $rc)" test "$rc" -eq 0
for node in 2 3; do
	share=$(map_share "$big_dir/counters.shm" "$node")
	check "4 x 1 GiB: node $node above the hole: ${share:-no}% attributed to it" \
		awk -v s="${share:-0}" 'BEGIN { exit !(s >= 99) }'
done

# The check counts every user access of the calibrating vCPU: the guest
# agent answering a collector on that vCPU once made a node's phase 82 %
# (tests/guest/62-plugin-stream.t's guest calibrates with the collector
# polling).  Six calibrations of 32 passes with the agent polled every
# 10 ms: each phase must hold the sweep's reads and nothing else (before
# bnb-plugin-calib ran real-time, about one in eight such boots failed and
# most had strays).
busy_dir=$(run_dir plugin-map-busy)
COLLECT=$BNB_ROOT/build/bin/bnb-collect
"$COLLECT" --socket "$busy_dir/agent.sock" --out "$busy_dir/collect" --interval-ms 10 \
	--plugin-shm "$busy_dir/counters.shm" 2> "$busy_dir/collect.log" &
collector=$!
bnb_vm "$busy_dir" --nodes 2 --plugin "$SO" --agent-socket "$busy_dir/agent.sock" \
	--plugin-opt shm="$busy_dir/counters.shm" --plugin-opt delay=off -- \
	'for i in 1 2 3 4 5 6; do bnb-plugin-calib --passes 32 || exit 1; done'
rc=$?
wait "$collector"
check "six calibrations beside a collector polling every 10 ms pass (exit $rc)" test "$rc" -eq 0
"$CHECK" "$busy_dir/counters.shm" > "$busy_dir/check.out" 2>&1
for node in 0 1; do
	phase=$(awk -F= -v k="map_node$node" '$1 == k { print $2 }' "$busy_dir/check.out")
	check "polled: node $node's last phase holds only the sweep's reads (${phase:-none}, want 1048576/1048576)" \
		test "$phase" = 1048576/1048576
done

bad_dir=$(run_dir plugin-map-bad)
# the plugin stops QEMU in the check /init runs: the run fails with its reason
BNB_VM_EXPECT=plugin-failed bnb_vm "$bad_dir" --nodes 2 --plugin "$SO" --plugin-opt shm="$bad_dir/counters.shm" \
	--plugin-opt map=linear -- 'echo after-calibration' 2>/dev/null
rc=$?
check "a wrong map fails the run (bnb-vm exit $rc, want 6)" test "$rc" -eq 6
grep -q '^reason=plugin: map check FAILED: node 1: 0.00%' "$bad_dir/result"
check "the result's reason is the plugin's" test $? -eq 0
grep -q 'map check FAILED: node 1: 0.00%' "$bad_dir/qemu.log"
check "QEMU's log says which node failed" test $? -eq 0
[ -e "$bad_dir/out.log" ] && grep -q after-calibration "$bad_dir/out.log"
check "nothing ran after the failed check" test $? -ne 0
"$CHECK" "$bad_dir/counters.shm" > "$bad_dir/check.out" 2> "$bad_dir/check.err"
rc=$?
check "bnb-plugin-check exits 1 on the failed map (exit $rc)" test "$rc" -eq 1
grep -q 'map check FAILED' "$bad_dir/check.err"
check "bnb-plugin-check prints the reason" test $? -eq 0

[ -n "${BNB_KEEP:-}" ] || rm -rf "$ok_dir" "$big_dir" "$busy_dir" "$bad_dir"
done_testing
