#!/bin/bash
# Overhead of sampling on the measured workload.  One guest runs the same
# stream 2*PAIRS times, alternating: with the collector pulling at 10 Hz,
# then with the agent stopped (SIGSTOP: the guest does no sampling work at
# all).  Alternating inside one boot keeps the comparison fair on a busy
# host whose load drifts.  Prints every stream's rate_mean (MB/s), the
# means, the mean paired difference with its 95 % confidence interval and
# the median one, and the direct cost: the agent's guest CPU time as a
# share of the vCPU time of the sampled runs, and the collector's host CPU
# time.  TCG throughput swings by +-20 % from run to run on a 2-core
# host, so the direct cost is the tighter bound.  A first, unpaired run
# warms the guest up (first touch, THP): it was always the slowest.
#
#   bench/collector/overhead.sh [PAIRS] [stream options...]
# BNB_KERNEL=FILE uses another kernel than build/kernel/bzImage;
# BNB_COLLECT_OPTS adds bnb-collect options (e.g. --pid-maps-every 0);
# BNB_AGENT_CPUS=MASK pins the agent (taskset mask): with a one-thread
# stream on the same CPU (--threads 1 --placement local --node 0) every
# cycle the agent takes comes out of the stream, and the idle second
# vCPU leaves the host's other core to QEMU's I/O thread, which makes
# the runs steadier.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pairs=${1:-5}
shift || true
stream_args=${*:---size 16M --iterations 12 --locality-every 0}
work=$(mktemp -d "${TMPDIR:-/tmp}/bnb-overhead.XXXXXX")
trap 'rm -rf "$work"' EXIT

# shellcheck disable=SC2016 # expanded by the guest's shell
guest='a=$(pidof bnb-agent) || { echo "no agent"; exit 1; }
'"${BNB_AGENT_CPUS:+taskset -p $BNB_AGENT_CPUS \$a > /dev/null || exit 1}"'
rate() { stream '"$stream_args"' |
	sed -n "s/^# summary .*work_s=\([0-9.]*\).*rate_mean=\([0-9.]*\).*/$1 \2 \1/p"; }
rate warm-up
for i in $(seq '"$pairs"'); do
	rate sampled
	kill -STOP $a; rate off; kill -CONT $a
done
echo "agent_ticks $(cut -d" " -f14,15 /proc/$a/stat) $(nproc)"'

# shellcheck disable=SC2086 # BNB_COLLECT_OPTS is a list of options
"$root/build/bin/bnb-collect" --socket "$work/agent.sock" --out "$work/collect" \
	--interval-ms 100 --stall-timeout-ms 3600000 ${BNB_COLLECT_OPTS:-} 2> "$work/collect.log" &
cpid=$!
"$root/build/bin/bnb-vm" --run-dir "$work/vm" --nodes 2 --balancing off \
	${BNB_KERNEL:+--kernel "$BNB_KERNEL"} --agent-socket "$work/agent.sock" \
	--timeout 1800 -- "$guest" > "$work/vm.log" 2>&1 || { cat "$work/vm.log"; exit 1; }
wait "$cpid" || true
grep -E '^(sampled|off) ' "$work/vm/out.log" | paste -sd' '
tail -n 1 "$work/collect.log"
# Each sampled run is paired with the stopped run that follows it.  The
# mean difference gets a 95 % interval from Student's t (df = pairs - 1);
# the median resists the host's load spikes.  The agent ran during the
# warm-up and the sampled runs only.
awk 'BEGIN { split("12.71 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 " \
		"2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 " \
		"2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", tq, " ") }
	/^(sampled|off) / { s[$1] += $2; n[$1]++ }
	/^(warm-up|sampled) / { busy_s += $3 }
	/^sampled / { last = $2 }
	/^off / { d[++np] = (last - $2) / $2 * 100 }
	/^agent_ticks / { agent = ($2 + $3) / 100; cpus = $4 }
	END {
		on = s["sampled"] / n["sampled"]; off = s["off"] / n["off"]
		printf "mean of %d: sampled at 10 Hz %.1f MB/s, agent stopped %.1f MB/s, difference %+.2f %%\n",
			n["off"], on, off, (on - off) / off * 100
		for (i = 1; i <= np; i++) { sum += d[i]; sq += d[i] * d[i] }
		mean = sum / np
		if (np > 1) {
			se = sqrt((sq - np * mean * mean) / (np - 1) / np)
			t = np - 1 <= 30 ? tq[np - 1] : 1.96
			printf "mean paired difference: %+.2f %% (95 %% CI %+.2f %% .. %+.2f %%)\n",
				mean, mean - t * se, mean + t * se
		}
		for (i = 1; i <= np; i++)
			for (j = i + 1; j <= np; j++)
				if (d[j] < d[i]) { x = d[i]; d[i] = d[j]; d[j] = x }
		med = np % 2 ? d[(np + 1) / 2] : (d[np / 2] + d[np / 2 + 1]) / 2
		printf "median paired difference: %+.2f %% (pairs from %+.1f %% to %+.1f %%)\n", med, d[1], d[np]
		printf "agent guest CPU: %.2f s over %.1f s of sampled stream = %.2f %% of one vCPU, %.2f %% of the guest'"'"'s %d\n",
			agent, busy_s, (busy_s > 0 ? 100 * agent / busy_s : 0),
			(busy_s > 0 ? 100 * agent / (busy_s * cpus) : 0), cpus
	}' "$work/vm/out.log"
