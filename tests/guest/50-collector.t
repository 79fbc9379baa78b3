#!/bin/bash
# The collector against the real agent in a guest: a misplaced stream
# with balancing on shows hint faults, migrations and a rising
# convergence; with balancing off there are no hint faults at all.
# Both guests run under deterministic timing with the agent streaming a
# sample every 100 ms of guest time (bnb-collect --stream, as the runner
# does for such runs): the stream's length, the scanner's periods and the
# sampling instants are then counted in guest instructions, so the number
# of samples is the same on every host. Under wall timing it was whatever
# the host made of the stream's length (26 where 30 were asked for, on a
# faster machine of this kind).
. "$(dirname "$0")/../lib/tap.sh"
require_guest "collector tests"

collect=$BNB_ROOT/build/bin/bnb-collect

# Threads on node 1, memory first touched on node 0.  The scanner is made
# eager (debugfs knobs of 6.1) so that a few seconds of work suffice.
# shellcheck disable=SC2016 # expanded by the guest's shell
eager_scan='d=/sys/kernel/debug/sched/numa_balancing
echo 100 > $d/scan_delay_ms 2>/dev/null
echo 100 > $d/scan_period_min_ms 2>/dev/null'

# The stream's three arrays of 16 MiB, in 4 KiB pages.
stream_pages=$((3 * 16 * 256))

# collected_run NAME BALANCING ITERATIONS: boot a guest with the collector
# attached; sets dir to the run directory, vm_rc and collect_rc. The
# timeout only catches a hang: the work is fixed in guest time and its
# wall time follows the host's load. The agent walks numa_maps every 5th
# sample (bnb.agent_maps_every=), and the collector waits as long as the
# guest may take to boot on a loaded host (the runner's deterministic
# settings).
collected_run() {
	local cpid
	dir=$(run_dir "collector-$1")
	"$collect" --socket "$dir/agent.sock" --out "$dir/collect" --stream \
		--stall-timeout-ms 120000 --start-timeout-ms 600000 2> "$dir/collect.log" &
	cpid=$!
	bnb_vm "$dir" --nodes 2 --balancing "$2" --timing deterministic \
		--agent-socket "$dir/agent.sock" --agent-stream-ms 100 --append bnb.agent_maps_every=5 \
		--timeout 600 -- "$eager_scan
stream --size 16M --iterations $3 --placement misplaced --node 1 --locality-every 0 >/dev/null" \
		> "$dir/vm.log" 2>&1
	vm_rc=$?
	wait "$cpid"
	collect_rc=$?
}

# col DIR NAME: the column NAME of every sample row (status ok, not the
# end row); both columns are found by their header names.
col() {
	awk -F, -v name="$2" '
		/^#/ { next }
		!hdr {
			for (i = 1; i <= NF; i++) {
				if ($i == name) c = i
				if ($i == "status") st = i
			}
			if (!c || !st) { print "col: no column " (c ? "status" : name) > "/dev/stderr"; exit 1 }
			hdr = 1; next
		}
		$st == "ok" { print $c }' "$1/collect/timeseries.csv"
}

# total DIR COUNTER: its total in summary.json (pretty-printed, one key a line).
total() {
	sed -n "s/^ *\"$2\":\([0-9.]*\),\{0,1\}$/\1/p" "$1/collect/summary.json" | head -n 1
}

end_reason() {
	sed -n 's/^ *"end":"\([a-z-]*\)",$/\1/p' "$1/collect/summary.json"
}

collected_run on on 40
on=$dir
diag "balancing on: $(tail -n 1 "$on/collect.log")"
check "guest and collector exit 0 (balancing on: $vm_rc, $collect_rc)" test "$vm_rc/$collect_rc" = 0/0
check "collector ends when the guest powers off" test "$(end_reason "$on")" = agent-gone
# 40 iterations last 2.1 s of guest time: 22 samples, on every host.
samples=$(col "$on" sample | wc -l)
check "at least 20 samples at 10 Hz of guest time ($samples)" test "$samples" -ge 20
# the last one may come as the guest powers off, before its 100 ms
# shellcheck disable=SC2016 # awk's fields
check "a sample every 100 ms of guest time, none missed" \
	awk '{ n++; if (n > 1 && (($1 - prev) - 0.1) ^ 2 > 1e-6) exit 1; prev = $1 }
		END { exit !(n > 1) }' <(col "$on" t_s | sed '$d')
hints=$(total "$on" numa_hint_faults)
migrated=$(total "$on" numa_pages_migrated)
diag "numa_hint_faults=$hints numa_pages_migrated=$migrated"
check "hint faults counted" test "${hints:-0}" -gt 0
check "pages migrated" test "${migrated:-0}" -gt 0
last_cost=$(col "$on" cost_cum | tail -n 1)
check "cost accumulates ($last_cost u)" awk -v c="${last_cost:-0}" 'BEGIN { exit !(c > 0) }'
# The first few hints may all be local by chance: "rising" means the
# final value is well above the low point reached while pages moved.
conv=$(col "$on" convergence | grep -v '^$')
low=$(sort -g <<<"$conv" | head -n 1)
last=$(tail -n 1 <<<"$conv")
diag "convergence low=$low last=$last; $(grep -E '"(convergence_time_weighted|time_to_conv_90_s)"' "$on/collect/summary.json" | tr -d ' \n')"
check "convergence rises (low $low, last $last)" \
	awk -v a="${low:-1}" -v b="${last:-0}" 'BEGIN { exit !(b >= a + 0.1) }'
# The last walk that found the stream whole: one may come after it
# exited, or while its memory is being freed (node 1 then read 0 pages
# at load 14, likely a walk during the teardown).
pages1=$(paste -d' ' <(col "$on" pids_walked) <(col "$on" node0_pages) <(col "$on" node1_pages) |
	awk -v whole=$((stream_pages * 9 / 10)) '$1 > 0 { n++; if ($2 + $3 >= whole) { p = $3; w = n } }
		END { print (w ? p : "none"), w + 0, n + 0 }')
read -r pages1 walk walks <<< "$pages1"
diag "stream pages on node 1 at the last numa_maps walk of the whole stream ($walk of $walks walks): ${pages1:-none} of $stream_pages"
check "numa_maps walk finds >= 90 % of the stream's $stream_pages pages on node 1 (${pages1:-none})" \
	test "${pages1/none/0}" -ge $((stream_pages * 9 / 10))

# 8 iterations (half a second of guest time, 5 samples) are 5 times the
# eager scan delay: a scanner wrongly running would have marked and faulted.
collected_run off off 8
off=$dir
diag "balancing off: $(tail -n 1 "$off/collect.log")"
check "guest and collector exit 0 (balancing off: $vm_rc, $collect_rc)" test "$vm_rc/$collect_rc" = 0/0
check "samples collected with balancing off" test "$(col "$off" sample | wc -l)" -ge 4
check "no hint faults with balancing off" test "$(total "$off" numa_hint_faults)" = 0
check "no PTE updates with balancing off" test "$(total "$off" numa_pte_updates)" = 0
check "convergence undefined without hints" test -z "$(col "$off" convergence | tr -d '\n')"

# The default kernel (6.1 with the series) counts promotion and demotion
# but has no pgdemote_khugepaged (6.12 has): absent, never a made-up 0;
# two nodes with CPUs are one memory tier, so nothing moves between tiers.
check "pgdemote_khugepaged is absent on 6.1: a null total" \
	grep -q '"pgdemote_khugepaged":null' "$on/collect/summary.json"
check "pgdemote_khugepaged is absent on 6.1: empty cells, not 0" \
	test -z "$(col "$on" pgdemote_khugepaged | tr -d '\n')"
check "pgpromote_success is counted on 6.1: 0 with one memory tier" \
	test "$(total "$on" pgpromote_success)" = 0
check "no promotion traffic in any sample (promote_mbps 0)" \
	test "$(col "$on" promote_mbps | grep -v '^$' | sort -u | tr '\n' ' ')" = "0 "

[ -n "${BNB_KEEP:-}" ] || rm -rf "$on" "$off"
done_testing
