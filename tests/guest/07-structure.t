#!/bin/bash
# bnb-test: light (boots no guest: runs beside the guest suites)
# bench/runner stays in its rooms without the include circles issue 30
# took apart: tests/lib/includes.py lists the rooms and every circle among
# modules (a .c and its .h); the report, plot, run and reference rooms
# take part in none, and what is left is the one known circle of the
# experiment key table (experiment, keys, knobs, scale) with the run
# metrics it names (extract, monitors, tieringrun, results).
. "$(dirname "$0")/../lib/tap.sh"
cd "$BNB_ROOT" || exit 1

out=$(tests/lib/includes.py bench/runner)
rooms=$(grep -c '/ (' <<<"$out")
check "bench/runner has its rooms ($rooms)" test "$rooms" = 7
check "only main.c and runner.h stay at the top" grep -qx '\./ (2 files, [0-9]* lines): main.c runner.h' <<<"$out"
circles=$(grep '^include circle:' <<<"$out")
check "at most the one known circle ($(wc -l <<<"$circles"))" test "$(grep -c . <<<"$circles")" -le 1
check "no circle through plot/, run/, reference/ or the verdicts" \
	test -z "$(grep -E 'plot/|run/|reference/|verdict|sweep_report|report/report' <<<"$circles")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/a" "$tmp/b"
printf '#include "b/y.h"\n' > "$tmp/a/x.c"
printf '#include "a/x.h"\n' > "$tmp/b/y.c"
touch "$tmp/a/x.h" "$tmp/b/y.h"
toy=$(tests/lib/includes.py "$tmp")
check "the tool finds a circle where there is one" grep -qx 'include circle: a/x -> b/y' <<<"$toy"
done_testing
