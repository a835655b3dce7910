#!/bin/sh
# missing tarball (names the package), wrong major version (nothing left),
# truncated mail (file named), half-prepared tree (redone)
. "$(dirname "$0")/lib.sh"

expect_fail "$T/out" tree
expect_in "$T/out" "src.tar.xz not found"
expect_in "$T/out" "apt-get install linux-source"

fake_source "$T/src.tar.xz" 5 10
expect_fail "$T/out" tree
expect_in "$T/out" "holds Linux 5.10.999; modern/6.1 is for 6.1.x"
[ -e "$T/build/linux" ] && fail "a tree was left behind for the wrong version"

fake_source "$T/src.tar.xz" 6 1
series "$T/patches"
head -c 300 "$T/patches/0001-"* >"$T/short" && mv "$T/short" "$T/patches/0001-mm-first.patch"
expect_fail "$T/out" tree
expect_in "$T/out" "0001-mm-first.patch is not a git format-patch mail"

rm -rf "$T/build/linux" "$T/patches"
mkdir -p "$T/build/linux.importing" "$T/build/linux"
echo junk >"$T/build/linux/Makefile"
series "$T/patches"
tree >"$T/out" 2>&1 || { cat "$T/out"; fail "half-prepared tree not redone"; }
expect_in "$T/out" "half-prepared: imported again"
expect_in "$T/out" "applied 2 patches"
exit 0
