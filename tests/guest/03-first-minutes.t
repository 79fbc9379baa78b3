#!/bin/bash
# bnb-test: light (boots no guest: runs beside the guest suites)
# The first minutes of a new user: ./run.sh --help and usage errors answer
# without installing or building anything; a failed step names itself and
# the command that retries it; the kernel build reports progress.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
cd "$BNB_ROOT" || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Stand-ins that record being called, ahead of the real ones on PATH.
mkdir "$tmp/bin"
for cmd in make apt-get dpkg-query gcc; do
	printf '#!/bin/sh\necho "%s $*" >> %s/called\nexit 2\n' "$cmd" "$tmp" > "$tmp/bin/$cmd"
	chmod +x "$tmp/bin/$cmd"
done
# run_sh ARGS...: ./run.sh with the stand-ins; sets out, err, rc.
run_sh() {
	: > "$tmp/called"
	out=$(PATH=$tmp/bin:$PATH ./run.sh "$@" 2>"$tmp/err")
	rc=$?
	err=$(cat "$tmp/err")
}

run_sh --help
check "./run.sh --help exits 0" test "$rc" = 0
check "./run.sh --help prints the usage" grep -q '^usage: ./run.sh' <<<"$out"
check "./run.sh --help installs and builds nothing" test ! -s "$tmp/called"
run_sh bench/experiments/default.ini --reps 2 -h
check "-h after other arguments is help too" test "$rc" = 0 -a ! -s "$tmp/called"
for args in "compare" "compare results/a" "plot" "plot a b" "report"; do
	# shellcheck disable=SC2086 # the words are the arguments
	run_sh $args
	if [ "$rc" = 2 ] && [[ $err == *"usage: ./run.sh ${args%% *}"* ]] && [ ! -s "$tmp/called" ]; then
		ok "./run.sh $args: usage error at once"
	else
		not_ok "./run.sh $args: usage error at once (exit $rc: $err; called: $(cat "$tmp/called"))"
	fi
done

# With deps satisfied (make test installed them), a failing build step
# names the step and the retry command.
rm "$tmp/bin/dpkg-query"
run_sh plot results/none
check "a failed build step is named with its retry command" \
	grep -q 'building the host tools failed (exit 2).*retry with: make tools' <<<"$err"

# The kernel builds beside QEMU and the tools; when a step fails, run.sh
# stops the kernel build rather than leave it running.
cat > "$tmp/bin/make" <<EOF
#!/bin/sh
case "\$*" in
*kernel*) echo "kernel start" >> $tmp/called; sleep 4; echo "kernel end" >> $tmp/called ;;
*qemu*) echo "qemu start" >> $tmp/called; sleep 2; echo "qemu end" >> $tmp/called ;;
*) echo "make \$*" >> $tmp/called; exit 2 ;;
esac
EOF
run_sh bench/experiments/default.ini
sleep 4
check "the kernel build starts before QEMU's ends" \
	test "$(grep -e 'kernel start' -e 'qemu end' "$tmp/called" | tr '\n' ,)" = "kernel start,qemu end,"
check "a failed step stops the kernel build" \
	test "$(grep -c 'kernel end' "$tmp/called")" = 0 -a "$rc" = 2
check "... and is named with its retry command" \
	grep -q 'building the host tools and the guest failed (exit 2).*retry with: make all' <<<"$err"

# A failed kernel build step names itself and the command that retries it,
# make's own when make ran it.
mkdir "$tmp/notakernel"
err=$(BNB_CACHE=$tmp/cache make -s --no-print-directory kernel KSRC="$tmp/notakernel" 2>&1)
check "a source that is no kernel tree is named" grep -q "$tmp/notakernel is not a kernel tree" <<<"$err"
check "a failed kernel build gives make's retry command" \
	grep -q "kernel build failed (exit 1); retry with: make kernel KSRC=$tmp/notakernel\$" <<<"$err"
err=$(BNB_CACHE=$tmp/cache kernel/build.sh --patches "$tmp/nowhere" 2>&1)
check "kernel/build.sh run by hand gives its own command line to retry" \
	grep -q "retry with: kernel/build.sh --patches $tmp/nowhere\$" <<<"$err"

# run.sh prints the runner's --help from bench/runner/help.txt, which
# must be what bnb-run prints.
if [ -x build/bin/bnb-run ]; then
	check "bench/runner/help.txt is bnb-run --help (else: build/bin/bnb-run --help > bench/runner/help.txt)" \
		cmp -s bench/runner/help.txt <(build/bin/bnb-run --help)
else
	skip "bench/runner/help.txt is bnb-run --help" "build/bin/bnb-run is missing"
fi
# --out names a folder whose parents need not exist yet (--jobs 0 writes
# the job list and runs nothing).
if [ -x build/bin/bnb-run ]; then
	check "bnb-run --out creates missing parent folders" \
		build/bin/bnb-run bench/experiments/default.ini --out "$tmp/no/such/out" --jobs 0 --no-plots
	check "... and the job list lands there" test -s "$tmp/no/such/out/jobs.txt"
fi
check "./run.sh --help has the runner's options" grep -q -- '^  --reps ' <<<"$(./run.sh --help)"

# The kernel build's progress: a fake build of 40 steps over ~3 s against
# an expected 50, with a line every second.
# shellcheck source=kernel/progress.sh
. kernel/progress.sh
fake_build() {
	local i
	echo "some make chatter"
	# like kbuild: silent under make -s, which run.sh's make kernel is
	case ${MAKEFLAGS:-} in s* | *" s"*) return "${1:-0}" ;; esac
	for i in $(seq 40); do
		printf '  CC      dir/file%d.o\n' "$i"
		[ $((i % 10)) = 0 ] && sleep 0.7
	done
	return "${1:-0}"
}
PROGRESS_EVERY=1 COLD_BUILD_STEPS=50
# kconfig's own programs are compiled before kbuild starts: still cold
mkdir -p "$tmp/obj/scripts/kconfig" && touch "$tmp/obj/scripts/kconfig/conf.o"
prog=$(MAKEFLAGS="s -j2" kbuild_progress "$tmp/obj" fake_build)
rc=$?
check "a build's progress lines carry steps, share and time left" \
	grep -qE '^kernel: [0-9]+/50 steps \([0-9]+ %\), [0-9]+ s, (about [0-9]+ s left|finishing)$' <<<"$prog"
check "the first steps give no estimate of the time left (kbuild's tools come first)" \
	grep -qx 'kernel: 2/1572 steps (0 %), 50 s, time left not known yet' <<<"$(progress_line 2 1572 50 1)"
check "progress comes at least every PROGRESS_EVERY seconds" test "$(grep -c '^kernel: ' <<<"$prog")" -ge 2
check "the build's output goes to the log" test "$(grep -c '^  CC' "$tmp/obj/build.log")" = 40
check "a full build records its step count for the next one" test "$(cat "$tmp/obj/.bnb-steps")" = 40 -a "$rc" = 0
# objects and no vmlinux: a build resumed after an interruption
mkdir -p "$tmp/obj/dir" && touch "$tmp/obj/dir/file1.o"
prog=$(kbuild_progress "$tmp/obj" fake_build 3)
rc=$?
check "a failed build returns its status" test "$rc" = 3
check "a resumed or incremental build is not taken for a full one" \
	grep -q '^kernel: [0-9]* steps, .*incremental; a full build is about 40' <<<"$prog"
echo 1572 > "$tmp/obj/.bnb-steps"
kbuild_progress "$tmp/obj" fake_build >/dev/null
check "and does not record its steps as a full build's" test "$(cat "$tmp/obj/.bnb-steps")" = 1572

# The quiet steps before kbuild tick too, and keep their status.
prog=$(ticking "preparing" sh -c 'sleep 2.5; exit 4')
rc=$?
check "a quiet step prints a line every PROGRESS_EVERY seconds" \
	test "$(grep -c '^kernel: preparing, [0-9]* s$' <<<"$prog")" -ge 2
check "a quiet step's status is kept" test "$rc" = 4
prog=$(tree_label=qemu ticking "unpacking" sleep 1.5)
check "QEMU's quiet steps tick under its own name" grep -q '^qemu: unpacking, [0-9]* s$' <<<"$prog"
done_testing
