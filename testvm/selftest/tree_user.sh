#!/bin/sh
# LINUX_TREE: a git checkout of the user's own (a fake 7.3 with commits on
# top, a branch, staged and unstaged changes) gets the nearest base's series
# in a clone under BUILD, and nothing of the user's repository changes: not
# HEAD, branches, tags, index, work tree or .git's files.  A series that
# does not apply names the patch, file and hunk, and leaves nothing applied;
# the user's HEAD moving on re-applies it there; a directory that is no git
# checkout is refused, by tree.sh and by make.
. "$(dirname "$0")/lib.sh"

u=$T/user
fake_source "$T/src.tar.xz" 7 3
series "$T/patches"
mkdir -p "$u"
tar -xf "$T/src.tar.xz" -C "$u" --strip-components=1
git -C "$u" init -q -b master
git -C "$u" add -f -A
git -C "$u" -c user.name=u -c user.email=u@u commit -q -m "Linux 7.3.999"
git -C "$u" tag v7.3.999
echo "/* one */" >>"$u/mm/memory.c"
git -C "$u" -c user.name=u -c user.email=u@u commit -q -a -m "mm: a commit of the user's"
git -C "$u" branch topic
echo "/* staged */" >"$u/mm/staged.c"
git -C "$u" add -f mm/staged.c
echo "/* unstaged */" >>"$u/Makefile"

state() {
	{
		git -C "$u" rev-parse HEAD
		git -C "$u" symbolic-ref HEAD
		git -C "$u" for-each-ref --format='%(refname) %(objectname)'
		git -C "$u" ls-files -s | sha256sum
		git -C "$u" diff | sha256sum
		find "$u/.git" -type f -newer "$T/stamp" | sort
		find "$u" -path "$u/.git" -prune -o -type f -print | sort | xargs sha256sum
	} >"$1"
}
utree() {
	BUILD=$T/build PATCHES=$T/patches BASE=7.3 LINUX_TREE=$u "$ROOT/modern/tree.sh"
}
: >"$T/stamp"
sleep 1
state "$T/before"

[ "$("$ROOT/modern/tree.sh" base-of "$u")" = 7.3 ] || fail "base-of: 7.3.999 is not 7.3's"
utree >"$T/out" 2>&1 || { cat "$T/out"; fail "the series did not apply to the user's tree"; }
expect_in "$T/out" "has uncommitted changes: not part of the build (its HEAD, v7.3.999-1-g"
expect_in "$T/out" "applied 2 patches from modern/7.3"
git -C "$T/build/linux-7.3" log --format=%s -3 | sed -n 3p | grep -qx "mm: a commit of the user's" ||
	fail "the series is not on top of the user's HEAD"
[ "$(git -C "$T/build/linux-7.3" config ptlock.describe)" = "$(git -C "$u" describe --tags)" ] ||
	fail "no git describe of the user's tree kept"
[ -f "$T/build/linux-7.3-stock/mm/memory.c" ] && ! grep -q line_10 "$T/build/linux-7.3-stock/mm/staged.c" 2>/dev/null ||
	fail "no stock worktree at the user's HEAD"
state "$T/after"
cmp -s "$T/before" "$T/after" || { diff "$T/before" "$T/after"; fail "the user's repository changed"; }

# the user's HEAD moves on: re-applied there
git -C "$u" -c user.name=u -c user.email=u@u commit -q -m "mm: staged"
utree >"$T/out" 2>&1 || { cat "$T/out"; fail "not re-applied on the new HEAD"; }
expect_in "$T/out" "applied 2 patches"
git -C "$T/build/linux-7.3" log --format=%s -3 | sed -n 3p | grep -qx "mm: staged" ||
	fail "the series is not on top of the new HEAD"
: >"$T/stamp"
sleep 1
state "$T/before"

# a series that does not apply: named, nothing left applied, the user's untouched
sed -i 's/^ int line_29;/ int line_29_changed;/' "$T/patches/0002-"*
expect_fail "$T/out" utree
expect_in "$T/out" "0002-mm-second.patch does not apply"
expect_in "$T/out" "patch failed: mm/memory.c"
expect_in "$T/out" "nothing of modern/7.3 is left applied"
[ "$(git -C "$T/build/linux-7.3" rev-parse HEAD)" = "$(git -C "$u" rev-parse HEAD)" ] ||
	fail "the clone was left with part of the series"
[ ! -d "$T/build/linux-7.3/.git/rebase-apply" ] || fail "git am was not aborted"
state "$T/after"
cmp -s "$T/before" "$T/after" || { diff "$T/before" "$T/after"; fail "a failed apply changed the user's repository"; }

# not a git checkout: refused, by tree.sh and by make
mkdir -p "$T/plain"
expect_fail "$T/out" env BUILD=$T/build LINUX_TREE=$T/plain "$ROOT/modern/tree.sh"
expect_in "$T/out" "is not a git checkout"
expect_fail "$T/out" make -s -C "$ROOT" BUILD="$T/build" LINUX_TREE="$T/plain" kernels
expect_in "$T/out" "LINUX_TREE=$T/plain is not a git checkout"
expect_fail "$T/out" make -s -C "$ROOT" BUILD="$T/build" LINUX_TREE="$T/none" kernels
expect_in "$T/out" "LINUX_TREE=$T/none: no such directory"
# make picks the nearest base, and builds under build/user by default
env -u BUILD make -n -s -C "$ROOT" LINUX_TREE="$u" kernels >"$T/out" 2>&1 || { cat "$T/out"; fail "make -n LINUX_TREE= kernels"; }
expect_in "$T/out" "kbuild.sh build 7.3-debug-x86_64"
expect_in "$T/out" "$ROOT/build/user/logs"
exit 0
