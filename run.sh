#!/bin/bash
# balancenuma-bench main entry point: installs and builds what the asked
# command needs, then hands over to the experiment runner, build/bin/bnb-run.
# Help and usage errors come first, before anything is installed or built.
set -euo pipefail
cd "$(dirname "$0")"
export BNB_ROOT=$PWD

usage() {
	cat <<'EOF'
usage: ./run.sh [EXPERIMENT.ini] [--reps N] [--only VARIANT] [--out DIR] [--jobs N] [--no-plots]
       ./run.sh compare DIR_A DIR_B
       ./run.sh plot DIR
       ./run.sh report DIR
       ./run.sh --help

Runs every variant x repetition of EXPERIMENT (default
bench/experiments/default.ini) in a fresh guest and writes
results/<UTC time>-<experiment>/ with per-run time series, summary.json,
summary.md and plots (copied to plots/ too).

  --reps N       repetitions per variant (overrides the file)
  --only NAME    run one variant (a section name runs all its sweep points)
  --out DIR      results folder instead of results/<time>-<name>
  --jobs N       N guests at once through GNU parallel (one per 2 cores);
                 0: write the job list only
  --no-plots     skip gnuplot
  --help         print this text and exit
  compare        kernel/variant A vs B from two results folders (Welch t-test)
  plot, report   redraw the plots and tables of a results folder

First it installs missing Debian packages (bench/deps.sh, as root) and builds
what the command needs: host tools for compare/plot/report; for a run also
the project's QEMU, the guest initramfs and the kernel (first time: several
minutes each, with a progress line every 10 s). The experiment keys: bench/runner/README.md or
build/bin/bnb-run --help.

Exit status: 0 all runs ok, 1 a run failed or was incomplete, 2 bad usage or
experiment file, 130 interrupted (finished runs are kept); a failed install
or build step exits with its status after naming the step and the command
that retries it.
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
	--) break ;;
	esac
done

# What the command needs: host tools only, or the guest too.
needs=run
case ${1:-} in
compare) [ $# -eq 3 ] || usage_error "compare DIR_A DIR_B"; needs=tools ;;
plot | report) [ $# -eq 2 ] || usage_error "$1 DIR"; needs=tools ;;
esac

step "installing packages" "make deps" bench/deps.sh
if [ "$needs" = tools ]; then
	step "building the host tools" "make tools" make --no-print-directory -s tools >&2
else
	step "building QEMU" "make qemu" make --no-print-directory -s qemu >&2
	step "building the host tools and the guest" "make all" make --no-print-directory -s all >&2
	step "building the kernel" "make kernel" make --no-print-directory -s kernel >&2
fi
exec build/bin/bnb-run "$@"
