#!/bin/bash
# bnb-test: light (boots no guest: runs beside the guest suites)
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
# One shellcheck for all of them: it reads each sourced helper once, not
# once per script (a third of the CPU), and names the file of each finding.
mapfile -t files < "$BNB_ROOT/build/test-logs/shell-files"
# Its findings depend only on the files' contents (sourced helpers are
# among them), the rc file and shellcheck's version: a report kept under
# that key answers a run whose shell has not changed (8-14 CPU s saved).
cache=$BNB_ROOT/build/lint-cache
key=$({ shellcheck --version; cat .shellcheckrc; sha256sum "${files[@]}"; } 2>&1 |
	sha256sum | cut -c1-16)
if [ -r "$cache/$key.rc" ]; then
	report=$(cat "$cache/$key.report")
	rc=$(cat "$cache/$key.rc")
	diag "shellcheck: the report kept for this content ($cache/$key.report)"
else
	report=$(shellcheck -f gcc "${files[@]}" 2>&1)
	rc=$?
	rm -rf "$cache" && mkdir -p "$cache" &&
		printf '%s\n' "$report" > "$cache/$key.report" &&
		echo "$rc" > "$cache/$key.rc.tmp" && mv "$cache/$key.rc.tmp" "$cache/$key.rc"
fi
named=0
for f in "${files[@]}"; do
	if grep -q "^$f:" <<<"$report"; then
		not_ok "shellcheck $f"
		grep "^$f:" <<<"$report" | sed 's/^/# /'
		named=1
	else
		ok "shellcheck $f"
	fi
done
if [ "$rc" != 0 ] && [ "$named" = 0 ]; then
	not_ok "shellcheck exited $rc without naming a file"
	# shellcheck disable=SC2001 # every line, not one substitution
	sed 's/^/# /' <<<"$report"
fi
done_testing
