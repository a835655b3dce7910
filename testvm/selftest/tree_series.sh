#!/bin/sh
# import once, tag + branch, apply, second run changes nothing, changed series
# re-applied from the tag
. "$(dirname "$0")/lib.sh"

fake_source "$T/src.tar.xz" 6 1
series "$T/patches"
tree >"$T/out1" 2>&1 || { cat "$T/out1"; fail "first run failed"; }
expect_in "$T/out1" "imported Linux 6.1.999 as tag debian-6.1.999"
expect_in "$T/out1" "applied 2 patches"
g="git -C $T/build/linux"
[ "$($g rev-list --count debian-6.1.999..ptlock-split)" = 2 ] || fail "branch is not tag + 2"
grep -q "Debian packaging" "$T/build/linux/.gitignore" && fail "Debian ignore block kept"
head=$($g rev-parse HEAD)
stamp=$(stat -c %Y.%y "$T/build/tree.stamp")
sleep 1
tree >"$T/out2" 2>&1 || { cat "$T/out2"; fail "second run failed"; }
expect_in "$T/out2" "series up to date"
[ "$($g rev-parse HEAD)" = "$head" ] || fail "second run moved the branch"
[ "$(stat -c %Y.%y "$T/build/tree.stamp")" = "$stamp" ] || fail "second run touched the stamp"
# an interrupted git am (left in .git/rebase-apply) is aborted and redone
git -C "$T/build/linux" am "$T/patches/0002-"* >/dev/null 2>&1 && fail "re-applying 0002 succeeded"
[ -d "$T/build/linux/.git/rebase-apply" ] || fail "could not leave a git am behind"
tree >"$T/out2" 2>&1 || { cat "$T/out2"; fail "run after an interrupted git am failed"; }
expect_in "$T/out2" "interrupted git am was found"
[ -d "$T/build/linux/.git/rebase-apply" ] && fail "git am still in progress"
[ "$($g rev-list --count debian-6.1.999..ptlock-split)" = 2 ] || fail "branch is not tag + 2 after redo"
# a changed series resets to the tag and applies from scratch
rm "$T/patches/0002-"*
tree >"$T/out3" 2>&1 || { cat "$T/out3"; fail "third run failed"; }
expect_in "$T/out3" "applied 1 patches"
[ "$($g rev-list --count debian-6.1.999..ptlock-split)" = 1 ] || fail "branch is not tag + 1"
exit 0
