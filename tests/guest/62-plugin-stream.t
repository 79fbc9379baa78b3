#!/bin/bash
# True access counts from the plugin: a stream whose memory was first
# touched on node 1 runs on node 0.  With NUMA balancing on, the share of
# its accesses that go to remote memory must fall as pages migrate; with
# balancing off it must stay high.  The host samples the plugin's counters
# every 250 ms (bnb-plugin-check --watch) while the guest runs; the
# first scan waits 1 s so that the stream starts remote, later ones come
# every 200 ms.  Counting only (delay=off) keeps the test short.
# bnb-collect maps the same counters: the stream's WORK marker must reach
# it, the "before" window must be the misplaced start, and the seed's
# benefit must come out larger with balancing on than off.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "plugin stream remote share"

SO=$BNB_ROOT/build/bin/bnb-plugin.so
CHECK=$BNB_ROOT/build/bin/bnb-plugin-check
COLLECT=$BNB_ROOT/build/bin/bnb-collect

# shellcheck disable=SC2016 # expanded by the guest's shell
guest_cmd='bnb-plugin-calib || exit 1
d=/sys/kernel/debug/sched/numa_balancing
[ -d $d ] && echo 1000 > $d/scan_delay_ms && echo 200 > $d/scan_period_min_ms
stream --size 8M --iterations 60 --placement misplaced --node 0 --mem-node 1 --locality-every 0 > /dev/null'

# plugin_key DIR KEY: a value of the collector summary's "plugin" object
plugin_key() {
	python3 -c 'import json, sys
v = json.load(open(sys.argv[1])).get("plugin", {}).get(sys.argv[2])
print("null" if v is None else str(v).lower())' "$1/collect/summary.json" "$2" 2> /dev/null
}

# run BALANCING: boot and sample the counters; sets rc, shares ("peak late
# windows") and from the collector marked, share0, locality, benefit.
run() {
	local dir watcher collector
	dir=$(run_dir "plugin-stream-$1")
	"$CHECK" --wait 120 --watch 250 "$dir/counters.shm" > "$dir/shares.csv" 2> "$dir/watch.err" &
	watcher=$!
	"$COLLECT" --socket "$dir/agent.sock" --out "$dir/collect" --interval-ms 100 \
		--plugin-shm "$dir/counters.shm" 2> "$dir/collect.log" &
	collector=$!
	bnb_vm "$dir" --nodes 2 --balancing "$1" --timeout 600 --plugin "$SO" \
		--agent-socket "$dir/agent.sock" \
		--plugin-opt shm="$dir/counters.shm" --plugin-opt delay=off -- "$guest_cmd"
	rc=$?
	wait "$watcher"
	wait "$collector"
	marked=$(plugin_key "$dir" work_marked)
	share0=$(plugin_key "$dir" remote_share_before)
	locality=$(plugin_key "$dir" true_locality)
	benefit=$(plugin_key "$dir" benefit_cum)
	# Busy windows: at least a quarter of the busiest one's accesses (boot
	# and idle fall out).  Peak: the highest remote share among them; late:
	# the median of the last 10, leaving out the final 2 (shutdown).
	shares=$(awk -F, 'NR > 1 { n++; acc[n] = $2 + $3; rem[n] = $3; if (acc[n] > max) max = acc[n] }
		END {
			for (i = 1; i <= n - 2; i++) if (acc[i] >= max / 4) {
				s[++k] = rem[i] / acc[i]
				if (s[k] > peak) peak = s[k]
			}
			for (i = k - 9; i <= k; i++) if (i > 0) tail[++t] = s[i]
			for (i = 2; i <= t; i++)	# insertion sort: mawk has no asort
				for (j = i; j > 1 && tail[j - 1] > tail[j]; j--) {
					x = tail[j]; tail[j] = tail[j - 1]; tail[j - 1] = x
				}
			printf "%.3f %.3f %d\n", peak, t ? tail[int((t + 1) / 2)] : 1, k
		}' "$dir/shares.csv")
	[ -n "${BNB_KEEP:-}" ] || rm -rf "$dir"
}

# started BALANCING: run, then the checks both settings share; sets peak and late.
started() {
	run "$1"
	check "balancing $1: guest runs the misplaced stream (exit $rc)" test "$rc" -eq 0
	read -r peak late windows <<< "$shares"
	diag "balancing $1: remote share peak $peak, late $late ($windows busy windows)"
	check "balancing $1: misplaced stream starts mostly remote (peak share $peak > 0.5)" \
		awk -v p="$peak" 'BEGIN { exit !(p > 0.5) }'
}

started on
check "balancing on: remote share falls to under half its peak ($late vs $peak)" \
	awk -v p="$peak" -v l="$late" 'BEGIN { exit !(l < p / 2) }'
check "balancing on: the collector saw the stream's WORK marker ($marked)" test "$marked" = true
on_locality=$locality on_benefit=$benefit
diag "balancing on: before-window remote share $share0, work locality $locality, benefit $benefit"

started off
check "balancing off: remote share stays high ($late vs peak $peak)" \
	awk -v p="$peak" -v l="$late" 'BEGIN { exit !(l > 0.8 * p) }'
diag "balancing off: before-window remote share $share0, work locality $locality, benefit $benefit"
check "balancing off: the before window is the misplaced start (remote share $share0 > 0.5)" \
	awk -v s="$share0" 'BEGIN { exit !(s + 0 > 0.5) }'
check "work locality: on $on_locality > off $locality + 0.3" \
	awk -v on="$on_locality" -v off="$locality" 'BEGIN { exit !(on + 0 > off + 0.3) }'
check "benefit: on $on_benefit > 0 and > off $benefit" \
	awk -v on="$on_benefit" -v off="$benefit" 'BEGIN { exit !(on + 0 > 0 && on + 0 > off + 0) }'
done_testing
