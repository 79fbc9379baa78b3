#!/bin/bash
# bnb-test: light (boots no guest: runs beside the guest suites)
# The test driver itself (tests/run-tests): each way a suite can go wrong
# without a "not ok" line must still count as a failure, make the driver
# exit non-zero and end its output with the one line "N passed, N failed".
# Each case runs the driver on made-up suites in a scratch folder.
# shellcheck disable=SC2016 # the fake suites expand their own variables
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# unit NAME BODY: a fake Criterion binary; BODY runs with $tap set to the
# file given by --tap=.
unit() {
	printf '#!/bin/bash\nfor a; do case $a in --tap=*) tap=${a#--tap=} ;; esac; done\n%s\n' \
		"$2" > "$case_dir/bin/$1"
	chmod +x "$case_dir/bin/$1"
}

# guest NAME BODY [MODE]: a fake .t file.
guest() {
	printf '#!/bin/bash\n%s\n' "$2" > "$case_dir/guest/$1"
	chmod "${3:-+x}" "$case_dir/guest/$1"
}

# new_case NAME [DRIVER-OPTION]: a fresh folder for the fake suites; unit
# suites expected: none.
new_case() {
	case_dir=$tmp/$1
	mkdir -p "$case_dir/bin" "$case_dir/guest" "$case_dir/logs"
	expect=
	driver_args=("${@:2}")
}

# drive DESCRIPTION WANT-LAST-LINE WANT-EXIT [WANT-TEXT [VAR=VALUE...]]: run
# the driver on the case; it must exit WANT-EXIT, end with WANT-LAST-LINE,
# print that line once and print WANT-TEXT somewhere.
drive() {
	local desc=$1 want=$2 want_rc=$3 text=${4:-} out rc last lines
	shift $(($# < 4 ? $# : 4))
	out=$(env -u BNB_ALLOW_SKIP BNB_TEST_BIN="$case_dir/bin" BNB_GUEST_TESTS="$case_dir/guest" \
		BNB_TEST_LOGS="$case_dir/logs" BNB_UNIT_EXPECT="$expect" "$@" \
		"$BNB_ROOT/tests/run-tests" "${driver_args[@]}" 2>/dev/null)
	rc=$?
	last=$(tail -n 1 <<<"$out")
	lines=$(grep -cE '^[0-9]+ passed, [0-9]+ failed$' <<<"$out")
	if [ "$rc" = "$want_rc" ] && [ "$last" = "$want" ] && [ "$lines" = 1 ] &&
		{ [ -z "$text" ] || grep -qF -- "$text" <<<"$out"; }; then
		ok "$desc ($last)"
	else
		not_ok "$desc: exit $rc, last line '$last' ($lines summary lines), want exit $want_rc, '$want', '$text'"
		# shellcheck disable=SC2001 # every line
		sed 's/^/#   /' <<<"$out"
	fi
}

passing_tap='printf "TAP version 13\n1..2\nok - s::a\nok - s::b\n" > "$tap"'

new_case good
unit test_good "$passing_tap"
guest 10-good.t 'echo "ok 1 - a"; echo "ok 2 - b"; echo "1..2"'
expect=test_good
drive "sound suites pass and the driver exits 0" "4 passed, 0 failed" 0

new_case signal --unit-only
unit test_killed "$passing_tap; kill -KILL \$\$"
expect=test_killed
drive "a unit binary killed by a signal after writing a passing TAP file fails" \
	"2 passed, 1 failed" 1 "killed by signal 9"

new_case stale --unit-only
unit test_stale 'exit 1'
printf 'TAP version 13\n1..3\nok - s::a\nok - s::b\nok - s::c\n' > "$case_dir/logs/test_stale.tap"
expect=test_stale
drive "a stale TAP file of an earlier run is not counted" "0 passed, 1 failed" 1 "produced no test result (exited 1)"

new_case nostart --unit-only
printf '#!/nonexistent/interpreter\n' > "$case_dir/bin/test_nostart"
chmod +x "$case_dir/bin/test_nostart"
printf '1..1\nok - s::a\n' > "$case_dir/logs/test_nostart.tap"
expect=test_nostart
drive "a unit binary that cannot start fails, stale file or not" "0 passed, 1 failed" 1 "produced no test result (exited 127)"

new_case missing --unit-only
unit test_here "$passing_tap"
expect="build/tests/test_here build/tests/test_gone"
drive "a unit suite the Makefile builds but that is missing fails" "2 passed, 1 failed" 1 \
	"unit/test_gone: $case_dir/bin/test_gone is missing"

new_case early
guest 10-early.t 'echo "ok 1 - a"; exit 0; echo "ok 2 - b"; echo "1..2"'
drive "a .t file that stops early with exit 0 fails (no plan)" "1 passed, 1 failed" 1 "no plan"

new_case short
guest 10-short.t 'echo "1..3"; echo "ok 1 - a"; echo "ok 2 - b"'
drive "a .t file that runs fewer tests than its plan fails" "2 passed, 1 failed" 1 "planned 3 tests, ran 2"

new_case twoplans
guest 10-twice.t 'echo "ok 1 - a"; echo "1..1"; echo "ok 2 - b"; echo "1..2"'
drive "a .t file with two plans fails" "2 passed, 1 failed" 1 "2 plans"

new_case order
guest 10-order.t 'echo "ok 1 - a"; echo "ok 1 - b"; echo "1..2"'
drive "tests numbered out of order fail (a subshell lost the count)" "2 passed, 1 failed" 1 \
	"test number 1 where 2 was due"

new_case noexec
guest 10-good.t 'echo "ok 1 - a"; echo "1..1"'
guest 20-noexec.t 'echo "ok 1 - a"; echo "1..1"' -x
drive "a .t file without the execute bit fails" "1 passed, 1 failed" 1 "20-noexec.t: not executable"

new_case exitcode
guest 10-exit.t 'echo "ok 1 - a"; echo "1..1"; exit 3'
drive "a .t file exiting non-zero with every test ok fails" "1 passed, 1 failed" 1 "exited 3 with no failing test"

new_case notok --unit-only
unit test_notok 'printf "1..2\nok - s::a\nnot ok - s::b\n" > "$tap"; exit 1'
expect=test_notok
drive "a failing test counts once" "1 passed, 1 failed" 1 "not ok - s::b"

new_case skip
guest 10-skip.t 'echo "ok 1 - a"; echo "ok 2 - b # SKIP no tool"; echo "1..2"'
guest 20-skipall.t 'echo "1..0 # SKIP nothing to test here"'
drive "a skip is a failure without BNB_ALLOW_SKIP" "1 passed, 2 failed" 1 "skipped: no tool"
drive "BNB_ALLOW_SKIP=1 allows skips and names their count" "1 passed, 0 failed" 0 \
	"2 skipped (allowed by BNB_ALLOW_SKIP=1)" BNB_ALLOW_SKIP=1

new_case bail
guest 10-bail.t 'echo "1..2"; echo "ok 1 - a"; echo "ok 2 - b"; echo "Bail out! no kernel"'
drive "Bail out! fails the suite" "2 passed, 1 failed" 1 "Bail out! no kernel"

# busy NAME: a suite body that marks NAME.run for a second; another suite
# that finds the mark overlapped it.
busy() { echo "touch $case_dir/$1.run; sleep 1; rm $case_dir/$1.run"; }

# Two guest suites at once: 10-wait.t passes only if 20-flag.t runs
# while it waits (120 s at most: at load 18 the 10 s this once had passed
# before the second suite had touched its flag).
new_case together
guest 10-wait.t "for i in \$(seq 600); do [ -e $case_dir/flag ] && break; sleep 0.2; done
[ -e $case_dir/flag ] && echo 'ok 1 - saw the other suite' || echo 'not ok 1 - ran alone'; echo 1..1"
guest 20-flag.t "touch $case_dir/flag; echo 'ok 1 - flag'; echo 1..1"
drive "guest suites run two at a time" "2 passed, 0 failed" 0

# In turn: 20-after.t must not find 10-busy.t's mark (no wait for a flag
# that never comes).
new_case inturn
guest 10-busy.t "$(busy busy); echo 'ok 1 - busy'; echo 1..1"
guest 20-after.t "[ -e $case_dir/busy.run ] && echo 'not ok 1 - overlapped busy' || echo 'ok 1 - in turn'; echo 1..1"
drive "BNB_TEST_JOBS=1 runs them in turn" "2 passed, 0 failed" 0 "" BNB_TEST_JOBS=1

# A light suite (no guest) runs beside the guest suites: with one job,
# 10-wait.t sees 20-light.t's flag; a unit suite is light too.
new_case light
guest 10-wait.t "for i in \$(seq 600); do [ -e $case_dir/flag ] && [ -e $case_dir/uflag ] && break; sleep 0.2; done
[ -e $case_dir/flag ] && echo 'ok 1 - saw the light suite' || echo 'not ok 1 - ran alone'
[ -e $case_dir/uflag ] && echo 'ok 2 - saw the unit suite' || echo 'not ok 2 - no unit suite'; echo 1..2"
guest 20-light.t "# bnb-test: light
touch $case_dir/flag; echo 'ok 1 - flag'; echo 1..1"
unit test_light "touch $case_dir/uflag; $passing_tap"
expect=test_light
drive "a light suite and a unit suite run beside a guest suite" "5 passed, 0 failed" 0 "" BNB_TEST_JOBS=1

# The last run's times order the suites, longest first: 20-long.t, timed
# longer, runs before 10-short.t and so leaves it the flag.
new_case longest
guest 10-short.t "[ -e $case_dir/flag ] && echo 'ok 1 - after the long one' || echo 'not ok 1 - first'; echo 1..1"
guest 20-long.t "touch $case_dir/flag; echo 'ok 1 - flag'; echo 1..1"
printf '%s\t%d\n' "$case_dir/guest/10-short.t" 1 "$case_dir/guest/20-long.t" 30 > "$case_dir/logs/times.tsv"
drive "the suite the last run timed longest starts first" "2 passed, 0 failed" 0 "" BNB_TEST_JOBS=1

# "# bnb-test: alone": 20-alone.t neither overlaps 10-first.t nor 30-last.t.
new_case alone
guest 10-first.t "$(busy first); echo 'ok 1 - first'; echo 1..1"
guest 20-alone.t "# bnb-test: alone
[ -e $case_dir/first.run ] && echo 'not ok 1 - overlapped first' || echo 'ok 1 - alone'
$(busy alone); echo 1..1"
guest 30-last.t "[ -e $case_dir/alone.run ] && echo 'not ok 1 - overlapped alone' || echo 'ok 1 - after'; echo 1..1"
drive "a suite marked alone runs by itself" "3 passed, 0 failed" 0

# ... but for one light suite: 10-alone.t passes only if 20-light.t runs
# while it waits (10 s at most).
new_case alone-light
guest 10-alone.t "# bnb-test: alone
for i in \$(seq 100); do [ -e $case_dir/flag ] && break; sleep 0.1; done
[ -e $case_dir/flag ] && echo 'ok 1 - saw the light suite' || echo 'not ok 1 - ran without it'; echo 1..1"
guest 20-light.t "# bnb-test: light
touch $case_dir/flag; echo 'ok 1 - flag'; echo 1..1"
drive "a light suite runs beside a suite marked alone" "2 passed, 0 failed" 0

# usage DESCRIPTION WANT-EXIT WANT-TEXT ARG...: the driver answers at
# once, runs no suite and leaves the last run's times alone.
usage() {
	local desc=$1 want_rc=$2 text=$3 out rc
	shift 3
	out=$(BNB_TEST_BIN="$case_dir/bin" BNB_GUEST_TESTS="$case_dir/guest" \
		BNB_TEST_LOGS="$case_dir/logs" "$BNB_ROOT/tests/run-tests" "$@" 2>&1)
	rc=$?
	if [ "$rc" = "$want_rc" ] && grep -qF -- "$text" <<<"$out" &&
		[ ! -e "$case_dir/ran" ] && [ -s "$case_dir/logs/times.tsv" ]; then
		ok "$desc"
	else
		not_ok "$desc: exit $rc, want $want_rc and '$text'"
		# shellcheck disable=SC2001 # every line
		sed 's/^/#   /' <<<"$out"
	fi
}
new_case usage
guest 10-ran.t "touch $case_dir/ran; echo 'ok 1 - ran'; echo 1..1"
printf '%s\t%d\n' "$case_dir/guest/10-ran.t" 1 > "$case_dir/logs/times.tsv"
usage "--help prints the usage and exits 0" 0 "Usage: tests/run-tests" --help
usage "-h is --help" 0 "--unit-only" -h
usage "an unknown option is refused, named" 2 "unknown option '--jobs'" --jobs 3
usage "a suite file that is not there is refused, named" 2 "'nothere.t': no such suite file" nothere.t
usage "a unit suite that is not there is refused, named" 2 "no unit suite" unit/test_gone
BNB_TEST_JOBS=two usage "a bad BNB_TEST_JOBS is refused" 2 "BNB_TEST_JOBS='two'"
done_testing
