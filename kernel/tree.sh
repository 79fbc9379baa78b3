# shellcheck shell=bash
# Source-tree helpers for kernel/build.sh, kernel/check.sh and
# bench/qemu/build.sh (sourced); messages start with $tree_label.

# The patches of DIR/series, in order, one path a line (comments and blank
# lines skipped); a name without its file stops everything.
read_series() {
	local dir=$1 p

	[ -r "$dir/series" ] || { echo "no series file in $dir" >&2; return 1; }
	while read -r p; do
		p=${p%%#*}
		p=${p//[[:space:]]/}
		[ -n "$p" ] || continue
		if [ ! -r "$dir/$p" ]; then
			echo "series names $p, which is not in $dir" >&2
			return 1
		fi
		echo "$dir/$p"
	done < "$dir/series"
}

# Extract the Debian tarball once (its top directory is PKG) and record the
# pristine state in git, so that later resets rewrite only files a patch
# had changed. Every file is tracked: linux-source-6.12's .gitignore
# ignores every top-level file, and what git does not track, a series
# switch (git clean) would delete.
prepare_debian_tree() {
	local tarball=$1 tree=$2 pkg=${3:-linux-source-6.1} tmp

	[ -f "$tree/.bnb-pristine" ] && return 0
	echo "kernel: extracting $tarball (once)"
	tmp=$tree.extract
	rm -rf "$tmp" "$tree"
	mkdir -p "$tmp"
	tar -C "$tmp" -xf "$tarball"
	mv "$tmp/$pkg" "$tree"
	rmdir "$tmp"
	git -C "$tree" init -q
	# A kernel tree is loose objects enough to trigger gc: not worth it here.
	git -C "$tree" config gc.auto 0
	git -C "$tree" add -f -A
	git -C "$tree" -c user.name=bnb -c user.email=bnb@localhost \
		commit -q -m pristine
	touch "$tree/.bnb-pristine"
}

# Back to the pristine state. git rewrites only files that differ, so
# unpatched files keep their timestamps and make leaves their objects alone.
reset_tree() {
	local tree=$1

	git -C "$tree" checkout -q -f HEAD
	git -C "$tree" clean -q -f -d -x -e .bnb-pristine
}

# Put TREE in the state of its first (pristine) commit plus PATCHES,
# writing only the files whose content differs from what TREE holds now.
# make then rebuilds only what depends on a changed file: a series that
# differs from the last build in one line of a .c file recompiles one
# object, where resetting and reapplying would give every patched header a
# new mtime and so rebuild nearly the whole kernel. The target is built in
# a private index and committed (detached HEAD), so TREE is never half
# patched when a patch does not apply.
checkout_series() {
	local tree=$1 index base treeid commit p
	shift

	index=$(git -C "$tree" rev-parse --absolute-git-dir)/bnb-series-index
	base=$(git -C "$tree" rev-list --max-parents=0 HEAD)
	rm -f "$index"
	GIT_INDEX_FILE=$index git -C "$tree" read-tree "$base"
	for p in "$@"; do
		[[ $p = /* ]] || p=$PWD/$p	# git -C reads it from $tree
		if ! GIT_INDEX_FILE=$index git -C "$tree" apply --cached "$p" 2>/dev/null; then
			echo "${tree_label:-kernel}: patch $(basename "$p") does not apply:" >&2
			GIT_INDEX_FILE=$index git -C "$tree" apply --cached --check -v "$p" 2>&1 |
				sed -n '/^error\|^Checking\|^Hunk\|^ /p' | head -40 >&2
			rm -f "$index"
			exit 1
		fi
	done
	treeid=$(GIT_INDEX_FILE=$index git -C "$tree" write-tree)
	rm -f "$index"
	# Fixed dates: the same series is the same commit.
	commit=$(GIT_AUTHOR_DATE='@0 +0000' GIT_COMMITTER_DATE='@0 +0000' \
		git -C "$tree" -c user.name=bnb -c user.email=bnb@localhost \
		commit-tree -p "$base" -m "$# patch(es)" "$treeid")
	# Stage what the files hold now, whoever wrote them: checkout then
	# compares contents, not the index of the last checkout, and rewrites
	# only what differs from the target (and removes what it lacks).
	git -C "$tree" add -f -A -- . ':!.bnb-pristine'
	git -C "$tree" checkout -q -f --detach "$commit"
	[ $# -eq 0 ] || echo "${tree_label:-kernel}: applied $# patch(es)"
}

# Apply patches in order; the first one that does not apply stops the
# build with its name and the failing hunk.
apply_series() {
	local tree=$1 p
	shift

	for p in "$@"; do
		if ! git -C "$tree" apply --check "$p" 2>/dev/null; then
			echo "${tree_label:-kernel}: patch $(basename "$p") does not apply:" >&2
			git -C "$tree" apply --check -v "$p" 2>&1 | sed -n '/^error\|^Checking\|^Hunk\|^ /p' | head -40 >&2
			exit 1
		fi
		git -C "$tree" apply "$p"
	done
	[ $# -eq 0 ] || echo "${tree_label:-kernel}: applied $# patch(es)"
}

# A user's tree is never modified: patches go onto a copy in the cache,
# DST, a git tree like the Debian one whose root commit is the pristine
# source. The source may have changed since the last build, and the copy
# holds the last series' patches, so each build records the source as it
# is now (a new parentless commit, read without writing to SRC) and
# checkout_series puts DST in its state plus PATCHES, rewriting only the
# files whose content differs: a file an earlier series patched gets the
# source's content back, one the source dropped goes, and unchanged files
# keep their timestamps for kbuild.
user_tree_series() {
	local src=$1 dst=$2 gitdir index treeid base
	shift 2

	if [ ! -d "$dst/.git" ]; then
		mkdir -p "$dst"
		git -C "$dst" init -q
		git -C "$dst" config gc.auto 0
	fi
	gitdir=$(git -C "$dst" rev-parse --absolute-git-dir)
	index=$gitdir/bnb-source-index
	rm -f "$index"
	GIT_INDEX_FILE=$index git --git-dir="$gitdir" --work-tree="$src" add -f -A
	treeid=$(GIT_INDEX_FILE=$index git --git-dir="$gitdir" write-tree)
	rm -f "$index"
	base=$(GIT_AUTHOR_DATE='@0 +0000' GIT_COMMITTER_DATE='@0 +0000' \
		git -C "$dst" -c user.name=bnb -c user.email=bnb@localhost \
		commit-tree -m source "$treeid")
	# HEAD only: checkout_series compares the files with the target itself
	git -C "$dst" update-ref --no-deref HEAD "$base"
	checkout_series "$dst" "$@"
}

# tinyconfig, then our fragments on top. Every option a fragment asks for
# must survive olddefconfig, or a dependency is missing and we say which;
# so must every "# CONFIG_X is not set", or another option selects X and
# the fragment's trim does not happen (an option this tree lacks is off).
configure_obj() {
	local tree=$1 obj=$2 stamp want line opt missing=()
	shift 2

	stamp=$(cat "$@" | sha256sum | cut -c1-16)
	if [ -f "$obj/.config" ] && [ "$(cat "$obj/.bnb-config" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	mkdir -p "$obj"
	# Neither the old stamp nor the last full build's step count holds
	# from here: a configuration that fails below (or is interrupted)
	# leaves OBJ/.config half made, which the old stamp would have passed
	# as the old configuration's to the next build.
	rm -f "$obj/.bnb-config" "$obj/.bnb-steps"
	make -C "$tree" O="$obj" -s tinyconfig >/dev/null
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$@" >/dev/null
	make -C "$tree" O="$obj" -s olddefconfig >/dev/null
	for want in "$@"; do
		while read -r line; do
			case $line in
			CONFIG_*=*)
				opt=${line%%=*}
				grep -qx "$line" "$obj/.config" && continue
				;;
			"# CONFIG_"*" is not set")
				opt=${line#\# }
				opt=${opt%% *}
				grep -q "^$opt=" "$obj/.config" || continue
				;;
			*) continue ;;
			esac
			missing+=("$line (have: $(grep -E "^$opt=|^# $opt " "$obj/.config" || echo unset))")
		done < "$want"
	done
	if [ ${#missing[@]} -gt 0 ]; then
		printf 'kernel: config option not satisfied: %s\n' "${missing[@]}" >&2
		exit 1
	fi
	echo "$stamp" > "$obj/.bnb-config"
}
