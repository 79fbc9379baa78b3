#!/bin/bash
# Build the guest kernel out of tree, in the cache, never in the repository.
#
#   kernel/build.sh [--kernel NAME | --ksrc DIR] [--patches none|DIR] [--debug]
#                   [--link PATH | --link-in DIR] [--print-key | --print-dir | --print-obj]
#
# NAME is one of the named kernels (kernel_named below): patched, the
# default (Debian's linux-source-6.1 with kernel/patches/series),
# debian-6.1 (the same source as is) or debian-6.12 (Debian's
# linux-source-6.12 as is). A Debian source is
# /usr/src/linux-source-VER.tar.xz, extracted once into $CACHE/src and
# kept as a git tree so that switching patch sets only
# rewrites the files whose content changes (make then rebuilds just what
# depends on them: checkout_series in kernel/tree.sh). One object dir per
# source, compiler and debug setting serves every series, under the lock.
# A finished kernel is stored in $CACHE/kernels/KEY, KEY being a hash of
# every input; an unchanged input finds it there and builds nothing.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${BNB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/balancenuma-bench}
kernel=patched
ksrc=
patchdir=
debug=0
link=
link_in=
print_key=0
print_dir=0
print_obj=0

die() { echo "kernel/build.sh: $*" >&2; exit 1; }
# Every failure, a die or a failed command under set -e, ends with the
# command that tries again (BNB_RETRY: the caller's, e.g. make kernel).
retry=${BNB_RETRY:-$0 $*}
on_exit() {
	local rc=$?

	[ "$rc" = 0 ] || echo "kernel: the kernel build failed (exit $rc); retry with: $retry" >&2
}
trap on_exit EXIT

while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?--kernel needs a name}; shift ;;
	--ksrc) ksrc=$(realpath "${2:?--ksrc needs a directory}"); shift ;;
	--patches) patchdir=${2:?--patches needs none or a directory}; shift ;;
	--debug) debug=1 ;;
	--link) link=${2:?--link needs a path}; shift ;;
	--link-in) link_in=${2:?--link-in needs a directory}; shift ;;
	--print-key) print_key=1 ;;
	--print-dir) print_dir=1 ;;
	--print-obj) print_obj=1 ;;
	*) die "unknown option '$1'" ;;
	esac
	shift
done

# The named kernels: NAME -> the Debian package of its source and its
# default patch set (--patches overrides it). The runner resolves an
# experiment's `kernel = NAME` with --print-key, so the names it accepts
# are these (bench/runner/experiment/knobs.c holds their tunables).
kernel_named() {
	case $1 in
	patched | default) pkg=linux-source-6.1; named_patches=$here/patches ;;
	debian-6.1) pkg=linux-source-6.1; named_patches=none ;;
	debian-6.12) pkg=linux-source-6.12; named_patches=none ;;
	*) die "unknown kernel '$1' (named kernels: patched, debian-6.1, debian-6.12; or --ksrc DIR)" ;;
	esac
}
kernel_named "$kernel"
[ -n "$patchdir" ] || patchdir=$named_patches
[ -z "$ksrc" ] || [ "$kernel" = patched ] || die "--kernel and --ksrc name two sources: give one"
tarball=/usr/src/$pkg.tar.xz

fragments=("$here/config/guest.config")
[ "$debug" = 1 ] && fragments+=("$here/config/debug.config")
for f in "${fragments[@]}"; do
	[ -r "$f" ] || die "config fragment $f is missing"
done

# shellcheck source=kernel/tree.sh
. "$here/tree.sh"
# shellcheck source=kernel/progress.sh
. "$here/progress.sh"

# The patches, in series order.
patches=()
if [ "$patchdir" != none ]; then
	list=$(read_series "$patchdir") || die "bad series"
	mapfile -t patches <<<"$list"
	[ -n "$list" ] || patches=()
fi

# Identity of the source tree.
if [ -n "$ksrc" ]; then
	[ -f "$ksrc/Makefile" ] || die "$ksrc is not a kernel tree"
	if git -C "$ksrc" rev-parse HEAD >/dev/null 2>&1; then
		srcid="$(git -C "$ksrc" rev-parse HEAD):$(git -C "$ksrc" diff HEAD | sha256sum)"
	else
		# Not a git tree: every file's name, size and mtime (about 1 s
		# for a kernel tree), so that an unchanged tree keeps its key.
		srcid=$(cd "$ksrc" && find . -path ./.git -prune -o -type f -printf '%P %s %T@\n' |
			LC_ALL=C sort | sha256sum)
	fi
	srcbase="ksrc:$ksrc"
else
	[ -r "$tarball" ] || die "$tarball is missing: the package $pkg brings it (run 'make deps')"
	srcver=$(dpkg-query -W -f '${Version}' "$pkg")
	srcbase="debian:$pkg:$srcver"
	srcid=$srcbase
fi

hash_of() { sha256sum | cut -c1-16; }
compiler=$(gcc --version | head -n1)
# The object directory outlives patch and config changes (kbuild rebuilds
# only what a change touches); the tree, the compiler and whether this is
# the debug build select it, so switching back and forth stays cheap.
confkey=$( { echo "$srcbase"; echo "$compiler"; echo "debug=$debug"; } | hash_of)
obj=$cache/obj/$confkey
# RECIPE names what this script does to a build that its inputs do not
# show (2: the key in uname -v; 3: kbuild's per-object checks off, below);
# a change of it is a new key for every build.
recipe=3
key=$( { echo "recipe=$recipe"; echo "$srcbase"; echo "$srcid"; echo "$compiler";
	cat "${fragments[@]}";
	for p in "${patches[@]}"; do basename "$p"; cat "$p"; done; } | hash_of)

out=$cache/kernels/$key
if [ "$print_key" = 1 ]; then
	echo "$key"
	exit 0
fi
# The runner finds a named kernel's build here (bench/runner/run/plan.c).
if [ "$print_dir" = 1 ]; then
	echo "$out"
	exit 0
fi
# The object directory, whose build.log holds kbuild's steps of the last
# build (a bisection counts what each commit recompiled).
if [ "$print_obj" = 1 ]; then
	echo "$obj"
	exit 0
fi

# What an experiment's `kernel =` key says to boot this build, and the
# link --link-in gives it: DIR/kernel is the default kernel alone (bnb-vm
# and the tests boot it), another named kernel gets DIR/kernel-NAME, the
# debug build a -debug suffix; another tree or series gets no link.
named=0
[ -z "$ksrc" ] && [ "$patchdir" = "$named_patches" ] && named=1
if [ "$named" = 1 ] && [ "$debug" = 0 ]; then
	as_key="kernel = $kernel"
elif [ -n "$ksrc" ] && [ "$patchdir" = none ] && [ "$debug" = 0 ]; then
	as_key="kernel = ksrc:$ksrc"
else
	as_key="kernel = $out/bzImage"
fi
if [ -n "$link_in" ] && [ "$named" = 1 ]; then
	link=$link_in/kernel
	[ "$debug" = 0 ] || link=$link-debug
	case $kernel in patched | default) ;; *) link=$link-$kernel ;; esac
fi
publish_link() {
	[ -n "$link" ] || return 0
	mkdir -p "$(dirname "$link")"
	ln -sfn "$out" "$link"
}

if [ -f "$out/bzImage" ]; then
	publish_link
	echo "kernel: $key up to date ($out/bzImage; $as_key)"
	exit 0
fi

echo "kernel: $key is not built yet: starting (source tree, configuration, then the build)"
mkdir -p "$cache"
exec 9>"$cache/lock"
if ! flock -n 9; then
	echo "kernel: waiting for another kernel build to finish (lock $cache/lock)"
	flock 9
fi
# The build this one waited for may have been this very kernel: found,
# it is used as it is, never built again over an entry a runner boots.
if [ -f "$out/bzImage" ]; then
	publish_link
	echo "kernel: $key up to date, built while this one waited ($out/bzImage; $as_key)"
	exit 0
fi

# The source tree with the patches applied: prepare_tree TREE.
prepare_tree() {
	if [ -z "$ksrc" ]; then
		prepare_debian_tree "$tarball" "$1" "$pkg"
		checkout_series "$1" "${patches[@]}"
		return
	fi
	# no patches: kbuild reads the user's tree itself (O= keeps it clean)
	[ "$1" = "$ksrc" ] || user_tree_series "$ksrc" "$1" "${patches[@]}"
}
if [ -n "$ksrc" ] && [ ${#patches[@]} -eq 0 ]; then
	tree=$ksrc
elif [ -n "$ksrc" ]; then
	tree=$cache/ksrc/$(echo "$ksrc" | hash_of)
else
	tree=$cache/src/$pkg-$srcver
fi
ticking "preparing the source tree $tree" prepare_tree "$tree"

ticking "configuring $obj" configure_obj "$tree" "$obj" "${fragments[@]}"

export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache}
# ccache's depend mode: a miss compiles once and takes the headers from
# gcc's -MMD file, where its default runs the preprocessor first to hash
# the output, a fifth more CPU than no ccache on a cold cache
# (docs/building.md).
export CCACHE_DEPEND=1
# Reproducible except for the key: the guest's uname -v reads "#KEY SMP
# ...", so that a run can tell which build booted (bench/runner/run/bootcheck.c);
# patched and debian-6.1 have the same release. Only init/version.o and
# the link depend on it.
export KBUILD_BUILD_TIMESTAMP='2026-01-01 00:00 UTC' KBUILD_BUILD_USER=bnb KBUILD_BUILD_HOST=bnb
export KBUILD_BUILD_VERSION=$key
start=$(date +%s)
echo "kernel: building $key in $obj (a line every ${PROGRESS_EVERY} s; log: $obj/build.log)"
# kbuild's per-object checks, a quarter of the CPU of compiling an object
# here (docs/building.md, "Where a cold build's time goes"), are off:
# objtool (on this configuration it validates user-access and noinstr
# rules and lists the static-call sites, which only let the boot patch
# each call site directly; calls keep going through the trampolines, which
# static_call_update() patches) and 6.1's check-local-export (nm and awk
# on every object, for exports to modules, which this kernel cannot load).
# kernel/check.sh keeps both for the series.
no_checks=(objtool-enabled= cmd_check_local_export=)
# ccache's depend mode takes an object's inputs from the compiler's
# dependency file, which does not list what an .incbin directive reads:
# piggy.S (the compressed kernel in the bzImage), rmpiggy.S (the real-mode
# trampoline) and initramfs_data.S came back from the cache with an
# earlier build's payload whenever their own text had not changed, as
# after a change that keeps vmlinux's size (a comment, one constant): a
# bisection's guests booted the previous commit's kernel, which the
# runner's boot check caught by the key in uname -v. The key in their
# flags makes each build's payload its own; the objects are the same.
incbin_keyed=("AFLAGS_piggy.o=-DBNB_BUILD=$key" "AFLAGS_rmpiggy.o=-DBNB_BUILD=$key"
	"AFLAGS_initramfs_data.o=-DBNB_BUILD=$key")
if ! kbuild_progress "$obj" make -C "$tree" O="$obj" -j"$(nproc)" CC="ccache gcc" \
	"${no_checks[@]}" "${incbin_keyed[@]}" bzImage; then
	echo "kernel: the build failed; the end of $obj/build.log:" >&2
	grep -v '^  [A-Z]' "$obj/build.log" | tail -n 25 >&2
	exit 1
fi
echo "kernel: built in $(fmt_secs $(( $(date +%s) - start )))"

mkdir -p "$out.tmp"
cp "$obj/arch/x86/boot/bzImage" "$obj/.config" "$obj/System.map" "$out.tmp/"
{
	echo "source=$srcid"
	echo "compiler=$compiler"
	echo "fragments=${fragments[*]}"
	echo "patches=${patches[*]##*/}"
} > "$out.tmp/info"
# under the lock, with no bzImage in it (checked above): what a killed
# build left, which nothing boots
rm -rf "$out"
mv "$out.tmp" "$out"
publish_link
echo "kernel: $key built ($out/bzImage; $as_key)"
