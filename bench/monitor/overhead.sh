#!/bin/bash
# What each monitor costs the workload. One guest (2 nodes x 2 CPUs,
# balancing on) runs the same workload ROUNDS x 4 times under bnb-monitor:
# with no monitor, trace, sched and perfstat, in an order that rotates
# every round. Prints per monitor the workload's guest time relative to
# the unmonitored run of the same round, as a cost in % (median, min..max
# over rounds), and the direct cost: bnb-monitor's own CPU time (its
# reader thread and samples) and perf's while the workload ran, per
# second of workload, and the median CPU time of one sample.
#
# Deterministic timing by default (icount with the plugin's time keeper,
# its delays off): guest time counts the instructions each vCPU ran, so a
# monitor's cost is what it takes from the workload's vCPUs and nothing
# the host does reaches it. Under wall timing (BNB_TIMING=wall) the guest
# charges the time a vCPU waited for a host core to whatever ran on it:
# on a busy 2-core host that swings runs by +-20 % and buries the cost.
#
#   bench/monitor/overhead.sh [ROUNDS] [workload command]
# default workload: autonuma --test numa02 --size 8M --passes 12000, about
# 5.6 s of guest time (its threads migrate the pages the main thread
# faulted on one node once scanning starts after scan_delay_ms, so the
# tracepoints fire). BNB_KERNEL=FILE boots another kernel.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-5}
shift || true
workload=${*:-autonuma --test numa02 --size 8M --passes 12000}
timing=${BNB_TIMING:-deterministic}
work=$(mktemp -d "${TMPDIR:-/tmp}/bnb-mon-overhead.XXXXXX")
trap 'rm -rf "$work"' EXIT

# shellcheck disable=SC2016 # expanded by the guest's shell
guest='once() {
	bnb-monitor --monitors $1 --out /tmp/m-$1 -- '"$workload"' 2>/dev/null |
		sed -n "s/^# bnb-monitor: elapsed_s=\([0-9.]*\) exit=0 monitor_cpu_s=\([0-9.]*\) perf_cpu_s=\([0-9.]*\) sample_ms=\([0-9.]*\)/$2 $1 \1 \2 \3 \4/p"
	rm -rf /tmp/m-$1
}
once none warm-up
set -- none trace sched perfstat
for r in $(seq '"$rounds"'); do
	for m in "$@"; do once $m $r; done
	set -- "$2" "$3" "$4" "$1"
done'

case $timing in
deterministic)
	clock=(--timing deterministic --plugin "$root/build/bin/bnb-plugin.so"
		--plugin-opt "shm=$work/plugin.shm" --plugin-opt delay=off) ;;
wall) clock=(--timing wall) ;;
*) echo "overhead.sh: BNB_TIMING=$timing: wall or deterministic" >&2; exit 2 ;;
esac
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
"$root/build/bin/bnb-vm" --run-dir "$work/vm" --nodes 2 --cpus 2 --balancing on --tools on \
	"${clock[@]}" ${BNB_KERNEL:+--kernel "$BNB_KERNEL"} --timeout 7200 -- "$guest" \
	> "$work/vm.log" 2>&1 ||
	{ cat "$work/vm.log"; exit 1; }
grep -E '^[0-9]+ ' "$work/vm/out.log" > "$work/runs" || { cat "$work/vm/out.log"; exit 1; }
echo "workload: $workload; $rounds rounds; $timing timing;" \
	"host load $load_start at start, $(cut -d' ' -f1-3 /proc/loadavg) at end"
awk '$2 == "none" && $1 != "warm-up" { v[++n] = $3 } END {
	if (n) printf "none      guest time %.3f..%.3f s over %d rounds\n", v[1], v[n], n
}' <(sort -k3,3n "$work/runs")
# per round: each monitor's elapsed over the unmonitored run's
awk '{ e[$1, $2] = $3; cpu[$2] += $4; perf[$2] += $5; el[$2] += $3; r[$1] = 1 }
	END {
		for (k in r) for (m in el) if (m != "none" && ((k, m) in e) && ((k, "none") in e))
			print m, e[k, m] / e[k, "none"], cpu[m] / el[m], perf[m] / el[m]
	}' "$work/runs" > "$work/ratios"
# per monitor, the median over all runs of each run's median sample
awk '$6 > 0 { print $2, $6 }' "$work/runs" | sort -k1,1 -k2,2n > "$work/samples"
for m in trace sched perfstat; do
	sample=$(awk -v m="$m" '$1 == m { v[++n] = $2 }
		END { if (n) print n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }' \
		"$work/samples")
	grep "^$m " "$work/ratios" | sort -k2,2n |
	awk -v m="$m" -v s="${sample:-}" '{ v[NR] = $2; c = $3; p = $4 }
		END {
			if (!NR) { print m ": no run"; exit }
			med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%-9s elapsed %+.2f %% (median of %d rounds, %+.2f..%+.2f)  " \
				"bnb-monitor CPU %.2f %%  perf CPU %.2f %% of the run time", \
				m, 100 * (med - 1), NR, 100 * (v[1] - 1), 100 * (v[NR] - 1), \
				100 * c, 100 * p
			if (s != "")
				printf "  one sample %.2f ms (median)", s
			printf "\n"
		}'
done
