#!/bin/bash
# bench/plugin/bench.sh: the plugin's benchmark figures (not a test).
#   latency matrix, configured vs measured remote/local ratio, for a
#   2-node 10/20 table and a 4-node asymmetric one;
#   stream in the guest: plain TCG, counting only, counting + delay;
#   time dilation: host-native stream over guest stream;
#   speed: guest instructions per host second, deterministic timing.
# Usage: bench/plugin/bench.sh [latency|stream|speed|all] [OUT_DIR]
#   (one guest at a time, ~10 min for latency and stream, ~8 for speed;
#   BNB_KERNEL=FILE picks a kernel,
#   BNB_PLUGIN_SO=FILE a plugin build, e.g. to compare two,
#   BNB_INITRD=FILE a guest initramfs for the speed runs;
#   BNB_SPEED_RUNS picks from 'keeper count model model-batch64k',
#   BNB_SPEED_ITERS=N the speed runs' stream iterations (40),
#   BNB_SPEED_CMD=CMD another guest command for them,
#   BNB_SPEED_VM_OPTS='OPTS' more bnb-vm options for them, e.g. '--cpus 2')
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
parts=${1:-all}
out=${2:-$root/build/plugin-bench}
mkdir -p "$out"
vm=$root/build/bin/bnb-vm
so=${BNB_PLUGIN_SO:-$root/build/bin/bnb-plugin.so}
check=$root/build/bin/bnb-plugin-check
reps=${BNB_BENCH_REPS:-300}

# guest DIR [bnb-vm options] -- CMD
guest() {
	local dir=$out/$1
	shift
	rm -rf "$dir"
	"$vm" --run-dir "$dir" --timeout 1200 ${BNB_KERNEL:+--kernel "$BNB_KERNEL"} "$@" || echo "bench: run $dir failed" >&2
}

# matrix NAME NODES MEM DISTANCE: configured and measured ratio per pair.
# Each chase of 2K loads (~1 ms) is timed in 8 pieces and counts as its
# median piece, so interrupts and host preemptions inside it drop out.
# measured: the median over $reps rounds of the pair's chase over the
# local chase of the same round (a row's chases run back to back and
# share the host's load).  best-of: the pair's fastest chase over its
# row's fastest local one, the older estimator, kept for comparison: each
# row is divided by one lucky minimum.  A 32 KiB model cache keeps a
# round's lines missing.
matrix() {
	local name=$1 nodes=$2 mem=$3 dist=$4
	guest "$name" --nodes "$nodes" --mem "$mem" --distance "$dist" \
		--plugin "$so" --plugin-opt shm="$out/$name.shm" --plugin-opt cache_kib=32 -- \
		"latency --size 16M --cache-size 16K --loads 2K --cache-loads 16K --repeat $reps --locality-every 0"
	echo "## $name: distance $dist ($reps rounds of 2K loads over a 16 MiB chase and of 16K loads over a 16 KiB cache-resident one; cache_kib=32)"
	echo "| CPU node | mem node | configured | measured | error | best-of | best-of error | cache-resident ratio |"
	echo "|---|---|---|---|---|---|---|---|"
	awk -v dist="$dist" '
		BEGIN { n = split(dist, rows, ";"); for (i = 1; i <= n; i++) { split(rows[i], v, ","); for (j = 1; j <= n; j++) d[i - 1, j - 1] = v[j] } }
		/^# (matrix|ratios) ws_bytes=/ { split($3, a, "="); kind = a[2] + 0 > 1048576 ? "big" : "cache"; next }
		/^# node[0-9]+ / { c = substr($2, 5) + 0; for (m = 0; m + 3 <= NF; m++) ns[kind, c, m] = $(m + 3) }
		/^# ratio_node[0-9]+ / { c = substr($2, 11) + 0; for (m = 0; m + 3 <= NF; m++) q[kind, c, m] = $(m + 3) }
		END { for (c = 0; c < n; c++) for (m = 0; m < n; m++) {
			if (c == m) continue
			want = d[c, m] / 10; got = q["big", c, m]; best = ns["big", c, m] / ns["big", c, c]
			err = 100 * (got / want - 1); sum += err < 0 ? -err : err; np++
			if ((err < 0 ? -err : err) > worst) worst = err < 0 ? -err : err
			printf "| %d | %d | %.2f | %.3f | %+.1f %% | %.3f | %+.1f %% | %.3f |\n", c, m, want, got, err,
				best, 100 * (best / want - 1), q["cache", c, m] }
			printf "\nmean absolute error %.1f %%, worst %.1f %% over %d remote pairs\n", sum / np, worst, np }' "$out/$name/out.log"
	echo
}

# stream rate_mean (MB/s) from a run's out.log
rate() { sed -n 's/.*rate_mean=\([0-9.]*\).*/\1/p' "$out/$1/out.log" | tail -1; }

stream_bench() {
	local scmd='stream --size 16M --iterations 20 --placement local --node 0 --locality-every 0'
	local native plain r

	guest plain --nodes 2 -- "$scmd"
	guest count --nodes 2 --plugin "$so" --plugin-opt delay=off -- "$scmd"
	guest delay --nodes 2 --plugin "$so" -- "$scmd"
	guest delay-remote --nodes 2 --plugin "$so" -- "${scmd/local/remote}"
	"$root/build/guest/bin/stream" --size 16M --iterations 20 --placement local --node 0 \
		--locality-every 0 > "$out/native.out" 2>&1
	native=$(sed -n 's/.*rate_mean=\([0-9.]*\).*/\1/p' "$out/native.out" | tail -1)

	echo "## stream (MB/s, mean of 20 iterations, 3 x 16 MiB arrays, 1 thread)"
	echo "| run | MB/s | cost vs plain TCG |"
	echo "|---|---|---|"
	plain=$(rate plain)
	for r in plain count delay delay-remote; do
		awk -v r="$r" -v x="$(rate "$r")" -v p="$plain" \
			'BEGIN { printf "| %s | %.1f | %.2fx |\n", r, x, p / x }'
	done
	awk -v n="$native" -v p="$plain" -v c="$(rate count)" 'BEGIN {
		printf "| host native | %.1f | |\n\n", n
		printf "time dilation (native / guest): plain TCG %.1fx, counting plugin %.1fx\n", n / p, n / c }'
}

# speed_run NAME CALIB bnb-vm-options...: a deterministic 2-node guest
# runs a remote stream after the map check /init runs; every 2 s the
# time keeper's instruction count and QEMU's CPU time (/proc/PID/stat) are
# sampled.  Prints the median rate over the intervals after the map check
# passed (CALIB no: over the run's second half), per host CPU second and per wall
# second: the boot (no memory callbacks) drops out, and the host's other
# load mostly drops out of the first.
speed_run() {
	local name=$1 calib=$2 dir=$out/$1 pid='' st cpu insns map tick
	local cmd=${BNB_SPEED_CMD:-"stream --size 8M --iterations ${BNB_SPEED_ITERS:-40} --threads 1 --placement remote"}
	shift 2
	rm -rf "$dir"
	mkdir -p "$dir"
	# shellcheck disable=SC2086 # BNB_SPEED_VM_OPTS: words, split
	"$vm" --run-dir "$dir" --timeout 3000 --nodes 2 --timing deterministic \
		${BNB_INITRD:+--initrd "$BNB_INITRD"} ${BNB_SPEED_VM_OPTS:-} \
		--plugin "$so" --plugin-opt shm="$dir/c.shm" "$@" -- \
		"$cmd" \
		> "$dir/vm.out" 2>&1 &
	tick=$(getconf CLK_TCK)
	while kill -0 $! 2>/dev/null; do
		sleep 2
		[ -n "$pid" ] || pid=$(pgrep -f -- "shm=$dir/c.shm" | while read -r p; do
			grep -q qemu "/proc/$p/comm" 2>/dev/null && echo "$p"; done | head -1)
		[ -n "$pid" ] || continue
		st=$(cut -d' ' -f14,15 "/proc/$pid/stat" 2>/dev/null) || continue
		cpu=$(echo "$st" | awk -v t="$tick" '{ print ($1 + $2) / t }')
		insns=$("$check" "$dir/c.shm" 2>/dev/null | sed -n 's/^tk_insns=//p')
		map=$("$check" "$dir/c.shm" 2>/dev/null | sed -n 's/^map_status=//p')
		echo "$(date +%s.%N) $cpu ${insns:-0} ${map:-none}" >> "$dir/samples"
	done
	wait $!
	awk -v name="$name" -v load="$(cut -d' ' -f1 /proc/loadavg)" -v calib="$calib" \
		-v rows="$(wc -l < "$dir/samples")" '
		(calib == "yes" ? $4 == "ok" && prev : NR > rows / 2 + 1) && $2 > c0 && $3 > i0 {
			n++; cr[n] = ($3 - i0) / ($2 - c0) / 1e6; wr[n] = ($3 - i0) / ($1 - t0) / 1e6 }
		{ prev = $4 == "ok"; t0 = $1; c0 = $2; i0 = $3 }
		function median(a, n,  i, j, x) { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		END { if (!n) { print "| " name " | no samples after the map check | | |"; exit }
			printf "| %s | %.1f | %.1f | %d intervals, load %s |\n", name, median(cr, n), median(wr, n), n, load }' "$dir/samples"
}

speed_bench() {
	echo "## speed (M guest instructions per host second, median over 2 s intervals of a remote stream after the map check)"
	echo "| run | per CPU s | per wall s | |"
	echo "|---|---|---|---|"
	for run in ${BNB_SPEED_RUNS:-keeper count model}; do
		case $run in
		keeper)	speed_run keeper no --model off --plugin-opt count=off --plugin-opt delay=off ;;
		count)	speed_run count yes --model off --plugin-opt delay=off ;;
		model)	speed_run model yes --model 2socket ;;
		model-batch64k)	speed_run model-batch64k yes --model 2socket --plugin-opt tk_batch=65536 ;;
		esac
	done
}

if [ "$parts" = all ] || [ "$parts" = latency ]; then
	matrix lat2 2 512M '10,20;20,10'
	matrix lat4 4 256M '10,16,22,28;20,10,16,22;22,16,10,16;28,22,16,10'
fi
if [ "$parts" = all ] || [ "$parts" = stream ]; then
	stream_bench
fi
if [ "$parts" = all ] || [ "$parts" = speed ]; then
	speed_bench
fi
