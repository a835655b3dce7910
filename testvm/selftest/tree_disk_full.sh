#!/bin/sh
# Disk full in the build directory: the build directory is a small tmpfs,
# filled up before 'make tree' imports (a fake linux-source tarball).  The
# stage fails, names itself, and says the file system is full - even though
# its log could not be written.  Needs mount (root); without it the test is
# skipped, saying why.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/build"
mount -t tmpfs -o size=1m ptlock-selftest "$T/build" 2>"$T/mount.err" ||
	skip "cannot mount a tmpfs here: $(cat "$T/mount.err")"
trap 'umount "$T/build"' EXIT
fake_source "$T/src.tar.xz" 6 1
mkdir -p "$T/patches"
dd if=/dev/zero of="$T/build/fill" bs=64k 2>/dev/null || true
expect_fail "$T/out" env TARBALL="$T/src.tar.xz" PATCHES="$T/patches" \
	make -C "$ROOT" --no-print-directory tree BUILD="$T/build" BASE=6.1
expect_in "$T/out" "tree 6.1: import, apply modern/6.1"
expect_in "$T/out" "FAIL"
expect_in "$T/out" "tree 6.1: import, apply modern/6.1: the file system of $T/build/logs is full"
[ ! -e "$T/build/linux" ] || fail "a tree was left in $T/build/linux"
exit 0
