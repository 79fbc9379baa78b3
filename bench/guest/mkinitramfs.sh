#!/bin/bash
# Build the guest's initramfs archives (make guest).
#
#   bench/guest/mkinitramfs.sh base OUT.cpio GUEST_BINARY...
#       busybox, /init and the project's static binary with its program
#       links (a GUEST_BINARY that is a link is copied as one): what every
#       guest boots with.
#   bench/guest/mkinitramfs.sh extra OUT.cpio BASE.cpio GUEST_BINARY...
#       more of the project's binaries (the kernel tests' kt-*), to append
#       to BASE.cpio; each may load only libraries that BASE.cpio carries.
#   bench/guest/mkinitramfs.sh tools OUT.cpio
#       the host's numactl, perf, stress-ng and lstopo with their shared
#       libraries. Linux unpacks concatenated archives one after the
#       other, so `cat base tools` is a root with both; bnb-vm boots
#       that only when a run uses a tool (bnb-vm --tools).
#
# Each archive comes with OUT.list (OUT without .cpio), the commands it
# puts on the guest's PATH, one name a line: bnb-vm --tools reads the
# tools archive's to know when a run needs it, bnb-run all of them to
# refuse a workload the guest has no program for before anything boots.
#
# Uncompressed on purpose: unpacking gzip under TCG costs boot time, while
# QEMU hands an uncompressed archive to the guest just as quickly. Every
# megabyte still costs the guest a copy into tmpfs, which is why the tools
# (60-odd MB with perf's libraries) are not in the base.
set -euo pipefail

usage() {
	echo "usage: $0 base OUT.cpio GUEST_BINARY... | extra OUT.cpio BASE.cpio GUEST_BINARY..." \
		"| tools OUT.cpio" >&2
	exit 2
}
[ $# -ge 2 ] || usage
kind=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
tools=(numactl stress-ng perf lstopo-no-graphics)

# The archive is the same bytes whoever builds it, wherever and whenever:
# the kernel parses every header field in its hex digits as it unpacks,
# and a digit and a letter take different instructions, so under
# deterministic timing a build's mtimes, inode and device numbers moved
# the whole run (two checkouts of one commit measured up to 0.5 % apart).
# Every entry gets the guest's RTC date as its mtime (ARCHIVE_EPOCH,
# 2024-01-01, bench/vm's DETERMINISTIC_DATE), inodes are numbered in
# archive order, device numbers are left out, and modes do not follow the
# builder's umask.
ARCHIVE_EPOCH=1704067200
umask 022
root=$(mktemp -d)
chmod 0755 "$root"
# A failure says which archive and how to retry, whatever command failed.
on_exit() {
	local rc=$?

	rm -rf "$root"
	[ "$rc" = 0 ] || echo "guest: building $out failed (exit $rc); retry with: make guest" >&2
}
trap on_exit EXIT
mkdir -p "$(dirname "$out")"

base_root() {
	local bin target

	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,root,etc,opt/bnb/bin}
	cp /bin/busybox "$root/bin/busybox"
	# Every applet as a link, at the path busybox itself gives it: in one
	# process, as an ln for each of the 270-odd applets took seconds.
	# shellcheck disable=SC2046 # one argument per applet
	python3 -c 'import os, sys
for applet in sys.argv[2:]:
    path = os.path.join(sys.argv[1], applet)
    if not os.path.lexists(path):
        os.symlink("/bin/busybox", path)' "$root" $("$root/bin/busybox" --list-full)
	install -m 0755 "$here/init" "$root/init"
	install -m 0644 "$here/fstab.boot" "$here/fstab.dev" "$root/etc/"
	echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
	echo 'root:x:0:' > "$root/etc/group"
	# localhost for servers and clients on the loopback device, from
	# this file alone (glibc's default asks DNS first)
	echo '127.0.0.1 localhost' > "$root/etc/hosts"
	echo 'hosts: files' > "$root/etc/nsswitch.conf"
	for bin in "$@"; do
		[ -L "$bin" ] || copy_with_libs "$bin"
	done
	# A link to the multi-call binary (build/guest/bin/NAME) stays a link
	# beside it.
	for bin in "$@"; do
		[ -L "$bin" ] || continue
		target=$(readlink "$bin")
		[ -e "$root/opt/bnb/bin/$target" ] || {
			echo "mkinitramfs: $bin links to $target, which is not in the archive" >&2
			exit 1
		}
		ln -s "$target" "$root/opt/bnb/bin/${bin##*/}"
	done
}

# libs BINARY: the shared libraries it loads, by the paths ldd names (none
# for a static binary, of which ldd complains).
libs() {
	ldd "$1" 2>/dev/null | grep -o '/[^ ]*'
}

# Binaries keep their shared libraries at the paths ldd names, so the
# dynamic loader finds them without any environment.
copy_with_libs() {
	local bin=$1 lib

	install -s -m 0755 "$bin" "$root/opt/bnb/bin/"
	for lib in $(libs "$bin"); do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
		strip --strip-unneeded "$root$lib"
	done
}

# An extra archive holds binaries only: it is unpacked over the base, whose
# libraries must be all they load.
extra_root() {
	local base=$1 bin lib base_files

	shift
	base_files=$(cpio --quiet -it < "$base" | sed 's,^\.\?/\?,/,')
	mkdir -p "$root/opt/bnb/bin"
	for bin in "$@"; do
		for lib in $(libs "$bin"); do
			grep -qxF "$lib" <<< "$base_files" || {
				echo "mkinitramfs: $bin loads $lib, which $base lacks" >&2
				exit 1
			}
		done
		install -s -m 0755 "$bin" "$root/opt/bnb/bin/"
	done
}

tools_root() {
	local tool path

	mkdir -p "$root/opt/bnb/bin"
	for tool in "${tools[@]}"; do
		path=$(command -v "$tool") || {
			echo "mkinitramfs: $tool is missing; install it with: make deps" >&2
			exit 1
		}
		copy_with_libs "$path"
	done
	# lstopo by its usual name too.
	ln -s lstopo-no-graphics "$root/opt/bnb/bin/lstopo"
}

# The commands on the guest's PATH (bench/guest/init) that the archive holds.
list_commands() {
	local dir

	for dir in opt/bnb/bin bin sbin usr/bin usr/sbin; do
		if [ -d "$root/$dir" ]; then ls "$root/$dir"; fi
	done | LC_ALL=C sort -u
}

case $kind in
base) base_root "$@" ;;
extra) [ $# -ge 1 ] || usage; extra_root "$@" ;;
tools) [ $# -eq 0 ] || usage; tools_root ;;
*) usage ;;
esac

list_commands > "$out.list.tmp"
find "$root" -exec touch -h -d "@$ARCHIVE_EPOCH" {} +
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --quiet -o -0 -H newc -R 0:0 --reproducible) > "$out.tmp"
mv "$out.tmp" "$out"
mv "$out.list.tmp" "${out%.cpio}.list"
echo "guest: $out ($(du -h "$out" | cut -f1))"
