#!/bin/sh
# historical/check.py can fail: a changed hunk, a wrong diffstat, a context
# line a later patch disagrees on, and a truncated mail are each caught.  So
# are, in the port (--port): an adapted patch without its note, or not by
# its posted author, a port patch by Hugh Dickins, and a changed hunk in a
# patch that says it applies unchanged.
. "$(dirname "$0")/lib.sh"

check() {	# name of the copy
	python3 "$ROOT/historical/check.py" --dir "$T/$1" --seeds "$ROOT/../shared/seeds"
}
copy() {
	rm -rf "${T:?}/$1"
	mkdir -p "$T/$1"
	cp "$ROOT"/historical/patches/*.patch "$ROOT"/historical/patches/*.mbox "$T/$1/"
}

copy good
check good >"$T/out" 2>&1 || { cat "$T/out"; fail "the committed series fails"; }

copy hunk
sed -i 's/^+	spinlock_t \*ptl;$/+	spinlock_t *ptl; /' "$T/hunk/0001-"*
expect_fail "$T/out" check hunk
expect_in "$T/out" "not ok 2 hunks"

copy stat
sed -i 's/^ arch\/cris\/arch-v32\/mm\/tlb.c | 6 /&/; s/^ arch\/cris\/arch-v32\/mm\/tlb.c | 6 ++++--$/ arch\/cris\/arch-v32\/mm\/tlb.c | 7 ++++--/' "$T/stat/0004-"*
expect_fail "$T/out" check stat
expect_in "$T/out" "not ok 3 diffstat"

copy context
# move 0008's mm/rmap.c hunk onto lines 0007 wrote: its context disagrees
sed -i 's/^@@ -559,7 +559,8 @@/@@ -274,7 +274,8 @@/' "$T/context/0008-"*
grep -q '^@@ -274,7 +274,8 @@' "$T/context/0008-"* || fail "could not move the hunk"
expect_fail "$T/out" check context
expect_in "$T/out" "not ok 4 consistency"
expect_in "$T/out" "after the earlier patches, its context says"

copy short
head -c 2000 "$T/short/0007-"* >"$T/x" && mv "$T/x" "$T/short/0007-mm-split-page-table-lock.patch"
expect_fail "$T/out" check short
expect_in "$T/out" "not ok 1 mailinfo"

# the port
pcheck() {
	python3 "$ROOT/historical/check.py" --port --dir "$T/$1"
}
pcopy() {
	rm -rf "${T:?}/$1"
	mkdir -p "$T/$1"
	cp "$ROOT"/historical/port/*.patch "$T/$1/"
}
pcopy pgood
pcheck pgood >"$T/out" 2>&1 || { cat "$T/out"; fail "the committed port fails"; }

pcopy pnote
sed -i 's/^\[ Port to vanilla 2.6.14:/[ Ported:/' "$T/pnote/"*-mm-split-page-table-lock.patch
expect_fail "$T/out" pcheck pnote
expect_in "$T/out" "-mm-split-page-table-lock.patch: no '[ Port to vanilla 2.6.14:' note"

pcopy pauthor
sed -i 's/^From: Hugh Dickins <hugh@veritas.com>$/From: Someone Else <hugh@veritas.com>/' "$T/pauthor/"*-mm-fix-rss-and-mmlist-locking.patch
expect_fail "$T/out" pcheck pauthor
expect_in "$T/out" "-mm-fix-rss-and-mmlist-locking.patch: Author 'Someone Else', posted 'Hugh Dickins'"

pcopy pown
sed -i '1,3s/^From: Seed 9cf11ef3 maintainers$/From: Hugh Dickins/' "$T/pown/0001-"*
expect_fail "$T/out" pcheck pown
expect_in "$T/out" "the port's own patch is by Hugh Dickins"

pcopy phunk
sed -i 's/^+ \* The caller needs to hold the pte lock\.$/+ * The caller needs the pte lock./' "$T/phunk/"*-mm-update-comments-to-pte-lock.patch
grep -q 'needs the pte lock' "$T/phunk/"*-mm-update-comments-to-pte-lock.patch || fail "could not change the comments patch's hunk"
expect_fail "$T/out" pcheck phunk
expect_in "$T/out" "says it applies unchanged, but its hunks of mm/rmap.c differ"
exit 0
