#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Prepare the kernel tree the series applies to, and apply it.
#
#   BASE     the packaged kernel: 6.1 (default) or 6.12 (modern/base.sh)
#   TARBALL  Debian's packaged source (default /usr/src/linux-source-BASE.tar.xz)
#   TREE     where the git tree lives (default $BUILD/linux, $BUILD/linux-6.12)
#   PATCHES  the series (default modern/BASE; 0000-cover-letter.patch is
#            not applied)
#
# The tarball is imported once as a single base commit, tagged with the exact
# version (debian-6.1.N, debian-6.12.N); branch ptlock-split is that tag plus
# the series.  Running it again with nothing changed touches nothing.  A
# changed series resets the branch to the tag and re-applies it from scratch;
# commits made in the tree that were never exported are kept on a saved
# branch first.  A patch that does not apply is aborted and named, with every
# hunk git rejected.
#
# LINUX_TREE=DIR takes the base from a git checkout of the user's (mainline,
# stable, a distribution's) instead of Debian's tarball: TREE becomes a clone
# of it (git clone --shared, in BUILD: nothing is written into DIR, its
# index, branches or work tree), tagged ptlock-base at DIR's HEAD (its
# uncommitted changes are not part of it: a note says so), and the series
# of the base nearest DIR's version (base_nearest; "tree.sh base-of DIR"
# prints it) is applied there as above.  DIR's HEAD moving on re-applies
# the series on the new HEAD; the description of what was tested (git
# describe of DIR's HEAD) is kept as ptlock.describe.
#
# "tree.sh export" is the way back: it writes the branch's commits over
# modern/BASE with git format-patch --cover-letter --base, keeping the
# cover letter's subject and text (kept as the branch description).

set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/kernel.sh"
. "$here/base.sh"
base_set "${BASE:-$BASE_FIRST}"	# STAMP is touched whenever the tree changes
BRANCH=ptlock-split
# LINUX_TREE is the tree of LINUX_BASE (make's choice) alone: the guest
# programs' base stays Debian's
USER_TREE=
if [ -n "${LINUX_TREE:-}" ] && [ "${LINUX_BASE:-$BASE}" = "$BASE" ]; then
	USER_TREE=$LINUX_TREE
fi

die() {
	echo "tree: error: $*" >&2
	exit 1
}

note() {
	echo "note: $*"
}

git_t() {
	git -C "$TREE" "$@"
}

tarball_id() {
	stat -c '%n %s %Y' "$TARBALL"
}

# A base of another suite (base_suite) is fetched first (fetch.sh); one that
# cannot be is left out: UNAVAILABLE says why, one line says so, and the
# exit status is 0, so that the other bases still build and boot (kbuild.sh,
# qemu-run.sh and lint.sh skip its kernels, cells and lint).
check_tarball() {
	if [ ! -f "$TARBALL" ] && [ -n "$(base_suite "$BASE")" ]; then
		mkdir -p "$BUILD"
		rm -f "$UNAVAILABLE"
		rc=0
		"$here/fetch.sh" "$BASE" 2>"$UNAVAILABLE.err" || rc=$?
		if [ "$rc" = 3 ]; then
			sed 's/^fetch: //' "$UNAVAILABLE.err" >"$UNAVAILABLE"
			rm -f "$UNAVAILABLE.err"
			echo "tree: base $BASE left out: $(cat "$UNAVAILABLE")"
			exit 0
		fi
		cat "$UNAVAILABLE.err" >&2
		rm -f "$UNAVAILABLE.err"
		[ "$rc" = 0 ] || exit "$rc"
	fi
	rm -f "$UNAVAILABLE"
	if [ ! -f "$TARBALL" ]; then
		found=$(ls /usr/src/linux-source-*.tar.* 2>/dev/null | tr '\n' ' ')
		die "$TARBALL not found.
It comes from Debian's package $PKG: apt-get install $PKG
${found:+Found instead: $found(not $BASE)}"
	fi
}

import_base() {
	tmp=$TREE.importing
	rm -rf "$tmp"
	mkdir -p "$tmp"
	echo "extracting $TARBALL"
	tar -xf "$TARBALL" -C "$tmp" --strip-components=1 ||
		die "cannot extract $TARBALL (truncated or corrupt?)"
	[ -f "$tmp/Makefile" ] || die "$TARBALL holds no kernel tree (no top-level Makefile)"
	ver=$(tree_version "$tmp")
	case $ver in
	"$BASE".*) ;;
	*)	rm -rf "$tmp"
		die "$TARBALL holds Linux $ver; modern/$BASE is for $BASE.x (Debian's $PKG)" ;;
	esac
	pkg=$(cat "${TARBALL%.tar.xz}.version" 2>/dev/null ||
		dpkg-query -W -f '${Version}' "$PKG" 2>/dev/null || echo unknown)

	# Debian's .gitignore ends with a block that ignores every top-level
	# entry; keep it and new files would never show up in git status.
	sed -i '/^# Debian packaging/,$d' "$tmp/.gitignore"

	echo "importing Linux $ver into git"
	# the same commit in every clone: a fetched tarball is named by its
	# place in the build directory, not by the clone's path
	from=$TARBALL
	case $from in "$BUILD"/*) from=build/${from#"$BUILD"/} ;; esac
	git_import "$tmp" "Linux $ver from Debian's linux-source $pkg

Imported from $from; Debian's top-level ignore block was dropped
from .gitignore so that new files show up." "$BRANCH"
	git -C "$tmp" tag "debian-$ver"
	git -C "$tmp" config ptlock.base "debian-$ver"
	git -C "$tmp" config ptlock.tarball "$(tarball_id)"
	mv "$tmp" "$TREE"
	note "imported Linux $ver as tag debian-$ver in $TREE"
}

# The series, in order, without the cover letter.
series() {
	for p in "$PATCHES"/*.patch; do
		[ -f "$p" ] || continue
		case ${p##*/} in
		0000-cover-letter.patch) ;;
		*) echo "$p" ;;
		esac
	done
}

series_hash() {
	for p in $(series); do
		echo "${p##*/}"
		cat "$p"
	done | sha256sum | cut -c1-16
}

# Every hunk holds as many lines as its header says, and there is one at
# least: a cut-off mail fails here (git apply itself reads it leniently).
hunks_complete() {
	awk 'function close_hunk() {
		if (inh && (old != 0 || new != 0)) bad = 1
		inh = 0
	}
	/^@@ -[0-9]+(,[0-9]+)? \+[0-9]+(,[0-9]+)? @@/ {
		close_hunk()
		split($2, o, ","); split($3, n, ",")
		old = (2 in o) ? o[2] : 1; new = (2 in n) ? n[2] : 1
		inh = 1; hunks++; next
	}
	inh && old <= 0 && new <= 0 { close_hunk() }
	inh && /^ / { old--; new--; next }
	inh && /^-/ { old--; next }
	inh && /^\+/ { new--; next }
	inh && /^\\/ { next }
	inh { close_hunk() }
	END { close_hunk(); exit (bad || !hunks) }'
}

# Each file must be one mail with a non-empty patch, as git format-patch
# writes them; say which file is not before git am sees it.
check_mbox() {
	p=$1
	d=$(mktemp -d)
	n=$(git mailsplit -o"$d" "$p" 2>/dev/null) || n=0
	if [ "$n" != 1 ] ||
	   ! git mailinfo "$d/msg" "$d/patch" <"$d/0001" >"$d/info" 2>/dev/null ||
	   [ ! -s "$d/patch" ] || ! grep -q '^Subject: .' "$d/info" ||
	   ! hunks_complete <"$d/patch"; then
		rm -rf "$d"
		die "$p is not a git format-patch mail (truncated or corrupt?)"
	fi
	rm -rf "$d"
}

apply_series() {
	hash=$1
	for p in $(series); do
		check_mbox "$p"
	done
	if [ -d "$TREE/.git/rebase-apply" ]; then
		note "an interrupted git am was found: aborted, series re-applied"
		git_t am --abort
	fi
	if [ -n "$(git_t status --porcelain -uno)" ]; then
		die "$TREE has uncommitted changes; commit them (then 'make export') or drop them (git -C $TREE reset --hard) before the series is re-applied"
	fi
	old=$(git_t config ptlock.head || true)
	cur=$(git_t rev-parse -q --verify "refs/heads/$BRANCH" || true)
	if [ -n "$old" ] && [ -n "$cur" ] && [ "$old" != "$cur" ]; then
		saved=$BRANCH-saved-$(date +%Y%m%d-%H%M%S)
		git_t branch "$saved" "$cur"
		note "$BRANCH had commits not exported to modern/$BASE: kept as branch $saved"
	fi
	git_t config --unset ptlock.head || true
	git_t config --unset ptlock.series || true
	git_t checkout -q -f -B "$BRANCH" "$base"
	what=$(git_t config ptlock.describe || echo "$base")
	# shellcheck disable=SC2046  # patch paths have no blanks
	nr=$(am_series "$TREE" "$what" "tree" $(series)) || {
		# the user's tree: its clone goes back to where it was
		if [ -n "$USER_TREE" ]; then
			git_t checkout -q -f -B "$BRANCH" "$base"
			echo "tree: nothing of modern/$BASE is left applied: $TREE is back at $what" >&2
		fi
		exit 1
	}
	git_t config ptlock.series "$hash"
	git_t config ptlock.head "$(git_t rev-parse HEAD)"
	note "applied $nr patches from modern/$BASE on $base"
}

# Subject and text of the existing cover letter, for the branch description.
cover_description() {
	awk '/^Subject: / { sub(/^Subject: (\[[^]]*\] )?/, ""); print; print ""; next }
	     /^$/ && !body { body = 1; next }
	     body && (/^[^ ].* \([0-9]+\):$/ || /^base-commit:/) { exit }
	     body' "$1"
}

export_series() {
	[ -d "$TREE" ] && git_t config ptlock.base >/dev/null ||
		die "no prepared tree at $TREE (run 'make tree' first)"
	base=$(git_t config ptlock.base)
	repo=$(git -C "$PATCHES" rev-parse --show-toplevel 2>/dev/null || true)
	if [ -n "$repo" ] && [ -n "$(git -C "$repo" status --porcelain -- "$PATCHES")" ] &&
	   [ "${FORCE:-0}" != 1 ]; then
		die "$PATCHES has changes not committed to the project; commit them or rerun with FORCE=1"
	fi
	if ! git_t config "branch.$BRANCH.description" >/dev/null &&
	   [ -f "$PATCHES/0000-cover-letter.patch" ]; then
		git_t config "branch.$BRANCH.description" \
			"$(cover_description "$PATCHES/0000-cover-letter.patch")"
	fi
	out=$(mktemp -d)
	# the cover letter comes from the series' author, not the import's
	git_t -c user.name="$(git_t log -1 --format=%an "$BRANCH")" \
		-c user.email="$(git_t log -1 --format=%ae "$BRANCH")" \
		format-patch -q --cover-letter --cover-from-description=subject \
		--base="$base" -o "$out" "$base..$BRANCH"
	rm -f "$PATCHES"/*.patch
	mkdir -p "$PATCHES"
	n=0
	for p in "$out"/*.patch; do
		[ -f "$p" ] || continue
		mv "$p" "$PATCHES/"
		n=$((n + 1))
	done
	rm -rf "$out"
	git_t config ptlock.series "$(series_hash)"
	git_t config ptlock.head "$(git_t rev-parse "$BRANCH")"
	echo "wrote $n files to $PATCHES from $base..$BRANCH"
}

# the version of the Makefile at a checkout's HEAD ("7.3.4", "7.4.0-rc2")
head_version() {
	git -C "$1" show HEAD:Makefile 2>/dev/null | makefile_version
}

# check_linux_tree DIR: DIR is a git checkout of a kernel; prints its
# version
check_linux_tree() {
	[ -d "$1" ] || die "LINUX_TREE=$1: no such directory"
	git -C "$1" rev-parse -q --verify 'HEAD^{commit}' >/dev/null 2>&1 ||
		die "LINUX_TREE=$1 is not a git checkout with a commit (git clone a kernel tree there)"
	v=$(head_version "$1")
	[ -n "$v" ] || die "LINUX_TREE=$1: its HEAD holds no kernel Makefile with a VERSION"
	echo "$v"
}

# The user's tree: TREE a --shared clone of it, its HEAD tagged ptlock-base.
user_tree() {
	src=$(cd "$USER_TREE" && pwd -P)
	ver=$(check_linux_tree "$src")
	head=$(git -C "$src" rev-parse 'HEAD^{commit}')
	desc=$(git -C "$src" describe --tags --always HEAD 2>/dev/null || echo "$head")
	# --no-optional-locks: status must not refresh the user's index
	if [ -n "$(git -C "$src" --no-optional-locks status --porcelain -uno 2>/dev/null)" ]; then
		note "$src has uncommitted changes: not part of the build (its HEAD, $desc, is)"
	fi
	if [ -d "$TREE" ] && [ "$(git_t config ptlock.source 2>/dev/null)" != "$src" ]; then
		note "$TREE was cloned from another tree: cloned again from $src"
		rm -rf "$TREE" "$STOCK"
		git_t worktree prune 2>/dev/null || true
	fi
	if [ ! -d "$TREE" ]; then
		rm -rf "$TREE.cloning"
		mkdir -p "$(dirname "$TREE")"
		git clone -q --shared --no-checkout "$src" "$TREE.cloning" ||
			die "cannot clone $src"
		git -C "$TREE.cloning" config user.name "ptlock build"
		git -C "$TREE.cloning" config user.email "build@localhost"
		git -C "$TREE.cloning" config gc.auto 0
		git -C "$TREE.cloning" config ptlock.source "$src"
		mv "$TREE.cloning" "$TREE"
		note "cloned $src into $TREE (shared objects; nothing written there)"
	fi
	# the objects are the user's (alternates): HEAD needs no fetch
	if [ "$(git_t rev-parse -q --verify 'refs/tags/ptlock-base^{commit}' || true)" != "$head" ]; then
		git_t tag -f ptlock-base "$head" >/dev/null
		git_t config --unset ptlock.series || true
		git_t config --unset ptlock.head || true
		git_t checkout -q -f -B "$BRANCH" ptlock-base
		note "base: $src at $desc (Linux $ver), series modern/$BASE"
	fi
	git_t config ptlock.base ptlock-base
	git_t config ptlock.describe "$desc"
}

if [ "${1:-}" = base-of ]; then
	[ $# -eq 2 ] || die "usage: $0 base-of DIR"
	v=$(check_linux_tree "$2")
	base_nearest "$v"
	exit 0
fi

if [ "${1:-}" = export ]; then
	export_series
	exit 0
fi

# Debian's tarball: imported once; imported again when it changed.
debian_tree() {
	check_tarball
	if [ -d "$TREE" ]; then
		if ! git_t config ptlock.base >/dev/null 2>&1 ||
		   ! git_t rev-parse -q --verify "refs/tags/$(git_t config ptlock.base)" >/dev/null; then
			note "$TREE was left half-prepared: imported again"
			rm -rf "$TREE"
		elif [ "$(git_t config ptlock.tarball)" != "$(tarball_id)" ]; then
			aside=$TREE.old-$(date +%Y%m%d-%H%M%S)
			mv "$TREE" "$aside"
			note "$TARBALL changed since the import: old tree moved to $aside"
		fi
	fi
	[ -d "$TREE" ] || import_base
}

if [ -n "$USER_TREE" ]; then
	user_tree
else
	debian_tree
fi
base=$(git_t config ptlock.base)

# The packaged tree without the series, for the stock kernels: a worktree
# of the same repository at the base tag.
if [ "$(git -C "$STOCK" rev-parse -q --verify HEAD 2>/dev/null)" != "$(git_t rev-parse "$base^{commit}")" ]; then
	rm -rf "$STOCK"
	git_t worktree prune
	git_t worktree add -q --detach "$STOCK" "$base"
	note "worktree $STOCK at $base (stock kernels)"
fi

hash=$(series_hash)
if [ "$(git_t config ptlock.series || true)" = "$hash" ] &&
   [ ! -d "$TREE/.git/rebase-apply" ]; then
	head=$(git_t rev-parse HEAD)
	if [ "$(git_t symbolic-ref -q --short HEAD || true)" != "$BRANCH" ]; then
		die "$TREE is not on branch $BRANCH; check it out again (git -C $TREE checkout $BRANCH)"
	fi
	if [ "$head" != "$(git_t config ptlock.head)" ]; then
		note "$BRANCH has commits that are not in modern/$BASE; 'make export' writes them out"
	fi
	echo "series up to date on $base"
	[ -f "$STAMP" ] || touch "$STAMP"
	exit 0
fi
apply_series "$hash"
touch "$STAMP"
