#!/bin/bash
# The balancer on the hardware's time scale (scale_scan = hardware,
# docs/time-scale.md), under deterministic timing with the 2socket model:
# a scaled run of a misplaced STREAM holds at least 10 scan passes (the
# agent's count of mm->numa_scan_seq) and converges; the phases workload,
# whose threads change nodes while their memory stays, re-converges after
# every phase change, in passes of the scanner; a plan that would set a
# scan period under the kernel's 1 ms is refused before anything boots.
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "time-scale tests"

if [ ! -e "$BNB_ROOT/build/bin/bnb-plugin.so" ]; then
	skip "the time-scale runs need the machine model" "bnb-plugin.so is not built"
	done_testing
	exit 0
fi

run=$BNB_ROOT/build/bin/bnb-run
work=$(run_dir timescale)
[ -n "${BNB_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

# STREAM: 24 MiB standing for 3 GiB, 2.3 guest s for a 230 s hardware run
# (time factor 0.01): passes of 12 ms. phases: as bench/experiments/
# scan-sweep.ini's first point, three phases of 60 passes on base pages.
cat > "$work/scaled.ini" <<'INI'
[machine]
model = 2socket

[global]
nodes = 2
cpus = 1
mem = 512M
distance = 10,20;20,10
timing = deterministic
balancing = on
repetitions = 1
time_limit = 900
scale_scan = hardware

[stream]
workload = stream --size 8M --iterations 16 --placement misplaced --node 0
scale_hw_ws = 3G
scale_guest_ws = 24M
scale_time = 0.01
scale_hw_s = 230

[phases]
workload = phases --size 8M --phase-passes 60 --phases 3 --interval-ms 50
append = transparent_hugepage=never
scale_hw_ws = 2G
scale_guest_ws = 16M
scale_time = 0.0521
scale_hw_s = 55
INI

out=$work/results
"$run" "$work/scaled.ini" --out "$out" --no-plots > "$work/run.log" 2>&1
rc=$?
diag "bnb-run exit $rc; $(grep -c 'ok after' "$work/run.log") runs ok"
check "both scaled runs end ok (exit $rc)" test "$rc" = 0
for v in stream phases; do
	vm_clean "$out/runs/$v/rep1"
done

# metric RUN NAME: the run's summary.json metric, or "none".
metric() {
	python3 - "$out/runs/$1/rep1/summary.json" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
v = s.get('metrics', {}).get(sys.argv[2], s.get(sys.argv[2]))
if isinstance(v, dict):
    v = v.get('value')
print('none' if v is None else v)
PY
}
# counter RUN NAME: the run's summary.json counter, or "none".
counter() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["counters"].get(sys.argv[2], "none"))' \
		"$out/runs/$1/rep1/summary.json" "$2"
}
holds() { awk -v a="$2" -v b="${3:-0}" "BEGIN { exit !($1) }"; }

st=$out/runs/stream/rep1
check "stream: the guest printed the plan" grep -q '^# bnb-run: scale plan: time=0.01 size=0.0078125 ' \
	"$st/out.log"
check "stream: scan_period_min_ms written as 1200 ms x 0.01" \
	grep -q '^# bnb-run: sysctl kernel.numa_balancing_scan_period_min_ms = 12 ' "$st/out.log"
check "stream: one window holds the working set (scan_size_mb 24)" \
	grep -q '^# bnb-run: sysctl kernel.numa_balancing_scan_size_mb = 24 ' "$st/out.log"
passes=$(metric stream scan_passes)
conv=$(metric stream convergence_final)
t90=$(metric stream time_to_conv_90_s)
p90=$(metric stream passes_to_conv_90)
diag "stream: $passes passes, convergence $conv, 90 % after $t90 s ($p90 passes)," \
	"true locality $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["plugin"]["true_locality"])' "$st/summary.json")"
check "stream: at least 10 scan passes ($passes)" holds 'a >= 10' "$passes"
check "stream: converges, 0.95 or more at the end ($conv)" holds 'a >= 0.95' "$conv"
check "stream: time to 90 % reported ($t90 s), in passes ($p90)" \
	holds 'a >= 0 && b >= 1' "${t90/none/-1}" "${p90/none/0}"
work_s=$(grep '^# summary ' "$st/out.log" | tr ' ' '\n' | sed -n 's/^work_s=//p')
check "stream: hardware-equivalent seconds are guest seconds / 0.01 ($work_s s)" holds \
	'a > 0 && (b / a - 100) ^ 2 < 1e-6' "${work_s:-0}" "$(metric stream work_hw_s)"
# Where the accesses went: the misplaced buffer's accesses rise to local
# (from about 0.75 in the work's first window: the scanner begins during
# the first touch), and the time to 90 % of that rise lies within the work.
ls=$(metric stream locality_start)
lp=$(metric stream locality_peak)
l90=$(metric stream locality_to90_s)
diag "stream: true locality $ls -> $lp, 90 % of the rise after $l90 s" \
	"($(metric stream passes_to_locality_90) passes)"
check "stream: true locality rises by 0.1 or more to local ($ls -> $lp)" \
	holds 'b - a >= 0.1 && b >= 0.9' "${ls/none/1}" "${lp/none/0}"
check "stream: 90 % of the rise within the work ($l90 of $work_s s)" \
	holds 'a >= 0 && a < b' "${l90/none/-1}" "${work_s:-0}"

ph=$out/runs/phases/rep1
n=0
for p in 1 2; do
	line=$(grep "^# phase index=$p " "$ph/out.log")
	s=$(echo "$line" | tr ' ' '\n' | sed -n 's/^locality_start=//p')
	e=$(echo "$line" | tr ' ' '\n' | sed -n 's/^locality_end=//p')
	t=$(echo "$line" | tr ' ' '\n' | sed -n 's/^to90_s=//p')
	diag "phases: phase $p locality $s -> $e, 0.9 after ${t:-never} s"
	holds 'a <= 0.05 && b >= 0.9' "${s:-1}" "${e:-0}" && [ -n "$t" ] && n=$((n + 1))
done
check "phases: both moved phases start remote and re-converge ($n of 2)" test "$n" = 2
caught=$(metric phases phases_caught_up)
pp=$(metric phases phase_passes_to90)
passes=$(metric phases scan_passes)
diag "phases: $passes passes, $pp passes per re-convergence, $(metric phases phase_to90_s) s" \
	"($(metric phases phase_to90_hw_s) s of hardware)"
check "phases: the run's metrics count 2 phases caught up ($caught)" holds 'a == 2' "$caught"
# On base pages, as the sweep runs it (docs/time-scale.md, "The scan
# sweep"): no huge page migrated, and a hint fault per page touched per
# pass, so the passes, not the migrations, carry the cost (a pass over the
# 4096 pages of the buffers; on THP, 8 faults a pass).
thp=$(counter phases thp_migration_success)
hints=$(counter phases numa_hint_faults)
check "phases: base pages, no huge page migrated ($thp)" test "$thp" = 0
check "phases: over 1000 hint faults a pass ($hints in $passes passes)" \
	holds 'b > 0 && a > 1000 * b' "${hints/none/0}" "${passes/none/0}"
# Sampled every 100 ms against passes of about 50 ms, a re-convergence
# inside the pass in which the phase changed counts 0: the figure is
# defined and below the run's passes, not necessarily 1 or more.
check "phases: passes per re-convergence counted ($pp a phase of $passes)" \
	holds 'a >= 0 && b > a' "${pp/none/-1}" "${passes/none/0}"

# Refused before anything boots: a time factor that puts the minimum scan
# period under 1 ms.
sed 's/^scale_time = 0.01$/scale_time = 0.0005/' "$work/scaled.ini" > "$work/bad.ini"
"$run" "$work/bad.ini" --out "$work/bad" > "$work/bad.log" 2>&1
rc=$?
check "a period under 1 ms: exit 2, nothing run (got $rc)" test "$rc" = 2 -a ! -e "$work/bad/runs"
check "the error names the key and the limit" grep -q \
	"bad.ini:19: key 'scale_time': variant 'stream': scan_period_min_ms: 1200 ms on the hardware x time factor 0.0005 = 0.6 ms, under the kernel's minimum of 1 ms" \
	"$work/bad.log"
done_testing
