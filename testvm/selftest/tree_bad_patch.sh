#!/bin/sh
# A patch that does not apply: git am aborted, the patch and hunk named,
# non-zero exit, and the next run does not take the half-applied branch.
. "$(dirname "$0")/lib.sh"

fake_source "$T/src.tar.xz" 6 1
series "$T/patches"
sed -i 's/^ int line_29;/ int line_29_changed;/' "$T/patches/0002-"*
expect_fail "$T/out" tree
expect_in "$T/out" "0002-mm-second.patch does not apply"
expect_in "$T/out" "patch failed: mm/memory.c"
expect_in "$T/out" "line_29_changed"
[ -d "$T/build/linux/.git/rebase-apply" ] && fail "git am was not aborted"
expect_fail "$T/out2" tree
expect_in "$T/out2" "0002-mm-second.patch does not apply"
exit 0
