#!/bin/bash
# The machine model is live from the guest command's first instruction, or
# the run is refused: bnb-vm has /init run the plugin's map check at boot,
# so a command with no step of its own gets charged misses, and a run whose
# model charged nothing fails with the reason (exit 6, plugin-failed), in
# bnb-vm and in the runner.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "plugin live from the first instruction"

SO=$BNB_ROOT/build/bin/bnb-plugin.so
WORK='autonuma --test numa02 --size 8M --passes 20'

live=$(run_dir plugin-live)
bnb_vm "$live" --timing deterministic --model 2socket --plugin "$SO" -- "$WORK" >/dev/null
rc=$?
check "model on, no map check in the command: the run is ok (exit $rc)" test "$rc" -eq 0
check "the map check passed at boot ($(result_field "$live" plugin_map))" \
	test "$(result_field "$live" plugin_map)" = ok
misses=$(result_field "$live" model_misses)
check "the model charged misses (${misses:-none})" test "${misses:-0}" -gt 0
share=$(result_field "$live" model_stall_share)
check "the result gives their stall share (${share:-none})" \
	awk -v s="${share:-0}" 'BEGIN { exit !(s > 0 && s < 1) }'
order=$(grep -o 'bnb-init: [a-z]*' "$live/console.log" | tr '\n' ' ')
check "/init ran the check before the command ($order)" \
	test "$order" = "bnb-init: start bnb-init: mapcheck bnb-init: run "

# a map the check refuses, recorded only (map_fail=flag): the model never
# goes live, and the run fails instead of reporting unmodelled figures
dead=$(run_dir plugin-dead)
BNB_VM_EXPECT=plugin-failed bnb_vm "$dead" --timing deterministic --model 2socket \
	--plugin "$SO" --plugin-opt map=qemu72 --plugin-opt map_fail=flag -- "$WORK" >/dev/null 2>&1
rc=$?
check "model on, map check failed: bnb-vm exit $rc (want 6)" test "$rc" -eq 6
reason=$(result_field "$dead" reason)
check "the reason says the model charged nothing and why: $reason" \
	grep -q 'model is on but charged no miss: the map check failed: map check FAILED' <<<"$reason"
check "the result has model_misses=0" test "$(result_field "$dead" model_misses)" = 0

# The runner: the same refusal is the run's failure, with bnb-vm's reason
run=$BNB_ROOT/build/bin/bnb-run
work=$(run_dir plugin-dead-run)
cat > "$work/dead.ini" <<'INI'
[global]
nodes = 2
timing = deterministic
workload = autonuma --test numa02 --size 8M --passes 20
plugin_opts = map=qemu72 map_fail=flag
repetitions = 1
time_limit = 300

[machine]
model = 2socket

[dead]
INI
"$run" "$work/dead.ini" --out "$work/out" --no-plots > "$work/run.log" 2>&1
rc=$?
check "bnb-run: a run whose model charged nothing fails (exit $rc, want 1)" test "$rc" = 1
BNB_VM_EXPECT=plugin-failed vm_clean "$work/out/runs/dead/rep1"
reason=$(sed -n 's/^reason=//p' "$work/out/runs/dead/rep1/status")
check "bnb-run: its reason is bnb-vm's: $reason" \
	grep -q '(bnb-vm exit 6): the machine model is on but charged no miss: the map check failed: map check FAILED: node 1' <<<"$reason"

[ -n "${BNB_KEEP:-}" ] || rm -rf "$live" "$dead" "$work"
done_testing
