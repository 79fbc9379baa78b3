#!/bin/bash
# Debian's servers in the guest (docs/applications.md), each in a tiny
# run of bnb-run under deterministic timing with the 2socket model and
# balancing on: Redis, memcached and PostgreSQL each start through
# bnb-service, answer, take a small load on node 0, move to node 1 and
# serve their load generator; sysbench runs alone. Each run ends ok,
# reports its tool's headline figure (within what the tool can mean), and
# the agent followed its pages: numa_maps walked for the processes
# registered in /run/bnb/pids, their pages counted on the nodes, the
# true locality of the measured work known. A server
# that never answers fails its run with the end of its log, before the
# generator; a package that is not installed is refused before boot.
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "the applications' tests"

if [ ! -e "$BNB_ROOT/build/bin/bnb-plugin.so" ]; then
	skip "the applications' runs need the machine model" "bnb-plugin.so is not built"
	done_testing
	exit 0
fi

run=$BNB_ROOT/build/bin/bnb-run
work=$(run_dir apps)
[ -n "${BNB_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

# Phases of a guest second or two: the format of the figures and the
# followed pages are what is tested, not their size.
cat > "$work/apps.ini" <<'INI'
[machine]
model = 2socket

[global]
nodes = 2
cpus = 1
mem = 512M
timing = deterministic
balancing = on
repetitions = 1
time_limit = 3600
interval_ms = 50
server_move = 1

[redis]
packages = numactl redis-server redis-tools
server = numactl --cpunodebind=0 redis-server --save '' --appendonly no --bind 127.0.0.1
server_ready = redis-cli ping
server_load = redis-benchmark -t set -n 2000 -r 2000 -d 1024 -P 16 -q
workload = redis-benchmark -t get -n 4000 -r 2000 -d 1024 -P 16 --csv

[memcached]
packages = numactl memcached libmemcached-tools
server_user = memcache
server = numactl --cpunodebind=0 memcached -t 2 -m 16 -l 127.0.0.1 -U 0
server_ready = memcping --servers=127.0.0.1
server_load = memcaslap -s 127.0.0.1:11211 -T 1 -c 4 -w 1k -X 512 -x 100
workload = memcaslap -s 127.0.0.1:11211 -T 1 -c 4 -w 1k -X 512 -t 1s

[postgres]
packages = numactl postgresql-15 postgresql-client-15
server_user = postgres
server_setup = initdb -D data --no-sync -A trust --locale=C -E UTF8
server = numactl --cpunodebind=0 postgres -D data -c listen_addresses= -c unix_socket_directories=/tmp/bnb-service -c fsync=off -c jit=off -c shared_buffers=16MB
server_ready = pg_isready -h /tmp/bnb-service
server_load = pgbench -h /tmp/bnb-service -U postgres -i -s 1 -q postgres
workload = pgbench -h /tmp/bnb-service -U postgres -S -n -c 2 -T 1 postgres

[sysbench]
packages = sysbench
server_move = -1
workload = echo $$ >> /run/bnb/pids && exec sysbench memory --threads=2 --memory-block-size=8M --memory-total-size=1G run
metrics = sysbench
INI

out=$work/results
"$run" "$work/apps.ini" --out "$out" --no-plots > "$work/run.log" 2>&1
rc=$?
diag "bnb-run exit $rc; $(grep -c 'ok after' "$work/run.log") runs ok"
check "every application's run ends ok (exit $rc)" test "$rc" = 0

# metric RUN NAME: the run's summary.json metric, or "none".
metric() {
	python3 - "$out/runs/$1/rep1/summary.json" "$2" <<'PY'
import json, sys
try:
    s = json.load(open(sys.argv[1]))
except OSError:
    print('none')
    sys.exit()
v = s.get('metrics', {}).get(sys.argv[2], s.get(sys.argv[2]))
if isinstance(v, dict):
    v = v.get('value')
print('none' if v is None else v)
PY
}
holds() { awk -v a="$2" "BEGIN { exit !($1) }"; }

# followed RUN: the most processes one numa_maps walk covered, and the
# most pages it counted on the nodes (the collector's pids_walked, nodeN_pages).
followed() {
	awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) { if ($i == "pids_walked") w = i;
		if ($i ~ /^node[0-9]+_pages$/) p[i] = 1 }; next }
		w && $w != "" { s = 0; for (i in p) s += $i; if ($w > pw) pw = $w; if (s > ps) ps = s }
		END { print pw + 0, ps + 0 }' "$out/runs/$1/rep1/timeseries.csv" 2>/dev/null
}

for app in redis:redis.get.rps memcached:memaslap.tps postgres:pgbench.tps \
	sysbench:sysbench.events_per_s; do
	v=${app%%:*} figure=${app#*:}
	vm_clean "$out/runs/$v/rep1"
	x=$(metric "$v" "$figure")
	check "$v: $figure reported ($x)" holds 'a > 0 && a < 1e9' "${x/none/-1}"
	read -r pids pages <<<"$(followed "$v")"
	check "$v: its pages followed ($pids processes, $pages pages on the nodes)" \
		holds 'a >= 1' "$pids"
	check "$v: the followed processes hold pages ($pages)" holds 'a > 100' "$pages"
	# the plugin's counts of the measured work: bnb-service marks a
	# server's generator, bnb-monitor --mark-work a plain program
	tl=$(python3 -c 'import json,sys; v=json.load(open(sys.argv[1])).get("plugin",{}).get("true_locality"); print("none" if v is None else v)' \
		"$out/runs/$v/rep1/summary.json" 2>/dev/null)
	check "$v: the true locality of its measured work ($tl)" holds 'a >= 0 && a <= 1' "${tl/none/-1}"
	if [ "$v" != sysbench ]; then
		check "$v: the server answered, loaded, moved to node 1" \
			grep -q '^# bnb-service: ready_s=[0-9.]* load_s=[0-9.]* pids=[0-9]* move=1$' \
			"$out/runs/$v/rep1/out.log"
	fi
done
# pgbench -T and memcaslap -t run for a fixed time: the account is not
# checked against it (their extractors say so)
for v in postgres memcached; do
	x=$(metric "$v" workload_fixed_s)
	check "$v: its generator's fixed time is known ($x s)" holds 'a == 1' "${x/none/-1}"
done
x=$(metric redis workload_fixed_s)
check "redis: redis-benchmark -n runs a fixed count, not a fixed time ($x)" test "$x" = none
pg=$(grep -o '^# bnb-service: pids=[0-9]*' "$out/runs/postgres/rep1/out.log" | tail -1)
check "postgres: the backends forked for the clients were followed too ($pg)" \
	holds 'a >= 5' "${pg##*=}"

# A server that never answers: its run fails with the end of its log,
# and the generator never ran.
cat > "$work/deaf.ini" <<'INI'
[global]
nodes = 2
cpus = 1
timing = deterministic
repetitions = 1
time_limit = 1800
packages = numactl redis-server redis-tools
server = redis-server --port 7000 --save ''
server_ready = redis-cli -p 7001 ping
server_timeout = 2
workload = redis-benchmark -p 7000 -t get -n 100 --csv

[deaf]
INI
"$run" "$work/deaf.ini" --out "$work/deaf" --no-plots > "$work/deaf.log" 2>&1
rc=$?
d=$work/deaf/runs/deaf/rep1
check "a server that never answers fails its run (exit $rc)" test "$rc" = 1
check "... saying so, with the end of the server's log" \
	grep -q "did not answer 'redis-cli -p 7001 ping' within 2 s" "$d/out.log"
check "... whose lines are there" grep -q 'bnb-service: | .*Ready to accept connections' "$d/out.log"
check "... and the generator never ran" test -z "$(grep '"GET"' "$d/out.log")"

# A package that is not installed: refused before anything boots.
sed 's/^packages = .*/packages = redis-server bnb-no-such-package/' "$work/deaf.ini" > "$work/bad.ini"
msg=$("$run" "$work/bad.ini" --out "$work/bad" 2>&1)
rc=$?
check "a package not installed is refused (exit $rc)" test "$rc" = 2
check "... naming it: $(head -1 <<<"$msg")" grep -q "bad.ini:[0-9]*: key 'packages'.*'bnb-no-such-package' is not installed" <<<"$msg"
check "... before anything booted" test ! -d "$work/bad/runs"
done_testing
