#!/bin/bash
# Boot time of a deterministic guest against a wall-clock one: N boots of
# each (`-- true`, 2 nodes x 1 vCPU), plain and with the plugin as the
# runner loads it; prints bnb-vm's boot_ms (QEMU start to the first guest
# command) and wall_ms, median and range, and the host load, as Markdown.
#
#   bench/vm/boot-bench.sh [N]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
n=${1:-5}
vm=$root/build/bin/bnb-vm
plugin=$root/build/bin/bnb-plugin.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# field FILE KEY
field() { sed -n "s/^$2=//p" "$1"; }

# median_range FILE: "median (min..max)" of the numbers in FILE, one a line.
median_range() {
	sort -n "$1" | awk '{ v[NR] = $1 } END { printf "%d (%d..%d)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}

echo "load before: $(uptime | sed 's/.*load average: //')"
echo
echo "| timing | plugin | boots | boot_ms median (range) | wall_ms median (range) |"
echo "|---|---|---|---|---|"
for timing in wall deterministic; do
	for with in no yes; do
		opts=(--timing "$timing")
		[ "$with" = yes ] && opts+=(--plugin "$plugin" --plugin-opt delay=off)
		: > "$work/boot"
		: > "$work/wall"
		for i in $(seq "$n"); do
			"$vm" "${opts[@]}" --run-dir "$work/r$i" -- true > /dev/null 2>&1 || true
			field "$work/r$i/result" boot_ms >> "$work/boot"
			field "$work/r$i/result" wall_ms >> "$work/wall"
		done
		echo "| $timing | $with | $n | $(median_range "$work/boot") | $(median_range "$work/wall") |"
	done
done
echo
echo "load after: $(uptime | sed 's/.*load average: //')"
