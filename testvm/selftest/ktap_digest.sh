#!/bin/sh
# A digest that differs between two kernels fails the run even when both
# say "ok"; equal digests pass.
. "$(dirname "$0")/lib.sh"

console() {	# cell digest
	mkdir -p "$T/runs/$1"
	echo "kernel" >"$T/runs/$1/cmdline"
	printf 'KTAP version 1\n1..2\nok 1 boot_log\n# fault_disjoint: pages=8 digest=%s\nok 2 fault_disjoint\n# ptltest: done\n' \
		"$2" >"$T/runs/$1/console.log"
}
console debug-on-smp4 8d371d7f
console debug-off-smp4 8d371d7f
BUILD=$T "$ROOT/testvm/ktap.py" --out "$T/r" debug-on-smp4 debug-off-smp4 >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "equal digests failed"; }
console debug-off-smp4 8d371d7e
expect_fail "$T/out" env BUILD="$T" "$ROOT/testvm/ktap.py" --out "$T/r" debug-on-smp4 debug-off-smp4
expect_in "$T/out" "fault_disjoint: digest differs between cells (MEM=256): debug-off-smp4=8d371d7e, debug-on-smp4=8d371d7f"
exit 0
