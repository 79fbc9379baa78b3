#!/bin/bash
# The runner under faults and hostile input (issue 29, item 5): a results
# folder in use is locked against a second runner; a runner killed with
# SIGKILL takes its launcher, QEMU and collector with it and its logs are
# in the run folder from the start, and the next run removes the socket
# folder it could not; a run that reaches its time_limit says so; a QEMU
# that cannot start fails the run at once with QEMU's own words; a full
# disk fails a run cleanly, saying which disk, with a right status file
# and no claim of a summary that was not written; the plugin's counters
# file is allocated, not sparse.
# Full-disk cases mount small tmpfs file systems in a private mount
# namespace (the file re-runs itself under unshare -m), so nothing is left
# mounted; without that right they are skipped.
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
if [ -z "${BNB_HOSTILE_NS:-}" ] && unshare -m true 2> /dev/null; then
	BNB_HOSTILE_NS=1 exec unshare -m "$0" "$@"
fi
require_guest "hostile-input and fault tests"

run=$BNB_ROOT/build/bin/bnb-run
work=$(run_dir hostile)
[ -n "${BNB_KEEP:-}" ] || trap 'umount "$work"/mnt* 2> /dev/null; rm -rf "$work"' EXIT

# descendants PID: every process below PID, one per line
descendants() {
	local c
	for c in $(pgrep -P "$1"); do
		echo "$c"
		descendants "$c"
	done
}

# wait_for SECONDS COMMAND...: until the command succeeds; 1 on timeout
wait_for() {
	local n=$(($1 * 5))
	shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.2
		n=$((n - 1))
	done
	return 1
}

# --- a folder in use: locked; SIGKILL leaves nothing running ---------------
cat > "$work/sleep.ini" <<'INI'
[global]
nodes = 2
latency = off
workload = sleep 600
repetitions = 1
time_limit = 900

[a]
INI
d=$work/live
"$run" "$work/sleep.ini" --out "$d" --no-plots > "$work/live.log" 2>&1 &
rpid=$!
r=$d/runs/a/rep1
# the guest's output reaches the run folder while the run is live
check "the live run's out.log is in its run folder from the start" \
	wait_for 240 grep -q '^# bnb-prov' "$r/out.log"
check "while it runs" grep -qx 'status=running' "$r/status"
"$run" --resume "$d" > "$work/resume.log" 2>&1
rc=$?
check "--resume of a live folder is refused (exit $rc)" test "$rc" = 2
check "the refusal names the runner's pid $rpid" grep -q "held by pid $rpid" "$work/resume.log"
check "the live run was not moved aside" test ! -e "$r.prev-1"
"$run" job "$d" 1 > "$work/job.log" 2>&1
rc=$?
check "the same job started again is refused (exit $rc), naming pid $rpid" \
	eval "test $rc = 1 && grep -q 'held by pid $rpid' '$work/job.log'"
# what a killed runner cannot remove, its socket folder's link to the run,
# the next run removes (its run folder's lock is free): found while the
# run lives, since any runner's start (another test's, in parallel) may
# sweep it once the killed run's lock is free
stale=
for l in /tmp/bnb-run-*/r; do
	[ "$(readlink -f "$l")" = "$(readlink -f "$r")" ] && stale=$(dirname "$l")
done
diag "the live runner's socket folder: ${stale:-none}"
kids=$(descendants "$rpid")
diag "bnb-run $rpid runs $(echo "$kids" | wc -w) processes below it"
check "the run has its launcher, QEMU and collector" test "$(echo "$kids" | wc -w)" -ge 3
kill -9 "$rpid"
wait "$rpid" 2> /dev/null
gone() {
	local p
	for p in $kids; do
		kill -0 "$p" 2> /dev/null && return 1
	done
	return 0
}
check "SIGKILL of bnb-run: launcher, QEMU and collector end within 30 s" wait_for 30 gone
for p in $kids; do
	kill -9 "$p" 2> /dev/null
done
missing=
for f in console.log out.log result collect.log vm.log; do
	[ -s "$r/$f" ] || missing="$missing $f"
done
check "the killed run's logs are in its run folder${missing:+ (missing:$missing)}" test -z "$missing"
check "the killed runner's lock is free again" flock -n "$d/lock" true
BNB_VM_EXPECT=timeout vm_clean "$r"

# --- output without a final newline ------------------------------------------
printf '%s\n' '[global]' 'nodes = 2' 'latency = off' 'repetitions = 1' 'time_limit = 300' \
	'[a]' "workload = sh -c 'sleep 1; printf abc'" > "$work/nonl.ini"
"$run" "$work/nonl.ini" --out "$work/nonl" --no-plots > "$work/nonl.log" 2>&1
rc=$?
st=$work/nonl/runs/a/rep1/status
check "a workload whose output ends without a newline runs ok (exit $rc): $(sed -n 's/^reason=//p' "$st")" \
	grep -qx status=ok "$st"
check "its elapsed time is measured" grep -q '"elapsed_s"' "$work/nonl/runs/a/rep1/summary.json"
check "its partial line is kept" grep -qx abc "$work/nonl/runs/a/rep1/out.log"
vm_clean "$work/nonl/runs/a/rep1"
check "the next run removed the killed runner's socket folder (${stale:-none})" \
	test -n "$stale" -a ! -e "${stale:-/}/r"
[ -z "$stale" ] || rm -rf "$stale"

# --- a run that reaches its time limit says so, not "guest hung" ------------
printf '%s\n' '[global]' 'nodes = 2' 'latency = off' 'repetitions = 1' 'time_limit = 5' \
	'[a]' 'workload = sleep 600' > "$work/limit.ini"
"$run" "$work/limit.ini" --out "$work/limit" --no-plots > "$work/limit.log" 2>&1
st=$work/limit/runs/a/rep1/status
check "time_limit reached is said as such: $(sed -n 's/^reason=//p' "$st" | cut -c1-150)" \
	grep -q '^reason=time_limit reached (bnb-vm exit 3): no end within --timeout 5 s: .*raise time_limit if the workload needs longer$' "$st"
check "and the progress line says no host rate, not nan" \
	grep -q '^\[1/1\] a rep 1: started (.*no host rate: ' "$work/limit.log"
BNB_VM_EXPECT=timeout vm_clean "$work/limit/runs/a/rep1"

# --- a fake second summary line --------------------------------------------
printf '%s\n' '[global]' 'nodes = 2' 'latency = off' 'repetitions = 1' 'time_limit = 300' '[a]' \
	"workload = stream --size 1M --iterations 2; echo '# summary status=ok work_s=0.001 rate_mean=1'" \
	> "$work/fake.ini"
"$run" "$work/fake.ini" --out "$work/fake" --no-plots > "$work/fake.log" 2>&1
rc=$?
st=$work/fake/runs/a/rep1/status
check "a second '# summary' line fails the run (exit $rc): $(sed -n 's/^reason=//p' "$st" | cut -c1-120)" \
	grep -q "^reason=workload's summary refused: 2 '# summary' lines" "$st"
vm_clean "$work/fake/runs/a/rep1"

# --- a QEMU that cannot start ------------------------------------------------
cat > "$work/huge.ini" <<'INI'
[global]
nodes = 2
mem = 1T
timing = deterministic
workload = true
repetitions = 1
time_limit = 600

[a]
INI
start=$(date +%s)
"$run" "$work/huge.ini" --out "$work/huge" --no-plots > "$work/huge.log" 2>&1
rc=$?
took=$(($(date +%s) - start))
st=$work/huge/runs/a/rep1/status
if grep -q 'reason=.*QEMU' "$st"; then
	check "mem = 1T: the run fails (exit $rc)" test "$rc" = 1
	check "its reason has QEMU's own words: $(sed -n 's/^reason=//p' "$st" | cut -c1-160)" \
		grep -q '^reason=QEMU could not run.*Cannot allocate memory' "$st"
	# the time limit is 600 s: a failure found at once ends in seconds
	check "it costs seconds, not the time limit ($took s)" test "$took" -lt 120
else
	skip "mem = 1T" "QEMU started a 2 TiB guest on this host: $(sed -n 's/^reason=//p' "$st")"
fi

# --- full disks --------------------------------------------------------------
# mount_small NAME SIZE: a tmpfs of SIZE at $work/NAME, or 1
mount_small() {
	mkdir -p "$work/$1" && mount -t tmpfs -o "size=$2" tmpfs "$work/$1" 2> /dev/null
}
if [ -z "${BNB_HOSTILE_NS:-}" ] || ! mount_small mnt-probe 64k; then
	skip "full-disk tests" "no private mount namespace (unshare -m) to mount a small tmpfs in"
	done_testing
	exit 0
fi
umount "$work/mnt-probe"

# 64 KiB: too little for a run's records; it fails before anything boots
mount_small mnt-tiny 64k
"$run" "$work/sleep.ini" --out "$work/mnt-tiny/o" --no-plots > "$work/tiny.log" 2>&1
rc=$?
st=$work/mnt-tiny/o/runs/a/rep1/status
check "64 KiB free: exit 1, not a crash (exit $rc)" test "$rc" = 1
check "the status says failed, naming the disk: $(sed -n 's/^reason=//p' "$st" | cut -c1-120)" \
	grep -q "^reason=no space left on tmpfs (mounted on $work/mnt-tiny)" "$st"
check "nothing booted" test ! -e "$work/mnt-tiny/o/runs/a/rep1/console.log"

# 1.5 MiB and a guest that prints 4 MB: stopped as the disk fills
cat > "$work/fill.ini" <<'INI'
[global]
nodes = 2
latency = off
workload = yes 0123456789abcdef | head -c 4000000
repetitions = 1
time_limit = 900

[a]
INI
mount_small mnt-fill 1500k
o=$work/mnt-fill/o
"$run" "$work/fill.ini" --out "$o" --no-plots > "$work/fill.log" 2>&1
rc=$?
st=$o/runs/a/rep1/status
check "a disk filled by the guest: exit 1 (exit $rc)" test "$rc" = 1
check "the run is failed, naming the full disk: $(sed -n 's/^reason=//p' "$st" | cut -c1-120)" \
	eval "grep -qx status=failed '$st' && grep -q '^reason=no space left on tmpfs (mounted on $work/mnt-fill)' '$st'"
check "the summary was written and says so" \
	eval "test -s '$o/summary.md' && grep -q '^bnb-run: summary in $o/summary.md' '$work/fill.log'"
check "summary.md names the reason" grep -q 'no space left on tmpfs' "$o/summary.md"
# now nothing is left at all: the report cannot be written, and says why
dd if=/dev/zero of="$work/mnt-fill/filler" bs=4k 2> /dev/null
"$run" report "$o" > "$work/report.log" 2>&1
rc=$?
check "report on a full disk fails (exit $rc)" test "$rc" != 0
check "and names the disk" grep -q "cannot write $o/summary.*no space left on tmpfs" "$work/report.log"

# the plugin's counters file on a full disk: QEMU stops at once and says so
mount_small mnt-shm 64k
dd if=/dev/zero of="$work/mnt-shm/filler" bs=4k 2> /dev/null
"$BNB_VM" --run-dir "$work/shm" --timing deterministic --plugin "$BNB_ROOT/build/bin/bnb-plugin.so" \
	--plugin-opt "shm=$work/mnt-shm/plugin.shm" -- true > /dev/null 2>&1
rc=$?
check "plugin.shm on a full disk: bnb-vm exit 5 (exit $rc)" test "$rc" = 5
check "the reason is the plugin's ENOSPC: $(sed -n 's/^reason=//p' "$work/shm/result" | cut -c1-160)" \
	grep -q '^reason=QEMU .*plugin.shm: No space left on device' "$work/shm/result"
done_testing
