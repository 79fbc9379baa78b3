#!/bin/bash
# The guest boots the small base archive unless the command names a tool
# of the tools archive (perf, stress-ng, numactl, lstopo): then bnb-vm
# boots the base with the tools appended, and every tool runs.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "tools archive tests"

guest=$BNB_ROOT/build/guest
check "the base archive is small ($(du -m "$guest/initramfs.cpio" | cut -f1) MB <= 24 MB)" \
	test "$(stat -c %s "$guest/initramfs.cpio")" -le $((24 << 20))
check "tools.list names perf, stress-ng, numactl and lstopo" \
	test "$(grep -cxE 'perf|stress-ng|numactl|lstopo' "$guest/tools.list")" = 4

# A command naming no tool boots the base (the patterns below are no
# tool's name, on purpose): none of the tools is there.
base=$(run_dir tools-base)
bnb_vm "$base" -- 'ls /opt/bnb/bin | grep -cxE "p.rf|str.ss-ng|n.mactl|lst.po.*" | grep -x 0' 2>/dev/null
check "without a tool word the guest boots the base, without the tools ($(cat "$base/out.log"))" \
	test "$(cat "$base/out.log")" = 0

# Naming the tools boots them; each one runs in the guest.
tools=$(run_dir tools-on)
bnb_vm "$tools" -- 'perf --version && stress-ng --version && numactl --hardware &&
lstopo-no-graphics --of console --no-io' 2>/dev/null
rc=$?
check "a command naming the tools runs all of them (exit $rc)" test "$rc" = 0
check "perf runs" grep -q '^perf version' "$tools/out.log"
check "stress-ng runs" grep -q '^stress-ng, version' "$tools/out.log"
check "numactl sees the guest's two nodes" grep -q '^available: 2 nodes' "$tools/out.log"
check "lstopo sees the guest's NUMA nodes" grep -q 'NUMANode' "$tools/out.log"
check "--tools off keeps the base even for a tool word" \
	grep -q -- "-initrd [^ ]*build/guest/initramfs.cpio" < <("$BNB_VM" --tools off --dry-run -- perf)
check "--tools auto picks initramfs-tools.cpio for a tool word" \
	grep -q -- "-initrd [^ ]*build/guest/initramfs-tools.cpio" < <("$BNB_VM" --dry-run -- 'perf stat true')

[ -n "${BNB_KEEP:-}" ] || rm -rf "$base" "$tools"
done_testing
