#!/bin/bash
# bench/plugin/timekeeper-bench.sh: the time keeper's figures (not a test).
#   parallel: guest time of 2 compute threads on 2 vCPUs over the same 2
#     threads pinned to 1 vCPU (hardware: 0.5);
#   scaling: 1, 2, 4 threads on 1, 2, 4 vCPUs of one node: each thread's
#     guest time (equal when the vCPUs run in parallel);
#   repeat: the same run (stream, balancing off) twice on an idle host and
#     once beside `stress-ng --cpu 2` on the host: guest times;
#   cost: wall time per guest second, keeper on vs off (2 busy vCPUs, so
#     the guest does the same work per guest second either way).
# All under deterministic timing (icount shift 0) with the project's QEMU.
# Usage: bench/plugin/timekeeper-bench.sh [parallel|scaling|repeat|cost|all] [OUT_DIR]
#   (~10 min for all on a quiet 2-core host; Markdown on stdout)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
parts=${1:-all}
out=${2:-$root/build/timekeeper-bench}
reps=${BNB_BENCH_REPS:-3}
mkdir -p "$out"
vm=$root/build/bin/bnb-vm
so=$root/build/bin/bnb-plugin.so
check=$root/build/bin/bnb-plugin-check
iters=20000000

# guest NAME [bnb-vm options] -- CMD: one deterministic boot with the keeper
guest() {
	local dir=$out/$1
	shift
	rm -rf "$dir"
	"$vm" --run-dir "$dir" --timeout 1800 --timing deterministic --plugin "$so" --model off \
		--plugin-opt shm="$dir.shm" --plugin-opt delay=off "$@" >/dev/null 2>&1 ||
		echo "bench: run $dir failed" >&2
	"$check" "$dir.shm" > "$dir.check" 2>/dev/null
}

# spin_max NAME INDEX: slowest thread of the INDEX-th bnb-spin of a run
spin_max() {
	sed -n 's/^# summary .*max_s=\([0-9.]*\).*/\1/p' "$out/$1/out.log" | sed -n "${2}p"
}
field() { sed -n "s/^$2=//p" "$1"; }

parallel() {
	echo "## 2 compute threads: on 2 vCPUs vs both on vCPU 0 (1 node, 2 vCPUs, insn 2 ns, D 6.67)"
	echo "| rep | on 2 vCPUs (s) | on 1 vCPU (s) | ratio (hardware 0.5) | keeper lag mean / max (us) |"
	echo "|---|---|---|---|---|"
	for r in $(seq "$reps"); do
		guest "par$r" --nodes 1 --cpus 2 --mem 512M -- \
			"bnb-spin --cpus 0,1 --iters $iters && bnb-spin --cpus 0,0 --iters $iters"
		a=$(spin_max "par$r" 1) b=$(spin_max "par$r" 2)
		awk -v r="$r" -v a="$a" -v b="$b" \
			-v lm="$(field "$out/par$r.check" tk_lag_mean_ns)" \
			-v lx="$(field "$out/par$r.check" tk_lag_max_ns)" \
			'BEGIN { printf "| %d | %.6f | %.6f | %.4f | %.1f / %.1f |\n", r, a, b, a / b, lm / 1e3, lx / 1e3 }'
	done
	echo
}

scaling() {
	echo "## 1, 2, 4 threads on 1, 2, 4 vCPUs of one 4-vCPU node (insn 4 ns, D 13.3): each thread's guest time"
	echo "| rep | threads | per-thread guest time, s (min - max) | spread | over 1 thread |"
	echo "|---|---|---|---|---|"
	for r in $(seq "$reps"); do
		guest "scale$r" --nodes 1 --cpus 4 --mem 1G -- \
			"bnb-spin --cpus 0 --iters $iters && bnb-spin --cpus 0,1 --iters $iters && bnb-spin --cpus 0,1,2,3 --iters $iters"
		awk -F, -v r="$r" '
			/^thread,/ { run++; next }
			/^[0-9]/ { n[run]++; t = $4 + 0; if (!(run in lo) || t < lo[run]) lo[run] = t; if (t > hi[run]) hi[run] = t }
			END { for (k = 1; k <= run; k++)
				printf "| %d | %d | %.6f - %.6f | %.2f %% | %.4f |\n", r, n[k], lo[k], hi[k],
					100 * (hi[k] - lo[k]) / hi[k], hi[k] / hi[1] }' "$out/scale$r/out.log"
	done
	echo
}

# work_s of a stream run
work_s() { sed -n 's/.*work_s=\([0-9.]*\).*/\1/p' "$out/$1/out.log" | tail -1; }

repeat() {
	local cmd="stream --size 8M --iterations 50 --placement misplaced --node 0 --threads 1"
	echo "## The same run three times: stream, 2 nodes x 1 vCPU, balancing off (insn 2 ns)"
	echo "| run | host | wall (s) | stream work_s (guest) | guest clock at exit (s) |"
	echo "|---|---|---|---|---|"
	for run in a b c; do
		local host=idle pid=
		if [ "$run" = c ]; then
			host='stress-ng --cpu 2'
			stress-ng --cpu 2 --timeout 1800 >/dev/null 2>&1 &
			pid=$!
		fi
		guest "rep-$run" --nodes 2 --balancing off -- "$cmd"
		[ -n "$pid" ] && kill "$pid" && wait "$pid" 2>/dev/null
		awk -v r="$run" -v h="$host" -v w="$(field "$out/rep-$run/result" wall_ms)" \
			-v s="$(work_s "rep-$run")" -v c="$(field "$out/rep-$run.check" tk_clock_ns)" \
			'BEGIN { printf "| %s | %s | %.1f | %s | %.6f |\n", r, h, w / 1e3, s, c / 1e9 }'
	done
	echo
}

cost() {
	echo "## Wall time per guest second, keeper on vs off (1 node, 2 vCPUs, 2 threads on 2 vCPUs)"
	echo "| rep | keeper | wall (s) | guest uptime at exit (s) | wall s per guest s |"
	echo "|---|---|---|---|---|"
	for r in $(seq "$reps"); do
		for k in off on; do
			guest "cost-$k$r" --nodes 1 --cpus 2 --mem 512M --plugin-opt timekeeper=$k -- \
				"bnb-spin --cpus 0,1 --iters $((iters * 5)) && cut -d' ' -f1 /proc/uptime"
			awk -v r="$r" -v k="$k" -v w="$(field "$out/cost-$k$r/result" wall_ms)" \
				-v u="$(tail -n1 "$out/cost-$k$r/out.log")" \
				'BEGIN { printf "| %d | %s | %.1f | %.3f | %.2f |\n", r, k, w / 1e3, u, w / 1e3 / u }'
		done
	done
	echo
}

echo "# time keeper figures, $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
case $parts in
all) parallel; scaling; repeat; cost ;;
parallel | scaling | repeat | cost) "$parts" ;;
*) echo "usage: $0 [parallel|scaling|repeat|cost|all] [OUT_DIR]" >&2; exit 2 ;;
esac
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
