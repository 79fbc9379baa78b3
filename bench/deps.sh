#!/bin/bash
# Install every Debian package the project needs (make deps).
# Quick when nothing is missing; as non-root it prints the apt-get line.
set -euo pipefail

packages=(
	# kernel build
	linux-source-6.1 gcc make flex bison bc libelf-dev libssl-dev cpio
	xz-utils lz4 ccache dwarves git
	# guest and emulation
	qemu-system-x86 busybox-static numactl stress-ng linux-perf hwloc
	# libraries for the project's C code
	libnuma-dev libinih-dev libjson-c-dev libgsl-dev
	pkg-config
	# tests, fuzzing, reports
	libcriterion-dev clang libclang-rt-14-dev gnuplot-nox parallel
	shellcheck file python3
)

# One dpkg-query and no other process: this runs before every ./run.sh.
declare -A installed=()
while read -r p status; do
	[ "$status" = "install ok installed" ] && installed[$p]=1
done < <(dpkg-query -W -f '${Package} ${Status}\n' "${packages[@]}" 2>/dev/null || true)
missing=()
for p in "${packages[@]}"; do
	[ -n "${installed[$p]:-}" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages; as root run:" >&2
	echo "  apt-get update && $line" >&2
	exit 2
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
