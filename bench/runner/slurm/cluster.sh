#!/bin/bash
# A one-host Slurm cluster in a folder of its own, from Debian's slurm-wlm
# and munge, for trying `bnb-run --slurm` and for its test: munged with a
# key it generates and a socket of its own, slurmctld and slurmd on
# 127.0.0.1 at free ports, one node with this host's CPUs, no accounting,
# proctrack/linuxproc and no cgroup plugin. It needs root (SlurmUser root:
# slurmd runs the tasks as their user) and touches no system service and
# nothing in /etc.
#
#   cluster.sh start DIR [--hide PATH]
#                           start it (DIR new or empty); prints the line
#                           export SLURM_CONF=DIR/slurm.conf. --hide: the
#                           node sees an empty folder at PATH, as a node
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
	echo "usage: ${0##*/} start DIR [--hide PATH] | stop DIR | procs DIR" >&2
	exit 2
}
[ $# = 2 ] || { [ $# = 4 ] && [ "$1 $3" = "start --hide" ]; } || usage
cmd=$1
dir=$2
hide=${4:-}

die() {
	echo "cluster.sh: $*" >&2
	exit 1
}

# The pids of DIR's processes: daemons by their mark, job tasks by theirs.
procs() {
	local p env

	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" != $$ ] || continue
		env=$(tr '\0' '\n' 2>/dev/null < "$p/environ") || continue
		if grep -qxF "BNB_SLURM_CLUSTER=$dir" <<<"$env" ||
			{ grep -qxF "SLURM_CONF=$dir/slurm.conf" <<<"$env" &&
				grep -q '^SLURM_JOB_ID=' <<<"$env"; }; then
			echo "${p#/proc/}"
		fi
	done
}

# A TCP port on 127.0.0.1 that nothing listens on (and not $1).
free_port() {
	local port used

	used=$(ss -Htln 2>/dev/null | awk '{ n = split($4, a, ":"); print a[n] }')
	for _ in $(seq 100); do
		port=$((20000 + RANDOM % 30000))
		[ "$port" != "${1:-}" ] || continue
		grep -qx "$port" <<<"$used" || { echo "$port"; return; }
	done
	die "no free TCP port found between 20000 and 50000"
}

# The last lines of a daemon's log that say why it stopped.
why() {
	grep -E 'error|fatal|Error' "$dir/log/$1.log" 2>/dev/null | tail -n 5 |
		sed "s/^/  $1: /" >&2 || true
}

conf() {
	cat <<EOF
# One-host cluster for balancenuma-bench (bench/runner/slurm/cluster.sh)
ClusterName=bnb
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$2
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
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
NodeName=bnb1 NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=bnb Nodes=bnb1 Default=YES MaxTime=INFINITE State=UP
EOF
}

# Wait up to 30 s for the node to take jobs; say why not when it does not.
wait_idle() {
	local state

	for _ in $(seq 60); do
		state=$(SLURM_CONF=$dir/slurm.conf sinfo -h -n bnb1 -o %T 2>/dev/null || true)
		case $state in idle*) return 0 ;; esac
		sleep 0.5
	done
	echo "cluster.sh: the node did not come up (state '${state:-unknown}')" >&2
	why slurmctld
	why slurmd
	return 1
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
	ctld_port=$(free_port)
	d_port=$(free_port "$ctld_port")
	conf "$ctld_port" "$d_port" > "$dir/slurm.conf"
	export BNB_SLURM_CLUSTER=$dir SLURM_CONF=$dir/slurm.conf
	munged --socket="$dir/munge/socket" --key-file="$dir/munge/key" \
		--pid-file="$dir/munge/pid" --seed-file="$dir/munge/seed" \
		--log-file="$dir/log/munged.log" || { why munged; die "munged could not start"; }
	slurmctld || { why slurmctld; die "slurmctld could not start"; }
	if [ -n "$hide" ]; then
		# its own mount namespace, an empty tmpfs over PATH: the tasks
		# it starts (and so slurm/task.sh's checks) see that
		# shellcheck disable=SC2016 # $1 is the inner shell's
		unshare --mount --propagation private sh -c \
			'mount -t tmpfs bnb-hidden "$1" && exec slurmd -N bnb1' sh "$hide" ||
			{ why slurmd; die "slurmd could not start with $hide hidden"; }
	else
		slurmd -N bnb1 || { why slurmd; die "slurmd could not start"; }
	fi
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
	end_pids $(cat "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/pid" 2>/dev/null)
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
