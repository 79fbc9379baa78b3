#!/bin/bash
# Overhead of sampling on the measured workload: the same stream run in a
# guest with the collector pulling at 10 Hz, and with no agent port and no
# collector at all, alternated RUNS times.  Prints each run's stream
# rate_mean (MB/s), the agent's guest CPU time and the collector's host
# CPU time, then the mean rates and their difference.
#
#   bench/collector/overhead.sh [RUNS] [stream options...]
# BNB_KERNEL=FILE uses another kernel than build/kernel/bzImage.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-3}
shift || true
stream_args=${*:---size 32M --iterations 40 --locality-every 0}
work=$(mktemp -d "${TMPDIR:-/tmp}/bnb-overhead.XXXXXX")
trap 'rm -rf "$work"' EXIT

# After the workload the guest prints the agent's utime + stime (ticks).
# shellcheck disable=SC2016 # expanded by the guest's shell
agent_cpu='p=$(pidof bnb-agent) && echo "# agent-ticks $(cut -d" " -f14,15 /proc/$p/stat)"; true'

# field DIR KEY: KEY=value from the stream's summary line.
field() {
	sed -n "s/^# summary .*$2=\([0-9.]*\).*/\1/p" "$1/out.log"
}

one_run() {
	local mode=$1 dir=$work/$1.$2 cpid='' ticks cpu
	local vm=("$root/build/bin/bnb-vm" --run-dir "$dir" --nodes 2 --balancing off
		${BNB_KERNEL:+--kernel "$BNB_KERNEL"})
	mkdir -p "$dir"
	if [ "$mode" = sampled ]; then
		"$root/build/bin/bnb-collect" --socket "$dir/agent.sock" --out "$dir/collect" \
			--interval-ms 100 2> "$dir/collect.log" &
		cpid=$!
		vm+=(--agent-socket "$dir/agent.sock")
	fi
	"${vm[@]}" -- "stream $stream_args; $agent_cpu" > "$dir/vm.log" 2>&1
	if [ -n "$cpid" ]; then
		wait "$cpid"
		ticks=$(sed -n 's/^# agent-ticks \([0-9]*\) \([0-9]*\)$/\1 \2/p' "$dir/out.log")
		cpu=$(sed -n 's/.*cpu \([0-9.]*\) s$/\1/p' "$dir/collect.log")
		echo "sampled $(field "$dir" rate_mean) work_s=$(field "$dir" work_s)" \
			"agent_cpu_s=$(awk -v t="$ticks" 'BEGIN { split(t, a); print (a[1] + a[2]) / 100 }')" \
			"collector_cpu_s=$cpu samples=$(grep -c ',ok,' "$dir/collect/timeseries.csv")"
	else
		echo "off $(field "$dir" rate_mean) work_s=$(field "$dir" work_s)"
	fi
}

for i in $(seq "$runs"); do
	one_run sampled "$i"
	one_run off "$i"
done | tee "$work/rates"
awk '{ s[$1] += $2; n[$1]++ }
	END {
		on = s["sampled"] / n["sampled"]; off = s["off"] / n["off"]
		printf "mean rate: sampled at 10 Hz %.1f MB/s, no sampling %.1f MB/s, difference %+.2f %%\n",
			on, off, (on - off) / off * 100
	}' "$work/rates"
