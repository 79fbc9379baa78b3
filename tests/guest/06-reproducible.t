#!/bin/bash
# What the guest boots does not depend on where the tree is, when it was
# built or by whom: under deterministic timing the kernel's unpacking of
# the initramfs headers counts in guest time, so two checkouts of one
# commit must give the same archive byte for byte. The base archive is
# built from the same binaries at two paths of different lengths, with
# different mtimes and umasks, and compared; the guest binaries carry no
# path of the tree. No guest boots.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

mk=$BNB_ROOT/bench/guest/mkinitramfs.sh
bin=$BNB_ROOT/build/guest/bin
[ -x "$bin/multicall" ] || { diag "build/guest/bin/multicall missing: make guest-bins"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The programs of the base archive: the links to the multi-call binary.
progs=$(find "$bin" -maxdepth 1 -type l -lname multicall -printf '%f\n' | sort)

# copy_bins DIR DATE: the multi-call binary and its links in DIR, every
# file dated DATE.
copy_bins() {
	local p

	mkdir -p "$1"
	cp -a "$bin/multicall" "$1/"
	for p in $progs; do
		ln -s multicall "$1/$p"
	done
	find "$1" -exec touch -h -d "$2" {} +
}

short=$work/a
long=$work/a-much-longer-directory-name/with/more/levels
copy_bins "$short" '2001-02-03 04:05:06'
copy_bins "$long" '2031-12-30 23:59:58'

# lacks STRING FILE: FILE does not hold STRING.
lacks() {
	! grep -q -F -e "$1" "$2"
}

build() {
	local dir=$1 mask=$2 out=$3 p args=()

	for p in $progs; do
		args+=("$dir/$p")
	done
	(umask "$mask" && cd "$dir" && "$mk" base "$out" "$dir/multicall" "${args[@]}") >/dev/null
}

check "the base archive builds from $short" build "$short" 022 "$work/short.cpio"
check "the base archive builds from $long" build "$long" 077 "$work/long.cpio"
check "the two archives are the same bytes" cmp "$work/short.cpio" "$work/long.cpio"

listing=$(cpio -t -v --quiet < "$work/short.cpio" 2>/dev/null)
check "the archive lists entries" test -n "$listing"
other=$(awk '$6 != "Jan" || $7 != 1 || $8 != 2024' <<<"$listing" | head -1)
check "every entry is dated 2024-01-01, the guest's RTC date${other:+ (not: $other)}" \
	test -z "$other"
check "no path of the build reaches the archive" lacks "$work" "$work/short.cpio"
check "the guest root directory is 0755" \
	grep -q '^drwxr-xr-x .* \.$' <<<"$listing"

for f in "$bin/multicall" "$bin"/kt-*; do
	[ -f "$f" ] || continue
	check "${f#"$BNB_ROOT"/} names no path of the tree" \
		lacks "$BNB_ROOT" "$f"
done
done_testing
