#!/bin/bash
# Foreign workloads, monitors, provenance and --resume through bnb-run:
# perf bench numa runs as an experiment's workload and its convergence
# latency reaches the run's and the folder's summary.json; a perf run whose
# second process works on memory first touched on the other node shows the
# trace and sched monitors' totals, files and plots; runs keep provenance;
# a perf run with -q (no result lines) fails naming the command and what
# was missing; an unknown monitor or metrics name is refused with
# file:line:key before anything runs; a folder interrupted by SIGINT is
# finished by --resume, which reruns only what did not end ok.
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "field tests"

run=$BNB_ROOT/build/bin/bnb-run
work=$(run_dir field)
[ -n "${BNB_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

cat > "$work/perf.ini" <<'INI'
[global]
nodes = 2
latency = off
repetitions = 1
time_limit = 120

[perf]
workload = perf bench numa mem -p 2 -t 1 -P 32 -s 8 -zZ0 -c -m --thp 1

[misplaced]
workload = perf bench numa mem -p 2 -t 1 -P 32 -s 6 -zZ0 --thp 1
monitors = trace, sched

[quiet]
workload = perf bench numa mem -p 1 -t 1 -P 8 -s 1 -q
monitors = none

[perfstat]
workload = autonuma --test numa02 --size 4M --passes 100
monitors = perfstat
INI

# jq-like reads with an independent parser
json() { python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    v = v[int(k)] if isinstance(v, list) else v[k]
print(v)' "$@" 2> /dev/null; }

out=$work/perf
"$run" "$work/perf.ini" --out "$out" > "$work/perf.log" 2>&1
rc=$?
tail -n 4 "$work/perf.log" | while read -r l; do diag "$l"; done
check "bnb-run exits 1: one run failed (exit $rc)" test "$rc" = 1
r=$out/runs/perf/rep1
check "perf bench numa run ok" grep -q '^status=ok' "$r/status"
conv=$(json "$r/summary.json" metrics NUMA-convergence-latency value)
rtmax=$(json "$r/summary.json" metrics runtime-max/thread value)
# perf stops after -s 8 plus the loop it is in, whose length follows the
# host's load in wall mode: bound the latency by perf's own runtime instead.
check "its NUMA-convergence-latency is in the run's summary.json ($conv s of $rtmax s)" \
	awk -v c="$conv" -v r="$rtmax" 'BEGIN { exit !(c > 0 && r > 0 && c <= r) }'
check "and in the folder's statistics (n=1)" \
	test "$(json "$out/summary.json" variants 0 metrics NUMA-convergence-latency n)" = 1
check "the direction is known (lower is better)" \
	test "$(json "$r/summary.json" metrics NUMA-convergence-latency better)" = lower
check "elapsed guest time recorded" \
	awk -v e="$(json "$r/summary.json" metrics elapsed_s value)" 'BEGIN { exit !(e > 0) }'
r=$out/runs/misplaced/rep1
check "the misplaced run ok" grep -q '^status=ok' "$r/status"
migrated=$(json "$r/summary.json" monitors trace pages_numa_misplaced)
check "trace monitor: pages migrated for NUMA misplacement ($migrated)" \
	awk -v m="$migrated" 'BEGIN { exit !(m > 0) }'
check "trace monitor lost no events" test "$(json "$r/summary.json" monitors trace lost_events)" = 0.0
check "sched monitor: the scan period of the workload's tasks" \
	awk -v p="$(json "$r/summary.json" monitors sched scan_period_min_ms)" 'BEGIN { exit !(p >= 100) }'
for f in trace.csv trace-events.csv trace-rates.csv sched.csv sched-series.csv; do
	check "monitor file $f" test -s "$r/monitor/$f"
done
# shellcheck disable=SC2016 # awk's fields
check "per-second rates have the migrations" \
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "pages_numa_misplaced_per_s") c = i; next }
		$c > 0 { found = 1 } END { exit !found }' "$r/monitor/trace-rates.csv"
for p in monitor-trace monitor-sched; do
	check "plot $p.png" test -s "$out/plots/$p.png"
done
# bnb-run also published them to the tree's plots/
rm -rf "${BNB_ROOT:?}/plots/$(basename "$out")"
check "provenance: the guest kernel's release" test "$(json "$r/summary.json" provenance guest.uname_r)" != ""
check "provenance: the kernel build key" \
	test "$(json "$r/summary.json" provenance kernel_key)" = "$(basename "$(readlink -f "$BNB_ROOT/build/kernel")")"
check "provenance: every numa_balancing sysctl as the run started" \
	test "$(json "$r/summary.json" provenance guest.sysctl.kernel.numa_balancing)" = 1
qemu=$(json "$r/summary.json" provenance qemu)
qemu_version=$(json "$r/summary.json" provenance qemu_version)
check "provenance: the QEMU bnb-vm ran ($qemu), from its result file" grep -qxF "qemu=$qemu" "$r/result"
check "provenance: its version ($qemu_version), as the binary says" \
	grep -qF "version $qemu_version" <<< "$("$qemu" --version | head -1)"
check "provenance: the timing mode bnb-vm used" \
	grep -qx "timing=$(json "$r/summary.json" provenance timing)" "$r/result"
check "provenance: no plugin (latency = off)" test "$(json "$r/summary.json" provenance plugin)" = none
check "provenance: the harness's git describe" \
	test -n "$(json "$r/summary.json" provenance harness)"
r=$out/runs/perfstat/rep1
check "perf stat as a monitor of a project workload: the tools archive was booted" \
	grep -q '^status=ok' "$r/status"
check "perfstat monitor: page faults counted" \
	awk -v n="$(json "$r/summary.json" monitors perfstat page-faults)" 'BEGIN { exit !(n > 0) }'
check "perfstat monitor: per-second rates" test -s "$r/monitor/perfstat-rates.csv"
reason=$(sed -n 's/^reason=//p' "$out/runs/quiet/rep1/status")
check "perf -q fails naming the command and what was missing: $reason" \
	grep -q "perf bench numa mem -p 1 -t 1 -P 8 -s 1 -q.*without -q" <<< "$reason"

printf '[global]\nworkload = sleep 1\nmonitors = trace, tracee\n' > "$work/bad1.ini"
printf '[global]\nworkload = sleep 1\n\n[x]\nmetrics = perf\n' > "$work/bad2.ini"
for n in 1 2; do
	msg=$("$run" "$work/bad$n.ini" --out "$work/bad$n" 2>&1)
	rc=$?
	want=$([ $n = 1 ] && echo "bad1.ini:3:.*monitors" || echo "bad2.ini:5:.*metrics")
	if [ "$rc" = 2 ] && grep -q "$want" <<< "$msg" && [ ! -d "$work/bad$n/runs" ]; then
		ok "bad key refused before anything runs: $msg"
	else
		not_ok "bad$n.ini: exit $rc: $msg"
	fi
done

cat > "$work/resume.ini" <<'INI'
[global]
nodes = 2
latency = off
repetitions = 1
time_limit = 120
workload = sleep 6

[a]
[b]
INI
res=$work/resume
"$run" "$work/resume.ini" --out "$res" --no-plots > "$work/resume.log" 2>&1 &
pid=$!
for _ in $(seq 120); do
	grep -q '\[1/2\] a rep 1: started' "$work/resume.log" 2> /dev/null && break
	sleep 0.5
done
sleep 2
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT: bnb-run exits 130 (exit $rc)" test "$rc" = 130
check "the interrupted run is marked incomplete" grep -q '^status=incomplete' "$res/runs/a/rep1/status"
check "the next run never started" test ! -e "$res/runs/b/rep1/status"
"$run" --resume "$res" --no-plots > "$work/resume2.log" 2>&1
rc=$?
tail -n 3 "$work/resume2.log" | while read -r l; do diag "$l"; done
check "--resume exits 0 (exit $rc)" test "$rc" = 0
check "--resume reran the two runs that had not finished" grep -q '2 runs to do again' "$work/resume2.log"
check "both runs ok now" test "$(grep -l '^status=ok' "$res"/runs/*/rep1/status | wc -l)" = 2
check "the interrupted attempt is kept aside" grep -q '^status=incomplete' "$res/runs/a/rep1.prev-1/status"
check "the summary counts both" test "$(json "$res/summary.json" variants 1 ok)" = 1
"$run" --resume "$res" --no-plots > "$work/resume3.log" 2>&1
check "a finished folder has nothing to resume" grep -q '0 runs to do again' "$work/resume3.log"
done_testing
