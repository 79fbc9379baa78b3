#!/bin/bash
# The machine model's interconnect (bench/model/README.md, "The
# interconnect") in a 4-node guest whose links form a ring 0-1-2-3-0:
# graphs a run cannot honour are refused before anything boots, naming
# the option; node 0's lines from node 2 take the route 0-1-2, two hops,
# and come slower than node 0's from node 1 by the configured ratio
# (+-10 %): by the hop latencies when every miss waits in full, by the
# slower link 1-2 when the streams are held by bandwidth.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
require_guest "machine model interconnect"

SO=$BNB_ROOT/build/bin/bnb-plugin.so


det=(--timing deterministic --plugin "$SO" --model 2socket --nodes 4)
vm_refused "links for more nodes than the guest's refused" \
	"--links: the links join nodes 0-4; the guest has 4 nodes" \
	"${det[@]}" --links 0-1,1-2,2-3,3-4 --dry-run
vm_refused "links for fewer nodes than the guest's refused" \
	"--links: the links join nodes 0-2; the guest has 4 nodes" \
	"${det[@]}" --links 0-1,1-2 --dry-run
vm_refused "a pair no link joins refused" "--links: no route from node 0 to node 2" \
	"${det[@]}" --links 0-1,2-3 --dry-run
vm_refused "a link of bandwidth 0 refused" "--links: link 0-1: '0' is not an integer from 1" \
	"${det[@]}" --links 0-1:0,1-2,2-3,3-0 --dry-run
vm_refused "a route over a pair that is not a link refused" \
	"--routes: route 0-2 crosses 0-2, which is not a link" \
	"${det[@]}" --links 0-1,1-2,2-3,3-0 --routes 0-2 --dry-run


# ring DIR OPTIONS...: node 0 streams from node 1, then from node 2
ring() {
	local dir=$1
	shift
	bnb_vm "$dir" "${det[@]}" --plugin-opt shm="$dir/c.shm" --cpus-per-node 1 \
		--node-bandwidth-mbs 100000000 "$@" --timeout 900 -- \
		'bnb-plugin-calib >/dev/null &&
		 stream --size 2M --iterations 3 --threads 1 --placement remote --node 0 --mem-node 1 &&
		 stream --size 2M --iterations 3 --threads 1 --placement remote --node 0 --mem-node 2' \
		>/dev/null 2>&1
}

# ratio DIR LOW HIGH DESCRIPTION: rate to node 1 over rate to node 2 in [LOW, HIGH]
ratio() {
	local r1 r2
	r1=$(stream_rate "$1/out.log" "mem_node=1")
	r2=$(stream_rate "$1/out.log" "mem_node=2")
	diag "$4: stream MB per guest second from node 1 ${r1:-?}, from node 2 ${r2:-?}"
	check "$4" awk -v a="${r1:-0}" -v b="${r2:-0}" -v lo="$2" -v hi="$3" \
		'BEGIN { r = b > 0 ? a / b : 0; exit !(r >= lo && r <= hi) }'
}

# Latency only: one miss in flight, links far faster than needed, so
# every miss waits its latency: 200 ns + 100 a hop, 300 ns from node 1,
# 400 ns from node 2 (0-1-2): the ratio 4/3.
d=$(run_dir ring-latency)
ring "$d" --latency-ns 200 --hop-latency-ns 100 --mlp 1 \
	--links 0-1:100000000,1-2:100000000,2-3:100000000,3-0:100000000
check "the latency-bound streams ran" test $? -eq 0
ratio "$d" 1.2 1.4667 "two hops cost the hop latencies' ratio 4/3 (+-10 %)"

# Bandwidth: link 1-2 a quarter of the others' bandwidth, latency / mlp
# far below either link's line time (64 B at 2000 MB/s is 32 ns, at 500
# MB/s 128 ns): node 2's lines are held by link 1-2, node 1's by 0-1.
d2=$(run_dir ring-bandwidth)
ring "$d2" --latency-ns 50 --hop-latency-ns 25 \
	--links 0-1:2000,1-2:500,2-3:2000,3-0:2000
check "the bandwidth-bound streams ran" test $? -eq 0
ratio "$d2" 3.6 4.4 "two hops held by their slowest link: the bandwidth ratio 4 (+-10 %)"

[ -n "${BNB_KEEP:-}" ] || rm -rf "$d" "$d2"
done_testing
