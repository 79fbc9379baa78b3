#!/bin/bash
# bnb-test: light (boots no guest: runs beside the guest suites)
# Every bnb-* tool answers --help at once on stdout with exit 0, prints its
# option table with --help=markdown, and refuses an unknown option naming
# itself, without booting or building anything.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

for tool in "$BNB_ROOT"/build/bin/bnb-* "$BNB_ROOT"/build/guest/bin/bnb-*; do
	case $tool in *.so) continue ;; esac
	[ -x "$tool" ] || continue
	name=$(basename "$tool")
	out=$(timeout 5 "$tool" --help 2>/dev/null)
	rc=$?
	check "$name --help exits 0 (got $rc)" test "$rc" -eq 0
	check "$name --help starts with its usage" grep -q "^usage: $name" <<<"$out"
	check "$name --help lists options with --help itself" grep -q '^  --help ' <<<"$out"
	check "$name --help=markdown prints a table" \
		grep -q '^| .* | value | default | meaning |$' <<<"$(timeout 5 "$tool" --help=markdown)"
	err=$(timeout 5 "$tool" --no-such-option 2>&1 >/dev/null)
	rc=$?
	check "$name refuses an unknown option (exit $rc)" test "$rc" -ne 0 -a "$rc" -ne 124
	check "$name names itself and the option" grep -q "^$name: unknown option '--no-such-option'" <<<"$err"
done
done_testing
