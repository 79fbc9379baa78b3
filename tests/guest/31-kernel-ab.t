#!/bin/bash
# A kernel A/B boots what it says (issue 29): a variant without a kernel
# key boots the series' own build (by its cache key, whatever `make
# kernel` built last) and `kernel = debian-6.12` Debian's 6.12; each
# guest's uname -v carries its own build key. The summary and the verdict
# name both kernels. A run whose guest reports another kernel than the
# image it asked for fails with that reason: an image of the series'
# build whose setup header names another build of the same release, the
# case of patched against debian-6.1, which share their release.
. "$(dirname "$0")/../lib/tap.sh"
require_guest "kernel A/B tests"

run=$BNB_ROOT/build/bin/bnb-run
work=$(run_dir kernel-ab)
[ -n "${BNB_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
patched=$("$BNB_ROOT/kernel/build.sh" --kernel patched --print-key)
plain=$("$BNB_ROOT/kernel/build.sh" --kernel debian-6.12 --print-key)

common='[global]
nodes = 2
distance = 10,20;20,10
latency = off
balancing = on
workload = stream --size 4M --iterations 4 --placement misplaced --node 1
repetitions = 1
interval_ms = 100
time_limit = 300'
printf '%s\n\n[series]\n\n[plain]\nkernel = debian-6.12\n' "$common" > "$work/ab.ini"

out=$work/ab
"$run" "$work/ab.ini" --out "$out" --no-plots > "$work/ab.log" 2>&1
rc=$?
diag "bnb-run exit $rc; last lines:"
tail -n 3 "$work/ab.log" | while read -r l; do diag "$l"; done
check "the A/B runs (exit $rc)" test "$rc" = 0

# prov RUN KEY: the run's provenance value of KEY.
prov() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["provenance"][sys.argv[2]])' \
		"$out/runs/$1/rep1/summary.json" "$2" 2>/dev/null
}
check "the variant without a kernel key booted the series' build ($patched)" \
	test "$(prov series kernel_key)" = "$patched"
check "kernel = debian-6.12 booted its own build ($plain)" test "$(prov plain kernel_key)" = "$plain"
check "the guests report releases 6.1 and 6.12" \
	test "$(prov series guest.uname_r | cut -d. -f1-2)" = 6.1 -a \
	"$(prov plain guest.uname_r | cut -d. -f1-2)" = 6.12
check "each guest's uname -v carries its own build key" \
	test "$(prov series guest.uname_v | cut -d' ' -f1)" = "#$patched" -a \
	"$(prov plain guest.uname_v | cut -d' ' -f1)" = "#$plain"
check "the image hashes differ" test "$(prov series kernel_image_hash)" != "$(prov plain kernel_image_hash)"
check "summary.json names each variant's kernel by release and build" python3 - "$out/summary.json" "$patched" "$plain" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
k = {v["name"]: v["kernel"] for v in s["variants"]}
assert k["series"]["build"] == sys.argv[2] and k["plain"]["build"] == sys.argv[3], k
assert k["series"]["release"].startswith("6.1.") and k["plain"]["release"].startswith("6.12."), k
assert k["plain"]["asked"] == "debian-6.12", k
v = s["verdict"][0]
assert {v["kernel"]["build"], v["baseline_kernel"]["build"]} == {sys.argv[2], sys.argv[3]}, v
PY
check "the verdict names both kernels" grep -q "kernel 6\.12\.[0-9]*+ (debian-6.12, build $plain) against 6\.1\.[0-9]*+ (patched, build $patched)" "$out/summary.md"
check "build/kernel is still the series' build" \
	test "$(basename "$(readlink -f "$BNB_ROOT/build/kernel")")" = "$patched"

# The series' image, its setup header's version string naming another
# build: the guest boots the series' kernel and says so, which is not
# what the image claims.
mkdir -p "$work/liar"
python3 - "$BNB_ROOT/build/kernel/bzImage" "$work/liar/bzImage" "$patched" <<'PY'
import sys
data = bytearray(open(sys.argv[1], 'rb').read())
ptr = 0x200 + int.from_bytes(data[0x20e:0x210], 'little')
at = data.index(b'#' + sys.argv[3].encode(), ptr, ptr + 256)
data[at + 1:at + 17] = b'0' * 16
open(sys.argv[2], 'wb').write(data)
PY
printf '%s\n\n[liar]\nkernel = %s\n' "$common" "$work/liar/bzImage" > "$work/liar.ini"
"$run" "$work/liar.ini" --out "$work/liar-out" --no-plots > "$work/liar.log" 2>&1
rc=$?
check "a guest that booted another kernel fails the run (exit $rc)" test "$rc" = 1
check "its reason names both kernels" grep -q \
	"^reason=the guest booted another kernel than its variant asked for: it reports 6\.1\.[0-9]*+ #$patched .*is 6\.1\.[0-9]*+ #0000000000000000" \
	"$work/liar-out/runs/liar/rep1/status"
done_testing
