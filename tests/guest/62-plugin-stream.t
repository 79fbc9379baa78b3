#!/bin/bash
# True access counts from the plugin: a stream whose memory was first
# touched on node 1 runs on node 0.  With NUMA balancing on, the share of
# its accesses that go to remote memory must fall as pages migrate; with
# balancing off it must stay high.  Both guests run under deterministic
# timing, counting only (--model off), and the agent streams a sample
# every 100 ms of guest time (bnb-collect --stream): the shares are the
# samples' accesses, so the stream's length, the scanner's periods and
# the windows are all guest time and the outcome is the same on every
# host (under wall timing a faster host ended the stream after fewer
# scans).  The host also watches the counters (bnb-plugin-check --watch,
# every 250 ms of its own time) while the guest runs.  Both guests start
# the stream with balancing switched off and the "on" guest switches it
# on only after the stream's first 5 iterations, so that the peak share
# is the misplaced start's.  Scans then come every 200 ms.
# bnb-collect maps the same counters: the stream's WORK marker must reach
# it, the "before" window must be the misplaced start, and the seed's
# benefit must come out larger with balancing on than off.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "plugin stream remote share"

SO=$BNB_ROOT/build/bin/bnb-plugin.so
CHECK=$BNB_ROOT/build/bin/bnb-plugin-check
COLLECT=$BNB_ROOT/build/bin/bnb-collect

# guest_cmd BALANCING: calibrate, start the stream with balancing off,
# and once it has done 5 iterations (its rows) set balancing as asked.
# With balancing on, 40 iterations: the pages move 0.7 s of guest time
# after the switch (remote share 0.99 -> 0.09), and the last 10 samples
# come a second after that.
guest_cmd() {
	local enable=0 iters=30
	[ "$1" = on ] && enable=1 iters=40
	# shellcheck disable=SC2016 # expanded by the guest's shell
	printf '%s\n' 'bnb-plugin-calib || exit 1
d=/sys/kernel/debug/sched/numa_balancing
echo 0 > /proc/sys/kernel/numa_balancing || exit 1
[ -d $d ] && echo 200 > $d/scan_period_min_ms
stream --size 8M --iterations '"$iters"' --placement misplaced --node 0 --mem-node 1 --locality-every 0 > /tmp/stream.out &
until [ "$(grep -c "^[0-9]" /tmp/stream.out)" -ge 5 ]; do
	kill -0 $! 2> /dev/null || break
	sleep 0.5
done' "echo $enable > /proc/sys/kernel/numa_balancing || exit 1" 'wait $!; rc=$?; tail -n 1 /tmp/stream.out; exit $rc'
}

# plugin_key DIR KEY: a value of the collector summary's "plugin" object
plugin_key() {
	python3 -c 'import json, sys
v = json.load(open(sys.argv[1])).get("plugin", {}).get(sys.argv[2])
print("null" if v is None else str(v).lower())' "$1/collect/summary.json" "$2" 2> /dev/null
}

# run BALANCING: boot and sample the counters; sets rc, shares ("peak late
# early windows"), watched (rows of the host's own watch of the counters)
# and from the collector marked, share0, locality, benefit.
run() {
	local dir watcher collector
	dir=$(run_dir "plugin-stream-$1")
	"$CHECK" --wait 120 --watch 250 "$dir/counters.shm" > "$dir/shares.csv" 2> "$dir/watch.err" &
	watcher=$!
	"$COLLECT" --socket "$dir/agent.sock" --out "$dir/collect" --stream \
		--stall-timeout-ms 120000 --start-timeout-ms 600000 \
		--plugin-shm "$dir/counters.shm" 2> "$dir/collect.log" &
	collector=$!
	bnb_vm "$dir" --nodes 2 --balancing "$1" --timing deterministic --timeout 600 --plugin "$SO" \
		--agent-socket "$dir/agent.sock" --agent-stream-ms 100 \
		--model off --plugin-opt shm="$dir/counters.shm" -- "$(guest_cmd "$1")"
	rc=$?
	diag "balancing $1: stream $(grep -o 'work_s=[0-9.]*' "$dir/out.log")"
	wait "$watcher"
	wait "$collector"
	marked=$(plugin_key "$dir" work_marked)
	share0=$(plugin_key "$dir" remote_share_before)
	locality=$(plugin_key "$dir" true_locality)
	benefit=$(plugin_key "$dir" benefit_cum)
	watched=$(awk -F, 'NR > 1 && $2 + $3 > 0' "$dir/shares.csv" | wc -l)
	# Windows: the collector's samples, 100 ms of guest time each. Busy
	# windows: at least a quarter of the busiest one's accesses (boot and
	# idle fall out), leaving out the final 2 (shutdown).  Peak: the
	# highest remote share among them; early and late: the share of all
	# accesses of the first and of the last 10.  Summed accesses, not a
	# median of window shares: a window also holds the kernel's and the
	# agent's own (local) accesses.
	shares=$(awk -F, '/^#/ { next }
		!h { for (i = 1; i <= NF; i++) { if ($i == "acc_local_d") cl = i; if ($i == "acc_remote_d") cr = i; if ($i == "status") st = i }; h = 1; next }
		$st == "ok" { n++; acc[n] = $cl + $cr; rem[n] = $cr; if (acc[n] > max) max = acc[n] }
		END {
			for (i = 1; i <= n - 2; i++) if (acc[i] >= max / 4) {
				a[++k] = acc[i]; r[k] = rem[i]
				if (r[k] / a[k] > peak) peak = r[k] / a[k]
			}
			for (i = 1; i <= k; i++) {
				if (i <= 10) { ea += a[i]; er += r[i] }
				if (i > k - 10) { la += a[i]; lr += r[i] }
			}
			printf "%.3f %.3f %.3f %d\n", peak, la ? lr / la : 1, ea ? er / ea : 0, k
		}' "$dir/collect/timeseries.csv")
	[ -n "${BNB_KEEP:-}" ] || rm -rf "$dir"
}

# started BALANCING: run, then the checks both settings share; sets peak,
# late and early.
started() {
	run "$1"
	check "balancing $1: guest runs the misplaced stream (exit $rc)" test "$rc" -eq 0
	check "balancing $1: bnb-plugin-check --watch read the counters as it ran ($watched rows)" \
		test "$watched" -gt 0
	read -r peak late early windows <<< "$shares"
	diag "balancing $1: remote share peak $peak, early $early, late $late ($windows busy windows)"
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
check "balancing off: remote share stays high (late $late vs early $early)" \
	awk -v e="$early" -v l="$late" 'BEGIN { exit !(l > 0.8 * e) }'
diag "balancing off: before-window remote share $share0, work locality $locality, benefit $benefit"
check "balancing off: the before window is the misplaced start (remote share $share0 > 0.5)" \
	awk -v s="$share0" 'BEGIN { exit !(s + 0 > 0.5) }'
check "work locality: on $on_locality > off $locality + 0.3" \
	awk -v on="$on_locality" -v off="$locality" 'BEGIN { exit !(on + 0 > off + 0.3) }'
check "benefit: on $on_benefit > 0 and > off $benefit" \
	awk -v on="$on_benefit" -v off="$benefit" 'BEGIN { exit !(on + 0 > 0 && on + 0 > off + 0) }'
done_testing
