#!/bin/bash
# Check the QEMU series as upstream would: every patch passes QEMU's
# scripts/checkpatch.pl, and the tree builds after each one in turn
# (bench/qemu/build.sh --upto N; the object directory is shared, so each
# step rebuilds only what its patch touched).
#   bench/qemu/check.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=kernel/tree.sh
. "$here/../../kernel/tree.sh"

mapfile -t patches < <(read_series "$here/patches")
tree=$("$here/build.sh" --print-tree)
failed=0
for p in "${patches[@]}"; do
	if "$tree/scripts/checkpatch.pl" -q "$p" >/dev/null 2>&1; then
		echo "qemu-check: checkpatch clean: $(basename "$p")"
	else
		echo "qemu-check: checkpatch FAILED: $(basename "$p")"
		"$tree/scripts/checkpatch.pl" "$p" | tail -n 20
		failed=1
	fi
done
for n in $(seq 1 ${#patches[@]}); do
	if "$here/build.sh" --upto "$n" >/dev/null; then
		echo "qemu-check: builds with patches 1..$n"
	else
		echo "qemu-check: build FAILED with patches 1..$n"
		failed=1
	fi
done
exit $failed
