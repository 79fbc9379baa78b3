#!/bin/bash
# Emulated NUMA latency: a guest pointer chase from node C to memory on
# node M must take distance(C, M) / 10 times as long as a local one
# (within +-10 % here; README gives the benchmark figures), and a
# cache-resident chase must show no remote penalty.  Asymmetric table:
# 0 -> 1 costs 2x, 1 -> 0 costs 3x.  Each pair takes its best of 300
# short rounds (latency --repeat): a round of 2K loads lasts about a
# millisecond, so on a busy host some rounds of every pair escape
# preemption, local and remote alike (long remote rounds would rarely
# escape, and their best would still hold a preemption).  Every round
# restarts the chase at the same line, so the model cache is cut to
# 32 KiB to keep the 2.3K lines of a round missing; the 16 KiB chase fits.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "plugin latency matrix"

SO=$BNB_ROOT/build/bin/bnb-plugin.so
dir=$(run_dir plugin-latency)
# row-major, as --distance takes it
dist=(10 20 30 10)

bnb_vm "$dir" --nodes 2 --distance '10,20;30,10' --timeout 600 \
	--plugin "$SO" --plugin-opt shm="$dir/counters.shm" --plugin-opt cache_kib=32 -- \
	'bnb-plugin-calib && latency --size 16M --cache-size 16K --loads 2K --repeat 300 --locality-every 0'
rc=$?
check "guest runs calibration and the latency matrix (exit $rc)" test "$rc" -eq 0

# Best (lowest) ns per load of every pair: lines "big|cache C M ns".
best=$(awk '
	/^# matrix ws_bytes=/ { split($3, a, "="); ws = a[2] + 0; kind = ws > 1048576 ? "big" : "cache"; next }
	/^# node[0-9]+ / {
		c = substr($2, 5) + 0
		for (m = 0; m + 3 <= NF; m++) {
			k = kind " " c " " m
			if (!(k in min) || $(m + 3) < min[k]) min[k] = $(m + 3)
		}
	}
	END { for (k in min) print k, min[k] }' "$dir/out.log" | sort)
diag "best ns per load: $(echo "$best" | paste -sd';')"

# ns KIND C M
ns() { echo "$best" | awk -v k="$1 $2 $3" '$1 " " $2 " " $3 == k { print $4 }'; }

# within REL WANT GOT: |GOT/WANT - 1| <= REL
within() { awk -v r="$1" -v w="$2" -v g="$3" 'BEGIN { d = g / w - 1; exit !(w > 0 && d <= r && -d <= r) }'; }

for c in 0 1; do
	for m in 0 1; do
		[ "$c" = "$m" ] && continue
		local_ns=$(ns big "$c" "$c")
		remote_ns=$(ns big "$c" "$m")
		want=$(awk -v d="${dist[$((c * 2 + m))]}" 'BEGIN { print d / 10 }')
		got=$(awk -v r="${remote_ns:-0}" -v l="${local_ns:-0}" 'BEGIN { if (l > 0) printf "%.3f", r / l }')
		check "CPU node $c -> memory node $m: remote/local $got, configured $want (+-10 %)" \
			within 0.10 "$want" "${got:-0}"
		local_ns=$(ns cache "$c" "$c")
		remote_ns=$(ns cache "$c" "$m")
		got=$(awk -v r="${remote_ns:-0}" -v l="${local_ns:-0}" 'BEGIN { if (l > 0) printf "%.3f", r / l }')
		check "CPU node $c -> memory node $m, cache-resident: remote/local $got, want 1 (+-10 %)" \
			within 0.10 1 "${got:-0}"
	done
done

[ -n "${BNB_KEEP:-}" ] || rm -rf "$dir"
done_testing
