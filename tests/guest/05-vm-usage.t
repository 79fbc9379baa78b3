#!/bin/bash
# bnb-test: light (boots no guest: runs beside the guest suites)
# The launcher refuses bad topology input with a message naming the field,
# and launches nothing.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

marker=$(mktemp)
fake_qemu=$(mktemp)
printf '#!/bin/sh\necho launched > %s\n' "$marker" > "$fake_qemu"
chmod +x "$fake_qemu"
: > "$marker"
trap 'rm -f "$marker" "$fake_qemu"' EXIT

# refuses DESCRIPTION EXPECTED-TEXT OPTIONS...
refuses() {
	local desc=$1 want=$2 err rc
	shift 2
	err=$("$BNB_VM" --qemu "$fake_qemu" --kernel /dev/null --initrd /dev/null "$@" -- true 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -eq 2 ] && [[ $err == *"$want"* ]] && [ ! -s "$marker" ]; then
		ok "$desc"
	else
		not_ok "$desc (exit $rc: $err)"
	fi
}

refuses "matrix not square" "not square" --distance '10,20;20,10;10,20'
refuses "row too short" "not square" --nodes 3 --distance '10,20,20;20,10;20,20,10'
refuses "self-distance other than 10" "self-distance [1][1] is 11" --distance '10,20;20,11'
refuses "distance above 255" "outside 10..255" --distance '10,300;20,10'
refuses "distance below 10" "outside 10..255" --distance '10,5;20,10'
refuses "memory not a 2 MiB multiple" "not a multiple of 2 MiB" --mem 513M
refuses "bare memory size (bytes) asks for a unit" "did you mean 512M?" --mem 512
refuses "zero CPUs in total" "zero CPUs" --cpus 0
refuses "more than 64 nodes" "1 to 64" --nodes 65
refuses "unknown option" "unknown option '--frobnicate'" --frobnicate
refuses "balancing neither on nor off" "balancing" --balancing maybe

out=$("$BNB_VM" --qemu "$fake_qemu" --kernel /dev/null --initrd /dev/null --nodes 4 \
	--distance '10,16,22,28;16,10,16,22;22,16,10,16;28,22,17,10' --dry-run -- true)
check "dry run keeps the asymmetric pair as given" \
	grep -q 'dist,src=2,dst=3,val=16 .*dist,src=3,dst=2,val=17 ' <<<"$out"
check "dry run has a distance for all 12 ordered pairs" \
	test "$(grep -o 'dist,src=' <<<"$out" | wc -l)" -eq 12
check "dry run launches nothing" test ! -s "$marker"
done_testing
