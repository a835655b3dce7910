#!/bin/sh
# ktap.py on consoles captured from real boots (testvm/selftest/fixtures/,
# each a run directory: cell, cmdline, console.log): a whole run of the perf
# kernel passes with its skips and digests; a test that failed (a planted
# bug caught by lockstat_paths, with debug WARNINGs) fails with its reason,
# console lines and bad kernel lines; an oops that panicked mid-test, a
# guest killed at its time bound (torn plan) and a runner that never started
# (a guest that hangs) each fail the cell, saying which it was.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/runs"
cp -r "$ROOT/testvm/selftest/fixtures/." "$T/runs/"
# ktap CELL: parse one fixture; its JSON in $T/res/CELL.json, the table in $T/CELL.out
ktap() {
	RUNS=$T/runs "$ROOT/testvm/ktap.py" --out "$T/res" "$1" >"$T/$1.out" 2>&1
}
# field CELL EXPR: a Python expression over the cell's JSON (r)
field() {
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
		"$T/res/$1.json" "$2"
}

ktap good || { cat "$T/good.out"; fail "the good run failed"; }
expect_in "$T/good.out" "guest: 17 passed, 0 failed, 9 skipped"
[ "$(field good 'r["tests"]["fault_zap"]["figures"]["digest"]')" = 71d1d16e ] || fail "fault_zap's digest"
[ "$(field good 'r["tests"]["uffd_move"]["verdict"]')" = skip ] || fail "uffd_move not SKIP"

ktap test-fail && fail "a failed test passed"
[ "$(field test-fail 'r["tests"]["lockstat_paths"]["verdict"]')" = fail ] || fail "lockstat_paths not FAIL"
expect_in "$T/test-fail.out" "took ptlock_ptr(page) 5 times, not at least 258"
expect_in "$T/test-fail.out" "WARNING: CPU: 0 PID: 54 at mm/vmstat.c:393"
# the test's own console lines (0-based): from its first line to its result
lines=$(field test-fail '" ".join(map(str, r["tests"]["lockstat_paths"]["lines"]))')
# shellcheck disable=SC2086
set -- $lines
sed -n "$(($2 + 1))p" "$T/runs/test-fail/console.log" | grep -q '^not ok 2 lockstat_paths' ||
	fail "lockstat_paths' lines $lines do not end at its result"

ktap oops-panic && fail "an oops passed"
expect_in "$T/oops-panic.out" "plan says 2 tests, 1 results"
expect_in "$T/oops-panic.out" "runner did not finish (hang, panic or crash)"
expect_in "$T/oops-panic.out" "BUG: kernel NULL pointer dereference, address: 00000004"
expect_in "$T/oops-panic.out" "Kernel panic - not syncing: Fatal exception"

ktap torn && fail "a torn plan passed"
expect_in "$T/torn.out" "plan says 25 tests, 14 results"
[ "$(field torn 'r["tests"]["lockstat_ptlock"]["verdict"]')" = ok ] || fail "results before the cut lost"

ktap hang && fail "a hang passed"
expect_in "$T/hang.out" "no KTAP plan on the console (runner never started)"
exit 0
