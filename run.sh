#!/bin/bash
# balancenuma-bench main entry point: installs and builds what the asked
# command needs, then hands over to the experiment runner, build/bin/bnb-run.
# Help and usage errors come first, before anything is installed or built.
set -euo pipefail
cd "$(dirname "$0")"
export BNB_ROOT=$PWD

# The runner's own --help, kept beside it as text (a test checks that it
# matches), so that help needs nothing built; the forms say ./run.sh.
usage() {
	sed '1,/^$/s|bnb-run|./run.sh|' bench/runner/help.txt
	cat <<'EOF'

./run.sh first installs missing Debian packages (bench/deps.sh, as root) and
builds what the command needs: the host tools for compare, plot and report;
for a run also the project's QEMU, the guest initramfs and the kernel (the
first time several minutes each, with a progress line every 10 s). A step
that fails is named with the command that retries it, and ./run.sh exits
with its status.
EOF
}

usage_error() {
	echo "run.sh: usage: ./run.sh $1 (./run.sh --help for more)" >&2
	exit 2
}

# step WHAT RETRY COMMAND...: one preparation step; when it fails, say
# which one and the command that retries it.
step() {
	local what=$1 retry=$2 rc=0
	shift 2

	"$@" || rc=$?
	[ "$rc" = 0 ] && return 0
	echo "run.sh: $what failed (exit $rc); fix the cause above, then retry with: $retry" >&2
	exit "$rc"
}

for arg in "$@"; do
	case $arg in
	-h | --help) usage; exit 0 ;;
	--help=*)
		[ -x build/bin/bnb-run ] || usage_error "$arg (it needs build/bin/bnb-run: make tools)"
		exec build/bin/bnb-run "$arg" ;;
	--) break ;;
	esac
done

# What the command needs: host tools only, or the guest too.
needs=run
case ${1:-} in
compare) [ $# -ge 3 ] || usage_error "compare [--out DIR] DIR_A DIR_B [DIR...]"; needs=tools ;;
plot | report) [ $# -eq 2 ] || usage_error "$1 DIR"; needs=tools ;;
reference) case " $* " in *" --table "* | *" --table="* | *" --help "* | *" -h "*) needs=tools ;; esac ;;
esac

# The kernel needs neither QEMU nor the tools, so it builds beside them:
# each build's quiet steps (unpacking, configuring, linking) and the
# single-job tools build leave a core to the other.  It runs in its own
# process group (set -m), which run.sh stops when it ends early, Ctrl-C
# included: an asynchronous command ignores SIGINT.
kernel_pid=
stop_kernel() {
	[ -n "$kernel_pid" ] || return 0
	kill -TERM -- -"$kernel_pid" 2>/dev/null || true
	wait "$kernel_pid" 2>/dev/null || true
}
start_kernel() {
	set -m
	make --no-print-directory -s kernel >&2 &
	kernel_pid=$!
	set +m
	trap stop_kernel EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}
wait_kernel() {
	local rc=0

	wait "$kernel_pid" || rc=$?
	kernel_pid=
	[ "$rc" = 0 ] && return 0
	echo "run.sh: building the kernel failed (exit $rc); fix the cause above, then retry with: make kernel" >&2
	exit "$rc"
}

step "installing packages" "make deps" bench/deps.sh
if [ "$needs" = tools ]; then
	step "building the host tools" "make tools" make --no-print-directory -s tools >&2
else
	start_kernel
	step "building QEMU" "make qemu" make --no-print-directory -s qemu >&2
	step "building the host tools and the guest" "make all" make --no-print-directory -s all >&2
	wait_kernel
fi
exec build/bin/bnb-run "$@"
