#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh: the series against the kernel's own checkers.
#   checkpatch  scripts/checkpatch.pl --strict on every patch of
#               modern/patches: any error, warning or check fails.
#   sparse      make C=2 on each .c file the series touches and the debug
#               kernel compiles, in the stock tree and in the patched one:
#               any warning the series adds fails (line numbers ignored).

set -eu

here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$here/../build}
TREE=${TREE:-$BUILD/linux}
STOCK=${STOCK:-$BUILD/linux-stock}
KERNEL=${LINT_KERNEL:-debug}
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
for f in $files; do
	o=${f%.c}.o
	if [ ! -f "$BUILD/kernel/$KERNEL/$o" ]; then
		echo "$f: not built in the $KERNEL kernel, skipped"
		continue
	fi
	sp() {	# tree objdir -> sparse warnings for $f, without line numbers
		make -s -C "$1" O="$2" ARCH=i386 C=2 "$o" 2>&1 |
			grep -E "^$f:[0-9]+:[0-9]+: (warning|error)" |
			sed -E 's/:[0-9]+:[0-9]+:/:/' | sort
	}
	[ ! -f "$STOCK/$f" ] || sp "$STOCK" "$BUILD/kernel/stock-$KERNEL" >"$BUILD/sparse.base"
	[ -f "$STOCK/$f" ] || : >"$BUILD/sparse.base"
	sp "$TREE" "$BUILD/kernel/$KERNEL" >"$BUILD/sparse.new"
	added=$(comm -13 "$BUILD/sparse.base" "$BUILD/sparse.new")
	if [ -n "$added" ]; then
		echo "$f: sparse warnings the series adds:"
		echo "$added" | sed 's/^/  /'
		bad=1
	else
		echo "$f: no new sparse warnings ($(wc -l <"$BUILD/sparse.new") in all)"
	fi
done
rm -f "$BUILD/sparse.base" "$BUILD/sparse.new"
[ $bad -eq 0 ] && echo "lint: clean" || { echo "lint: FAILED"; exit 1; }
