#!/bin/bash
# make kernel-stress: every balancenuma knob written at random, valid and
# invalid values, for SECONDS while stream, producer/consumer and THP
# workloads run, on a kernel built with kernel/config/debug.config
# (lockdep, DEBUG_VM, DEBUG_LIST). Passes when kt-stress passes and the
# console shows no WARN, BUG, lockdep report or oops.
#
#   kernel/stress.sh [--secs SECONDS] [--kernel BZIMAGE]
#
# Without --kernel it builds (or reuses) the debug kernel as
# build/kernel-debug/bzImage. The run directory is kept and printed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
secs=120
kernel=

die() { echo "kernel/stress.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case $1 in
	--secs) secs=${2:?--secs needs a number}; shift ;;
	--kernel) kernel=${2:?--kernel needs a bzImage}; shift ;;
	*) die "unknown option '$1' (usage: kernel/stress.sh [--secs N] [--kernel BZIMAGE])" ;;
	esac
	shift
done
[[ $secs =~ ^[1-9][0-9]*$ ]] || die "--secs must be a positive integer, got '$secs'"

vm=$root/build/bin/bnb-vm
initrd=$root/build/guest/initramfs-kt.cpio
[ -x "$vm" ] || die "$vm is missing: run 'make tools'"
[ -r "$initrd" ] || die "$initrd is missing: run 'make guest'"

if [ -z "$kernel" ]; then
	"$root/kernel/build.sh" --debug --link "$root/build/kernel-debug"
	kernel=$root/build/kernel-debug/bzImage
fi
[ -r "$kernel" ] || die "kernel $kernel is missing"

# The workloads restart until kt-stress is done; their output is dropped,
# only their crashes would matter and those show on the console.
guest_cmd="
loop() { while [ ! -e /tmp/stress.done ]; do \"\$@\" > /dev/null 2>&1; done; }
loop stream --size 16M --iterations 20 --placement misplaced --node 0 &
loop prodcons --size 1M --iterations 5 --placement misplaced &
loop thp --size 32M --iterations 5 --placement misplaced --node 1 &
kt-stress $secs
rc=\$?
touch /tmp/stress.done
wait
echo '# balancing counters at the end, to show the workloads ran:'
grep -E '^(numa_|thp_migration)' /proc/vmstat | sed 's/^/# /'
exit \$rc"

mkdir -p "$root/build/test-runs"
dir=$(mktemp -d "$root/build/test-runs/stress.XXXXXX")
echo "kernel-stress: ${secs} s in $dir with $kernel"
rc=0
"$vm" --run-dir "$dir" --kernel "$kernel" --initrd "$initrd" --nodes 2 \
	--timeout $((secs + 300)) -- "$guest_cmd" || rc=$?
cat "$dir/out.log" 2>/dev/null || true

# What a debug kernel prints when something is wrong
bad='WARNING:|BUG:|kernel BUG|Oops|general protection|Call Trace|lockdep|possible circular locking|possible recursive locking|inconsistent lock state|list_add corruption|list_del corruption|page dumped because|sleeping function called from invalid context|Kernel panic'
reports=$(grep -E -c "$bad" "$dir/console.log" || true)
if [ "$reports" -gt 0 ]; then
	echo "kernel-stress: FAIL: $reports suspicious console line(s):"
	grep -E "$bad" "$dir/console.log" | head -20
	exit 1
fi
if [ "$rc" -ne 0 ]; then
	echo "kernel-stress: FAIL: bnb-vm exit $rc ($(sed -n 's/^status=//p' "$dir/result"))"
	exit 1
fi
echo "kernel-stress: PASS: no WARN, BUG, lockdep report or oops in $dir/console.log"
