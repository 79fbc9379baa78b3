#!/bin/bash
# The kernel build is keyed by its inputs: an unchanged input rebuilds
# nothing, a changed patch or fragment selects another build.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
cd "$BNB_ROOT" || exit 1

key=$(kernel/build.sh --print-key)
check "build key is a 16-digit hash ($key)" grep -qx '[0-9a-f]\{16\}' <<<"$key"
check "build key is stable" test "$(kernel/build.sh --print-key)" = "$key"

if [ -e build/kernel/bzImage ]; then
	before=$(stat -Lc %Y build/kernel/bzImage)
	out=$(kernel/build.sh --link build/kernel 2>&1)
	check "an unchanged input builds nothing" grep -q 'up to date' <<<"$out"
	check "the kernel image was left alone" test "$(stat -Lc %Y build/kernel/bzImage)" = "$before"
	check "build/kernel is the cached kernel of the current inputs (outside the repository)" \
		test "$(readlink -f build/kernel)" = "${BNB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/balancenuma-bench}/kernels/$key"
else
	skip "unchanged input builds nothing" "no kernel built yet"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r kernel/patches "$tmp/patches"
first=$(sed -n '/^[^#]/{p;q}' "$tmp/patches/series")
if [ -n "$first" ]; then
	echo "" >> "$tmp/patches/$first"
	check "a changed patch changes the key" \
		test "$(kernel/build.sh --patches "$tmp/patches" --print-key)" != "$key"
else
	skip "a changed patch changes the key" "empty series"
fi
check "PATCHES=none is another kernel" test "$(kernel/build.sh --patches none --print-key)" != "$key"
check "the debug fragment is another kernel" test "$(kernel/build.sh --debug --print-key 2>/dev/null)" != "$key"

mkdir -p "$tmp/bad" && echo "missing.patch" > "$tmp/bad/series"
err=$(kernel/build.sh --patches "$tmp/bad" --print-key 2>&1)
check "a series naming a missing patch is refused by name" grep -q 'missing.patch' <<<"$err"
done_testing
