#!/bin/bash
# Wall against deterministic timing, side by side in one run: the default
# experiment's workload (misplaced STREAM, 2 nodes x 1 vCPU) and a 4-vCPU
# numa02, balancing off and on, REPS fresh guests per variant; then the
# deterministic STREAM pair again with `stress-ng --cpu 2` beside the
# guests and with two guests at once (--jobs 2); the wall side's spread
# under load is already in the first phase, and its runs under stress take
# hours on a 2-core host. Prints the Markdown tables of
# bench/runner/timing-figures.py (the README's "Deterministic timing,
# measured") and keeps every results folder under OUT.
#
#   bench/runner/timing-bench.sh [quiet|stress|jobs2|all|report] [REPS]
#
# OUT (default results/timing-bench) is reused: a phase whose folder
# exists is not run again, so a cut run resumes where it stopped.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
what=${1:-all}
reps=${2:-5}
out=${OUT:-$root/results/timing-bench}
run=$root/build/bin/bnb-run
mkdir -p "$out"

# experiment NAME TOPOLOGY WORKLOAD: the four variants of one workload.
experiment() {
	cat > "$out/$1.ini" <<INI
[global]
description = timing bench: $1, wall vs deterministic, balancing off vs on
$2
mem = 512M
distance = 10,20;20,10
latency = auto
interval_ms = 100
time_limit = 900
repetitions = $reps
workload = $3

[wall-off]
balancing = off
[wall-on]
balancing = on
[det-off]
timing = deterministic
balancing = off
[det-on]
timing = deterministic
balancing = on
INI
	# the deterministic variants alone, for the loaded phases
	sed '/^\[wall-off\]/,/^\[det-off\]/{/^\[det-off\]/!d}' "$out/$1.ini" > "$out/$1-det.ini"
}

# phase DIR EXPERIMENT [bnb-run options]: run once, with the load average before and after.
phase() {
	local dir=$out/$1 exp=$out/$2.ini
	shift 2
	[ -e "$dir/summary.json" ] && return 0
	uptime > "$dir.load"
	"$run" "$exp" --out "$dir" --no-plots "$@" > "$dir.log" 2>&1 || true
	uptime >> "$dir.load"
}

experiment stream "nodes = 2
cpus = 1" "stream --size 8M --iterations 24 --placement misplaced --node 0"
# one second of numa02 on 4 vCPUs; a 100 ms scan delay lets balancing act in it
experiment numa02 "nodes = 2
cpus = 2
sysctl.scan_delay_ms = 100" "numa02 --size 16M --iterations 4 --interval-ms 250 --placement free"

case $what in
quiet|all)
	phase quiet-stream stream
	phase quiet-numa02 numa02 ;;&
stress|all)
	if [ ! -e "$out/stress-stream/summary.json" ]; then
		stress-ng --cpu 2 --quiet &
		hog=$!
		phase stress-stream stream-det
		kill "$hog"
		wait "$hog" || true
	fi ;;&
jobs2|all)
	phase jobs2-stream stream-det --jobs 2 ;;
quiet|stress|report) ;;
*)
	echo "usage: $0 [quiet|stress|jobs2|all|report] [REPS]" >&2
	exit 2 ;;
esac
python3 "$root/bench/runner/timing-figures.py" "$out"
