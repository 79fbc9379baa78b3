#!/bin/bash
# A one-host Slurm cluster in a folder of its own, from Debian's slurm-wlm
# and munge, for trying `bnb-run --slurm` and for its test: munged with a
# key it generates and a socket of its own, slurmctld and one slurmd a node
# on 127.0.0.1 at free ports, the host's CPUs shared among the nodes, no
# accounting, proctrack/linuxproc and no cgroup plugin. It needs root
# (SlurmUser root: slurmd runs the tasks as their user) and touches no
# system service and nothing in /etc.
#
#   cluster.sh start DIR [--nodes N] [--hide PATH]
#                           start it (DIR new or empty) with N nodes, bnb1
#                           to bnbN (1 to 9, default 1); prints the line
#                           export SLURM_CONF=DIR/slurm.conf. --hide: the
#                           nodes see an empty folder at PATH, as nodes
#                           without the submitter's shared storage would
#   cluster.sh stop DIR     cancel its jobs, stop its daemons, and end any
#                           process of it still running (by pid)
#   cluster.sh procs DIR    the pids of its processes still running
#
# Its processes are known by their environment: the daemons (and the
# slurmstepd they fork) carry BNB_SLURM_CLUSTER=DIR, the tasks of its jobs
# SLURM_CONF=DIR/slurm.conf and SLURM_JOB_ID.
set -euo pipefail

usage() {
	echo "usage: ${0##*/} start DIR [--nodes N] [--hide PATH] | stop DIR | procs DIR" >&2
	exit 2
}
[ $# -ge 2 ] || usage
cmd=$1
dir=$2
shift 2
nodes=1
hide=
while [ $# -gt 0 ] && [ "$cmd" = start ]; do
	case $1 in
	--nodes) [[ ${2:-} =~ ^[1-9]$ ]] || usage; nodes=$2 ;;
	--hide) [ $# -ge 2 ] || usage; hide=$2 ;;
	*) usage ;;
	esac
	shift 2
done
[ $# = 0 ] || usage

die() {
	echo "cluster.sh: $*" >&2
	exit 1
}

# The pids of DIR's processes: daemons by their mark, job tasks by theirs
# (a few greps over every environment: no process started per process).
procs() {
	{
		grep -lzxF "BNB_SLURM_CLUSTER=$dir" /proc/[0-9]*/environ
		grep -lzxF "SLURM_CONF=$dir/slurm.conf" /proc/[0-9]*/environ |
			xargs -r grep -lz '^SLURM_JOB_ID='
	} 2>/dev/null | sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p' | grep -vx "$$" | sort -un || true
}

# A TCP port on 127.0.0.1 such that it and the ${2:-1} after it are free
# (and are not $1).
free_port() {
	local port used k ok

	used=$(ss -Htln 2>/dev/null | awk '{ n = split($4, a, ":"); print a[n] }')
	for _ in $(seq 100); do
		port=$((20000 + RANDOM % 30000))
		ok=1
		for k in $(seq 0 $((${2:-1} - 1))); do
			[ "$((port + k))" != "${1:-}" ] || ok=
			! grep -qx "$((port + k))" <<<"$used" || ok=
		done
		[ -z "$ok" ] || { echo "$port"; return; }
	done
	die "no free TCP port found between 20000 and 50000"
}

# The last lines of a daemon's log that say why it stopped.
why() {
	grep -E 'error|fatal|Error' "$dir/log/$1.log" 2>/dev/null | tail -n 5 |
		sed "s/^/  $1: /" >&2 || true
}

# slurm.conf: slurmctld at port $1, node K's slurmd at $2 + K - 1.
conf() {
	local k cpus=$(($(nproc) / nodes))

	[ "$cpus" -ge 1 ] || cpus=1
	cat <<EOF
# One-host cluster for balancenuma-bench (bench/runner/slurm/cluster.sh)
ClusterName=bnb
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$1
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
PlugStackConfig=$dir/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
KillWait=10
EOF
	for k in $(seq "$nodes"); do
		echo "NodeName=bnb$k NodeHostname=localhost NodeAddr=127.0.0.1" \
			"Port=$(($2 + k - 1)) CPUs=$cpus State=UNKNOWN"
	done
	echo "PartitionName=bnb Nodes=bnb[1-$nodes] Default=YES MaxTime=INFINITE State=UP"
}

# Wait up to 30 s for every node to take jobs; say why not when one does not.
wait_idle() {
	local states k

	for _ in $(seq 60); do
		states=$(SLURM_CONF=$dir/slurm.conf sinfo -h -N -o %T 2>/dev/null || true)
		[ "$(grep -c '^idle' <<<"$states")" = "$nodes" ] && return 0
		sleep 0.5
	done
	echo "cluster.sh: the nodes did not come up (states: $(tr '\n' ' ' <<<"$states"))" >&2
	why slurmctld
	for k in $(seq "$nodes"); do
		why "slurmd-bnb$k"
	done
	return 1
}

# Start node $1's slurmd; with --hide, in a mount namespace of its own with
# an empty tmpfs over the path: the tasks it starts (and so slurm/task.sh's
# checks) see that.
slurmd_start() {
	if [ -z "$hide" ]; then
		slurmd -N "$1"
		return
	fi
	# shellcheck disable=SC2016 # $1 and $2 are the inner shell's
	unshare --mount --propagation private sh -c \
		'mount -t tmpfs bnb-hidden "$1" && exec slurmd -N "$2"' sh "$hide" "$1"
}

start() {
	local ctld_port d_port daemon

	[ "$(id -u)" = 0 ] || die "start needs root (SlurmUser root)"
	for daemon in munged mungekey slurmctld slurmd sinfo; do
		command -v "$daemon" >/dev/null ||
			die "$daemon is not installed (make deps installs slurm-wlm and munge)"
	done
	mkdir -p "$dir"
	[ -z "$(ls -A "$dir")" ] || die "$dir is not empty"
	dir=$(cd "$dir" && pwd)
	# munged wants every folder above its socket searchable by all
	chmod 711 "$dir"
	mkdir -m 700 "$dir/state" "$dir/spool" "$dir/log"
	mkdir -m 711 "$dir/munge"
	: > "$dir/plugstack.conf"
	mungekey --create --keyfile="$dir/munge/key" >/dev/null ||
		die "mungekey could not create $dir/munge/key"
	# node K's slurmd at the second port + K - 1: all of them free
	ctld_port=$(free_port)
	d_port=$(free_port "$ctld_port" "$nodes")
	conf "$ctld_port" "$d_port" > "$dir/slurm.conf"
	export BNB_SLURM_CLUSTER=$dir SLURM_CONF=$dir/slurm.conf
	munged --socket="$dir/munge/socket" --key-file="$dir/munge/key" \
		--pid-file="$dir/munge/pid" --seed-file="$dir/munge/seed" \
		--log-file="$dir/log/munged.log" || { why munged; die "munged could not start"; }
	slurmctld || { why slurmctld; die "slurmctld could not start"; }
	for k in $(seq "$nodes"); do
		mkdir -m 700 "$dir/spool/bnb$k"
		slurmd_start "bnb$k" || { why "slurmd-bnb$k"; die "slurmd bnb$k could not start"; }
	done
	wait_idle || die "slurmd or slurmctld could not start (logs in $dir/log)"
	echo "export SLURM_CONF=$dir/slurm.conf"
}

# End PIDS with SIGTERM, then SIGKILL after 10 s; quiet when none is left.
end_pids() {
	local pid left

	[ $# -gt 0 ] || return 0
	kill -TERM "$@" 2>/dev/null || true
	for _ in $(seq 40); do
		left=
		for pid in "$@"; do
			[ -e "/proc/$pid" ] && left=1
		done
		[ -n "$left" ] || return 0
		sleep 0.25
	done
	kill -KILL "$@" 2>/dev/null || true
}

stop() {
	local jobs

	[ -f "$dir/slurm.conf" ] || die "$dir holds no cluster (no slurm.conf)"
	dir=$(cd "$dir" && pwd)
	export SLURM_CONF=$dir/slurm.conf
	jobs=$(squeue -h -o %A 2>/dev/null | sort -u || true)
	if [ -n "$jobs" ]; then
		# shellcheck disable=SC2086 # one job id a word
		scancel $jobs 2>/dev/null || true
		for _ in $(seq 60); do
			[ -z "$(squeue -h -o %A 2>/dev/null)" ] && break
			sleep 0.5
		done
	fi
	# the daemons together: each takes a second or two to end
	# shellcheck disable=SC2046 # one pid a word
	end_pids $(cat "$dir"/slurmd-*.pid "$dir/slurmctld.pid" "$dir/munge/pid" 2>/dev/null)
	# a task or slurmstepd that outlived its daemons
	# shellcheck disable=SC2046 # one pid a word
	end_pids $(procs)
	[ -z "$(procs)" ] || die "processes of $dir still run: $(procs | tr '\n' ' ')"
}

case $cmd in
start) start ;;
stop) stop ;;
procs) dir=$(cd "$dir" && pwd) && procs ;;
*) usage ;;
esac
