#!/bin/bash
# Every shell script the project tracks is shellcheck-clean.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
cd "$BNB_ROOT" || exit 1

if ! command -v shellcheck >/dev/null; then
	skip "shellcheck" "shellcheck is not installed"
	done_testing
	exit 0
fi
# Shell scripts by name or by their first line (one awk for all files:
# three processes a file took 14 s on a loaded host).
git ls-files -z | xargs -0 awk 'FNR == 1 {
	if (FILENAME ~ /\.(sh|t)$|^\.ci\/run$|^tests\/run-tests$|^bench\/guest\/init$/ || /^#!.*(ba)?sh/)
		print FILENAME
	nextfile
}' | sort -u > "$BNB_ROOT/build/test-logs/shell-files"
while read -r f; do
	if out=$(shellcheck "$f" 2>&1); then
		ok "shellcheck $f"
	else
		not_ok "shellcheck $f"
		# shellcheck disable=SC2001 # every line, not one substitution
		sed 's/^/# /' <<<"$out"
	fi
done < "$BNB_ROOT/build/test-logs/shell-files"
done_testing
