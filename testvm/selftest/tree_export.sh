#!/bin/sh
# make export: commits made in the tree come back as a format-patch series
# with the cover letter's text kept, and the next run does not re-apply it.
. "$(dirname "$0")/lib.sh"

fake_source "$T/src.tar.xz" 6 1
series "$T/patches"
sed -i 's/\*\*\* SUBJECT HERE \*\*\*/mm: make things better/; s/^\*\*\* BLURB HERE \*\*\*$/Why it is better./' \
	"$T/patches/0000-cover-letter.patch"
tree >"$T/out" 2>&1 || { cat "$T/out"; fail "apply failed"; }
w=$T/build/linux
sed -i 's/^int line_20;/int line_20 = 20;/' "$w/mm/memory.c"
git -C "$w" commit -q -a -m "mm: third"
tree >"$T/out" 2>&1 || { cat "$T/out"; fail "run with a local commit failed"; }
expect_in "$T/out" "not in modern/6.1"
tree export >"$T/out" 2>&1 || { cat "$T/out"; fail "export failed"; }
expect_in "$T/out" "wrote 4 files"
[ -f "$T/patches/0003-mm-third.patch" ] || fail "no 0003-mm-third.patch"
c=$T/patches/0000-cover-letter.patch
expect_in "$c" "Subject: [PATCH 0/3] mm: make things better"
expect_in "$c" "Why it is better."
expect_in "$c" "base-commit: "
head=$(git -C "$w" rev-parse HEAD)
tree >"$T/out" 2>&1 || { cat "$T/out"; fail "run after export failed"; }
expect_in "$T/out" "series up to date"
[ "$(git -C "$w" rev-parse HEAD)" = "$head" ] || fail "export was re-applied"
exit 0
