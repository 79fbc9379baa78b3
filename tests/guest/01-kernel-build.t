#!/bin/bash
# bnb-test: light (boots no guest: runs beside the guest suites)
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

# Kernels by name (bench/runner/experiment/knobs.c has the same names): each its own key.
check "--kernel patched is the default build" test "$(kernel/build.sh --kernel patched --print-key)" = "$key"
check "--kernel default is its alias" test "$(kernel/build.sh --kernel default --print-key)" = "$key"
k612=$(kernel/build.sh --kernel debian-6.12 --print-key 2>&1)
check "debian-6.12 is another kernel ($k612)" test "$k612" != "$key" -a "${#k612}" = 16
check "debian-6.1 is the series-less build of the same source" \
	test "$(kernel/build.sh --kernel debian-6.1 --print-key)" = "$(kernel/build.sh --patches none --print-key)"
check "--print-dir is the key's directory in the cache" \
	test "$(kernel/build.sh --kernel debian-6.12 --print-dir)" = "${BNB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/balancenuma-bench}/kernels/$k612"
err=$(kernel/build.sh --kernel debian-6.13 --print-key 2>&1)
check "an unknown name is refused with the names there are" \
	grep -q "unknown kernel 'debian-6.13' (named kernels: patched, debian-6.1, debian-6.12" <<<"$err"
names=$(sed -n 's/^	{ KERNEL_[A-Z0-9_]*, "\([^"]*\)".*/\1/p' bench/runner/experiment/knobs.c)
for n in $names; do
	check "the runner's kernel $n is one build.sh knows" kernel/build.sh --kernel "$n" --print-key
done
check "the runner knows 3 names" test "$(wc -w <<<"$names")" = 3

# --link-in: build/kernel is the default kernel alone. In a scratch cache
# where both builds "exist" (a bzImage at each key), nothing is built.
links=$(mktemp -d)
for k in patched debian-6.12; do
	d=$(BNB_CACHE=$links/cache kernel/build.sh --kernel $k --print-dir)
	mkdir -p "$d" && echo "$k" > "$d/bzImage"
done
out=$(BNB_CACHE=$links/cache kernel/build.sh --link-in "$links/build")
check "--link-in DIR links DIR/kernel to the default kernel" \
	test "$(cat "$links/build/kernel/bzImage")" = patched
check "and says its key and the kernel = value" grep -q "$key up to date.*kernel = patched" <<<"$out"
out=$(BNB_CACHE=$links/cache kernel/build.sh --kernel debian-6.12 --link-in "$links/build")
check "another named kernel gets DIR/kernel-NAME" \
	test "$(cat "$links/build/kernel-debian-6.12/bzImage")" = debian-6.12
check "and prints its key and the kernel = value" grep -q "$k612 up to date.*kernel = debian-6.12" <<<"$out"
check "DIR/kernel stays the default" test "$(cat "$links/build/kernel/bzImage")" = patched
d=$(BNB_CACHE=$links/cache kernel/build.sh --patches none --print-dir)
mkdir -p "$d" && echo none > "$d/bzImage"
out=$(BNB_CACHE=$links/cache kernel/build.sh --patches none --link-in "$links/build")
check "PATCHES=none links nothing: DIR/kernel stays the default" \
	test "$(cat "$links/build/kernel/bzImage")" = patched
check "it prints its path for kernel =" grep -q "kernel = $d/bzImage" <<<"$out"
rm -rf "$links"
check "the debug fragment is another kernel" test "$(kernel/build.sh --debug --print-key 2>/dev/null)" != "$key"

mkdir -p "$tmp/bad" && echo "missing.patch" > "$tmp/bad/series"
err=$(kernel/build.sh --patches "$tmp/bad" --print-key 2>&1)
check "a series naming a missing patch is refused by name" grep -q 'missing.patch' <<<"$err"

# The project's QEMU compiles through ccache when it is there (a rebuild
# after a patch change costs little); the emulator's key leaves it out.
if command -v ccache >/dev/null; then
	nocc=$tmp/nocc
	mkdir -p "$nocc"
	find /usr/bin -maxdepth 1 ! -name ccache ! -type d -exec ln -sf -t "$nocc" {} +
	conf=$(bench/qemu/build.sh --print-configure)
	check "QEMU is configured with ccache when it is installed" grep -qx -- '--cc=ccache gcc' <<<"$conf"
	conf_nocc=$(PATH=$nocc bench/qemu/build.sh --print-configure)
	check "and without it when it is not" test -n "$conf_nocc" -a "$(grep -c -- '--cc=' <<<"$conf_nocc")" = 0
	check "each in an object directory of its own" test "$(head -n1 <<<"$conf")" != "$(head -n1 <<<"$conf_nocc")"
	check "with the same key for the emulator" \
		test "$(PATH=$nocc bench/qemu/build.sh --print-key)" = "$(bench/qemu/build.sh --print-key)"
else
	skip "QEMU is configured with ccache when it is installed" "no ccache here"
fi

# Switching series rewrites only what changes, so kbuild rebuilds only
# what depends on it (kernel/tree.sh checkout_series, on a toy tree).
# shellcheck source=kernel/tree.sh
. kernel/tree.sh
toy=$tmp/toy
mkdir -p "$toy" && printf 'a\n' > "$toy/a.c" && printf 'h1\nh2\n' > "$toy/h.h"
git -C "$toy" init -q && git -C "$toy" add -A &&
	git -C "$toy" -c user.name=t -c user.email=t@t commit -qm pristine
printf -- '--- a/h.h\n+++ b/h.h\n@@ -1,2 +1,2 @@\n h1\n-h2\n+H2\n--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-a\n+A\n' > "$tmp/p1.patch"
sed 's/^+A$/+AA/' "$tmp/p1.patch" > "$tmp/p2.patch"
printf -- '--- /dev/null\n+++ b/new.c\n@@ -0,0 +1 @@\n+n\n' > "$tmp/p3.patch"
(checkout_series "$toy" "$tmp/p1.patch" "$tmp/p3.patch") >/dev/null
touch -d '2001-01-01' "$toy/h.h" "$toy/a.c"
(checkout_series "$toy" "$tmp/p2.patch") >/dev/null
check "a series switch rewrites a file whose content changes" test "$(cat "$toy/a.c")" = AA
check "it leaves a patched file with unchanged content alone (mtime kept)" \
	test "$(stat -c %Y "$toy/h.h")" = "$(date -d 2001-01-01 +%s)"
check "it removes a file only the old series created" test ! -e "$toy/new.c"
printf 'junk\n' > "$tmp/bad.patch"
err=$( (checkout_series "$toy" "$tmp/p1.patch" "$tmp/bad.patch") 2>&1)
check "a patch that does not apply is named" grep -q 'patch bad.patch does not apply' <<<"$err"
check "and leaves the tree as it was" test "$(cat "$toy/a.c")" = AA

# A configuration the check refuses leaves no stamp: the next build with
# the old fragment configures again rather than take the half-made .config
# (a toy tree whose merge drops CONFIG_NO, as kconfig drops an option whose
# dependencies are off).
ktoy=$tmp/ktoy
mkdir -p "$ktoy/scripts/kconfig"
# shellcheck disable=SC2016 # make and sh expand these
printf 'tinyconfig:\n\techo CONFIG_TINY=y > $(O)/.config\nolddefconfig:\n\t@:\n' > "$ktoy/Makefile"
# shellcheck disable=SC2016
printf '#!/bin/sh\nshift 3; cfg=$1; shift; grep -hv CONFIG_NO "$@" >> "$cfg"\n' > "$ktoy/scripts/kconfig/merge_config.sh"
chmod +x "$ktoy/scripts/kconfig/merge_config.sh"
echo CONFIG_OLD=y > "$tmp/old.config"
printf 'CONFIG_NEW=y\nCONFIG_NO=y\n' > "$tmp/new.config"
(configure_obj "$ktoy" "$tmp/kobj" "$tmp/old.config") >/dev/null 2>&1
err=$( (configure_obj "$ktoy" "$tmp/kobj" "$tmp/new.config") 2>&1)
check "a fragment option that does not hold is refused by name" grep -q 'not satisfied: CONFIG_NO=y' <<<"$err"
(configure_obj "$ktoy" "$tmp/kobj" "$tmp/old.config") >/dev/null 2>&1
check "and the old fragment then configures again" \
	test "$(grep -c CONFIG_NEW "$tmp/kobj/.config")" = 0 -a "$(grep -c CONFIG_OLD=y "$tmp/kobj/.config")" = 1

# Debian's 6.12 tarball ignores every top-level file in its .gitignore
# ("/*"): the cache's git tree must track them all the same.
mkdir -p "$tmp/deb/linux-source-9.9/sub"
printf '/*\n!/debian/\n' > "$tmp/deb/linux-source-9.9/.gitignore"
printf 'all:\n' > "$tmp/deb/linux-source-9.9/Makefile"
printf 'x\n' > "$tmp/deb/linux-source-9.9/sub/x.c"
tar -C "$tmp/deb" -cJf "$tmp/deb.tar.xz" linux-source-9.9
(prepare_debian_tree "$tmp/deb.tar.xz" "$tmp/debtree" linux-source-9.9) >/dev/null
check "a Debian tree: every top-level file is tracked despite its .gitignore" \
	test "$(git -C "$tmp/debtree" ls-files Makefile .gitignore sub/x.c | wc -l)" = 3
(checkout_series "$tmp/debtree") >/dev/null
check "and survives a series switch" test -f "$tmp/debtree/Makefile"

# A tree that is not a git tree keeps its key while no file changes.
mkdir -p "$tmp/plain" && cp "$tmp/deb/linux-source-9.9/Makefile" "$tmp/plain/"
k1=$(kernel/build.sh --ksrc "$tmp/plain" --patches none --print-key)
check "a plain KSRC tree keeps its key" test "$(kernel/build.sh --ksrc "$tmp/plain" --patches none --print-key)" = "$k1"
printf 'y\n' > "$tmp/plain/y.c"
check "an added file changes it" test "$(kernel/build.sh --ksrc "$tmp/plain" --patches none --print-key)" != "$k1"
err=$(kernel/build.sh --kernel debian-6.12 --ksrc "$tmp/plain" --print-key 2>&1)
check "--kernel with --ksrc is refused" grep -q 'name two sources' <<<"$err"

# KSRC=DIR: the series goes onto a copy of the user's tree in the cache,
# which a later build with another series, or an edited source, must bring
# back to the source's content (kernel/tree.sh user_tree_series).
src=$tmp/usersrc
copy=$tmp/usercopy
mkdir -p "$src" && printf 'a\n' > "$src/a.c" && printf 'h1\nh2\n' > "$src/h.h"
touch -d '2001-01-01' "$src/a.c" "$src/h.h"
printf -- '--- a/h.h\n+++ b/h.h\n@@ -1,2 +1,2 @@\n h1\n-h2\n+H2\n' > "$tmp/ph.patch"
(user_tree_series "$src" "$copy" "$tmp/p1.patch" "$tmp/p3.patch") >/dev/null
check "KSRC: the copy holds the series" test "$(cat "$copy/a.c")" = A -a -e "$copy/new.c"
check "KSRC: the user's tree is left alone" \
	test "$(cat "$src/a.c")" = a -a ! -e "$src/new.c" -a ! -e "$src/.git"
(user_tree_series "$src" "$copy" "$tmp/ph.patch") >/dev/null
check "KSRC: another series restores a file only the old one patched" test "$(cat "$copy/a.c")" = a
check "KSRC: and removes a file only the old series created" test ! -e "$copy/new.c"
check "KSRC: it applies the new series" test "$(sed -n 2p "$copy/h.h")" = H2
touch -d '2001-01-01' "$copy/a.c"
printf 'x\n' > "$src/x.c"
(user_tree_series "$src" "$copy" "$tmp/ph.patch") >/dev/null 2>&1
rc=$?
check "KSRC: the same series again after a source edit applies (exit $rc)" \
	test "$rc" = 0 -a "$(sed -n 2p "$copy/h.h")" = H2
check "KSRC: the edit is copied" test "$(cat "$copy/x.c")" = x
check "KSRC: an unchanged file keeps its mtime" \
	test "$(stat -c %Y "$copy/a.c")" = "$(date -d 2001-01-01 +%s)"
done_testing
