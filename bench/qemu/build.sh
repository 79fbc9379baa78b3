#!/bin/bash
# Build the project's QEMU out of tree, in the cache, never in the repository.
#
#   bench/qemu/build.sh [--link DIR] [--print-key] [--print-tree] [--print-configure]
#                       [--check DIR] [--upto N]
#
# Source: Debian's qemu source package (trixie, through the deb-src line
# bench/deps.sh adds), unpacked once with Debian's own patches into
# $CACHE/src/VERSION and kept as a git tree; then bench/qemu/patches/series
# on top, configured by bench/qemu/config with the devices of
# bench/qemu/devices.mak.  A finished emulator is stored in $CACHE/KEY,
# KEY being a hash of every input (source version, patches, configuration,
# compiler); an unchanged input finds it there and builds nothing.
#
# $CACHE/KEY holds bin/qemu-system-x86_64, include/qemu-plugin.h (the
# plugin API of this build, patches included), share/qemu (firmware and
# option ROMs: the +ds source has none, Debian's qemu-system-data has them)
# and info (key=value: what was built from what, and the binary's size and
# sha256, checked before an entry is used).
#
# --check DIR verifies one entry and says what is wrong with it.
# --upto N builds with the first N patches of the series only, and
# --print-tree unpacks the source if needed and prints where (check.sh);
# --print-configure prints the object directory and configure's
# arguments, one a line, and builds nothing.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${BNB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/balancenuma-bench}/qemu
# trixie's qemu when the series was written; a later 10.0.x is taken when
# the archive no longer serves this one (the key then changes with it).
want_version=1:10.0.13+ds-0+deb13u1
version_prefix=1:10.0.
data_dir=/usr/share/qemu	# qemu-system-data: qboot.rom, linuxboot_dma.bin
format="bnb-qemu 1"
link=
print_key=0
print_tree=0
print_configure=0
check=
upto=

die() { echo "qemu: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
	case $1 in
	--link) link=${2:?--link needs a path}; shift ;;
	--print-key) print_key=1 ;;
	--print-tree) print_tree=1 ;;
	--print-configure) print_configure=1 ;;
	--check) check=${2:?--check needs a cache entry}; shift ;;
	--upto) upto=${2:?--upto needs a patch count}; shift ;;
	*) die "unknown option '$1'" ;;
	esac
	shift
done

tree_label=qemu
# shellcheck source=kernel/tree.sh
. "$here/../../kernel/tree.sh"
# shellcheck source=kernel/progress.sh
. "$here/../../kernel/progress.sh"

hash_of() { sha256sum | cut -c1-16; }
info_field() { sed -n "s/^$2=//p" "$1/info" 2>/dev/null; }

# What is wrong with cache entry $1 (nothing printed: it is sound).
entry_fault() {
	local dir=$1 bin=$1/bin/qemu-system-x86_64

	[ -f "$dir/info" ] || { echo "no info file"; return; }
	[ "$(info_field "$dir" format)" = "$format" ] ||
		{ echo "info is not a '$format' file"; return; }
	[ "$(info_field "$dir" key)" = "$(basename "$dir")" ] ||
		{ echo "info names key $(info_field "$dir" key), not $(basename "$dir")"; return; }
	[ -x "$bin" ] || { echo "bin/qemu-system-x86_64 is missing"; return; }
	[ -r "$dir/include/qemu-plugin.h" ] || { echo "include/qemu-plugin.h is missing"; return; }
	[ "$(stat -c %s "$bin")" = "$(info_field "$dir" binary_size)" ] ||
		{ echo "bin/qemu-system-x86_64 is not the size info records"; return; }
	[ "$(sha256sum < "$bin" | cut -d' ' -f1)" = "$(info_field "$dir" binary_sha256)" ] ||
		{ echo "bin/qemu-system-x86_64 does not match the sha256 info records"; return; }
}

if [ -n "$check" ]; then
	fault=$(entry_fault "$check")
	[ -z "$fault" ] || die "$check is not a sound QEMU cache entry: $fault"
	echo "qemu: $check is sound"
	exit 0
fi

for f in config devices.mak; do
	[ -r "$here/$f" ] || die "bench/qemu/$f is missing"
done
list=$(read_series "$here/patches") || die "bad series"
mapfile -t patches <<<"$list"
[ -n "$list" ] || patches=()
if [ -n "$upto" ]; then
	if ! [[ $upto =~ ^[0-9]+$ ]] || [ "$upto" -gt ${#patches[@]} ]; then
		die "--upto $upto: the series has ${#patches[@]} patches"
	fi
	patches=("${patches[@]:0:$upto}")
fi

# The source package: the one already downloaded, else ask apt for it.
dsc_name() { local v=${1#*:}; echo "qemu_$v.dsc"; }
pick_version() {
	local v

	[ -f "$cache/dl/$(dsc_name "$want_version")" ] && { echo "$want_version"; return; }
	mkdir -p "$cache/dl"
	if (cd "$cache/dl" && apt-get source -qq --download-only "qemu=$want_version") >/dev/null 2>&1; then
		echo "$want_version"
		return
	fi
	v=$(apt-cache showsrc qemu 2>/dev/null | sed -n "s/^Version: \($version_prefix.*\)/\1/p" | sort -V | tail -n1)
	[ -n "$v" ] || die "apt serves no qemu $version_prefix* source: run 'make deps' (it adds trixie's deb-src line)"
	echo "qemu: $want_version is gone from the archive, building $v" >&2
	(cd "$cache/dl" && apt-get source -qq --download-only "qemu=$v") >/dev/null 2>&1 ||
		die "apt-get source qemu=$v failed"
	echo "$v"
}

version=$(pick_version)
dsc=$cache/dl/$(dsc_name "$version")
[ -f "$dsc" ] || die "$dsc is missing after the download"

compiler=$(gcc --version | head -n1)
flags=()
while read -r line; do
	line=${line%%#*}
	[ -n "${line// /}" ] && flags+=("${line%% *}")
done < "$here/config"

# The object directory outlives patch changes (ninja rebuilds only what a
# patch touches); the source version, compiler and configuration select it.
confkey=$( { echo "$version"; echo "$compiler"; cat "$here/config" "$here/devices.mak"; } | hash_of)
# ccache when it is there (bench/deps.sh installs it), in the kernel's
# ccache directory: a rebuild after a patch change, or in a second object
# directory, then compiles only what ccache has not seen. It does not
# change the binary, so the key leaves it out; the object directory is
# configured with the compiler command, so it has one of its own.
objkey=$confkey
cc_flags=()
if command -v ccache >/dev/null; then
	cc_flags=("--cc=ccache gcc")
	objkey=$( { echo "$confkey"; echo "cc=ccache gcc"; } | hash_of)
	export CCACHE_DIR=${CCACHE_DIR:-${cache%/qemu}/ccache}
	# depend mode, as for the kernel (kernel/build.sh): no second
	# preprocessor run on a miss; meson passes -MD
	export CCACHE_DEPEND=1
fi
patch_hash=$( { for p in "${patches[@]}"; do basename "$p"; cat "$p"; done; } | hash_of)
key=$( { echo "$version"; sha256sum < "$dsc"; echo "$confkey"; echo "$patch_hash"; } | hash_of)

if [ "$print_key" = 1 ]; then
	echo "$key"
	exit 0
fi
if [ "$print_configure" = 1 ]; then
	printf '%s\n' "$cache/obj/$objkey" "${flags[@]}" "${cc_flags[@]}"
	exit 0
fi

out=$cache/$key
publish_link() {
	[ -n "$link" ] || return 0
	mkdir -p "$(dirname "$link")"
	ln -sfn "$out" "$link"
}

if [ -e "$out" ] && [ "$print_tree" = 0 ]; then
	fault=$(entry_fault "$out")
	if [ -z "$fault" ]; then
		publish_link
		echo "qemu: up to date ($out)"
		exit 0
	fi
	echo "qemu: cache entry $out is unsound ($fault): building it again" >&2
fi

mkdir -p "$cache"
exec 9>"$cache/lock"
flock 9

# Unpack with Debian's patches, record that state in git so that a
# change of the series rewrites only the files whose content changes
# (checkout_series, as for the kernel): ninja then rebuilds what depends
# on those, not on every file a patch touches.  roms/ (firmware sources,
# 270 MB) is not built here and is dropped.
prepare_tree() {
	local tree=$1 tmp=$1.extract

	[ -f "$tree/.bnb-pristine" ] && return 0
	echo "qemu: unpacking $(basename "$dsc") with Debian's patches (once)"
	rm -rf "$tmp" "$tree"
	mkdir -p "$(dirname "$tree")"
	# dpkg-source copies the tarballs beside the tree first: drop them.
	dpkg-source --no-check -x "$dsc" "$tmp" >/dev/null
	rm -f "$(dirname "$tree")"/qemu_*
	rm -rf "$tmp/roms"
	mv "$tmp" "$tree"
	git -C "$tree" init -q
	git -C "$tree" config gc.auto 0
	git -C "$tree" add -f -A
	git -C "$tree" -c user.name=bnb -c user.email=bnb@localhost commit -q -m pristine
	touch "$tree/.bnb-pristine"
}

tree=$cache/src/${version#*:}
ticking "unpacking the source into $tree" prepare_tree "$tree"
if [ "$print_tree" = 1 ]; then
	echo "$tree"
	exit 0
fi
checkout_series "$tree" "${patches[@]}"
# -p: an unchanged list keeps an old mtime, so meson does not regenerate
# (a changed one changes the configuration key and gets a fresh object dir)
cp -p "$here/devices.mak" "$tree/configs/devices/x86_64-softmmu/bnb.mak"

# Run "$@" with its output in $log; every 10 s say how far ninja got.
progress() {
	local log=$1 what=$2 start=$SECONDS pid t=0 last
	shift 2

	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		t=$((t + 1))
		[ $((t % 10)) -eq 0 ] || continue
		last=$(grep -o '^\[[0-9]*/[0-9]*\]' "$log" | tail -n1 | tr -d '[]' || true)
		if [ -n "$last" ]; then
			echo "qemu: $what $((100 * ${last%/*} / ${last#*/}))% (${last} steps, $((SECONDS - start)) s)"
		else
			echo "qemu: $what ($((SECONDS - start)) s)"
		fi
	done
	if ! wait "$pid"; then
		tail -n 30 "$log" >&2
		die "$what failed (whole log: $log)"
	fi
}

in_dir() { cd "$1" && shift && "$@"; }

obj=$cache/obj/$objkey
if [ "$(cat "$obj/.bnb-config" 2>/dev/null)" != "$objkey" ]; then
	rm -rf "$obj"
	mkdir -p "$obj"
	progress "$obj/configure.log" configuring \
		in_dir "$obj" "$tree/configure" "${flags[@]}" "${cc_flags[@]}"
	echo "$objkey" > "$obj/.bnb-config"
fi

start=$SECONDS
echo "qemu: building $key in $obj"
NINJA_STATUS='[%f/%t] ' progress "$obj/build.log" building \
	ninja -C "$obj" -j"$(nproc)" qemu-system-x86_64
build_s=$((SECONDS - start))
echo "qemu: built in $build_s s"

rm -rf "$out.tmp"
mkdir -p "$out.tmp/bin" "$out.tmp/include" "$out.tmp/share"
cp "$obj/qemu-system-x86_64" "$out.tmp/bin/"
cp "$tree/include/qemu/qemu-plugin.h" "$out.tmp/include/"
ln -s "$data_dir" "$out.tmp/share/qemu"
api=$(sed -n 's/^#define QEMU_PLUGIN_VERSION \([0-9]*\)/\1/p' "$out.tmp/include/qemu-plugin.h")
time_control=0
grep -q 'qemu_plugin_add_ns' "$out.tmp/include/qemu-plugin.h" && time_control=1
{
	echo "format=$format"
	echo "key=$key"
	echo "source=debian:qemu:$version"
	echo "upstream=$(cat "$tree/VERSION")"
	echo "patches=$(for p in "${patches[@]}"; do printf '%s ' "$(basename "$p")"; done)"
	echo "patch_hash=$patch_hash"
	echo "config_hash=$confkey"
	echo "compiler=$compiler"
	echo "plugin_api=$api"
	echo "time_control=$time_control"
	echo "binary_size=$(stat -c %s "$out.tmp/bin/qemu-system-x86_64")"
	echo "binary_sha256=$(sha256sum < "$out.tmp/bin/qemu-system-x86_64" | cut -d' ' -f1)"
} > "$out.tmp/info"
rm -rf "$out"
mv "$out.tmp" "$out"
publish_link
echo "qemu: $out/bin/qemu-system-x86_64"
