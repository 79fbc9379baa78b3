#!/bin/bash
# balancenuma-bench main entry point: builds what is missing, then runs the
# experiment runner. ./run.sh --help for the commands.
set -euo pipefail
cd "$(dirname "$0")"
export BNB_ROOT=$PWD

bench/deps.sh
make --no-print-directory -s all kernel >&2
exec build/bin/bnb-run "$@"
