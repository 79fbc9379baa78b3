# shellcheck shell=bash
# Progress of a kernel build for kernel/build.sh (sourced).
#
# kbuild prints one line per step ("  CC      mm/migrate.o") unless told to
# be silent. Those lines go to a log; the terminal gets a line every
# PROGRESS_EVERY seconds with the steps done against the steps the last
# full build of the same object directory took (or, the first time, a
# cold build of guest.config as measured), and an estimate of the time
# left from the rate so far.

PROGRESS_EVERY=10
# Steps of a cold tinyconfig + guest.config build (6.1.192, gcc 12, the
# series and guest.config of 2026-12-06, counted in a fresh run), for the
# first build of an object directory; a later full build counts its own
# into OBJ/.bnb-steps.
COLD_BUILD_STEPS=1424
# No estimate of the time left before this share of the steps is done.
ESTIMATE_FROM_PCT=5

# fmt_secs N: "4 min 05 s" or "35 s".
fmt_secs() {
	if [ "$1" -ge 60 ]; then
		printf '%d min %02d s' $(($1 / 60)) $(($1 % 60))
	else
		printf '%d s' "$1"
	fi
}

# ticking WHAT COMMAND...: run COMMAND (a shell function too) with a line
# "kernel: WHAT, N s" every PROGRESS_EVERY seconds while it lasts, so that
# the quiet steps before kbuild (extracting the tarball, recording it in
# git, configuring) show that they are alive; "qemu: ..." for
# bench/qemu/build.sh, which sets tree_label. Returns COMMAND's status.
ticking() {
	local what=$1 pid rc=0 start=$SECONDS next
	shift

	next=$((start + PROGRESS_EVERY))
	"$@" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		if [ "$SECONDS" -ge "$next" ]; then
			echo "${tree_label:-kernel}: $what, $(fmt_secs $((SECONDS - start)))"
			next=$((SECONDS + PROGRESS_EVERY))
		fi
	done
	wait "$pid" || rc=$?
	return "$rc"
}

# progress_line DONE EXPECT ELAPSED FULL: one line for the terminal.
# FULL is 1 when the build started from an empty object directory, so
# EXPECT is its size; otherwise only what changed is rebuilt and EXPECT
# is an upper bound.
progress_line() {
	local done=$1 expect=$2 elapsed=$3 full=$4 pct left

	if [ "$full" = 0 ]; then
		printf 'kernel: %d steps, %s (incremental; a full build is about %d)\n' \
			"$done" "$(fmt_secs "$elapsed")" "$expect"
		return
	fi
	pct=$((done * 100 / expect))
	[ "$pct" -le 99 ] || pct=99
	if [ "$done" = 0 ]; then
		left="starting"
	elif [ $((done * 100)) -lt $((expect * ESTIMATE_FROM_PCT)) ]; then
		# the first steps follow a minute of building kbuild's own
		# tools: extrapolating from them said "about 654 min left"
		left="time left not known yet"
	elif [ "$done" -lt "$expect" ]; then
		left=$(( elapsed * (expect - done) / done ))
		left="about $(fmt_secs "$left") left"
	else
		left="finishing"
	fi
	printf 'kernel: %d/%d steps (%d %%), %s, %s\n' "$done" "$expect" "$pct" \
		"$(fmt_secs "$elapsed")" "$left"
}

# kbuild_steps LOG: the steps kbuild has logged so far.
kbuild_steps() {
	grep -c '^  [A-Z]' "$1" || true
}

# cold_obj OBJ: true when kbuild has compiled nothing in OBJ yet (kconfig's
# own programs under scripts/ aside). Only such a build counts the steps of
# a full one: a build resumed after an interruption, with no vmlinux yet,
# once recorded its 566 remaining steps as the size of a full build.
cold_obj() {
	[ -z "$(find "$1" -path "$1/scripts" -prune -o -path "$1/tools" -prune \
		-o -name '*.o' -print -quit)" ]
}

# kbuild_progress OBJ MAKE-COMMAND...: run the build with its output in
# OBJ/build.log, a progress line every PROGRESS_EVERY seconds on stdout.
# Returns the build's exit status.
#
# The steps are counted in the log, not read line by line from a pipe with
# read -t: on a loaded host (load 20-30) that count came out one short now
# and then, most likely where a timeout fell within a line; the log holds
# every line whatever the timing.
kbuild_progress() {
	local obj=$1 log=$1/build.log steps_file=$1/.bnb-steps
	local expect full=1 start=$SECONDS next pid rc=0
	shift

	cold_obj "$obj" || full=0
	expect=$(cat "$steps_file" 2>/dev/null || echo "$COLD_BUILD_STEPS")
	next=$((start + PROGRESS_EVERY))
	# Not the caller's make flags: 'make -s kernel' would silence kbuild's
	# step lines, and they are what is counted.
	(unset MAKEFLAGS MFLAGS MAKELEVEL; "$@") > "$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		if [ "$SECONDS" -ge "$next" ]; then
			progress_line "$(kbuild_steps "$log")" "$expect" $((SECONDS - start)) "$full"
			next=$((SECONDS + PROGRESS_EVERY))
		fi
	done
	wait "$pid" || rc=$?
	if [ "$rc" = 0 ] && [ "$full" = 1 ]; then
		kbuild_steps "$log" > "$steps_file"
	fi
	return "$rc"
}
