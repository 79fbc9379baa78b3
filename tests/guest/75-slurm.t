#!/bin/bash
# bnb-run --slurm against a real one-host cluster of two nodes (Debian's
# slurm-wlm and munge, started in a folder of the test's own by
# bench/runner/slurm/cluster.sh; no system service touched): the default
# experiment (one repetition) as a job array with --wait, one task killed
# mid-run, `--resume --slurm` redoing that run alone, and every run's
# figures the same as the same experiment's run locally; bad input
# refused or failed with its reason, nothing lost; the cluster stopped
# with nothing of it left running. A host where the cluster cannot start
# fails here, saying why.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "bnb-run --slurm"

run=$BNB_ROOT/build/bin/bnb-run
cluster=$BNB_ROOT/bench/runner/slurm/cluster.sh
work=$(run_dir slurm)
# munged wants every folder above its socket searchable by all
chmod 711 "$work"
mkdir "$work/hidden"
# a results folder on this host's own storage, for the warning
tmp=$(mktemp -d /tmp/bnb-slurm-test.XXXXXX)
cleanup() {
	"$cluster" stop "$work/cluster" >/dev/null 2>&1
	[ -n "${BNB_KEEP:-}" ] || rm -rf "$work" "$tmp"
}
trap cleanup EXIT

# two nodes (a slurmd each) sharing the host's CPUs
if ! started=$("$cluster" start "$work/cluster" --nodes 2 --hide "$work/hidden" 2>&1); then
	not_ok "a one-host Slurm cluster starts: $(tr '\n' ' ' <<<"$started")"
	diag "cluster stopped: $SECONDS s"
done_testing
	exit 1
fi
ok "a one-host Slurm cluster of two nodes starts (slurmctld, slurmds, munged of its own)"
export SLURM_CONF=$work/cluster/slurm.conf
# the job id of bnb-run's "Slurm job N: ..." line in FILE
job_of() { sed -n 's/^bnb-run: Slurm job \([0-9]*\): [0-9]* runs.*/\1/p' "$1" | tail -n 1; }

# ---- bad input: refused or failed with the reason, nothing lost ----------

# slurm/task.sh alone: each path a node must see, missing, has its status
task=$BNB_ROOT/bench/runner/slurm/task.sh
printf '1\t%s\t1\n' "$work/nowhere" > "$work/list"
# task_lacks STATUS WHAT BNB-RUN CACHE LIST
task_lacks() {
	local err rc
	err=$(SLURM_ARRAY_TASK_ID=1 "$task" "$3" "$4" "$5" 2>&1)
	rc=$?
	check "task.sh: a node without $2 exits $1 (exit $rc: $err)" \
		test "$rc" = "$1" -a -n "$(grep "$2.*must be on a path every node sees" <<<"$err")"
}
task_lacks 3 "the tree" "$work/no-bnb-run" "$BNB_ROOT" "$work/list"
task_lacks 4 "task list" "$run" "$BNB_ROOT" "$work/no-list"
task_lacks 5 "the build cache" "$run" "$work/no-cache" "$work/list"

# refused NAME WANT ARGS...: exit 2, WANT in the message, no folder made
refused() {
	local name=$1 want=$2 err rc
	shift 2
	err=$("$@" --out "$work/$name" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = 2 ] && [[ $err == *"$want"* ]] && [ ! -e "$work/$name" ]; then
		ok "$name refused before anything was made"
	else
		not_ok "$name: exit $rc, wanted 2 and '$want': $err"
	fi
}
refused slurm-jobs "--slurm and --jobs" "$run" --reps 1 --slurm --jobs 2
refused wait-alone "--wait follows a Slurm array" "$run" --reps 1 --wait
mkdir "$work/bin"
refused no-sbatch "sbatch: not found" env PATH="$work/bin" "$run" --reps 1 --slurm
refused own-array "'--array=1-9' is bnb-run's to give" "$run" --reps 1 --slurm -- --array=1-9

"$run" --reps 1 --out "$work/refusal" --slurm -- --partition=nosuch > "$work/refusal.log" 2>&1
rc=$?
check "sbatch's refusal: exit 2 with its own message (exit $rc)" \
	test "$rc" = 2 -a -n "$(grep 'sbatch refused the array: .*nvalid partition' "$work/refusal.log")"
"$run" report "$work/refusal" > "$work/refusal.report" 2>&1
rc=$?
check "... the folder keeps its job list: report names both runs not started (exit $rc)" \
	test "$rc" = 1 -a "$(grep -c 'rep1 incomplete: no run folder' "$work/refusal.report")" = 2

# pending tasks: a --resume would move and rerun what they will run; and
# on a cluster of more than one node, a folder under /tmp draws a warning
"$run" --reps 1 --out "$tmp/later" --slurm -- --begin=now+3600 > "$work/later.log" 2>&1
later=$(job_of "$work/later.log")
check "an array that waits an hour is submitted (job ${later:-none})" test -n "$later"
check "... with a warning: its folder under /tmp, on a cluster of two nodes" grep -q \
	"warning: the results folder $tmp/later is on this host's own storage" "$work/later.log"
"$run" --resume "$tmp/later" > "$work/later.resume" 2>&1
rc=$?
check "--resume of a folder whose tasks are pending is refused (exit $rc), naming the job" \
	test "$rc" = 2 -a -n "$(grep "Slurm job $later still has 2 task(s) pending or running" \
	"$work/later.resume")"
"$run" report "$tmp/later" > "$work/later.report" 2>&1
check "report names the tasks still queued" grep -q "Slurm job $later: 2 task(s) still queued" \
	"$work/later.report"
scancel "$later"

# the node has no results folder at this host's path
"$run" --reps 1 --out "$work/hidden/res" --slurm --wait > "$work/hidden.log" 2>&1
rc=$?
check "a results folder no node sees: both runs fail with the reason (exit $rc)" \
	test "$rc" = 1 -a "$(grep -c 'never started: node bnb[12] does not see the results folder' \
	"$work/hidden.log")" = 2
hidden=$(job_of "$work/hidden.log")
# a job id Slurm never heard of is a job that is over
sed -i "s/^$hidden\t/999999\t/" "$work/hidden/res/slurm.jobs"
"$run" --resume "$work/hidden/res" --slurm > "$work/hidden.resume" 2>&1
rc=$?
check "--resume --slurm past a job Slurm no longer knows: said, and submitted again (exit $rc)" \
	test "$rc" = 0 -a -n "$(grep 'Slurm job 999999 is over' "$work/hidden.resume")" \
	-a -n "$(job_of "$work/hidden.resume")"

diag "bad input done: $SECONDS s"
# ---- the default experiment: locally, then through the cluster -----------

"$run" --reps 1 --out "$work/local" --no-plots > "$work/local.log" 2>&1
check "the default experiment ran locally" test $? = 0

diag "local run done: $SECONDS s"
"$run" --reps 1 --out "$work/sl" --no-plots --slurm --wait > "$work/sl.log" 2>&1 &
waiter=$!
# task 2 is "on": kill it once its guest has sampled a few times
for _ in $(seq 600); do
	n=$(grep -sc . "$work/sl/runs/on/rep1/timeseries.csv")
	[ "${n:-0}" -gt 8 ] && break
	sleep 0.2
done
job=$(job_of "$work/sl.log")
check "the array was submitted (job ${job:-none}) and task 2 is running" \
	grep -q '^status=running' "$work/sl/runs/on/rep1/status"
scancel "${job}_2"
wait "$waiter"
rc=$?
check "--wait ends when the array does, exit 1: one run not ok (exit $rc)" test "$rc" = 1
check "... it names the killed run as incomplete and its task as cancelled" grep -q \
	"on rep 1: incomplete: interrupted by signal 15 (task ${job}_2 CANCELLED on bnb[12]" \
	"$work/sl.log"
check "... and wrote the report" test -s "$work/sl/summary.md"
"$run" report "$work/sl" > "$work/sl.report" 2>&1
check "report names what is not finished" grep -q 'run on/rep1 incomplete: interrupted by signal 15' \
	"$work/sl.report"

diag "slurm run with a killed task done: $SECONDS s"
# what resume must leave alone: the run that ended ok
stamp() { stat -c '%i %Y %s %n' "$work/sl/runs/off/rep1/"{status,summary.json,out.log}; }
before=$(stamp)
"$run" --resume "$work/sl" --slurm --wait --no-plots > "$work/resume.log" 2>&1
rc=$?
check "--resume --slurm --wait: exit 0 (exit $rc)" test "$rc" = 0
check "... one run to do again, as array task 2 alone" grep -q \
	'Slurm job [0-9]*: 1 runs, array tasks 2;' "$work/resume.log"
check "... the run that ended ok was not touched" test "$(stamp)" = "$before"
check "... the killed attempt is kept beside the new one" \
	grep -q '^status=incomplete' "$work/sl/runs/on/rep1.prev-1/status"
check "... and the redone run ended ok" grep -q '^status=ok' "$work/sl/runs/on/rep1/status"

diag "resume done: $SECONDS s"
# Every figure the same as the local run's, to the last digit: the guest's
# output and console, and every key of each run's summary.json but those
# of the host (duration_s, provenance) and those from the plugin's counts
# (plugin.*, the model's misses and stalls, the account of balancing, the
# true locality's rise, the span of the work's samples, and the refused
# values among them), which the collector reads at host-timed moments and
# which differ between any two runs of one experiment, here or not
# (docs/BENCHMARKS.md, "Slurm").
# same_figures LOCAL SLURM RUN: the figures of RUN (VARIANT/repN) alike
same_figures() {
	python3 - "$@" <<'PY'
import json, sys
a, b, run = sys.argv[1:]
HOST = ('duration_s', 'provenance.', 'plugin.', 'tiering.rates_span_s', 'refused_metrics',
        'metrics.model_', 'metrics.account_', 'metrics.locality_',
        'metrics.passes_to_locality_')

def flat(d, p=''):
    out = {}
    for k, v in d.items():
        out.update(flat(v, p + k + '.') if isinstance(v, dict) else {p + k: v})
    return out

bad = []
for f in ('workload.csv', 'out.log', 'console.log'):
    if open(f'{a}/runs/{run}/{f}', 'rb').read() != open(f'{b}/runs/{run}/{f}', 'rb').read():
        bad.append(f)
x, y = (flat(json.load(open(f'{d}/runs/{run}/summary.json'))) for d in (a, b))
keys = [k for k in x.keys() | y.keys() if not k.startswith(HOST)]
bad += [f'{k}: {x.get(k)} != {y.get(k)}' for k in sorted(keys) if x.get(k) != y.get(k)]
print(f'# {run}: {len(keys)} keys and 3 files compared with {a}', file=sys.stderr)
for line in bad[:20]:
    print('# differs:', line, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}
for r in off/rep1 on/rep1; do
	if same_figures "$work/local" "$work/sl" "$r"; then
		ok "$r: every figure equals the local run's"
		continue
	fi
	# Now and then a host-timed event lands a deterministic run on one of
	# two outcomes (docs/BENCHMARKS.md, "Deterministic timing, measured"):
	# then a second local run of it has the cluster's outcome, if the
	# cluster changed nothing.
	diag "$r differs from the local run: running it locally again"
	"$run" --reps 1 --only "${r%/rep1}" --out "$work/local2-${r%/rep1}" --no-plots \
		> "$work/local2.log" 2>&1
	check "$r: every figure equals a second local run's (the first had the other outcome)" \
		same_figures "$work/local2-${r%/rep1}" "$work/sl" "$r"
done

diag "compared: $SECONDS s"
# ---- the cluster stopped, nothing of it left -----------------------------
"$cluster" stop "$work/cluster" > "$work/stop.log" 2>&1
check "the cluster stops ($(tr '\n' ' ' < "$work/stop.log"))" test $? = 0
left=$("$cluster" procs "$work/cluster")
check "no daemon, slurmstepd, task or guest of it is left running${left:+: $left}" test -z "$left"
diag "cluster stopped: $SECONDS s"
done_testing
