#!/bin/bash
# The runner end to end: a tiny two-variant experiment with 2 repetitions
# in fresh guests; every expected file exists and parses, every PNG is a
# valid non-empty image; a sysctl that cannot be set fails its run with a
# reason naming it; Ctrl-C keeps finished runs and marks the current one
# incomplete; time dilation is measured per run and scale_scan scales the
# explicit scan delay.
. "$(dirname "$0")/../lib/tap.sh"
require_guest "runner tests"

run=$BNB_ROOT/build/bin/bnb-run
work=$(run_dir runner)
[ -n "${BNB_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

cat > "$work/tiny.ini" <<'INI'
[global]
description = runner end-to-end test
nodes = 2
distance = 10,20;20,10
latency = off
workload = stream --size 8M --iterations 8 --placement misplaced --node 1
sysctl.scan_delay_ms = 30
repetitions = 2
interval_ms = 100
time_limit = 300

[off]
balancing = off

[on]
balancing = on
scale_scan = 3
INI

# json_ok FILE: parses as JSON (an independent parser, not json-c).
json_ok() { python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1" 2> /dev/null; }

# png_ok FILE: PNG signature, an IHDR with a sane size, and more than 5 KB.
png_ok() {
	python3 - "$1" <<'PY'
import struct, sys, os
data = open(sys.argv[1], 'rb').read(24)
ok = data[:8] == b'\x89PNG\r\n\x1a\n' and data[12:16] == b'IHDR'
w, h = struct.unpack('>II', data[16:24]) if ok else (0, 0)
sys.exit(0 if ok and w >= 400 and h >= 300 and os.path.getsize(sys.argv[1]) > 5000 else 1)
PY
}

out=$work/results
start=$(date +%s)
"$run" "$work/tiny.ini" --out "$out" > "$work/run.log" 2>&1
rc=$?
diag "bnb-run took $(($(date +%s) - start)) s, exit $rc; last lines:"
tail -n 4 "$work/run.log" | while read -r l; do diag "$l"; done
check "bnb-run exits 0 when every run is ok" test "$rc" = 0
check "progress lines name variant and repetition" grep -q '^\[1/4\] off rep 1: ok after' "$work/run.log"
check "experiment file kept as run" cmp -s "$work/tiny.ini" "$out/experiment.ini"
check "job list written" test "$(wc -l < "$out/jobs.txt")" = 4

missing=
for v in off on; do
	for r in 1 2; do
		d=$out/runs/$v/rep$r
		for f in timeseries.csv summary.json console.log out.log workload.csv status result; do
			[ -s "$d/$f" ] || missing="$missing $v/rep$r/$f"
		done
		json_ok "$d/summary.json" || missing="$missing $v/rep$r/summary.json(parse)"
		grep -qx 'status=ok' "$d/status" || missing="$missing $v/rep$r(status:$(sed -n 's/^reason=//p' "$d/status"))"
		delay=30
		[ "$v" = on ] && delay=90	# scale_scan = 3 scales the explicit value
		grep -q "^# bnb-run: sysctl kernel.numa_balancing_scan_delay_ms = $delay " "$d/out.log" ||
			missing="$missing $v/rep$r(scan_delay_ms $delay not confirmed)"
	done
done
check "every run has its files, parsing, status ok${missing:+ (missing:$missing)}" test -z "$missing"
for d in "$out"/runs/*/rep*; do
	vm_clean "$d"
done

check "summary.json parses" json_ok "$out/summary.json"
check "summary.json has both variants with n=2" python3 - "$out/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
v = {x['name']: x for x in s['variants']}
assert v['off']['metrics']['work_s']['n'] == 2 and v['on']['metrics']['work_s']['n'] == 2
assert s['comparisons'][0]['variant'] == 'on' and s['latency']['on'] == 'uniform'
assert v['off']['metrics']['numa_hint_faults']['max'] == 0
PY
check "every run has a time dilation above 1, and on runs a scan scale of 3" python3 - "$out/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for r in s['runs']:
    m = r['metrics']
    assert m['dilation'] is not None and m['dilation'] > 1, r
    assert (m['scan_scale'] == 3) == (r['variant'] == 'on'), r
PY
check "summary.md states the measured dilation" grep -q '^- Time dilation: the workload ran [0-9]*x slower' "$out/summary.md"
check "summary.md states the latency mode" grep -q '^- Latency: uniform' "$out/summary.md"
check "summary.md has the comparison table" grep -q '^### on vs off' "$out/summary.md"
diag "$(grep -o 'Time dilation: the workload ran [^(]*([^)]*)' "$out/summary.md")"
hints=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print([x for x in s["variants"] if x["name"]=="on"][0]["metrics"]["numa_hint_faults"]["min"])' "$out/summary.json")
check "balancing on: every on run has hint faults (fewest $hints)" \
	awk -v h="${hints:-0}" 'BEGIN { exit !(h + 0 > 0) }'

bad=
n=0
for p in convergence cost faults-on rate locality; do
	png_ok "$out/plots/$p.png" || bad="$bad $p.png"
	grep -q '<svg' "$out/plots/$p.svg" 2> /dev/null || bad="$bad $p.svg"
done
for p in "$out"/plots/*.png; do
	n=$((n + 1))
	png_ok "$p" || bad="$bad $(basename "$p")"
done
check "every plot is a valid PNG and SVG ($n PNGs${bad:+; bad:$bad})" test -z "$bad"
check "plots published to plots/" test -s "$BNB_ROOT/plots/$(basename "$out")/convergence.png"
rm -rf "${BNB_ROOT:?}/plots/$(basename "$out")"

# B is a copy of A whose "on" runs took twice as long: the comparison
# must say B - A > 0, +100 %, for on, and no difference for off.
b=$work/results-b
cp -r "$out" "$b"
for f in "$b"/runs/on/rep*/out.log; do
	awk '/^# summary / { for (i = 1; i <= NF; i++) if ($i ~ /^work_s=/) $i = sprintf("work_s=%.9g", 2 * substr($i, 8)) } { print }' \
		"$f" > "$f.new" && mv "$f.new" "$f"
done
sums() { (cd "$1" && find . -type f -exec cksum {} + | sort); }
sum_a=$(sums "$out") sum_b=$(sums "$b")
"$run" compare --out "$work/cmp" "$out" "$b" > "$work/compare.log" 2>&1
rc=$?
check "compare A B exits 0 (got $rc)" test "$rc" -eq 0
check "compare: the report on stdout too" grep -q '^## Verdict' "$work/compare.log"
check "compare: the folders compared are unchanged" \
	test "$(sums "$out")" = "$sum_a" -a "$(sums "$b")" = "$sum_b"
check "compare: B's doubled on time is +100 % over A, off unchanged" python3 - "$work/cmp/compare.json" <<'PY'
import json, sys
t = {(x['variant'], x['metric']): x['folders'] for x in json.load(open(sys.argv[1]))['tables']}
on, off = t['on', 'work_s'], t['off', 'work_s']
assert on[1]['Amean'] > on[0]['Amean'] and abs(on[1]['Amean_diff_pct'] - 100) < 1e-3, on
assert off[1]['Amean_diff_pct'] == 0, off
PY

# A sysctl the kernel does not have: the run fails and says which.
sed -e 's/^sysctl.scan_delay_ms = 30/sysctl.kernel.bnb_no_such_knob = 1/' \
	-e 's/^repetitions = 2/repetitions = 1/' "$work/tiny.ini" > "$work/bad.ini"
"$run" "$work/bad.ini" --only on --out "$work/bad" --no-plots > "$work/bad.log" 2>&1
rc=$?
check "a failed run makes the exit status 1 (got $rc)" test "$rc" = 1
BNB_VM_EXPECT=failed vm_clean "$work/bad/runs/on/rep1"
check "its reason names the sysctl" grep -q '^reason=sysctl kernel.bnb_no_such_knob: not present' \
	"$work/bad/runs/on/rep1/status"

# A series the collector could not complete fails the run rather than
# leaving it ok without counters: on the guest's clock, a first sample
# due after the workload has ended is never sent.
cat > "$work/nosample.ini" <<'INI'
[global]
nodes = 2
timing = deterministic
workload = stream --size 1M --iterations 2
interval_ms = 60000
time_limit = 600
repetitions = 1

[off]
balancing = off
INI
"$run" "$work/nosample.ini" --out "$work/nosample" --no-plots > "$work/nosample.log" 2>&1
rc=$?
check "no sample in the whole run: exit 1 (got $rc)" test "$rc" = 1
check "its reason says the collector took no sample, and why" \
	grep -q '^reason=the collector took no sample: the guest ended before its first one (a workload shorter than one interval_ms' \
	"$work/nosample/runs/off/rep1/status"

# Balancing on, but the workload ends before the scan delay: the scanner
# changes no PTE, and the run says it measured no balancing (stderr, the
# report's notes, summary.json), where the tiny experiment's on runs,
# which scanned, said nothing.
check "runs that scanned are not called unscanned" \
	test "$(grep -c 'measured no balancing' "$work/run.log")" = 0
sed -e 's/^interval_ms = 60000/interval_ms = 100\nsysctl.scan_delay_ms = 60000/' \
	-e 's/^\[off\]/[on]/' -e 's/^balancing = off/balancing = on/' \
	"$work/nosample.ini" > "$work/noscan.ini"
"$run" "$work/noscan.ini" --out "$work/noscan" --no-plots > "$work/noscan.log" 2>&1
rc=$?
check "a run that scanned nothing is still ok (exit $rc)" test "$rc" = 0
check "it says it measured no balancing" \
	grep -q '^bnb-run: on rep 1: balancing was on but the scanner changed no PTE' "$work/noscan.log"
check "the report names it" grep -q 'No balancing happened\*\* in run on/rep1' "$work/noscan/summary.md"
check "summary.json lists it" python3 -c 'import json, sys
assert json.load(open(sys.argv[1]))["unscanned_runs"] == ["on/rep1"]' "$work/noscan/summary.json"
vm_clean "$work/noscan/runs/on/rep1"

# Ctrl-C in the middle of the second run.
awk '/^\[on\]/ { print; print "workload = stream --size 8M --iterations 400 --placement misplaced --node 1"; next } { print }' \
	"$work/tiny.ini" > "$work/long.ini"
"$run" "$work/long.ini" --reps 1 --out "$work/int" --no-plots > "$work/int.log" 2>&1 &
rpid=$!
# Interrupt once the on run's collector has 10 samples: the guest is up
# and its workload runs (no fixed sleep: the host may be slow).
ts=$work/int/runs/on/rep1/timeseries.csv
for _ in $(seq 1 600); do
	rows=$(grep -vc '^#' "$ts" 2> /dev/null)
	[ "${rows:-0}" -gt 10 ] && break
	sleep 0.5
done
kill -INT "$rpid"
wait "$rpid"
rc=$?
check "Ctrl-C exits 130 (got $rc)" test "$rc" = 130
check "the finished run stays ok" grep -qx 'status=ok' "$work/int/runs/off/rep1/status"
check "the interrupted run is marked incomplete" grep -qx 'status=incomplete' "$work/int/runs/on/rep1/status"
check "the summary is written after Ctrl-C" grep -q '| on | 1 | incomplete |' "$work/int/summary.md"
check "no guest left running" test -z "$(pgrep -f "$work/int" || true)"
vm_clean "$work/int/runs/off/rep1"
BNB_VM_EXPECT=timeout vm_clean "$work/int/runs/on/rep1"
done_testing
