#!/bin/bash
# What each monitor costs the workload. One guest (2 nodes x 2 CPUs,
# balancing on) runs the same workload ROUNDS x 4 times under bnb-monitor:
# with no monitor, trace, sched and perfstat, in an order that rotates
# every round, so that the host's load drift falls on all alike. Prints
# per monitor the elapsed time relative to the unmonitored run of the same
# round (median, min..max over rounds) and the direct cost: bnb-monitor's
# own CPU time (its reader thread and samples) and perf's while the
# workload ran, per second of workload, and the median CPU time of one
# sample. TCG timing swings by +-20 % between runs on a busy 2-core host,
# and the guest charges the time a vCPU waited for a host core to whatever
# ran on it, which inflates the CPU totals; the median sample is the
# tightest figure.
#
#   bench/monitor/overhead.sh [ROUNDS] [workload command]
# default workload: autonuma --test numa02 --size 8M --passes 300 (its
# threads migrate the pages the main thread faulted on one node, so the
# tracepoints fire). BNB_KERNEL=FILE boots another kernel.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-5}
shift || true
workload=${*:-autonuma --test numa02 --size 8M --passes 300}
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

"$root/build/bin/bnb-vm" --run-dir "$work/vm" --nodes 2 --cpus 2 --balancing on --tools on \
	${BNB_KERNEL:+--kernel "$BNB_KERNEL"} --timeout 3600 -- "$guest" > "$work/vm.log" 2>&1 ||
	{ cat "$work/vm.log"; exit 1; }
grep -E '^[0-9]+ ' "$work/vm/out.log" > "$work/runs" || { cat "$work/vm/out.log"; exit 1; }
echo "workload: $workload; $rounds rounds; host load $(cut -d' ' -f1-3 /proc/loadavg)"
# per round: each monitor's elapsed over the unmonitored run's
awk '{ e[$1, $2] = $3; cpu[$2] += $4; perf[$2] += $5; el[$2] += $3; r[$1] = 1 }
	END {
		for (k in r) for (m in el) if (m != "none" && ((k, "none") in e))
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
			printf "%-9s elapsed x%.3f (median of %d rounds, %.3f..%.3f)  " \
				"bnb-monitor CPU %.2f %%  perf CPU %.2f %% of the run time", \
				m, med, NR, v[1], v[NR], 100 * c, 100 * p
			if (s != "")
				printf "  one sample %.2f ms (median)", s
			printf "\n"
		}'
done
