#!/bin/bash
# The machine model (bench/model/model.h) charged to the guest's own
# clock: model options a run cannot honour are refused before anything
# runs; under deterministic timing it is the 2socket class unless
# --model off, which says that remote memory then costs nothing; a remote
# stream's own work time is slower than a local one by the configured
# latency ratio (+-10 %) per byte of its kernels when every miss waits in
# full; a 2-thread numa02 whose memory starts on one node does more work
# per second of guest time with balancing on than off; an experiment
# without a [machine] section charges a remote stream more than a local
# one.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "machine model"

SO=$BNB_ROOT/build/bin/bnb-plugin.so
CHECK=$BNB_ROOT/build/bin/bnb-plugin-check


det=(--timing deterministic --plugin "$SO")
vm_refused "the model refused in wall-clock mode" "--model: the machine model needs deterministic timing" \
	--plugin "$SO" --model 2socket --dry-run
vm_refused "a latency table of the wrong size refused" "--latencies: 1 rows; want 2" \
	"${det[@]}" --model 2socket --latencies "100,200" --dry-run
vm_refused "a remote latency below the local one refused" "--latencies: 0->1 is 90 ns, below the local" \
	"${det[@]}" --model 2socket --latencies "100,90;200,100" --dry-run
vm_refused "a zero bandwidth refused" "--node-bandwidth-mbs" \
	"${det[@]}" --model 2socket --node-bandwidth-mbs 0 --dry-run
vm_refused "model options with the model off refused" "--mlp: refines the machine model, which is off" \
	"${det[@]}" --model off --mlp 4 --dry-run
vm_refused "a model key as --plugin-opt refused, naming the option" \
	"--plugin-opt latency_ns=90: use --latency-ns" "${det[@]}" --plugin-opt latency_ns=90 --dry-run
vm_refused "counting only needs --model off under deterministic timing" \
	"--plugin-opt delay=off: the machine model (--model 2socket, the default" \
	"${det[@]}" --plugin-opt delay=off --dry-run

# Remote memory is never silently free: deterministic timing with the
# plugin gets the default class, and --model off says what it means.
out=$("$BNB_VM" "${det[@]}" --dry-run -- true 2>&1)
check "deterministic timing with the plugin: the model is 2socket unless off" \
	grep -q "bnb-plugin.so,.*,model=2socket" <<<"$out"
out=$("$BNB_VM" "${det[@]}" --model off --dry-run -- true 2>&1)
check "--model off: the plugin is told so, and bnb-vm says remote memory costs nothing" \
	grep -q "bnb-plugin.so,.*,model=off.*" <<<"$out"
check "--model off: ... on against off shows only the balancer's cost" \
	grep -q "^bnb-vm: deterministic timing without the machine model (--model off): remote memory costs nothing, so balancing on against off shows only the balancer's cost" <<<"$out"
out=$("$BNB_VM" --plugin "$SO" --dry-run -- true 2>&1)
check "wall timing: no model, and nothing said" \
	test "$(grep -c 'model=off' <<<"$out")$(grep -c 'costs nothing' <<<"$out")" = 10


# Latency only: one miss in flight (a stream waits like a chase), memory
# and links far faster than needed, so that every miss costs its latency:
# 200 ns local, 400 ns remote (distance 20).
d=$(run_dir model-ratio)
bnb_vm "$d" "${det[@]}" --plugin-opt shm="$d/c.shm" --model 2socket --latency-ns 200 \
	--mlp 1 --node-bandwidth-mbs 100000000 --link-bandwidth-mbs 100000000 --timeout 900 -- \
	'bnb-plugin-calib >/dev/null &&
	 stream --size 2M --iterations 3 --threads 1 --placement local &&
	 stream --size 2M --iterations 3 --threads 1 --placement remote' >/dev/null 2>&1
check "the latency-bound streams ran" test $? -eq 0
"$CHECK" "$d/c.shm" > "$d/check.out" 2>/dev/null
rl=$(stream_rate "$d/out.log" "placement=local")
rr=$(stream_rate "$d/out.log" "placement=remote")
share=$(sed -n 's/^model_stall_share=//p' "$d/check.out")
diag "stream MB per guest second: local ${rl:-?}, remote ${rr:-?}; stall share ${share:-?}"
check "remote/local time per byte is the latency ratio 2 (+-10 %)" \
	awk -v a="${rl:-0}" -v b="${rr:-0}" 'BEGIN { r = b > 0 ? a / b : 0; exit !(r >= 1.8 && r <= 2.2) }'
check "the model's stalls are most of the guest's busy time" \
	awk -v s="${share:-0}" 'BEGIN { exit !(s > 0.5) }'

# numa02-like: 2 threads, one per node, each zeroing its own half of one
# buffer the main thread first touched on node 0; the 2-socket class.
numa02() {
	local dir=$1 bal=$2
	# shellcheck disable=SC2016 # the guest's shell expands it
	bnb_vm "$dir" "${det[@]}" --model 2socket --balancing "$bal" --timeout 1200 -- \
		'for k in scan_delay_ms:100 scan_period_min_ms:100; do
			f=/proc/sys/kernel/numa_balancing_${k%%:*}; [ -w "$f" ] && echo "${k#*:}" > "$f"
		 done
		 bnb-plugin-calib >/dev/null &&
		 autonuma --test numa02 --size 32M --threads 2 --passes 60' >/dev/null 2>&1
}
rate_of() {
	sed -n 's/^# summary .*rate_mean=\([0-9.]*\).*/\1/p' "$1/out.log"
}
don=$(run_dir model-on); numa02 "$don" on; rc_on=$?
doff=$(run_dir model-off); numa02 "$doff" off; rc_off=$?
check "numa02 ran with balancing on and off" test "$rc_on$rc_off" = 00
ron=$(rate_of "$don"); roff=$(rate_of "$doff")
diag "numa02 MB per guest second: balancing on ${ron:-?}, off ${roff:-?}"
check "balancing on does more work per guest second than off" \
	awk -v a="${ron:-0}" -v b="${roff:-0}" 'BEGIN { exit !(b > 0 && a > b) }'

# The runner: an experiment under deterministic timing without a
# [machine] section charges a remote STREAM more than a local one (with
# remote memory free, as before, their work times were equal).
x=$(run_dir model-default)
cat > "$x/remote.ini" <<'INI'
[global]
timing = deterministic
nodes = 2
cpus = 1
mem = 512M
repetitions = 1
time_limit = 900
workload = stream --size 2M --iterations 3 --threads 1 --placement local

[local]

[remote]
workload = stream --size 2M --iterations 3 --threads 1 --placement remote
INI
"$BNB_ROOT/build/bin/bnb-run" "$x/remote.ini" --out "$x/out" --no-plots > "$x/run.log" 2>&1
check "the local and remote streams ran" test $? -eq 0
check "their progress lines plan the model's charges" \
	test "$(grep -c 'rep 1: started (latency emulated if the map check passes' "$x/run.log")" = 2
check "bnb-vm ran both with the default class" \
	test "$(cat "$x"/out/runs/*/rep1/result | grep -c '^model=2socket')" = 2
wl=$(sed -n 's/^# summary .*work_s=\([0-9.]*\).*/\1/p' "$x/out/runs/local/rep1/out.log")
wr=$(sed -n 's/^# summary .*work_s=\([0-9.]*\).*/\1/p' "$x/out/runs/remote/rep1/out.log")
diag "stream work_s: local ${wl:-?}, remote ${wr:-?} (2socket by default)"
check "remote memory costs more than local without a [machine] section" \
	awk -v l="${wl:-0}" -v r="${wr:-0}" 'BEGIN { exit !(l > 0 && r / l > 1.3) }'

[ -n "${BNB_KEEP:-}" ] || rm -rf "$d" "$don" "$doff" "$x"
done_testing
