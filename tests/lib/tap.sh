# shellcheck shell=bash
# TAP helpers for the guest integration tests (tests/guest/*.t).
# A .t file sources this, calls ok/not_ok/skip, and ends with done_testing.

BNB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export BNB_ROOT
BNB_VM=$BNB_ROOT/build/bin/bnb-vm
_tap_n=0

ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
not_ok() { _tap_n=$((_tap_n + 1)); echo "not ok $_tap_n - $*"; }
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1 # SKIP ${2:-}"; }
diag() { echo "# $*"; }
done_testing() { echo "1..$_tap_n"; }

# check DESCRIPTION COMMAND...: ok when the command succeeds.
check() {
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# A fresh run directory under build/test-runs, removed at exit unless
# BNB_KEEP is set.
run_dir() {
	local d
	mkdir -p "$BNB_ROOT/build/test-runs"
	d=$(mktemp -d "$BNB_ROOT/build/test-runs/${1:-run}.XXXXXX")
	echo "$d"
}

# bnb_vm RUN_DIR [bnb-vm options] -- 'guest command': boot a guest; its
# exit status is bnb-vm's; RUN_DIR holds out.log, console.log and result.
bnb_vm() {
	local dir=$1
	shift
	"$BNB_VM" --run-dir "$dir" "$@"
}

# result_field RUN_DIR KEY: one value from bnb-vm's result file.
result_field() {
	sed -n "s/^$2=//p" "$1/result"
}

# Guest tests need the kernel and the initramfs; without them, skip all.
require_guest() {
	local f
	for f in "$BNB_VM" "$BNB_ROOT/build/kernel/bzImage" "$BNB_ROOT/build/guest/initramfs.cpio"; do
		if [ ! -e "$f" ]; then
			skip "${1:-guest tests}" "$f is missing (make all kernel)"
			done_testing
			exit 0
		fi
	done
}
