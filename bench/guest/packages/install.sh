#!/bin/bash
# Install Debian packages for the guest (an experiment's `packages =`)
# without leaving a server of theirs running on the host:
#
#   bench/guest/packages/install.sh PACKAGE...      (as root; bench/deps.sh calls it)
#
# Debian's maintainer scripts start a server at install (redis-server,
# memcached, postgresql-15), through invoke-rc.d or deb-systemd-invoke,
# which both ask /usr/sbin/policy-rc.d first: one that answers 101
# (action forbidden) stands for the install. A policy-rc.d already there
# is moved aside and put back as it was. Whatever started anyway (a
# script that asks nobody) is stopped by its pid, and where systemd runs
# the packages' units are disabled, so that no boot of the host starts
# them either.
set -euo pipefail

[ $# -gt 0 ] || { echo "usage: $0 PACKAGE..." >&2; exit 2; }
policy=/usr/sbin/policy-rc.d
saved=$policy.bnb-saved

restore() {
	rm -f "$policy"
	if [ -e "$saved" ]; then mv -f "$saved" "$policy"; fi
}
# a run killed before it could put the host's own back
[ ! -e "$saved" ] || mv -f "$saved" "$policy"

declare -A before=()
for pid in /proc/[0-9]*; do before[${pid#/proc/}]=1; done

if [ -e "$policy" ]; then mv "$policy" "$saved"; fi
trap restore EXIT
printf '#!/bin/sh\n# %s: no service starts while packages for the guest install\nexit 101\n' \
	"$0" > "$policy"
chmod 0755 "$policy"
echo "packages: installing $* (their servers kept from starting on the host)"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
restore
trap - EXIT

# The packages' files, to know their processes and units by.
declare -A theirs=()
while read -r f; do theirs[$f]=1; done < <(dpkg -L "$@" 2>/dev/null)
for pid in /proc/[0-9]*; do
	pid=${pid#/proc/}
	[ -z "${before[$pid]:-}" ] || continue
	exe=$(readlink "/proc/$pid/exe" 2>/dev/null) || continue
	[ -n "${theirs[$exe]:-}" ] || continue
	echo "packages: stopping $exe (pid $pid), started by its package's install"
	kill "$pid" 2>/dev/null || continue
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ -d "/proc/$pid" ] || break
		sleep 0.5
	done
	[ ! -d "/proc/$pid" ] || kill -KILL "$pid" 2>/dev/null || true
done
if [ -d /run/systemd/system ]; then
	for f in "${!theirs[@]}"; do
		case $f in
		/lib/systemd/system/*.service | /usr/lib/systemd/system/*.service)
			systemctl disable --now "${f##*/}" 2>/dev/null || true ;;
		esac
	done
fi
