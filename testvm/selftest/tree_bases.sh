#!/bin/sh
# BASE=6.12 imports into linux-6.12 with tag debian-6.12.N and its own stamp
# and stock worktree, leaving 6.1's alone; a 6.12 tarball for BASE=6.1, an
# unknown BASE (tree.sh and the Makefile) and a kernel of a missing tree are
# refused with their reason
. "$(dirname "$0")/lib.sh"

fake_source "$T/src.tar.xz" 6 12
series "$T/patches"
BASE=6.12 tree >"$T/out" 2>&1 || { cat "$T/out"; fail "6.12 import failed"; }
expect_in "$T/out" "imported Linux 6.12.999 as tag debian-6.12.999 in $T/build/linux-6.12"
expect_in "$T/out" "applied 2 patches from modern/6.12"
[ -f "$T/build/tree-6.12.stamp" ] || fail "no tree-6.12.stamp"
[ -d "$T/build/linux-6.12-stock" ] || fail "no stock worktree linux-6.12-stock"
[ -e "$T/build/linux" ] && fail "6.12 touched the 6.1 tree"

# 6.1 asked for, 6.12 given: refused, nothing left behind
expect_fail "$T/out" env BASE=6.1 BUILD=$T/build TARBALL=$T/src.tar.xz \
	PATCHES=$T/patches "$ROOT/modern/tree.sh"
expect_in "$T/out" "holds Linux 6.12.999; modern/6.1 is for 6.1.x"
[ -e "$T/build/linux" ] && fail "a 6.1 tree was left behind"

expect_fail "$T/out" env BASE=7 BUILD=$T/build "$ROOT/modern/tree.sh"
expect_in "$T/out" "BASE=7: no such base (one of: $BASES)"

# the Makefile refuses an unknown BASE before anything runs
expect_fail "$T/out" make -s -C "$ROOT" BUILD="$T/build" BASE=6.2 tree
expect_in "$T/out" "BASE=6.2: no such base; one of: $BASES all"

# kbuild.sh takes the base from the kernel's name
expect_fail "$T/out" env BUILD=$T/build "$ROOT/modern/kbuild.sh" config 6.12-stock-nosuch
expect_in "$T/out" "no fragment for 'nosuch' of '6.12-stock-nosuch'"
rm -rf "$T/build/linux-6.12-stock"
expect_fail "$T/out" env BUILD=$T/build "$ROOT/modern/kbuild.sh" config 6.12-stock-debug
expect_in "$T/out" "no kernel tree at $T/build/linux-6.12-stock"
exit 0
