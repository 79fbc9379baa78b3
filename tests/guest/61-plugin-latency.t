#!/bin/bash
# Emulated NUMA latency, asymmetric table: 0 -> 1 costs 2x, 1 -> 0 2.5x.
#
# Exact proportion, deterministic timing with the machine model and the
# same --distance (latency 100 ns x distance / 10): the stalls are
# charged to the guest's own clock, so a 16 MiB pointer chase from node C
# to memory on node M takes distance(C, M) / 10 times a local one (+-5 %;
# 1.989 and 2.481 for 2.0 and 2.5, the same in every run) whatever the
# host's load.  A transposed or symmetric table (2.5 for 2.0) falls
# outside.  The chase is 256K loads: 2K-load chases gave 2.17 / 2.30.
#
# Wall-clock delay path: the plugin spins in host time, so under host
# load the ratio moves by up to ~15 % per boot (load 15-20 gave
# 1.78-2.31 for 2.0 and 2.27-2.84 for 2.5) and an exact bound flakes.
# What must hold for a correct delay path under any load is that a
# remote chase pays a good part of its configured extra cost and not
# wildly more: (ratio - 1) between 0.4 and 2 times (d / 10 - 1).  With
# the delay off or taken from the wrong node's row the ratio is about 1
# (0.99-1.04 measured) and fails.  Within one boot the two pairs' extra
# costs have come out 1.21 and 1.32, so no bound here tells 2.0 from
# 2.5: the deterministic run checks the orientation of the --distance
# table up to the model (not the wall path's own indexing of it).  A
# cache-resident chase must show no remote penalty (+-25 %, as TCG's
# own spread there reaches 20 %).
# Each latency run reports, per pair, the median over 100 rounds of the
# pair's time over the local chase of the same round; each chase of 2K
# loads (about a millisecond) is timed in 8 pieces and its median piece
# counts, so an interrupt or a host preemption inside a chase does not
# count.  Each round goes on along the chase, and the model cache is cut
# to 32 KiB so that a round's 2.3K lines miss; the 16 KiB chase fits.
# The guest runs latency 5 times and each ratio is the median of the 5
# runs' ratios.  100 rounds, not 300: a run's set-up costs about as much
# as 40 rounds, so 300 took 2.4 times the host CPU, and at load 10 five
# runs of 100 gave 1.82-1.93 and 2.42-2.82 (extra cost 0.82-1.21 of the
# configured) and cache-resident 0.998-1.026, all far inside the bounds.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "plugin latency matrix"

SO=$BNB_ROOT/build/bin/bnb-plugin.so
# row-major, as --distance and --latencies take them
dist=(10 20 25 10)

# median_ratios OUT.LOG: per pair, the median over the log's latency runs
# of remote/local, lines "big|cache C M ratio".
median_ratios() {
	awk '
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
	}' "$1"
}

# ratio RATIOS KIND C M
ratio() { echo "$1" | awk -v k="$2 $3 $4" '$1 " " $2 " " $3 == k { print $4 }'; }

# within REL WANT GOT: |GOT/WANT - 1| <= REL
within() { awk -v r="$1" -v w="$2" -v g="$3" 'BEGIN { d = g / w - 1; exit !(w > 0 && d <= r && -d <= r) }'; }

# extra_share LO HI WANT GOT: LO <= (GOT - 1) / (WANT - 1) <= HI
extra_share() {
	awk -v lo="$1" -v hi="$2" -v w="$3" -v g="$4" \
		'BEGIN { s = w > 1 ? (g - 1) / (w - 1) : -1; exit !(s >= lo && s <= hi) }'
}

# want C M: the configured remote/local ratio
want() { awk -v d="${dist[$(($1 * 2 + $2))]}" 'BEGIN { print d / 10 }'; }

# Deterministic: 100 ns local, 200 and 250 ns remote, one miss in flight.
det=$(run_dir plugin-latency-det)
bnb_vm "$det" --nodes 2 --distance '10,20;25,10' --timing deterministic --plugin "$SO" --plugin-opt shm="$det/c.shm" \
	--model 2socket --latency-ns 100 --mlp 1 --timeout 900 -- \
	'bnb-plugin-calib >/dev/null || exit 1
	latency --size 16M --cache-size 16K --loads 256K --cache-loads 16K --repeat 3 --locality-every 0' \
	>/dev/null 2>&1
rc=$?
check "deterministic guest runs calibration and a latency matrix (exit $rc)" test "$rc" -eq 0
ratios=$(median_ratios "$det/out.log")
diag "deterministic remote/local: $(echo "$ratios" | paste -sd';')"
for c in 0 1; do
	for m in 0 1; do
		[ "$c" = "$m" ] && continue
		got=$(ratio "$ratios" big "$c" "$m")
		check "deterministic: CPU node $c -> memory node $m: remote/local ${got:-none}, configured $(want "$c" "$m") (+-5 %)" \
			within 0.05 "$(want "$c" "$m")" "${got:-0}"
	done
done

# Wall clock: the plugin's spin delay.
dir=$(run_dir plugin-latency)
bnb_vm "$dir" --nodes 2 --distance '10,20;25,10' --timeout 600 \
	--plugin "$SO" --plugin-opt shm="$dir/counters.shm" --plugin-opt cache_kib=32 -- \
	'bnb-plugin-calib || exit 1
	for i in 1 2 3 4 5; do
		latency --size 16M --cache-size 16K --loads 2K --cache-loads 16K --repeat 100 --locality-every 0 || exit 1
	done'
rc=$?
check "guest runs calibration and 5 latency matrices (exit $rc)" test "$rc" -eq 0
ratios=$(median_ratios "$dir/out.log")
diag "median remote/local: $(echo "$ratios" | paste -sd';')"

for c in 0 1; do
	for m in 0 1; do
		[ "$c" = "$m" ] && continue
		w=$(want "$c" "$m")
		got=$(ratio "$ratios" big "$c" "$m")
		check "CPU node $c -> memory node $m: remote/local ${got:-none}, configured $w (extra cost 0.4-2x configured)" \
			extra_share 0.4 2 "$w" "${got:-0}"
		# TCG alone spreads this 0.83-1.20 (bench/plugin/README.md); a
		# model that charged cache hits would give the remote ratio.
		got=$(ratio "$ratios" cache "$c" "$m")
		check "CPU node $c -> memory node $m, cache-resident: remote/local ${got:-none}, want 1 (+-25 %)" \
			within 0.25 1 "${got:-0}"
	done
done

[ -n "${BNB_KEEP:-}" ] || rm -rf "$dir" "$det"
done_testing
