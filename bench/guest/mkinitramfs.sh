#!/bin/bash
# Build the guest root as an uncompressed initramfs (make guest).
#   bench/guest/mkinitramfs.sh OUTPUT.cpio GUEST_BINARY...
# Uncompressed on purpose: unpacking gzip under TCG costs boot time, while
# QEMU hands an uncompressed archive to the guest just as quickly.
set -euo pipefail

out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
host_tools=(numactl stress-ng perf lstopo-no-graphics)

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,root,etc,opt/bnb/bin}
cp /bin/busybox "$root/bin/busybox"
# Every applet as a link, at the path busybox itself gives it.
for applet in $("$root/bin/busybox" --list-full); do
	[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
done
install -m 0755 "$here/init" "$root/init"
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
echo 'root:x:0:' > "$root/etc/group"

for bin in "$@"; do
	install -s -m 0755 "$bin" "$root/opt/bnb/bin/"
done

# Host tools keep their shared libraries at the paths ldd names, so the
# dynamic loader finds them without any environment.
copy_with_libs() {
	local bin=$1 lib

	install -s -m 0755 "$bin" "$root/opt/bnb/bin/"
	for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
for tool in "${host_tools[@]}"; do
	path=$(command -v "$tool") || { echo "mkinitramfs: $tool missing: run 'make deps'" >&2; exit 1; }
	copy_with_libs "$path"
done
# lstopo by its usual name too.
ln -s lstopo-no-graphics "$root/opt/bnb/bin/lstopo"

mkdir -p "$(dirname "$out")"
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --quiet -o -0 -H newc -R 0:0) > "$out.tmp"
mv "$out.tmp" "$out"
echo "guest: $out ($(du -h "$out" | cut -f1))"
