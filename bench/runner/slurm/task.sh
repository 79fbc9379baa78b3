#!/bin/sh
# One task of a `bnb-run --slurm` array (bench/runner/slurm/): sbatch runs
# it as the batch script with the arguments
#   $1 bnb-run   $2 the build cache   $3 the task list
# and the task list's line "K<TAB>FOLDER<TAB>N" for K = SLURM_ARRAY_TASK_ID
# names its run: `bnb-run job FOLDER N`. Before it, it checks that this
# node sees what every node must see at the submitter's paths; each miss
# has its own exit status, which `bnb-run --slurm --wait` names
# (slurm/wait.c): 3 the tree, 4 the task list, 5 the build cache. (A node
# that lacks the results folder altogether fails the task before this
# runs: slurmstepd cannot open the task's log there.) It reads data only:
# nothing from the list is run as shell text.
node=$(hostname)
where() {
	echo "bnb-run slurm task ${SLURM_ARRAY_JOB_ID:-?}_${SLURM_ARRAY_TASK_ID:-?} on $node: $1" \
		"is not there: it must be on a path every node sees" >&2
	exit "$2"
}
[ -x "$1" ] || where "the tree's $1" 3
[ -r "$3" ] || where "the results folder's task list $3" 4
[ -d "$2" ] || where "the build cache $2" 5
BNB_CACHE=$2
export BNB_CACHE
tab=$(printf '\t')
while IFS=$tab read -r k folder n; do
	[ "$k" = "${SLURM_ARRAY_TASK_ID:-}" ] && exec "$1" job "$folder" "$n"
done < "$3"
echo "bnb-run slurm task: no task '${SLURM_ARRAY_TASK_ID:-}' in $3" >&2
exit 2
