#!/bin/bash
# The balancer's own work by kernel function (bench/plugin/ksym.h), on the
# real kernel and its System.map: with balancing on, a misplaced numa02
# scans, takes hinting faults and migrates, and the plugin's count has
# instructions in all three kinds; with balancing off it has none. Both
# QEMU builds are used: 7.2 (callbacks, wall clock) for on and the
# project's (inline stores, conditional callbacks) for on (deterministic)
# and off (wall clock).
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "plugin ksym"

MAP=$BNB_ROOT/build/kernel/System.map
# work PASSES: the guest command. The deterministic runs need more passes:
# with ERMS hidden and time counted per instruction, 200 passes end in
# about 0.1 s of guest time, before the 100 ms scan delay has elapsed
# twice, and no scan ever runs.
work() {
	echo "echo 100 > /sys/kernel/debug/sched/numa_balancing/scan_delay_ms &&
echo 100 > /sys/kernel/debug/sched/numa_balancing/scan_period_min_ms &&
autonuma --test numa02 --size 8M --passes $1 >/dev/null &&
grep -E 'numa_(pte_updates|hint_faults|pages_migrated) ' /proc/vmstat"
}

# kv FILE KEY: the value of KEY= in FILE
kv() {
	sed -n "s/^$2=//p" "$1"
}

# one NAME BALANCING PASSES ARGS...: a run with the plugin counting NUMA
# work, in the folder $dir
one() {
	local name=$1 bal=$2 passes=$3
	shift 3
	dir=$(run_dir "ksym-$name")
	bnb_vm "$dir" --nodes 2 --cpus 2 --balancing "$bal" --timeout 600 "$@" \
		--plugin-opt ksym="$MAP" --plugin-opt ksym_out="$dir/numawork" -- "$(work "$passes")"
}

one on72 on 200 --plugin "$BNB_ROOT/build/bin/bnb-plugin-qemu72.so" --qemu system
dir72=$dir
migrated=$(awk '$1 == "numa_pages_migrated" { print $2 }' "$dir72/out.log")
check "balancing on migrated pages (${migrated:-none})" test "${migrated:-0}" -gt 0
check "the map had all 13 of the table's functions" test "$(kv "$dir72/numawork" functions_found)" = 13
for kind in scan fault migrate; do
	n=$(kv "$dir72/numawork" "${kind}_insns")
	check "QEMU 7.2: the $kind kind executed instructions (${n:-none})" test "${n:-0}" -gt 0
done
# a migration copies a 4 KiB page at least: more than its own setup
m=$(kv "$dir72/numawork" migrate_insns)
check "migration instructions per page migrated above 512 ($m / $migrated)" \
	test "$((${m:-0} / ${migrated:-1}))" -gt 512

one on5 on 2000 --plugin "$BNB_ROOT/build/bin/bnb-plugin.so" --timing deterministic
dir5=$dir
for kind in scan fault migrate; do
	n=$(kv "$dir5/numawork" "${kind}_insns")
	check "project QEMU: the $kind kind executed instructions (${n:-none})" test "${n:-0}" -gt 0
done

# Off in wall-clock time: its 200 passes outlast the scan delay there, as
# the 7.2 run above shows by migrating, at a tenth of the deterministic
# run's work.
one off off 200 --plugin "$BNB_ROOT/build/bin/bnb-plugin.so" --qemu project
diroff=$dir
total=$(( $(kv "$diroff/numawork" scan_insns) + $(kv "$diroff/numawork" fault_insns) + \
	$(kv "$diroff/numawork" migrate_insns) ))
check "balancing off: no NUMA work counted ($total instructions)" test "$total" -eq 0

[ -n "${BNB_KEEP:-}" ] || rm -rf "$dir72" "$dir5" "$diroff"
done_testing
