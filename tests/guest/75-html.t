#!/bin/bash
# summary.html in a real browser (issue 41, item 6): a tiny deterministic
# experiment (misplaced STREAM, off against on, one guest each, the 2socket
# model) writes summary.html beside summary.md; Debian's chromium, headless
# under chromedriver and python3-selenium, opens it and finds no console
# error, every plot of plots/ drawn (a screenshot of each inline SVG with
# ink over a meaningful share of it) and the verdict's text in the page
# (tests/lib/html_check.py). `bnb-run report` writes it again and
# `bnb-run compare` writes compare.html. A full-page screenshot is kept in
# build/test-logs/summary-html.png for a person to look at.
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "summary.html browser test"

# Debian's python3: where python3-selenium and python3-pil are (a python3
# found first on PATH may be another one, without them)
py=/usr/bin/python3
if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ] ||
	! "$py" -c 'import selenium, PIL, html5lib' 2> /dev/null; then
	skip "summary.html in a browser" "chromium, chromedriver or python3-selenium/-pil/-html5lib missing (make deps)"
	done_testing
	exit 0
fi

run=$BNB_ROOT/build/bin/bnb-run
logs=${BNB_TEST_LOGS:-$BNB_ROOT/build/test-logs}
work=$(run_dir html)
[ -n "${BNB_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$logs"

cat > "$work/tiny.ini" <<'INI'
[machine]
model = 2socket

[global]
description = summary.html's browser test: misplaced STREAM, off against on
nodes = 2
cpus = 1
mem = 256M
distance = 10,20;20,10
timing = deterministic
latency = auto
workload = stream --size 4M --iterations 8 --placement misplaced --node 0
sysctl.scan_delay_ms = 20
repetitions = 1
interval_ms = 50
time_limit = 300

[off]
balancing = off

[on]
balancing = on
INI

# browse PAGE SHOT: html_check.py's lines as this file's tests
browse() {
	local line rc
	"$py" "$BNB_ROOT/tests/lib/html_check.py" "$1" "$2" > "$work/check.out" 2>&1
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "${line#ok - }" ;;
		"not ok - "*) not_ok "${line#not ok - }" ;;
		*) diag "$line" ;;
		esac
	done < "$work/check.out"
	check "the browser check ran to its end (exit $rc)" test "$rc" = 0
}

# not "results": 70-runner publishes plots/results/ and removes it
out=$work/html-results
start=$(date +%s)
"$run" "$work/tiny.ini" --out "$out" > "$work/run.log" 2>&1
rc=$?
diag "bnb-run took $(($(date +%s) - start)) s, exit $rc"
check "bnb-run exits 0" test "$rc" = 0
check "summary.html is written beside summary.md" test -s "$out/summary.html"
check "and no temporary file is left" test ! -e "$out/summary.html.tmp"
check "every plot of the experiment has its SVG" \
	test "$(find "$out/plots" -maxdepth 1 -name '*.svg' | wc -l)" -ge 6

start=$(date +%s)
browse "$out/summary.html" "$logs/summary-html.png"
diag "the browser took $(($(date +%s) - start)) s; the page as drawn: $logs/summary-html.png"

rm "$out/summary.html"
"$run" report "$out" > "$work/report.log" 2>&1
check "bnb-run report writes it again" test -s "$out/summary.html"

cp -r "$out" "$work/again"
"$run" compare --out "$work/cmp" "$out" "$work/again" > "$work/compare.log" 2>&1
check "bnb-run compare writes compare.html" test -s "$work/cmp/compare.html"
check "its page parses as HTML5" "$py" -c '
import html5lib, sys
html5lib.HTMLParser(strict=True).parse(open(sys.argv[1], "rb").read())' "$work/cmp/compare.html"
check "and has the comparison's verdict" grep -q '<h2>Verdict</h2>' "$work/cmp/compare.html"
rm -rf "${BNB_ROOT:?}/plots/$(basename "$out")"
done_testing
