#!/bin/bash
# Emulated NUMA latency: a guest pointer chase from node C to memory on
# node M must take distance(C, M) / 10 times as long as a local one
# (within +-15 % here; README gives the benchmark figures), and a
# cache-resident chase must show no remote penalty (within +-25 %, as
# TCG's own spread there reaches 20 %).  Asymmetric table:
# 0 -> 1 costs 2x, 1 -> 0 costs 2.5x.
# Each latency run reports, per pair, the median over 300 rounds of the
# pair's time over the local chase of the same round; each chase of 2K
# loads (about a millisecond) is timed in 8 pieces and its median piece
# counts, so an interrupt or a host preemption inside a chase does not
# count.  Each round goes on along the chase, and the model cache is cut
# to 32 KiB so that a round's 2.3K lines miss; the 16 KiB chase fits.
# The guest runs latency 5 times and each ratio is the median of the 5
# runs' ratios.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "plugin latency matrix"

SO=$BNB_ROOT/build/bin/bnb-plugin.so
dir=$(run_dir plugin-latency)
# row-major, as --distance takes it
dist=(10 20 25 10)

bnb_vm "$dir" --nodes 2 --distance '10,20;25,10' --timeout 600 \
	--plugin "$SO" --plugin-opt shm="$dir/counters.shm" --plugin-opt cache_kib=32 -- \
	'bnb-plugin-calib || exit 1
	for i in 1 2 3 4 5; do
		latency --size 16M --cache-size 16K --loads 2K --cache-loads 16K --repeat 300 --locality-every 0 || exit 1
	done'
rc=$?
check "guest runs calibration and 5 latency matrices (exit $rc)" test "$rc" -eq 0

# Median over the runs of remote/local per pair: lines "big|cache C M ratio".
ratios=$(awk '
	/^# latency nodes=/ { run++ }
	/^# ratios ws_bytes=/ { split($3, a, "="); kind = a[2] + 0 > 1048576 ? "big" : "cache"; next }
	/^# ratio_node[0-9]+ / { c = substr($2, 11) + 0; for (m = 0; m + 3 <= NF; m++) q[run, kind, c, m] = $(m + 3) }
	END {
		split("big cache", kinds, " ")
		for (k = 1; k <= 2; k++) for (c = 0; c < 2; c++) for (m = 0; m < 2; m++) {
			n = 0
			for (r = 1; r <= run; r++) if (q[r, kinds[k], c, m] > 0) v[++n] = q[r, kinds[k], c, m]
			for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
			if (n) printf "%s %d %d %.3f\n", kinds[k], c, m, v[int((n + 1) / 2)]
		}
	}' "$dir/out.log")
diag "median remote/local: $(echo "$ratios" | paste -sd';')"

# ratio KIND C M
ratio() { echo "$ratios" | awk -v k="$1 $2 $3" '$1 " " $2 " " $3 == k { print $4 }'; }

# within REL WANT GOT: |GOT/WANT - 1| <= REL
within() { awk -v r="$1" -v w="$2" -v g="$3" 'BEGIN { d = g / w - 1; exit !(w > 0 && d <= r && -d <= r) }'; }

for c in 0 1; do
	for m in 0 1; do
		[ "$c" = "$m" ] && continue
		want=$(awk -v d="${dist[$((c * 2 + m))]}" 'BEGIN { print d / 10 }')
		# +-15 %: a loaded host has given 2.156 for 2.0; a transposed or
		# symmetric table (2.5 for 2.0, 2.0 for 2.5) still falls outside.
		got=$(ratio big "$c" "$m")
		check "CPU node $c -> memory node $m: remote/local ${got:-none}, configured $want (+-15 %)" \
			within 0.15 "$want" "${got:-0}"
		# TCG alone spreads this 0.83-1.20 (bench/plugin/README.md); a
		# model that charged cache hits would give the remote ratio.
		got=$(ratio cache "$c" "$m")
		check "CPU node $c -> memory node $m, cache-resident: remote/local ${got:-none}, want 1 (+-25 %)" \
			within 0.25 1 "${got:-0}"
	done
done

[ -n "${BNB_KEEP:-}" ] || rm -rf "$dir"
done_testing
