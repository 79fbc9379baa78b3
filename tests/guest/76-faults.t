#!/bin/bash
# bnb-test: light (boots no guest: runs beside the guest suites)
# The second fault pass (issue 42) where it needs the tools as a user runs
# them but no guest: plots on a disk that fills are named as cut and
# removed, never counted as made; two results folders of one name publish
# their plots side by side; --jobs 0 refuses what a run would (a missing
# kernel, a bad workload option) and no kernel that cannot boot (a
# folder, a text file, a bzImage cut short) gets a folder; bnb-vm takes
# a --run-dir it cannot write, or an empty command, as the usage error it
# is; a kernel build that waited for another finds the kernel built. The full-disk case mounts a small tmpfs in a
# private mount namespace (the file re-runs itself under unshare -m), so
# nothing is left mounted; without that right it is skipped.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
if [ -z "${BNB_FAULTS_NS:-}" ] && unshare -m true 2> /dev/null; then
	BNB_FAULTS_NS=1 exec unshare -m "$0" "$@"
fi

run=$BNB_ROOT/build/bin/bnb-run
fixture=$BNB_ROOT/tests/unit/fixtures/runner/onoff
work=$(run_dir faults)
[ -n "${BNB_KEEP:-}" ] || trap 'umount "$work"/mnt* 2> /dev/null; rm -rf "$work"' EXIT

# whole_images DIR: every PNG of DIR ends with its IEND chunk and every SVG
# with </svg>; names the first that does not
whole_images() {
	local f
	for f in "$1"/*.png "$1"/*.svg; do
		[ -e "$f" ] || continue
		case $f in
		*.png) [ "$(tail -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 49454e44ae426082 ] ;;
		*.svg) tail -c 16 "$f" | grep -q '</svg>' ;;
		esac || { echo "$f"; return 1; }
	done
}

# --- item 18: two folders of one name publish side by side -----------------
mkdir -p "$work/a" "$work/b" "$work/root"
cp -r "$fixture" "$work/a/same"
cp -r "$fixture" "$work/b/same"
BNB_ROOT=$work/root "$run" plot "$work/a/same" > "$work/a.log" 2>&1
BNB_ROOT=$work/root "$run" plot "$work/b/same" > "$work/b.log" 2>&1
check "the first folder publishes to plots/same" grep -qx "$work/a/same" "$work/root/plots/same/.from"
check "the second, of the same name, to plots/same-2, leaving the first's alone" \
	grep -qx "$work/b/same" "$work/root/plots/same-2/.from"
check "and says where it copied them" grep -q "copied to $work/root/plots/same-2\$" "$work/b.log"
BNB_ROOT=$work/root "$run" plot "$work/a/same" > "$work/a2.log" 2>&1
check "a folder plotted again keeps its own name" grep -q "copied to $work/root/plots/same\$" "$work/a2.log"

# --- items 9 and 12: --jobs 0 makes a run's checks; a kernel that cannot boot --
# refused NAME WANT KERNEL WORKLOAD: bnb-run --jobs 0 exits 2 saying WANT
# and makes no folder
refused() {
	local ini=$work/$1.ini out=$work/$1.out err
	printf '[global]\nnodes = 2\nworkload = %s\n%s\n[a]\n' "$4" "${3:+kernel = $3}" > "$ini"
	err=$("$run" "$ini" --jobs 0 --out "$out" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = 2 ] && [[ $err == *"$2"* ]] && [ ! -e "$out" ]; then
		ok "--jobs 0 refuses $1: $err"
	else
		not_ok "--jobs 0 with $1: exit $rc$([ -e "$out" ] && echo ", a folder made"): $err"
	fi
}
head -c 100000 "$BNB_ROOT/build/kernel/bzImage" > "$work/cut.bzImage"
refused missing-kernel "kernel $work/none: No such file or directory" "$work/none" stream
refused bad-option "stream: unknown option '--bogus'" "" "stream --bogus"
refused folder-kernel "is not a file (a bzImage)" "$work" stream
refused text-kernel "is not a bzImage (no boot protocol header)" /etc/passwd stream
refused cut-kernel "is cut short: 100000 bytes of the" "$work/cut.bzImage" stream

# --- item 16: bnb-vm's usage errors are usage errors -------------------------
# vm_usage DESCRIPTION WANT ARGS...: bnb-vm --dry-run exits 2 saying WANT
vm_usage() {
	local desc=$1 want=$2 err rc
	shift 2
	err=$("$BNB_VM" --dry-run "$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = 2 ] && [[ $err == *"$want"* ]]; then
		ok "$desc: $err"
	else
		not_ok "$desc (exit $rc: $err)"
	fi
}
: > "$work/a-file"
vm_usage "--run-dir a file is a usage error" "--run-dir $work/a-file: not a folder" \
	--run-dir "$work/a-file" -- true
vm_usage "--run-dir /proc/self is a usage error" "--run-dir /proc/self: cannot write there" \
	--run-dir /proc/self -- true
vm_usage "an empty guest command is refused" "the guest command is empty" -- ''
vm_usage "a blank guest command is refused" "the guest command is empty" -- '  '

# A run bnb-vm refuses as bad usage (more vCPUs than the guest kernel
# boots) says why, in the run's reason, not only "launcher usage error".
printf '%s\n' '[global]' 'nodes = 33' 'cpus = 2' 'mem = 64M' 'workload = true' \
	'timing = deterministic' 'latency = off' 'repetitions = 1' '[a]' > "$work/vcpus.ini"
"$run" "$work/vcpus.ini" --out "$work/vcpus" --no-plots > "$work/vcpus.log" 2>&1
check "a run bnb-vm refuses says why: $(sed -n 's/^reason=//p' "$work/vcpus/runs/a/rep1/status" | cut -c1-140)" \
	grep -q '^reason=launcher usage error (bnb-vm exit 2): cpus: 66 vCPUs, but the guest kernel' \
	"$work/vcpus/runs/a/rep1/status"

# --- item 10: a kernel built while this build waited is not built again ---
# A scratch cache whose lock another build holds; it finishes this very
# kernel (a bzImage at its key) and lets go. The waiting build must take
# it as built, not build it again over the entry a runner may boot.
cache=$work/cache
mkdir -p "$cache"
exec {lockfd}> "$cache/lock"
flock "$lockfd"
BNB_CACHE=$cache timeout 60 "$BNB_ROOT/kernel/build.sh" --kernel debian-6.1 > "$work/wait.log" 2>&1 {lockfd}>&- &
waiter=$!
for _ in $(seq 100); do
	grep -q 'waiting for another kernel build' "$work/wait.log" && break
	sleep 0.1
done
d=$(BNB_CACHE=$cache "$BNB_ROOT/kernel/build.sh" --kernel debian-6.1 --print-dir)
mkdir -p "$d" && echo "the other build's" > "$d/bzImage"
exec {lockfd}>&-
wait "$waiter"
rc=$?
check "a build that waited for the same kernel finds it built (exit $rc): $(tail -n 1 "$work/wait.log")" \
	grep -q 'up to date, built while this one waited' "$work/wait.log"
check "and leaves the other build's entry alone" grep -qx "the other build's" "$d/bzImage"

# --- item 4: plots on a full disk -------------------------------------------
if [ -z "${BNB_FAULTS_NS:-}" ] ||
	! { mkdir -p "$work/mnt-plots" && mount -t tmpfs -o size=400k tmpfs "$work/mnt-plots"; } 2> /dev/null; then
	skip "full-disk plots" "no private mount namespace (unshare -m) to mount a small tmpfs in"
	done_testing
	exit 0
fi
d=$work/mnt-plots/same
cp -r "$fixture" "$d"
BNB_ROOT=$work/mnt-plots/root "$run" plot "$d" > "$work/full.out" 2> "$work/full.err"
rc=$?
check "plots on a disk that fills: exit 1 (got $rc)" test "$rc" = 1
check "the disk is named: $(grep -m1 'no space' "$work/full.err" | cut -c1-120)" \
	grep -q "no space left on tmpfs (mounted on $work/mnt-plots)" "$work/full.err"
check "no plot is claimed whole: '$(grep 'plots in' "$work/full.out")'" \
	grep -q 'plots in .*(some failed: above, and gnuplot.log)$' "$work/full.out"
cut=$(whole_images "$d/plots")
check "no cut image left in the folder's plots/ (${cut:-none})" test -z "$cut"
cut=$(whole_images "$work/mnt-plots/root/plots/same" 2> /dev/null)
check "nor in the tree's plots/ (${cut:-none})" test -z "$cut"
gp=$(find "$d/plots" -maxdepth 1 -name '*.gp' -size 0 | head -n 1)
check "a gnuplot script cut to nothing is said, not drawn from (${gp:-none})" \
	sh -c "test -z '$gp' || grep -q 'cannot write $gp' '$work/full.err'"
umount "$work/mnt-plots"

done_testing
