#!/bin/bash
# A short kernel history to bisect (tests/guest/77-bisect.t, and
# docs/BENCHMARKS.md's figures): Debian's linux-source-6.1 as the kernel
# cache already holds it (kernel/build.sh's git tree in CACHE/src, whose
# root commit is the pristine source), the series in kernel/patches as
# one commit each, then five commits of which one moves what a balancing
# run counts: the default NUMA scan delay from 1 s to 4 s, so that a run
# shorter than 4 s scans nothing.
#
#   tests/lib/bisect-history.sh [REPO]
#
# REPO (default CACHE/bisect-test/linux-6.1.git) is a bare repository
# that borrows the source tree's objects (objects/info/alternates), made
# with git's plumbing in a private index: no checkout, a few seconds. Its
# tag `series` is the series' last commit, its branch `main` the last
# commit; fixed names and dates make the same commits on every run, so a
# bisection's kernels stay in the kernel cache from one run to the next.
# Prints the repository's path.
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
cache=${BNB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/balancenuma-bench}
repo=${1:-$cache/bisect-test/linux-6.1.git}
srcver=$(dpkg-query -W -f '${Version}' linux-source-6.1)
src=$cache/src/linux-source-6.1-$srcver

die() { echo "bisect-history.sh: $*" >&2; exit 1; }
[ -d "$src/.git" ] || die "no kernel source tree $src (make kernel extracts it)"
base=$(git -C "$src" rev-list --max-parents=0 HEAD)

if [ ! -f "$repo/HEAD" ]; then
	mkdir -p "$repo"
	git init -q --bare "$repo"
	git --git-dir="$repo" config gc.auto 0
fi
echo "$src/.git/objects" > "$repo/objects/info/alternates"

# shellcheck source=kernel/tree.sh
. "$here/kernel/tree.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_DIR=$repo GIT_INDEX_FILE=$tmp/index
export GIT_COMMITTER_NAME=bnb GIT_COMMITTER_EMAIL=bnb@localhost GIT_COMMITTER_DATE='@0 +0000'
git read-tree "$base"
head=$base

# commit SUBJECT BODY: the index as a commit on top of $head.
commit() {
	local tree

	tree=$(git write-tree)
	head=$(printf '%s\n\n%s\n' "$1" "$2" | git commit-tree -p "$head" "$tree")
}

# The series, each patch a commit with its own author, date and message.
while read -r p; do
	git mailinfo "$tmp/msg" "$tmp/patch" < "$p" > "$tmp/info"
	git apply --cached "$tmp/patch" || die "$(basename "$p") does not apply"
	GIT_AUTHOR_NAME=$(sed -n 's/^Author: //p' "$tmp/info") \
	GIT_AUTHOR_EMAIL=$(sed -n 's/^Email: //p' "$tmp/info") \
	GIT_AUTHOR_DATE=$(sed -n 's/^Date: //p' "$tmp/info") \
		commit "$(sed -n 's/^Subject: //p' "$tmp/info")" "$(cat "$tmp/msg")"
done < <(read_series "$here/kernel/patches")
git update-ref refs/tags/series "$head"

# edit FILE SED-EXPRESSION SUBJECT BODY: one commit that changes FILE.
export GIT_AUTHOR_NAME=bnb GIT_AUTHOR_EMAIL=bnb@localhost GIT_AUTHOR_DATE='@0 +0000'
edit() {
	local blob

	blob=$(git cat-file blob "$head:$1" | sed -e "$2" | git hash-object -w --stdin)
	[ "$blob" != "$(git rev-parse "$head:$1")" ] || die "'$2' changes nothing in $1"
	git update-index --cacheinfo "100644,$blob,$1"
	commit "$3" "$4"
}

edit Documentation/admin-guide/sysctl/kernel.rst \
	's|^balancing.  Memory is moved automatically to nodes that access it often.$|balancing: memory moves to the nodes that access it often.|' \
	"Documentation: shorten numa_balancing's first sentence" \
	"A harmless commit: documentation only, nothing is rebuilt."
edit kernel/sched/fair.c \
	's|^/\* Scan @scan_size MB every @scan_period after an initial @scan_delay in ms \*/$|/* Scan @scan_size MB every @scan_period after an initial @scan_delay (all in ms) */|' \
	"sched/numa: say that every scan tunable is in ms" \
	"A harmless commit: a comment in fair.c, which is recompiled to the same code."
edit kernel/sched/fair.c \
	's|^unsigned int sysctl_numa_balancing_scan_delay = 1000;$|unsigned int sysctl_numa_balancing_scan_delay = 4000;|' \
	"sched/numa: start scanning a new task's memory after 4 s, not 1 s" \
	"The commit the bisection should name: a run shorter than 4 s scans nothing."
edit mm/mempolicy.c \
	's|^\t/\* Migrate the page towards the node whose CPU is referencing it \*/$|\t/* Migrate the page towards the node of the CPU that references it */|' \
	"mm/mempolicy: reword a comment on migrate-on-fault" \
	"A harmless commit: a comment in mempolicy.c, recompiled to the same code."
edit MAINTAINERS \
	's|^SCHEDULER$|SCHEDULER (NUMA balancing: see also MEMORY MANAGEMENT)|' \
	"MAINTAINERS: point the scheduler's NUMA balancing at mm" \
	"A harmless commit: nothing is rebuilt."
git update-ref refs/heads/main "$head"
git symbolic-ref HEAD refs/heads/main
echo "$repo"
