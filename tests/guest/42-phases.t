#!/bin/bash
# The phases workload in a 2-node guest under deterministic timing with the
# machine model (2socket): its threads move to the other node every phase
# while their memory stays, so every phase after the first starts with
# every sampled page remote; with NUMA balancing on the pages follow
# within the phase (local share >= 0.9 at its end, time to 0.9 reported),
# with it off they stay (the second phase ends all remote and slower).
# Phases by passes are exact: every phase is its number of passes. Bad
# options for the guest's topology exit 2 with one line.
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "phases workload"

SO=$BNB_ROOT/build/bin/bnb-plugin.so
if [ ! -e "$SO" ]; then
	skip "phases under the machine model" "$SO is not built"
	done_testing
	exit 0
fi

# Scan every 100-400 ms: a pass within each 1 s phase.
# shellcheck disable=SC2016 # expanded by the guest's shell
prelude='nb=/sys/kernel/debug/sched/numa_balancing
echo 100 > $nb/scan_delay_ms && echo 100 > $nb/scan_period_min_ms &&
echo 400 > $nb/scan_period_max_ms && bnb-plugin-calib > /dev/null || exit 1'
det=(--timing deterministic --plugin "$SO" --model 2socket --timeout 900)

out=$(run_dir phases)
[ -n "${BNB_KEEP:-}" ] || trap 'rm -rf "$out"' EXIT

bnb_vm "$out/on" "${det[@]}" --balancing on -- "$prelude
phases --size 4M --phase-s 1 --phases 3 --interval-ms 50" > /dev/null
check "balancing on: the guest ran phases (bnb-vm exit $?)" test -s "$out/on/out.log"

# shellcheck disable=SC2016 # expanded by the guest's shell
bad_node='phases --phase-s 1 --nodes 0,5 > /tmp/o 2> /tmp/e
echo "# bad-node rc=$? out=$(wc -c < /tmp/o) lines=$(wc -l < /tmp/e): $(cat /tmp/e)"'
bnb_vm "$out/off" "${det[@]}" --balancing off -- "$prelude
phases --size 4M --phase-passes 40 --phases 2 --interval-ms 50 || exit 1
$bad_node" > /dev/null
check "balancing off: the guest ran phases (bnb-vm exit $?)" test -s "$out/off/out.log"

# phase LOG INDEX KEY: a value of the "# phase index=INDEX" line.
phase() {
	grep "^# phase index=$2 " "$1" | tr ' ' '\n' | sed -n "s/^$3=//p"
}
# summary LOG KEY
summary() {
	grep '^# summary ' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}
# holds EXPR A [B]: awk's verdict on EXPR over a and b.
holds() { awk -v a="$2" -v b="${3:-0}" "BEGIN { exit !($1) }"; }

on=$out/on/out.log
off=$out/off/out.log
check "balancing on: status ok, buffers verified" \
	test "$(summary "$on" status)/$(summary "$on" verified)" = ok/yes
check "balancing on: three phase lines" test "$(grep -c '^# phase ' "$on")" = 3
check "phase 0 runs where the buffers were touched (locality $(phase "$on" 0 locality_start))" \
	test "$(phase "$on" 0 locality_start)" = 1.0000
for p in 1 2; do
	s=$(phase "$on" $p locality_start)
	e=$(phase "$on" $p locality_end)
	t=$(phase "$on" $p to90_s)
	diag "phase $p: node $(phase "$on" $p node), locality $s -> $e, to 0.9 in ${t:-never} s," \
		"$(phase "$on" $p mbs) MB/s"
	check "phase $p starts remote: every sampled page on the node left ($s)" holds 'a <= 0.05' "$s"
	check "phase $p: balancing brings the pages (locality $e at its end)" holds 'a >= 0.9' "$e"
	check "phase $p: time to 0.9 reported and within the phase (${t:-none} s)" \
		holds 'a > 0 && a < 1' "${t:--1}"
done
# the rows show it too: a dip below 0.5 after a move, back to >= 0.9 in the same phase
dips=$(awk -F, '/^[0-9]/ && $4 > 0 && $3 != "" {
	if ($3 < 0.5) low[$4] = 1; else if (low[$4] && $3 >= 0.9) back[$4] = 1 }
	END { for (p in back) n++; print n + 0 }' "$on")
check "rows: the locality dips and recovers within a phase ($dips of 2 phases)" test "$dips" -ge 1
check "summary: both moved phases caught up" test "$(summary "$on" phases_caught_up)" = 2

check "balancing off: status ok" test "$(summary "$off" status)" = ok
for p in 0 1; do
	check "phase by passes: phase $p is exactly 40 passes ($(phase "$off" $p passes))" \
		test "$(phase "$off" $p passes)" = 40.000
done
e=$(phase "$off" 1 locality_end)
check "balancing off: the moved phase stays remote ($e)" holds 'a <= 0.05' "$e"
m0=$(phase "$off" 0 mbs)
m1=$(phase "$off" 1 mbs)
check "balancing off: the remote phase is slower under the model ($m1 vs $m0 MB/s)" \
	holds 'a < 0.9 * b' "$m1" "$m0"
bad=$(grep '^# bad-node ' "$off")
check "a node the guest lacks: exit 2, one line, no output (${bad#\# bad-node })" \
	test "${bad%%:*}" = "# bad-node rc=2 out=0 lines=1"
done_testing
