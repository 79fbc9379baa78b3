#!/bin/bash
# make kernel-check: the balancenuma series, checked the slow way.
#
#   kernel/check.sh [--quick]
#
# 1. every patch in kernel/patches/series applies, in order, with both
#    patch -p1 and git apply, and the tree builds after each one with the
#    guest config;
# 2. the whole series builds with CONFIG_NUMA_BALANCING=n, with
#    CONFIG_TRANSPARENT_HUGEPAGE=n and with CONFIG_SYSCTL=n, without a
#    warning in a patched file;
# 3. scripts/checkpatch.pl --strict reports no error in any patch.
# --quick compiles only the objects of the .c files the patches touch,
# after each patch and in the =n configs: it skips the rebuild of nearly
# the whole tree that each header change causes, and the final link (so
# `make kernel` still has to build the tip). checkpatch runs first.
#
# It works in its own tree and object dirs under the kernel cache, never in
# the tree kernel/build.sh uses, and ends with "kernel-check: N passed, N
# failed". Build logs stay in $CACHE/check/logs.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${BNB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/balancenuma-bench}
tarball=/usr/src/linux-source-6.1.tar.xz
work=$cache/check
tree=$work/linux
logs=$work/logs
quick=0

die() { echo "kernel/check.sh: $*" >&2; exit 2; }

case ${1:-} in
--quick) quick=1 ;;
"") ;;
*) die "unknown option '$1' (usage: kernel/check.sh [--quick])" ;;
esac

# shellcheck source=kernel/tree.sh
. "$here/tree.sh"

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

list=$(read_series "$here/patches") || die "bad series"
mapfile -t patches <<<"$list"
[ -n "$list" ] || patches=()
[ ${#patches[@]} -gt 0 ] || die "kernel/patches/series lists no patch"

mkdir -p "$work" "$logs"
exec 9>"$work/lock"
flock -n 9 || die "another kernel-check is running"
[ -r "$tarball" ] || die "$tarball is missing: run 'make deps'"
prepare_debian_tree "$tarball" "$tree"
checkout_series "$tree"

# The guest config with some options forced off: the lines that would turn
# them on are dropped, since configure_obj insists that every CONFIG_*=
# line of a fragment survives.
config_without() {
	local out=$1 opt
	shift
	grep -v -E "^CONFIG_($(IFS='|'; echo "$*"))(_[A-Z_]+)?=" \
		"$here/config/guest.config" > "$out"
	for opt in "$@"; do
		echo "# CONFIG_$opt is not set" >> "$out"
	done
}

touched=$(cat "${patches[@]}" | sed -n 's|^+++ b/||p' | sort -u)

# objects_of PATCH: the objects that compile the .c files PATCH touches.
# kernel/sched builds most of its files by #including them into two units.
objects_of() {
	sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$1" | while read -r c; do
		case $c in
		kernel/sched/core.c | kernel/sched/fair.c) echo "${c%.c}.o" ;;
		kernel/sched/*) echo kernel/sched/build_utility.o kernel/sched/build_policy.o ;;
		*) echo "${c%.c}.o" ;;
		esac
	done | tr ' ' '\n' | sort -u
}

# build LABEL OBJ LOG TARGETS FRAGMENT...: make TARGETS ("bzImage" or a
# list of objects), report, and count compiler warnings in patched files.
build() {
	local label=$1 obj=$2 log=$3 targets=$4 warnings what=builds
	shift 4

	configure_obj "$tree" "$obj" "$@"
	[ "$targets" = bzImage ] || what="compiles ($(echo "$targets" | wc -w) patched objects)"
	# shellcheck disable=SC2086 # targets is a word list
	if ! make -C "$tree" O="$obj" -j2 CC="ccache gcc" -s $targets > "$log" 2>&1; then
		fail "$label: build failed, see $log"
		grep -E 'error|Error' "$log" | head -10
		return
	fi
	warnings=$(grep -F -f <(echo "$touched") "$log" | grep -c 'warning:' || true)
	if [ "$warnings" -gt 0 ]; then
		fail "$label: $warnings compiler warning(s) in patched files, see $log"
		return
	fi
	pass "$label: $what"
}

# targets_for PATCH...: bzImage, or with --quick the objects they touch
targets_for() {
	if [ "$quick" = 1 ]; then
		for p in "$@"; do objects_of "$p"; done | sort -u | tr '\n' ' '
	else
		echo bzImage
	fi
}

# apply_one PATCH: both tools must accept it; git apply changes the tree
apply_one() {
	local p=$1 name

	name=$(basename "$p")
	if ! (cd "$tree" && patch -p1 --dry-run -s -f < "$p" > /dev/null); then
		fail "$name: does not apply with patch -p1"
		return 1
	fi
	if ! git -C "$tree" apply "$p"; then
		fail "$name: does not apply with git apply"
		return 1
	fi
	pass "$name: applies with patch -p1 and git apply"
}

export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache}
export KBUILD_BUILD_TIMESTAMP='balancenuma-bench' KBUILD_BUILD_USER=bnb KBUILD_BUILD_HOST=bnb

for p in "${patches[@]}"; do
	out=$("$tree/scripts/checkpatch.pl" --strict --no-tree -q "$p" 2>&1 || true)
	summary=$(echo "$out" | grep -E '^total:' || echo "total: 0 errors, 0 warnings, 0 checks")
	if echo "$summary" | grep -q '^total: 0 errors'; then
		pass "$(basename "$p"): checkpatch --strict: ${summary#total: }"
	else
		fail "$(basename "$p"): checkpatch --strict: ${summary#total: }"
		echo "$out" | head -20
	fi
done

n=0
for p in "${patches[@]}"; do
	n=$((n + 1))
	apply_one "$p" || break
	targets=$(targets_for "$p")
	if [ -z "$targets" ]; then
		pass "step $n/${#patches[@]} ($(basename "$p")): touches no C file"
		continue
	fi
	build "step $n/${#patches[@]} ($(basename "$p")), guest config" \
		"$work/obj-guest" "$logs/step$n.log" "$targets" "$here/config/guest.config"
done

if [ "$n" = ${#patches[@]} ]; then
	config_without "$work/no-numa-balancing.config" NUMA_BALANCING
	build "series with CONFIG_NUMA_BALANCING=n" "$work/obj-no-nb" \
		"$logs/no-numa-balancing.log" "$(targets_for "${patches[@]}")" \
		"$work/no-numa-balancing.config"
	grep -q '^CONFIG_NUMA_BALANCING=y' "$work/obj-no-nb/.config" &&
		fail "CONFIG_NUMA_BALANCING is still set in $work/obj-no-nb"
	config_without "$work/no-thp.config" TRANSPARENT_HUGEPAGE
	build "series with CONFIG_TRANSPARENT_HUGEPAGE=n" "$work/obj-no-thp" \
		"$logs/no-thp.log" "$(targets_for "${patches[@]}")" "$work/no-thp.config"
	grep -q '^CONFIG_TRANSPARENT_HUGEPAGE=y' "$work/obj-no-thp/.config" &&
		fail "CONFIG_TRANSPARENT_HUGEPAGE is still set in $work/obj-no-thp"
	# Only PROC_SYSCTL selects SYSCTL: the knobs' tables must compile away
	config_without "$work/no-sysctl.config" PROC_SYSCTL
	build "series with CONFIG_SYSCTL=n" "$work/obj-no-sysctl" \
		"$logs/no-sysctl.log" "$(targets_for "${patches[@]}")" "$work/no-sysctl.config"
	grep -q '^CONFIG_SYSCTL=y' "$work/obj-no-sysctl/.config" &&
		fail "CONFIG_SYSCTL is still set in $work/obj-no-sysctl"
fi

checkout_series "$tree"
echo "kernel-check: $passed passed, $failed failed"
[ "$failed" = 0 ]
