#!/bin/bash
# The account of balancing on the default experiment (one run a side):
# the on run's own estimate of the memory stall balancing saved (its
# misses against the remote share before the balancer acted, priced as
# the model charged them) within 25 % of what the off run's stall says it
# saved, (off's model stall - on's) / D; off saves nothing; the verdict
# says cost, saving, net and break-even in time, and that the account
# closes against the change in workload time; the seed's benefit formula
# is never beside the cost; account.csv holds the course; the patched
# kernel's counters give the convergence by pages.
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "account tests"

if [ ! -e "$BNB_ROOT/build/bin/bnb-plugin.so" ]; then
	skip "the account needs the machine model" "bnb-plugin.so is not built"
	done_testing
	exit 0
fi

work=$(run_dir account)
[ -n "${BNB_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

"$BNB_ROOT/build/bin/bnb-run" "$BNB_ROOT/bench/experiments/default.ini" --reps 1 \
	--out "$work/r" --no-plots > "$work/run.log" 2>&1
check "the default experiment with one run a side ends ok" test $? = 0

# metric NAME of VARIANT's run
metric() {
	python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["metrics"].get(sys.argv[2])
print(m["value"] if m else "nan")' "$work/r/runs/$1/rep1/summary.json" "$2"
}

est=$(metric on account_benefit_s)
off_stall=$(metric off model_stall_hw_s)
on_stall=$(metric on model_stall_hw_s)
diag "on's estimate $est s; off's stall $off_stall s, on's $on_stall s (hardware)"
check "on's own estimate of the saving is within 25 % of (off's model stall - on's) / D" \
	python3 -c 'import sys
e, off, on = map(float, sys.argv[1:])
sys.exit(not abs(e - (off - on)) <= 0.25 * (off - on))' "$est" "$off_stall" "$on_stall"
check "the estimate came from the plugin's window before the balancer acted" \
	python3 -c 'import sys; sys.exit(not float(sys.argv[1]) >= 200)' \
	"$(metric on account_window_misses)"
check "off, which never balanced, saved nothing" test "$(metric off account_benefit_s)" = 0.0
check "on's measured cost is positive and under its saving" \
	python3 -c 'import sys
c, s = map(float, sys.argv[1:])
sys.exit(not 0 < c < s)' "$(metric on account_cost_s)" "$est"

md=$work/r/summary.md
check "the verdict sets cost and saving side by side in time" \
	grep -qE "^- account of balancing .*on's balancing cost [0-9.]+ ms and saved [0-9.]+ ms of memory stall against off \(balancing off\) \(net \+[0-9.]+ ms\), paid back [0-9.]+ ms after its first scan pass in 1 of 1 runs" "$md"
check "the account closes against the change in workload time" \
	grep -qE "^- the account against the workload's time: .*the account closes$" "$md"
check "the seed's benefit formula is not in the verdict" \
	test -z "$(sed -n '/^## Verdict/,/^## /p' "$md" | grep -i 'benefit')"
check "summary.json says it closes" python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))["verdict"][0]["account"]
sys.exit(not (v["closes"] and v["against"] == "off" and v["saved"]["value_s"] > 0))' \
	"$work/r/summary.json"
check "the patched kernel's huge hint-fault counters give a convergence by pages" \
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["convergence_pages_final"] is not None and "numa_huge_hint_faults" in d["counters"]))' \
	"$work/r/runs/on/rep1/summary.json"
check "account.csv holds the course of the work" \
	test "$(grep -cE '^[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+$' "$work/r/runs/on/rep1/account.csv")" -gt 20

done_testing
