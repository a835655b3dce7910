#!/bin/sh
# testvm/mm_selftests.py on made-up consoles: a kernel selftest that fails
# in a mode of ours and is ok on stock is a difference and fails the run; one
# that fails on stock too is listed as stock's own, and does not; a cell
# that broke off fails; a cell with no stock cell of its kernel is refused.
. "$(dirname "$0")/lib.sh"

console() {	# cell verdict-of-mm.a verdict-of-mm.b [done]
	mkdir -p "$T/mm-selftests/$1"
	echo "kernel" >"$T/mm-selftests/$1/cmdline"
	{ printf 'KTAP version 1\n1..3\nok 1 boot_log\n'
	  printf '%s 2 mm.a\n%s 3 mm.b\n' "$2" "$3"
	  [ "${4:-done}" = 'done' ] && echo "# ptltest: done"; } >"$T/mm-selftests/$1/console.log"
}
run() { env BUILD="$T" "$ROOT/testvm/mm_selftests.py" check "$@"; }

console stock-smp4 ok "not ok"
console debug-on-smp4 ok "not ok"
run debug-on-smp4 stock-smp4 >"$T/out" 2>&1 || { cat "$T/out"; fail "equal verdicts failed"; }
expect_in "$T/out" "fails on stock too: mm.b (debug-on-smp4, stock-smp4)"
expect_in "$T/report/mm-selftests.md" "- mm.b: debug-on-smp4, stock-smp4"

console debug-on-smp4 "not ok" "not ok"
expect_fail "$T/out" run debug-on-smp4 stock-smp4
expect_in "$T/out" "DIFFERENCE mm.a: FAIL in debug-on-smp4, ok in stock-smp4"

console debug-on-smp4 ok "not ok" broken
expect_fail "$T/out" run debug-on-smp4 stock-smp4
expect_in "$T/out" "BROKEN debug-on-smp4: runner did not finish"

expect_fail "$T/out" run debug-on-smp4
expect_in "$T/out" "cell debug-on-smp4 (kernel debug) has no stock-debug cell"
exit 0
