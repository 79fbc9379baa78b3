#!/bin/bash
# Boot time to the first guest command, per initramfs and kernel command
# line (README figure).
#
#   bench/guest/bootbench.sh [-n REPS] [-a WORDS]... [INITRD...] [-- BNB-VM-OPTION...]
#
# Boots `bnb-vm -- true` REPS times (default 5) with each INITRD (default
# build/guest/initramfs.cpio) and each -a WORDS added to the kernel command
# line ('' for none; default: none), the candidates taking turns so that a
# change of host load hits them alike, and prints per candidate the
# archive's size and the median, minimum and maximum of boot_ms (bnb-vm's
# time from its start to the guest's first command), of the guest's uptime
# when /init starts the command (the kernel's part), of the whole run and
# of the CPU time the run took (QEMU's threads, user + system). The host's load average is printed
# before and after: on a shared host it decides the wall figures, while the
# CPU time follows the work done and moves much less with the load.
set -euo pipefail
cd "$(dirname "$0")/../.."

usage() {
	echo "usage: $0 [-n REPS] [-a WORDS]... [INITRD...] [-- BNB-VM-OPTION...]" >&2
	exit 2
}

reps=5
initrds=()
appends=()
while [ $# -gt 0 ]; do
	case $1 in
	-n) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || usage; reps=$2; shift ;;
	-a) [ $# -ge 2 ] || usage; appends+=("$2"); shift ;;
	--) shift; break ;;
	-*) usage ;;
	*) [ -r "$1" ] || { echo "bootbench: $1: cannot read it" >&2; exit 2; }
	   initrds+=("$1") ;;
	esac
	shift
done
[ ${#initrds[@]} -gt 0 ] || initrds=(build/guest/initramfs.cpio)
[ ${#appends[@]} -gt 0 ] || appends=("")
# Candidate i boots cand_initrd[i] with cand_append[i].
cand_initrd=() cand_append=()
for initrd in "${initrds[@]}"; do
	for words in "${appends[@]}"; do
		cand_initrd+=("$initrd")
		cand_append+=("$words")
	done
done
vm=build/bin/bnb-vm
for f in "$vm" build/kernel/bzImage "${initrds[@]}"; do
	[ -e "$f" ] || { echo "bootbench: $f is missing; build it with: make all kernel" >&2; exit 1; }
done

tmp=$(mktemp -d)
# `time` prints user and system seconds of bnb-vm and QEMU, its child.
TIMEFORMAT="%3U %3S"
trap 'rm -rf "$tmp"' EXIT

# stats FILE: "median M, min A, max B" of the numbers in FILE, in seconds.
stats() {
	sort -n "$1" | awk '{ v[NR] = $1 / 1000 }
		END { printf "median %.2f s, min %.2f s, max %.2f s", v[int((NR + 1) / 2)], v[1], v[NR] }'
}

echo "bootbench: $reps boots per candidate; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for rep in $(seq "$reps"); do
	for i in "${!cand_initrd[@]}"; do
		run=$tmp/run-$i-$rep
		append=()
		[ -z "${cand_append[$i]}" ] || append=(--append "${cand_append[$i]}")
		{ time "$vm" --run-dir "$run" --initrd "${cand_initrd[$i]}" --tools off \
			"${append[@]}" "$@" -- true >/dev/null 2>"$tmp/stderr"; } 2>"$tmp/cpu" ||
			{ cat "$tmp/stderr" >&2
			  echo "bootbench: boot $rep of ${cand_initrd[$i]} '${cand_append[$i]}' failed (run dir $run)" >&2
			  trap - EXIT; exit 1; }
		awk '{ print ($1 + $2) * 1000 }' "$tmp/cpu" >> "$tmp/cpu-$i"
		sed -n 's/^boot_ms=//p' "$run/result" >> "$tmp/boot-$i"
		sed -n 's/^wall_ms=//p' "$run/result" >> "$tmp/wall-$i"
		sed -n 's/^bnb-init: run uptime=//p' "$run/console.log" |
			awk '{ print $1 * 1000 }' >> "$tmp/guest-$i"
		rm -rf "$run"
	done
done
echo "bootbench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in "${!cand_initrd[@]}"; do
	printf "%s (%s MB) '%s': first command %s; guest uptime then %s; whole run %s; CPU %s\n" \
		"${cand_initrd[$i]}" "$(( ($(stat -Lc %s "${cand_initrd[$i]}") + 524288) / 1048576 ))" \
		"${cand_append[$i]}" "$(stats "$tmp/boot-$i")" "$(stats "$tmp/guest-$i")" \
		"$(stats "$tmp/wall-$i")" "$(stats "$tmp/cpu-$i")"
done
