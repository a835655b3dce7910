#!/bin/sh
# needs: kernels (the built kernels and initramfs; not in make selftest-host)
# make lint can fail: LINT_INJECT=1 adds one warning, worded and placed as
# sparse prints it in an O= build inside the tree (the source's path
# relative to it, "../mm/..."), to the series' side of the first file
# checked.  lint.sh must name it as a warning the series adds and exit
# non-zero.  (Its sparse comparison once read relative paths only and
# compared nothing.)  LINT_PLANT=1 forces an #error into
# the KUnit test's compile on every architecture lint builds: each must
# name the planted error as what failed its build, and nothing else may
# fail.  The KUnit=m link check is make lint's, not repeated here
# (LINT_KUNITM=0); the run without injection is make check's own lint.
. "$(dirname "$0")/lib.sh"

expect_fail "$T/out" env BASE="$SELFTEST_BASE" LINT_KERNEL=debug-pae LINT_INJECT=1 LINT_PLANT=1 LINT_KUNITM=0 "$ROOT/modern/lint.sh"
expect_in "$T/out" "sparse warnings the series adds:"
expect_in "$T/out" "lint self-test: injected"
expect_in "$T/out" "lint: FAILED"
arches=$(awk '/^ARCHES="/{f=1} f{n++} f&&/"$/{print n; exit}' "$ROOT/modern/lint.sh")
caught=$(grep -c ': the planted error fails the build$' "$T/out" || true)
[ "$arches" -ge 10 ] || fail "lint.sh's ARCHES list not read ($arches entries)"
[ "$caught" -eq "$arches" ] || { cat "$T/out"; fail "the planted error failed $caught of $arches architectures' builds"; }
# nothing but the injection and the plants failed (make check's lint, the
# same run without them, must pass)
[ "$(grep -c "sparse warnings the series adds:" "$T/out")" -eq 1 ] &&
	! grep -q "lint: error\|: warnings or errors the series adds:\|^0.*\.patch: [^c]" "$T/out" ||
	{ cat "$T/out"; fail "lint failed on more than the injection"; }
grep -q "^mm/memory.c: no new sparse warnings ([1-9][0-9]* in all" "$T/out" ||
	{ cat "$T/out"; fail "no sparse warnings read for mm/memory.c: is sparse's output parsed?"; }
exit 0
