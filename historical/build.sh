#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build.sh tree|config|build|cc|hint
#
# Build the 2005 series on a 2.6.14-rc4-mm1 tree you supply, for the same
# i386 QEMU guest as the modern kernels ('make historical').
#
#   tree    check HISTORICAL_SRC (a directory holding linux 2.6.14-rc4-mm1),
#           copy its files (not its .git) to $BUILD/historical/linux, commit
#           them as the base, commit compat.sh's fixes on top as their own
#           commit, then git am historical/patches/000[1-9]-*.patch.  HISTORICAL_SRC
#           is only read.  A patch that does not apply is aborted and named.
#           Skipped when the copy already holds this source, compat step and
#           series.
#   config  KCONFIG_ALLCONFIG=configs/guest-2.6.14.config make allnoconfig,
#           out of tree in $BUILD/kernel/historical; fails, naming them, if
#           any option of the fragment did not survive.
#   build   bzImage: $BUILD/kernel/historical/arch/i386/boot/bzImage
#   cc      print the CC= line config and build give make
#   hint    print the command that builds it (for the messages elsewhere)
#
#   HISTORICAL_SRC    the 2.6.14-rc4-mm1 tree (required for 'tree')
#   HISTORICAL_CC     the compiler (default gcc)
#   HISTORICAL_CFLAGS what the compiler is given on top of the kernel's own
#                     flags (default: the compat flags below; empty them for
#                     a gcc of 2005's vintage)
#   HISTORICAL_MAKE   make (default make)
#   JOBS              parallel jobs (default nproc)

set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/kernel.sh"
COPY=$BUILD/historical/linux
O=$BUILD/kernel/historical
FRAG=$here/configs/guest-2.6.14.config
WANT=2.6.14-rc4-mm1
JOBS=${JOBS:-$(nproc)}
HISTORICAL_CC=${HISTORICAL_CC:-gcc}
HISTORICAL_MAKE=${HISTORICAL_MAKE:-make}
# The compat flags, all in one place: an i386 kernel from an x86_64 gcc
# (-m32), without Debian's default PIE and stack protector, with the C and
# inline semantics of the gcc of 2005 (gnu89).
HISTORICAL_CFLAGS=${HISTORICAL_CFLAGS--m32 -fno-pie -fno-stack-protector -std=gnu89 -fgnu89-inline}

die() {
	echo "historical: error: $*" >&2
	exit 1
}

note() {
	echo "note: $*"
}

git_c() {
	git -C "$COPY" "$@"
}

check_src() {
	src=${HISTORICAL_SRC:-}
	[ -n "$src" ] ||
		die "HISTORICAL_SRC is not set: $(hint)"
	[ -e "$src" ] || die "HISTORICAL_SRC=$src does not exist"
	[ -d "$src" ] || die "HISTORICAL_SRC=$src is not a directory"
	[ -f "$src/Makefile" ] ||
		die "HISTORICAL_SRC=$src has no top-level Makefile: not a kernel tree"
	ver=$(tree_version "$src")
	[ -n "$ver" ] ||
		die "HISTORICAL_SRC=$src: its Makefile names no VERSION/PATCHLEVEL: not a kernel tree"
	[ "$ver" = "$WANT" ] || die "HISTORICAL_SRC=$src is linux $ver, expected $WANT"
	for p in arch/i386 mm/memory.c; do
		[ -e "$src/$p" ] || die "HISTORICAL_SRC=$src (linux $ver) has no $p"
	done
	src=$(cd "$src" && pwd -P)
	mkdir -p "$BUILD"
	b=$(cd "$BUILD" && pwd -P)
	case $b/ in
	"$src"/*) die "HISTORICAL_SRC=$src holds the build directory $b: give the kernel tree itself" ;;
	esac
	case $src/ in
	"$b"/historical/*) die "HISTORICAL_SRC=$src is the build's own copy: give the tree you downloaded" ;;
	esac
}

# What the copy is made from: this source as it is now (path, version and
# every file's name, size and time), compat.sh and the series.
series() {
	ls "$here"/patches/000[1-9]-*.patch
}

identity() {
	{
		echo "$src $ver"
		(cd "$src" && find . -path ./.git -prune -o -type f -printf '%P %s %T@\n' | sort)
		cat "$here/compat.sh"
		for p in $(series); do
			echo "${p##*/}"
			cat "$p"
		done
	} | sha256sum | cut -c1-16
}

prepare() {
	id=$(identity)
	if [ -d "$COPY/.git" ] && [ "$(git_c config historical.id || true)" = "$id" ] &&
	   [ "$(git_c rev-parse -q --verify HEAD || true)" = "$(git_c config historical.head)" ] &&
	   [ -z "$(git_c status --porcelain -uno)" ]; then
		echo "$COPY: linux $ver, compat step and series up to date"
		return 0
	fi
	[ ! -e "$COPY" ] || note "$COPY made again from $src"
	rm -rf "$COPY"
	mkdir -p "$COPY"
	# files only: a .git of the source is neither copied nor touched
	(cd "$src" && tar --exclude=./.git -cf - .) | tar -C "$COPY" -xf -
	from=
	if [ -e "$src/.git" ] &&
	   srchead=$(git -C "$src" rev-parse -q --verify HEAD 2>/dev/null); then
		from=" (a git tree at $srchead)"
	fi
	git_import "$COPY" "linux $ver as found in $src$from"
	git_c tag base
	"$here/compat.sh" "$COPY" >"$COPY/.git/compat.out" ||
		die "the compat step failed on $src (above); the tree is not what it expects"
	cat "$COPY/.git/compat.out"
	git_c add -A .
	git_c commit -q -F - <<-MSG
	compat: build fixes for make 4.3 and gcc 12 (not part of the 2005 series)

	Made by historical/compat.sh; the compiler flags are in historical/build.sh.

	$(sed 's/^compat: /- /' "$COPY/.git/compat.out")
	MSG
	git_c tag compat
	# shellcheck disable=SC2046  # patch paths have no blanks
	nr=$(am_series "$COPY" "linux $ver + compat" historical $(series)) || exit 1
	git_c config historical.id "$id"
	git_c config historical.head "$(git_c rev-parse HEAD)"
	note "$COPY: linux $ver + compat + $nr patches of the 2005 series"
}

hint() {
	echo "make historical HISTORICAL_SRC=/path/to/linux-$WANT"
}

CC_LINE="$HISTORICAL_CC${HISTORICAL_CFLAGS:+ $HISTORICAL_CFLAGS}"

hmake() {
	"$HISTORICAL_MAKE" -C "$COPY" O="$O" ARCH=i386 CC="$CC_LINE" "$@"
}

prepared() {
	[ -d "$COPY/.git" ] && git_c config historical.head >/dev/null ||
		die "no prepared tree at $COPY (historical/build.sh tree, with HISTORICAL_SRC)"
}

# Every option of the fragment must read the same in .config.
check_config() {
	config_check "$O/.config" "$FRAG" ||
		die "options above ($FRAG) did not survive allnoconfig (missing dependency, or a symbol 2.6.14 does not have?)"
}

[ $# -eq 1 ] || die "usage: $0 tree|config|build|cc|hint"
case $1 in
tree)
	check_src
	prepare
	;;
config)
	prepared
	for p in scripts/kconfig/Makefile arch/i386/Kconfig; do
		[ -f "$COPY/$p" ] ||
			die "$COPY has no $p: HISTORICAL_SRC is not a complete kernel tree"
	done
	for p in .config include/asm; do
		[ ! -e "$COPY/$p" ] ||
			die "$COPY has $p: the tree given was configured in; give a clean one (make mrproper there, or unpack it again)"
	done
	stamp=$({ cat "$FRAG"; git_c rev-parse HEAD; echo "$HISTORICAL_CC $HISTORICAL_CFLAGS"; } |
		sha256sum | cut -c1-16)
	if [ -f "$O/.config" ] && [ "$(cat "$O/.ptlock-config" 2>/dev/null)" = "$stamp" ]; then
		echo "config of historical up to date"
		exit 0
	fi
	mkdir -p "$O"
	rm -f "$O/.config" "$O/.ptlock-config"
	KCONFIG_ALLCONFIG=$FRAG hmake allnoconfig ||
		die "make allnoconfig failed in $COPY (see above)"
	[ -f "$O/.config" ] || die "make allnoconfig wrote no $O/.config"
	check_config
	echo "$stamp" >"$O/.ptlock-config"
	;;
build)
	prepared
	[ -f "$O/.ptlock-config" ] || die "historical is not configured (historical/build.sh config)"
	hmake -j"$JOBS" bzImage ||
		die "the 2.6.14 build failed; README.md (the compat table) says what was and was not tried"
	img=$(kernel_image historical)
	[ -f "$img" ] || die "no $img after the build"
	echo "$img"
	;;
cc)
	echo "$CC_LINE"
	;;
hint)
	hint
	;;
*)
	die "unknown step '$1' (tree, config, build, cc or hint)"
	;;
esac
