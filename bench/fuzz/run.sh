#!/bin/sh
# Run the reply-parser fuzzer for SECONDS on a scratch copy of the seed
# corpus, at low priority so the rest of the machine keeps its CPU.
# Crash inputs are written to bench/fuzz/regressions/ (commit them: the
# unit test test_collector_fuzz replays every file there).
set -eu
bin=${1:?usage: run.sh FUZZER [SECONDS]}
seconds=${2:-600}
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/corpus/* "$work"/
exec nice -n 19 "$bin" -max_total_time="$seconds" -max_len=20000 \
	-artifact_prefix="$here/regressions/" -print_final_stats=1 "$work"
