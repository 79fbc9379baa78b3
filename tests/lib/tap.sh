# shellcheck shell=bash
# TAP helpers for the guest integration tests (tests/guest/*.t).
# A .t file sources this, calls ok/not_ok/skip, and ends with done_testing.

BNB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export BNB_ROOT
BNB_VM=$BNB_ROOT/build/bin/bnb-vm
# shellcheck source=tests/lib/python.sh
. "$BNB_ROOT/tests/lib/python.sh"
python3() {
	if [ -n "$BNB_PYTHON" ]; then "$BNB_PYTHON" "$@"; else command python3 "$@"; fi
}
_tap_n=0
# TAP goes to the test's stdout as it was when this file was sourced, so
# that a helper called with its output redirected still reports.
exec {_tap_fd}>&1

ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*" >&"$_tap_fd"; }
not_ok() { _tap_n=$((_tap_n + 1)); echo "not ok $_tap_n - $*" >&"$_tap_fd"; }
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1 # SKIP ${2:-}" >&"$_tap_fd"; }
diag() { echo "# $*" >&"$_tap_fd"; }
done_testing() { echo "1..$_tap_n" >&"$_tap_fd"; }

# check DESCRIPTION COMMAND...: ok when the command succeeds.
check() {
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# A fresh run directory under build/test-runs. Nothing removes it by
# itself: each .t file removes its run directories at its end unless
# BNB_KEEP is set, so a failure leaves them to look at.
run_dir() {
	local d
	mkdir -p "$BNB_ROOT/build/test-runs"
	d=$(mktemp -d "$BNB_ROOT/build/test-runs/${1:-run}.XXXXXX")
	echo "$d"
}

# bnb_vm RUN_DIR [bnb-vm options] -- 'guest command': boot a guest; its
# exit status is bnb-vm's; RUN_DIR holds out.log, console.log and result.
# Every boot is a test of its own too (vm_clean): a test that expects
# the guest command to fail or hang says so in BNB_VM_EXPECT.
bnb_vm() {
	local dir=$1 rc
	shift
	"$BNB_VM" --run-dir "$dir" "$@"
	rc=$?
	vm_clean "$dir" "$rc"
	return "$rc"
}

# vm_clean RUN_DIR [BNB-VM-EXIT]: ok when bnb-vm's result file says the
# kernel printed no WARNING and the boot ended with a status named in
# BNB_VM_EXPECT (default "ok": the guest command exited 0; a kernel BUG or
# oops is "panic", a hang "timeout").  The console's trouble lines go to
# the TAP stream as comments.
vm_clean() {
	local dir=$1 status warnings name want=${BNB_VM_EXPECT:-ok}

	name=${dir#"$BNB_ROOT/build/test-runs/"}
	name=$(sed -E 's/\.[A-Za-z0-9]{6}(\/|$)/\1/g' <<<"$name")
	if [ ! -s "$dir/result" ]; then
		not_ok "boot $name: bnb-vm wrote no result file (exit ${2:-?})"
		return 1
	fi
	status=$(result_field "$dir" status)
	warnings=$(result_field "$dir" warnings)
	if [ "${warnings:-x}" = 0 ] && [[ " $want " == *" $status "* ]]; then
		ok "boot $name: no kernel warning, status $status"
		return 0
	fi
	not_ok "boot $name: status $status (want $want), kernel warnings ${warnings:-unknown}: $(result_field "$dir" reason)"
	grep -E -A3 'WARNING: |BUG: |kernel BUG at|Oops: |Kernel panic|general protection fault|INFO: ' \
		"$dir/console.log" 2>/dev/null | head -n 40 | sed 's/^/#   /' >&"$_tap_fd"
	return 1
}

# vm_refused DESCRIPTION EXPECTED-TEXT BNB-VM-OPTIONS...: ok when bnb-vm
# exits 2 with the text on stderr (pass --dry-run to refuse before booting).
vm_refused() {
	local desc=$1 want=$2 err rc
	shift 2
	err=$("$BNB_VM" "$@" -- true 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -eq 2 ] && [[ $err == *"$want"* ]]; then
		ok "$desc"
	else
		not_ok "$desc (exit $rc: $err)"
	fi
}

# stream_rate OUT_LOG HEADER-REGEX: rate_mean (MB per guest second of the
# stream kernels: their own time, without the setup's page faults) of the
# workload whose header line matches.
stream_rate() {
	awk -v h="$2" '$0 ~ h { on = 1 } on && /^# summary/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^rate_mean=/) { sub("rate_mean=", "", $i); print $i; exit } }' "$1"
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
