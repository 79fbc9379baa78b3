#!/bin/bash
# model-calib.sh [CLASS]: the machine model's calibration benchmarks
# (bench/model/README.md, "The machine model"), deterministic
# timing, CLASS 2socket (default) or 4node.  Prints, against what the
# class configures: pointer-chase latency local and remote in hardware ns
# ((guest ns per load - cache-resident ns per load) / D); single-thread
# STREAM remote/local; STREAM with 1, 2, 4 threads on one node's memory
# (a 1-node, 4-vCPU guest) in hardware MB/s (guest MB/s x D); and guest
# instructions per host second with the model on.
set -eu
class=${1:-2socket}
root=$(cd "$(dirname "$0")/../.." && pwd)
vm=$root/build/bin/bnb-vm
so=$root/build/bin/bnb-plugin.so
check=$root/build/bin/bnb-plugin-check
work=$(mktemp -d /tmp/bnb-model-calib.XXXXXX)
trap 'rm -rf "$work"' EXIT

# boot NAME SECONDS-FILE bnb-vm-options... -- command
boot() {
	local name=$1 t0 t1
	shift
	mkdir -p "$work/$name"
	t0=$(date +%s.%N)
	"$vm" --run-dir "$work/$name" --timing deterministic --plugin "$so" \
		--plugin-opt shm="$work/$name/c.shm" --model "$class" --timeout 3000 "$@" >/dev/null
	t1=$(date +%s.%N)
	echo "$t0 $t1" > "$work/$name/wall"
	"$check" "$work/$name/c.shm" > "$work/$name/check" 2>/dev/null || true
}
key() { sed -n "s/^$2=//p" "$work/$1/check" | head -1; }
field() { grep -m1 "$3" "$work/$1/out.log" | grep -o "$2=[0-9.e+-]*" | head -1 | cut -d= -f2; }

boot pair --nodes 2 -- 'latency --size 16M --loads 256K --repeat 1 &&
	stream --size 8M --iterations 3 --threads 1 --placement local &&
	stream --size 8M --iterations 3 --threads 1 --placement remote'
d=$(key pair dilation)
lat=$(field pair local_ns '^# summary.*local_ns'); rem=$(field pair remote_ns '^# summary.*local_ns')
cache=$(field pair cache_local_ns '^# summary.*local_ns')
sl=$(awk '/placement=local/ { on = 1 } on && /^# summary/ { sub(/.*rate_mean=/, ""); print $1; exit }' "$work/pair/out.log")
sr=$(awk '/placement=remote/ { on = 1 } on && /^# summary/ { sub(/.*rate_mean=/, ""); print $1; exit }' "$work/pair/out.log")
read -r t0 t1 < "$work/pair/wall"
insns=$(key pair tk_insns)
echo "class $class, D = $d"
echo "configured latency ns: local $(key pair model_lat_ns_0_0), remote $(key pair model_lat_ns_0_1)"
awk -v l="$lat" -v r="$rem" -v c="$cache" -v d="$d" 'BEGIN {
	printf "chase latency hw ns: local %.1f, remote %.1f, remote/local %.3f\n",
		(l - c) / d, (r - c) / d, (r - c) / (l - c) }'
awk -v a="$sl" -v b="$sr" -v d="$d" 'BEGIN {
	printf "single-thread STREAM hw MB/s: local %.0f, remote %.0f, remote/local %.3f\n", a * d, b * d, b / a }'
awk -v n="$insns" -v a="$t0" -v b="$t1" 'BEGIN {
	printf "speed: %.3g guest instructions in %.1f s of host time, %.1f M/s (boot included)\n",
		n, b - a, n / (b - a) / 1e6 }'

# shellcheck disable=SC2016 # the guest's shell expands it
boot one --nodes 1 --cpus 4 -- 'for t in 1 2 4; do stream --size 8M --iterations 3 --threads $t --placement local | grep "^# summary"; done'
nbw=$(key one model_node_mbs); hwc=$(key one model_hw_cpus); d=$(key one dilation)
echo "1 node x 4 vCPUs, D = $d"
echo "configured node bandwidth for 4 vCPUs: $nbw x 4 / $hwc = $((nbw * 4 / hwc)) MB/s"
grep '^# summary' "$work/one/out.log" | sed 's/.*rate_mean=\([0-9.]*\).*threads=\([0-9]*\).*/\2 \1/' |
	awk -v d="$d" '{ printf "STREAM %d threads on node 0: %.0f hw MB/s\n", $1, $2 * d }'
