#!/bin/bash
# bnb-test: light (boots no guest: runs beside the guest suites)
# bench/runner stays in its rooms without the include circles issue 30
# took apart: tests/lib/includes.py lists the rooms and every circle among
# modules (a .c and its .h), and there are none: the experiment's types
# (variant.h) and sweeps (sweep.h) are leaves that the key table and the
# scaling plan read without the loader, the sysctl names belong to the
# knob table, and the run metrics (extract/) feed the results (report/)
# without reading them. The account of balancing (account/) is a room of
# its own that the run, the report and the plots call.
. "$(dirname "$0")/../lib/tap.sh"
cd "$BNB_ROOT" || exit 1

out=$(tests/lib/includes.py bench/runner)
rooms=$(grep -c '/ (' <<<"$out")
check "bench/runner has its rooms ($rooms)" test "$rooms" = 11
check "only main.c and runner.h stay at the top" grep -qx '\./ (2 files, [0-9]* lines): main.c runner.h' <<<"$out"
check "no include circle: $(grep '^include circle' <<<"$out")" grep -qx 'include circles: none' <<<"$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/a" "$tmp/b"
printf '#include "b/y.h"\n' > "$tmp/a/x.c"
printf '#include "a/x.h"\n' > "$tmp/b/y.c"
touch "$tmp/a/x.h" "$tmp/b/y.h"
toy=$(tests/lib/includes.py "$tmp")
check "the tool finds a circle where there is one" grep -qx 'include circle: a/x -> b/y' <<<"$toy"
done_testing
