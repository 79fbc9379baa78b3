#!/bin/bash
# The autonuma-benchmark programs in a 2-node guest with 2 CPUs per node and
# balancing off, so that placement stays where the variant put it: every
# test in its plain, HARD_BIND and INVERSE_BIND form follows the output
# contract and zeroes exactly what its plan says; HARD_BIND leaves every
# thread on its own pages, INVERSE_BIND every numa02 thread on the other
# node's, and numa01's child on the other half's memory while its parent
# keeps its own (upstream's generated swap; --inverse-both swaps both);
# the plain numa01 and THREAD_ALLOC put both buffers on node 0 (upstream's
# NO_BIND_FORCE_SAME_NODE build), so that threads held on node 1 find
# every page remote, and --first-touch all local; the buffers start on a
# huge page boundary, so that they are all huge pages as upstream's GiB
# buffers are (--align 0: where malloc puts them, partly base pages);
# node_moves counts a thread's moves between nodes (none when bound; the
# threads moved from node 0 to node 1 mid-run, each at least once);
# options with no meaning exit 2 before anything runs.
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "autonuma tests"

tests="numa01 numa01_THREAD_ALLOC numa02 numa02_SMT"
# shellcheck disable=SC2016 # expanded by the guest's shell
# THP as in the suite's guests: 6.1 turns it off below 512 MiB of memory
cmd='echo always > /sys/kernel/mm/transparent_hugepage/enabled
run() { name=$1; shift; "$@" > /tmp/o 2> /tmp/e; echo "=== $name rc=$?"; sed "s/^/!err /" /tmp/e; cat /tmp/o; }'
for t in $tests; do
	for p in free local remote; do
		cmd="$cmd
run $t-$p autonuma --test $t --placement $p --size 4M --passes 6 --interval-ms 200"
	done
done
small='--size 4M --passes 6 --interval-ms 200'
cmd="$cmd
echo \"=== node1-cpus rc=0\"; cat /sys/devices/system/node/node1/cpulist
run numa01-node1 taskset c autonuma --test numa01 $small
run numa01_THREAD_ALLOC-node1 taskset c autonuma --test numa01_THREAD_ALLOC $small
run numa01-node1-first-touch taskset c autonuma --test numa01 $small --first-touch
run numa01-remote-both autonuma --test numa01 --placement remote $small --inverse-both
run numa01-align0 autonuma --test numa01 $small --align 0
autonuma --test numa02 --size 4M --passes 20000 --interval-ms 200 > /tmp/om 2>&1 & p=\$!
sleep 0.5; taskset -a -p c \$p > /dev/null; wait \$p; echo \"=== numa02-moved rc=\$?\"; cat /tmp/om
run bad-flag autonuma --test numa02 --first-touch
run bad-placement autonuma --test numa02 --placement misplaced
run bad-threads autonuma --test numa02 --placement local --threads 3
run bad-size autonuma --test numa01 --size 2G
run bad-align autonuma --test numa01 --align 3M"

out=$(run_dir autonuma)
[ -n "${BNB_KEEP:-}" ] || trap 'rm -rf "$out"' EXIT
bnb_vm "$out" --nodes 2 --cpus 2 --mem 256M --balancing off --timeout 240 -- "$cmd" > /dev/null
check "guest ran the autonuma programs (bnb-vm exit $?)" test -s "$out/out.log"

# section NAME: the lines of run NAME; rc NAME: its exit status
section() { awk -v n="$1" '/^=== /{on = ($2 == n); next} on' "$out/out.log"; }
rc() { sed -n "s/^=== $1 rc=//p" "$out/out.log"; }
field() { section "$1" | grep '^# summary ' | tr ' ' '\n' | sed -n "s/^$2=//p"; }
header() { section "$1" | grep '^# autonuma ' | tr ' ' '\n' | sed -n "s/^$2=//p"; }

for t in $tests; do
	for p in free local remote; do
		n=$t-$p
		bind=$(field "$n" bind)
		want=$(case $p in free) echo none ;; local) echo HARD_BIND ;; *) echo INVERSE_BIND ;; esac)
		total=$(header "$n" bytes_total)
		mb=$(field "$n" mb_total)
		if [ "$(rc "$n")" = 0 ] && [ "$(field "$n" status)" = ok ] && [ "$bind" = "$want" ] &&
			section "$n" | grep -q '^t_s,rate,locality,mb$' &&
			awk -v t="$total" -v m="$mb" 'BEGIN { exit !(t > 0 && (t / 1e6 - m) ^ 2 < 0.01) }'; then
			ok "$n: status ok, bind=$bind, zeroed the planned $total bytes"
		else
			not_ok "$n: rc=$(rc "$n") bind=$bind total=$total mb_total=$mb"
			section "$n" | sed 's/^/#   /'
		fi
	done
done

check "numa02: 4 threads (ncpus)" test "$(header numa02-free threads)" = 4
check "numa02_SMT: 2 threads (ncpus/2)" test "$(header numa02_SMT-free threads)" = 2
check "numa01: 2 processes of 2 threads" \
	test "$(header numa01-free processes)/$(header numa01-free threads)" = 2/2
for t in numa01 numa01_THREAD_ALLOC numa02 numa02_SMT; do
	l=$(field "$t-local" locality_end)
	check "$t HARD_BIND: every thread on its own pages (locality $l)" test "$l" = 1.0000
	check "$t HARD_BIND: no thread changes node (node_moves $(field "$t-local" node_moves))" \
		test "$(field "$t-local" node_moves)" = 0
done
moves=$(field numa02-moved node_moves)
check "numa02's two threads on node 0, moved to node 1 mid-run, count it (node_moves ${moves:-none} >= 2)" \
	test "${moves:-0}" -ge 2
for t in numa02 numa02_SMT; do
	l=$(field "$t-remote" locality_end)
	check "$t INVERSE_BIND: every thread on the other node's pages (locality $l)" \
		test "$l" = 0.0000
done
for t in numa01 numa01_THREAD_ALLOC; do
	l=$(field "$t-remote" locality_end)
	check "$t INVERSE_BIND: the child's threads remote, the parent's local (locality $l)" \
		test "$l" = 0.5000
	check "$t INVERSE_BIND: inverse=child" test "$(header "$t-remote" inverse)" = child
done
l=$(field numa01-remote-both locality_end)
check "numa01 INVERSE_BIND --inverse-both: every thread remote (locality $l)" test "$l" = 0.0000
check "node 1 has CPUs 2-3 (taskset c holds the threads there)" \
	test "$(section node1-cpus)" = 2-3
for t in numa01 numa01_THREAD_ALLOC; do
	l=$(field "$t-node1" locality_end)
	check "$t: opening pass on node 0, threads on node 1 all remote (locality $l)" \
		test "$(header "$t-node1" opening_node)/$l" = 0/0.0000
done
l=$(field numa01-node1-first-touch locality_end)
check "numa01 --first-touch: threads on node 1 all local (locality $l)" \
	test "$(header numa01-node1-first-touch opening_node)/$l" = -1/1.0000
for t in numa01 numa01_THREAD_ALLOC numa02 numa02_SMT; do
	h=$(field "$t-free" huge_kb) b=$(field "$t-free" buffer_kb)
	check "$t: aligned to 2 MiB, its buffers all huge pages ($h of $b KiB)" \
		test "$(field "$t-free" align)/$h" = "2097152/$b"
done
h=$(field numa01-align0 huge_kb) b=$(field numa01-align0 buffer_kb)
check "numa01 --align 0: malloc's buffers partly base pages ($h of $b KiB)" \
	test "$(field numa01-align0 align)" = 0 -a "${h:-x}" -lt "${b:-0}"
for n in bad-flag bad-placement bad-threads bad-size bad-align; do
	e=$(section "$n" | sed -n 's/^!err //p')
	if [ "$(rc "$n")" = 2 ] && [ "$(echo "$e" | wc -l)" = 1 ] && ! section "$n" | grep -q '^t_s'; then
		ok "$n: exit 2 before running: $e"
	else
		not_ok "$n: rc=$(rc "$n"): $e"
	fi
done
done_testing
