#!/bin/bash
# bnb-run bisect (issue 45) on a short history: linux-source-6.1, the
# series as commits, then five commits of which one moves the default
# NUMA scan delay from 1 s to 4 s (tests/lib/bisect-history.sh). A
# balancing run of 1.5 guest seconds scans with the first and nothing
# with the second, so numa_pte_updates names that commit. The bisection
# is interrupted once after its ends and resumed from its log; the
# commits after the first build are incremental (or in the kernel cache
# from an earlier run); every step is a run folder the report takes.
# Bad input is refused before anything builds, naming the argument.
. "$(dirname "$0")/../lib/tap.sh"
require_guest "bisection tests"

run=$BNB_ROOT/build/bin/bnb-run
work=$(run_dir bisect)
[ -n "${BNB_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
cache=${BNB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/balancenuma-bench}
culprit="sched/numa: start scanning a new task's memory after 4 s, not 1 s"

# One bisection of the history at a time: other trees' test runs share
# the cache, its history and the harness's worktree of it.
mkdir -p "$cache/bisect-test"
exec 8>"$cache/bisect-test/lock"
flock 8
repo=$("$BNB_ROOT/tests/lib/bisect-history.sh")
check "the history is made (tests/lib/bisect-history.sh)" test -d "$repo"
main_before=$(git --git-dir="$repo" rev-parse main)

cat > "$work/tiny.ini" <<'INI'
[global]
nodes = 2
timing = deterministic
latency = off
workload = stream --size 4M --iterations 120 --placement misplaced --node 1
repetitions = 1
time_limit = 300

[on]
balancing = on
INI

# refused DESCRIPTION TEXT ARGS...: exit 2 naming TEXT, no folder made.
n_refused=0
refused() {
	local desc=$1 text=$2 out rc
	shift 2
	n_refused=$((n_refused + 1))
	out=$work/refused-$n_refused
	"$run" bisect "$work/tiny.ini" --out "$out" "$@" > "$out.log" 2>&1
	rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "$text" "$out.log" && [ ! -e "$out" ]; then
		ok "$desc is refused before anything builds"
	else
		not_ok "$desc is refused before anything builds (exit $rc): $(tail -n 1 "$out.log")"
	fi
}
range=(--good series --bad main --metric numa_pte_updates)
refused "a tree that is not a git repository" "--tree: '$work' is not a git repository" \
	--tree "$work" "${range[@]}"
refused "a revision that does not exist" "--good 'v6.1-nosuch': no such commit" \
	--tree "$repo" --good v6.1-nosuch --bad main --metric numa_pte_updates
refused "good equal to bad" "--good 'main' and --bad 'main^0' are the same commit" \
	--tree "$repo" --good main --bad 'main^0' --metric numa_pte_updates
refused "good that is not an ancestor of bad" "--good 'main' (" \
	--tree "$repo" --good main --bad series --metric numa_pte_updates
refused "a metric the experiment does not produce" "--metric: 'numa_pte_update' is no metric" \
	--tree "$repo" --good series --bad main --metric numa_pte_update
refused "a plugin metric of a variant without the plugin" "--metric: 'true_locality' comes from" \
	--tree "$repo" --good series --bad main --metric true_locality
git init -q "$work/dirty"
printf 'one\n' > "$work/dirty/Makefile"
git -C "$work/dirty" add Makefile
git -C "$work/dirty" -c user.name=t -c user.email=t@t commit -q -m one
printf 'two\n' > "$work/dirty/Makefile"
git -C "$work/dirty" -c user.name=t -c user.email=t@t commit -q -a -m two
printf 'three\n' > "$work/dirty/Makefile"
refused "a checkout with uncommitted changes" "the checkout has uncommitted changes (Makefile)" \
	--tree "$work/dirty" --good HEAD~1 --bad HEAD --metric numa_pte_updates
check "the dirty checkout is untouched" test "$(cat "$work/dirty/Makefile")" = three -a \
	"$(git -C "$work/dirty" worktree list | wc -l)" = 1

# The bisection, stopped (Ctrl-C) as soon as both ends are in its log.
out=$work/b
ended() {
	python3 - "$out/bisect.json" <<'PY' 2>/dev/null
import json, sys
b = json.load(open(sys.argv[1]))
sys.exit(0 if b["bad"]["verdict"] == "bad" and b["good"]["verdict"] == "good" else 1)
PY
}
start=$SECONDS
"$run" bisect "$work/tiny.ini" --tree "$repo" "${range[@]}" --out "$out" --no-plots \
	> "$work/first.log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null && ! ended; do
	sleep 0.2
done
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
check "stopped after its ends, the bisection exits 130 (got $rc)" test "$rc" = 130
check "and says how to go on" grep -qF "bnb-run bisect --resume $out" "$work/first.log"
"$run" bisect --resume "$out" > "$work/resume.log" 2>&1
rc=$?
wall=$((SECONDS - start))
diag "bisection: exit $rc after resuming, $wall s of wall time in all; its table:"
sed -n '/^| /p' "$out/bisect.md" | while read -r l; do diag "$l"; done
check "resumed, it finds the first bad commit (exit $rc)" test "$rc" = 0
lacks() { ! grep -q "$1" "$2"; }
check "the ends are not measured again" lacks '^bnb-run: bisect: \(good\|bad\) ' "$work/resume.log"

check "bisect.json names the commit that moved the scan delay" python3 - "$out/bisect.json" \
	"$culprit" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
steps = {s["commit"]: s for s in b["steps"] + [b["good"], b["bad"]]}
first = steps[b["first_bad"]]
assert b["state"] == "done" and first["subject"] == sys.argv[2], (b["state"], first["subject"])
assert b["good"]["value"] > 0 and b["bad"]["value"] == 0, (b["good"]["value"], b["bad"]["value"])
assert steps[b["last_good"]]["value"] > 0 and first["value"] == 0
assert b["range_commits"] == 5 and 1 <= len(b["steps"]) <= 3, len(b["steps"])
PY
check "bisect.md opens with it and the metric on each side" \
	grep -qE "^\*\*First bad commit: [0-9a-f]{12} $culprit\*\*" "$out/bisect.md"
check "bisect.md has the metric on each side of it" \
	grep -qE '^numa_pte_updates: [1-9][0-9]* at [0-9a-f]{12} \(good\) -> 0 at [0-9a-f]{12} \(bad\)$' \
	"$out/bisect.md"
check "the console shows the same" grep -qF "First bad commit:" "$work/resume.log"
check "every build after the first is incremental or in the kernel cache" python3 - \
	"$out/bisect.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
for s in [b["bad"]] + b["steps"]:
    assert s["kernel_cached"] or 0 <= s["compiled"] <= 20, (s["commit"][:12], s["compiled"])
    assert s["build_s"] >= 0 and s["run_s"] > 0, s
PY
step=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["steps"][-1]["folder"])' \
	"$out/bisect.json")
check "a step's run folder is a results folder: bnb-run report takes it" \
	"$run" report "$out/$step/run" > "$work/step-report.log" 2>&1
check "its run booted that commit's build" python3 - "$out/bisect.json" "$out/$step" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
key = b["steps"][-1]["kernel_key"]
prov = json.load(open(sys.argv[2] + "/run/runs/on/rep1/summary.json"))["provenance"]
assert prov["guest.uname_v"].split()[0] == "#" + key, (prov["guest.uname_v"], key)
PY
rm -f "$out/bisect.md"
"$run" report "$out" > "$work/report.log" 2>&1
rc=$?
check "bnb-run report DIR redraws bisect.md (exit $rc)" \
	grep -qE "^\*\*First bad commit: [0-9a-f]{12} $culprit\*\*" "$out/bisect.md"
"$run" bisect --resume "$out" > "$work/again.log" 2>&1
rc=$?
check "a finished bisection has nothing to resume (exit $rc)" \
	grep -q "nothing to resume" "$work/again.log"
check "the history's branch and refs are untouched" test \
	"$(git --git-dir="$repo" rev-parse main)" = "$main_before" -a \
	-z "$(git --git-dir="$repo" for-each-ref refs/bisect)"
done_testing
