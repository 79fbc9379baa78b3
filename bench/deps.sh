#!/bin/bash
# Install every Debian package the project needs (make deps).
# Quick when nothing is missing; as non-root it prints the apt-get line.
set -euo pipefail

packages=(
	# kernel build; linux-source-6.12 is the debian-6.12 kernel's source
	# (bookworm's linux-6.12: bookworm-security, or bookworm-backports)
	linux-source-6.1 linux-source-6.12 gcc make flex bison bc libelf-dev libssl-dev cpio
	xz-utils lz4 ccache dwarves git
	# guest and emulation (qemu-system-x86: the wall-mode fallback and
	# qemu-system-data's firmware for the project's own QEMU)
	qemu-system-x86 busybox-static numactl stress-ng linux-perf hwloc
	# the project's QEMU (bench/qemu/build.sh); meson and pycotap below
	dpkg-dev ninja-build libglib2.0-dev libpixman-1-dev libfdt-dev
	zlib1g-dev python3-venv
	# libraries for the project's C code (summary.html: cmark-gfm, libxml2)
	libnuma-dev libinih-dev libjson-c-dev libgsl-dev libcmark-gfm-dev
	libcmark-gfm-extensions-dev libxml2-dev pkg-config
	# tests, fuzzing, reports; summary.html's test in a browser
	libcriterion-dev clang libclang-rt-14-dev gnuplot-nox parallel
	shellcheck file python3
	chromium chromium-driver python3-selenium python3-pil python3-html5lib
	# bnb-run --slurm and its test's one-host cluster (bench/runner/slurm/)
	slurm-wlm munge
)

# QEMU 10's source comes from trixie (a deb-src line), its meson (>= 1.5)
# and python3-pycotap from bookworm-backports: bookworm's meson is 1.0.
sources=/etc/apt/sources.list.d/balancenuma-bench.sources
sources_text="# balancenuma-bench (bench/deps.sh): trixie's qemu source package for
# bench/qemu/build.sh, and its build tools from bookworm-backports.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
backports=(meson python3-pycotap)

# The packages the shipped experiments boot their guests with (`packages =`,
# bench/guest/packages), read with builtins: installed apart, their servers
# kept from starting on the host (bench/guest/packages/install.sh).
here=$(cd "$(dirname "$0")" && pwd)
guest_packages=()
for ini in "$here"/experiments/*.ini "$here"/experiments/*/*.ini; do
	[ -r "$ini" ] || continue
	while IFS= read -r line; do
		key=${line%%=*}
		if [ "$key" != "$line" ] && [ "${key//[[:space:]]/}" = packages ]; then
			read -r -a words <<<"${line#*=}"
			guest_packages+=("${words[@]}")
		fi
	done < "$ini"
done

# One dpkg-query and no other process (this runs before every ./run.sh);
# the sources file is read with a builtin.
declare -A installed=() version=()
while read -r p want ok state ver; do
	[ "$want $ok $state" = "install ok installed" ] && installed[$p]=1 && version[$p]=$ver
done < <(dpkg-query -W -f '${Package} ${Status} ${Version}\n' \
	"${packages[@]}" "${backports[@]}" "${guest_packages[@]}" 2>/dev/null || true)
missing=()
for p in "${packages[@]}"; do
	[ -n "${installed[$p]:-}" ] || missing+=("$p")
done
declare -A seen=()
missing_guest=()
for p in "${guest_packages[@]}"; do
	[ -n "${installed[$p]:-}" ] || [ -n "${seen[$p]:-}" ] || missing_guest+=("$p")
	seen[$p]=1
done
missing_bpo=()
[ -n "${installed[python3-pycotap]:-}" ] || missing_bpo+=(python3-pycotap)
# meson >= 1.5: bookworm's own 1.0 is not enough
case ${version[meson]:-0} in
0 | 0.* | 1.[0-4] | 1.[0-4].* | 1.[0-4][~+-]*) missing_bpo+=(meson) ;;
esac
need_sources=0
have_sources=
[ -r "$sources" ] && have_sources=$(<"$sources")
[ "$have_sources" = "$sources_text" ] || need_sources=1
[ ${#missing[@]} -eq 0 ] && [ ${#missing_bpo[@]} -eq 0 ] && [ ${#missing_guest[@]} -eq 0 ] &&
	[ $need_sources = 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
line_bpo="apt-get install -y --no-install-recommends -t bookworm-backports ${backports[*]}"
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages or apt sources; as root run:" >&2
	[ $need_sources = 0 ] || echo "  bench/deps.sh   (it writes $sources)" >&2
	echo "  apt-get update && $line && $line_bpo" >&2
	[ ${#missing_guest[@]} -eq 0 ] ||
		echo "  bench/guest/packages/install.sh ${missing_guest[*]}" >&2
	exit 2
fi
export DEBIAN_FRONTEND=noninteractive
if [ $need_sources = 1 ]; then
	echo "deps: adding $sources (trixie deb-src, bookworm-backports)"
	echo "$sources_text" > "$sources"
fi
apt-get update -qq
[ ${#missing[@]} -eq 0 ] && [ ${#missing_bpo[@]} -eq 0 ] ||
	echo "deps: installing ${missing[*]} ${missing_bpo[*]}"
# The maintainer scripts of munge and slurm-wlm start their daemons; the
# project starts its own (bench/runner/slurm/cluster.sh), so none is
# started here: invoke-rc.d and deb-systemd-invoke ask policy-rc.d, which
# says no (101) while this installs, unless the host has its own.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\n# bench/deps.sh: no service starts while it installs\nexit 101\n' \
		> "$policy"
	chmod 755 "$policy"
	trap 'rm -f "$policy"' EXIT
fi
[ ${#missing[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends "${missing[@]}"
[ ${#missing_bpo[@]} -eq 0 ] ||
	apt-get install -y -qq --no-install-recommends -t bookworm-backports "${missing_bpo[@]}"
[ ${#missing_guest[@]} -eq 0 ] || "$here/guest/packages/install.sh" "${missing_guest[@]}"
