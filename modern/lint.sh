#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh: the series against the kernel's own checkers.
#   checkpatch  scripts/checkpatch.pl --strict on every patch of
#               modern/patches: any error, warning or check fails.
#   sparse      make C=2 on each .c file the series touches, in the stock
#               tree and in the patched one: any warning the series adds
#               fails (line numbers ignored).  Files the debug kernel
#               compiles are checked there; arch/x86/xen/ ones in x86_64
#               debug + xen.config (modern/kbuild.sh), where only the object
#               itself is compiled, after prepare; arch/arm/ ones in an ARM
#               build directory (versatile_defconfig: ARMv5, VIVT caches,
#               where the split is impossible) when arm-linux-gnueabi-gcc is
#               there - on Debian bookworm its package conflicts with
#               gcc-multilib, which the guest programs need, so it is not
#               one of the project's packages.  A file not checked is named
#               as skipped, with the reason.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
# canonical paths: sparse names the sources by them in an O= build
BUILD=$(cd "${BUILD:-$here/../build}" && pwd -P)
TREE=$(cd "${TREE:-$BUILD/linux}" && pwd -P)
STOCK=$(cd "${STOCK:-$BUILD/linux-stock}" && pwd -P)
KERNEL=${LINT_KERNEL:-debug}
# test-only: LINT_INJECT=1 adds one warning, worded as sparse words them, to
# the series' side of the first file checked; lint must then fail
INJECT=${LINT_INJECT:-0}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lint.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bad=0

echo "== checkpatch --strict"
for p in "$here"/patches/0*.patch; do
	case ${p##*/} in 0000-cover-letter.patch) continue ;; esac
	# Debian's python3 (spdxcheck.py needs its python3-ply, python3-git)
	out=$(PATH=/usr/bin:$PATH "$TREE/scripts/checkpatch.pl" --strict --terse \
		--no-summary "$p" 2>&1) || true
	if [ -n "$out" ]; then
		echo "${p##*/}:"
		echo "$out" | sed 's/^/  /'
		bad=1
	else
		echo "${p##*/}: clean"
	fi
done

echo "== sparse (make C=2) on touched files, $KERNEL kernel"
base=$(git -C "$TREE" config ptlock.base)
files=$(git -C "$TREE" diff --name-only "$base..ptlock-split" -- '*.c')
# cross DIR KIND TREE: configure DIR for a file the debug kernel does not
# build; prints the make arguments that compile in it
cross() {
	case $2 in
	arm)
		set -- "$1" arm "$3" ARCH=arm CROSS_COMPILE=arm-linux-gnueabi-
		[ -f "$1/.config" ] ||
			make -s -C "$3" O="$1" "$4" "$5" versatile_defconfig >&2 || return 1
		echo "$4 $5" ;;
	xen)
		k=debug-x86_64-xen
		[ "$3" = "$TREE" ] || k=stock-$k
		TREE=$3 KDIR=$(dirname "$1") "$here/kbuild.sh" config "$k" >&2 || return 1
		echo ARCH=x86_64 ;;
	esac
}

for f in $files; do
	o=${f%.c}.o
	case $f in
	arch/arm/*) kind=arm ;;
	arch/x86/xen/*) kind=xen ;;
	*) kind= ;;
	esac
	if [ -z "$kind" ] && [ ! -f "$BUILD/kernel/$KERNEL/$o" ]; then
		echo "$f: not built in the $KERNEL kernel, skipped"
		continue
	fi
	if [ "$kind" = arm ] && ! command -v arm-linux-gnueabi-gcc >/dev/null; then
		echo "$f: no arm-linux-gnueabi-gcc (its Debian package conflicts with gcc-multilib), skipped"
		continue
	fi
	sp() {	# tree objdir -> sparse warnings for $f, without line numbers
		if [ -n "$kind" ]; then
			args=$(cross "$2" "$kind" "$1") ||
				{ echo "lint: error: cannot configure $2 for $f" >&2; exit 1; }
		else
			args=ARCH=i386
		fi
		# shellcheck disable=SC2086
		make -s -C "$1" O="$2" $args C=2 "$o" >"$2.lint.log" 2>&1 ||
			{ tail -n 20 "$2.lint.log" >&2; echo "lint: error: $o does not compile in $2" >&2; exit 1; }
		if [ "$INJECT" = 1 ] && [ "$1" = "$TREE" ]; then
			echo "$1/$f:1:1: warning: lint self-test: injected" >>"$2.lint.log"
			INJECT=done
		fi
		# an O= build names the source by its full path
		sed "s|^$1/||" "$2.lint.log" |
			grep -E "^$f:[0-9]+:[0-9]+: (warning|error)" |
			sed -E 's/:[0-9]+:[0-9]+:/:/' | sort
	}
	case $kind in
	arm) dirs="$BUILD/lint/arm $BUILD/lint/stock-arm" ;;
	xen) dirs="$BUILD/lint/debug-x86_64-xen $BUILD/lint/stock-debug-x86_64-xen" ;;
	*) dirs="$BUILD/kernel/$KERNEL $BUILD/kernel/stock-$KERNEL" ;;
	esac
	set -- $dirs
	mkdir -p "$1" "$2"
	[ ! -f "$STOCK/$f" ] || sp "$STOCK" "$2" >"$tmp/sparse.base"
	[ -f "$STOCK/$f" ] || : >"$tmp/sparse.base"
	sp "$TREE" "$1" >"$tmp/sparse.new"
	added=$(comm -13 "$tmp/sparse.base" "$tmp/sparse.new")
	where=${kind:+ ($kind build)}
	if [ -n "$added" ]; then
		echo "$f$where: sparse warnings the series adds:"
		echo "$added" | sed 's/^/  /'
		bad=1
	else
		echo "$f$where: no new sparse warnings ($(wc -l <"$tmp/sparse.new") in all, $(wc -l <"$tmp/sparse.base") before)"
	fi
done
[ $bad -eq 0 ] && echo "lint: clean" || { echo "lint: FAILED"; exit 1; }
