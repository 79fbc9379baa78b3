#!/bin/bash
# Overhead of sampling on the measured workload: the same stream run in a
# guest with the collector pulling at 10 Hz, and with no agent port and no
# collector at all, alternated RUNS times.  Prints each run's stream
# rate_mean (MB/s) and the mean difference.
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

# rate DIR: the stream's rate_mean from its summary line.
rate() {
	sed -n 's/^# summary .*rate_mean=\([0-9.]*\).*/\1/p' "$1/out.log"
}

one_run() {
	local mode=$1 dir=$work/$1.$2 cpid=
	local vm=("$root/build/bin/bnb-vm" --run-dir "$dir" --nodes 2 --balancing off
		${BNB_KERNEL:+--kernel "$BNB_KERNEL"})
	mkdir -p "$dir"
	if [ "$mode" = sampled ]; then
		"$root/build/bin/bnb-collect" --socket "$dir/agent.sock" --out "$dir/collect" \
			--interval-ms 100 2> "$dir/collect.log" &
		cpid=$!
		vm+=(--agent-socket "$dir/agent.sock")
	fi
	"${vm[@]}" -- "stream $stream_args" > "$dir/vm.log" 2>&1
	[ -z "$cpid" ] || wait "$cpid"
	echo "$mode $(rate "$dir")${cpid:+ $(tail -n 1 "$dir/collect.log")}"
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
