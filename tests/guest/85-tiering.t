#!/bin/bash
# Memory tiering on Debian's 6.12 (kernel = debian-6.12), under
# deterministic timing with the 2socket model: 3 nodes, the third CPU-less
# CXL memory (cxl_nodes = 2, so the HMAT gives it the model's 250 ns and
# 22 GB/s and 6.12 puts it in a lower memory tier). hotcold's hot set
# starts in the CXL node, its cold pages in node 0. With
# kernel.numa_balancing = 2 the hot set is promoted: pgpromote_success > 0,
# and by the end at least 0.8 of the hot accesses are served by the fast
# tier (the workload's hot_fast, the sampled share of the hot set's pages
# on nodes with CPUs) as of all accesses (the plugin's fast_tier_share);
# with 0 nothing is promoted and the slow tier keeps serving the hot set. Bad tiering setups are refused before
# anything boots. An experiment's sysctl.demotion_enabled reaches the
# guest's sysfs switch and its provenance. Without the 6.12 build in the cache, the test builds it
# (kernel/build.sh --kernel debian-6.12, about 12 min here) or fails.
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "tiering tests"

SO=$BNB_ROOT/build/bin/bnb-plugin.so
collect=$BNB_ROOT/build/bin/bnb-collect
if [ ! -e "$SO" ]; then
	not_ok "the tiering runs need the machine model: $SO is not built (make tools)"
	done_testing
	exit 0
fi

# Refused before anything boots, naming the option.
TIERS=(--dry-run --timing deterministic --plugin "$SO" --nodes 3)
vm_refused "a CXL node with CPUs is refused" "--cxl-nodes: node 2 has 1 CPUs" \
	"${TIERS[@]}" --cpus 1 --cxl-nodes 2
vm_refused "a fast tier under 64 MiB beside CXL memory is refused" \
	"--cxl-nodes: the nodes with CPUs (the fast tier) have 60 MiB in all" \
	"${TIERS[@]}" --cpus 1,1,0 --mem 30M,30M,256M --cxl-nodes 2

# The debian-6.12 build: the cached one, else built by the project's path.
kernel=
if dir=$("$BNB_ROOT/kernel/build.sh" --kernel debian-6.12 --print-dir 2>&1); then
	if [ ! -f "$dir/bzImage" ]; then
		diag "building debian-6.12 into $dir (about 12 min)"
		"$BNB_ROOT/kernel/build.sh" --kernel debian-6.12 >&2 || dir=
	fi
	[ -n "$dir" ] && kernel=$dir/bzImage
fi
if [ ! -f "$kernel" ]; then
	not_ok "the debian-6.12 kernel: kernel/build.sh --kernel debian-6.12 gave none: $dir"
	done_testing
	exit 0
fi
ok "the debian-6.12 kernel: $kernel"

work=$(run_dir tiering)
[ -n "${BNB_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

# A 4 MiB hot set (1024 pages) in a 32 MiB working set, 90 % of the reads.
HOTCOLD="hotcold --size 32M --hot-size 4M --hot-pct 90 --iterations 10 --interval-ms 500"
TIERS_SYSFS=/sys/devices/virtual/memory_tiering

# tiered MODE: boot 6.12 with numa_balancing = MODE and the collector
# attached (agent streaming on the guest clock, the plugin's counters);
# sets d to the run directory, vm_rc and collect_rc.
tiered() {
	local cpid
	d=$work/mode$1
	mkdir -p "$d"
	"$collect" --socket "$d/agent.sock" --out "$d/collect" --stream --interval-ms 100 \
		--plugin-shm "$d/plugin.shm" --stall-timeout-ms 120000 \
		--start-timeout-ms 600000 2> "$d/collect.log" &
	cpid=$!
	bnb_vm "$d" --kernel "$kernel" --nodes 3 --cpus 1,1,0 --mem 256M \
		--distance '10,20,17;20,10,28;17,28,10' --timing deterministic \
		--plugin "$SO" --plugin-opt shm="$d/plugin.shm" --cxl-nodes 2 \
		--agent-socket "$d/agent.sock" --agent-stream-ms 100 --timeout 600 -- \
		"grep -H . $TIERS_SYSFS/memory_tier*/nodelist; sysctl -w kernel.numa_balancing=$1 &&
$HOTCOLD" > "$d/vm.log" 2>&1
	vm_rc=$?
	wait "$cpid"
	collect_rc=$?
}

# summary DIR KEY: KEY of hotcold's summary line
summary() {
	sed -n "s/^# summary .* $2=\([0-9.]*\).*/\1/p" "$1/out.log"
}

# json DIR KEY: the first number KEY has in the collector's summary.json
json() {
	grep -o "\"$2\": *[0-9.e+-]*" "$1/collect/summary.json" | head -n 1 | sed 's/.*: *//'
}

# end_share DIR: the mean fast_tier_share of the last 10 samples (1 s of
# guest time; the guest powers off within a sample of the workload's end)
end_share() {
	awk -F, '
		/^#/ { next }
		!hdr { for (i = 1; i <= NF; i++) { if ($i == "status") st = i; if ($i == "fast_tier_share") c = i }
		       hdr = 1; next }
		c && $st == "ok" && $c != "" { v[n++ % 10] = $c }
		END { if (n < 10) exit; for (i = 0; i < 10; i++) sum += v[i]; printf "%.4f\n", sum / 10 }' \
		"$1/collect/timeseries.csv"
}

# at_least V MIN: a numeric comparison that fails on no value
at_least() { awk -v v="$1" -v m="$2" 'BEGIN { exit !(v != "" && v + 0 >= m) }'; }

tiered 2
on=$d
check "mode 2: guest and collector exit 0 ($vm_rc, $collect_rc)" test "$vm_rc/$collect_rc" = 0/0
check "6.12 puts the CXL node in a memory tier of its own" \
	grep -Eq "memory_tier[0-9]+/nodelist:2\$" "$on/out.log"
promoted=$(summary "$on" pgpromote_success)
hot_end=$(summary "$on" hot_fast_end)
share_end=$(end_share "$on")
diag "mode 2: pgpromote_success ${promoted:-?} (collector: $(json "$on" promoted_pages)), hot set in fast memory $(summary "$on" hot_fast_start) -> ${hot_end:-?}, fast tier's share of all accesses in the last second ${share_end:-?}, over the work $(json "$on" fast_tier_share), rate $(summary "$on" rate_mean) M/s"
check "mode 2 promotes the hot set (pgpromote_success > 0)" at_least "${promoted:-}" 1
check "mode 2: the collector counts the promotions too" at_least "$(json "$on" promoted_pages)" 1
check "mode 2: by the end >= 0.8 of the hot accesses are served by the fast tier" \
	at_least "${hot_end:-}" 0.8
check "mode 2: the plugin's fast-tier share of all accesses in the last second >= 0.8" \
	at_least "${share_end:-}" 0.8

tiered 0
off=$d
check "mode 0: guest and collector exit 0 ($vm_rc, $collect_rc)" test "$vm_rc/$collect_rc" = 0/0
diag "mode 0: pgpromote_success $(summary "$off" pgpromote_success), hot set in fast memory $(summary "$off" hot_fast_end), fast tier's share in the last second $(end_share "$off"), rate $(summary "$off" rate_mean) M/s"
check "mode 0 promotes nothing" test "$(summary "$off" pgpromote_success)" = 0
check "mode 0: the hot set stays in slow memory" test "$(summary "$off" hot_fast_end)" = 0.0000
# Of all accesses (the kernel's, the agent's and the loop's own besides
# the reads of the working set), the slow tier served 0.26 in mode 0 and
# 0.003 in mode 2 at the end, measured.
check "the slow tier serves 10x the share of accesses in mode 0 as in mode 2 at the end" \
	awk -v on="${share_end:-}" -v off="$(end_share "$off")" \
	'BEGIN { exit !(on != "" && off != "" && 1 - off >= 10 * (1 - on)) }'

check "the promoted hot set runs faster than the one left in CXL memory" \
	awk -v a="$(summary "$on" rate_mean)" -v b="$(summary "$off" rate_mean)" \
	'BEGIN { exit !(a > 0 && b > 0 && a > b) }'
# sysctl.demotion_enabled: the sysfs switch, written where 6.12 keeps it,
# read back, and recorded in each run's provenance.
cat > "$work/demotion.ini" <<EOF
[global]
kernel = debian-6.12
nodes = 2
mem = 256M
repetitions = 1
workload = stream --size 1M --iterations 2
[on]
sysctl.demotion_enabled = true
[off]
sysctl.demotion_enabled = false
EOF
"$BNB_ROOT/build/bin/bnb-run" "$work/demotion.ini" --out "$work/demotion" --no-plots \
	> "$work/demotion.log" 2>&1
check "an experiment switching demotion runs both variants (bnb-run exit $?)" \
	test -f "$work/demotion/summary.json"
for v in on off; do
	want=$([ $v = on ] && echo true || echo false)
	check "$v: the guest wrote $want to /sys/kernel/mm/numa/demotion_enabled and read it back" \
		grep -q "= $want (/sys/kernel/mm/numa/demotion_enabled)" \
		"$work/demotion/runs/$v/rep1/out.log"
	check "$v: provenance records demotion_enabled=$want" \
		grep -q "\"guest.sysfs.kernel.mm.numa.demotion_enabled\":\"$want\"" \
		"$work/demotion/runs/$v/rep1/summary.json"
done
done_testing
