#!/bin/sh
# The data checks can fail: one byte flipped by the test-only knob
# ptltest.corrupt= turns a test red, naming where; with ptltest.corrupt=all
# every test that verifies data fails, and the others still pass.
. "$(dirname "$0")/lib.sh"

expect_fail "$T/out" boot_perf "ptltest.only=fault_disjoint ptltest.corrupt=fault_disjoint"
expect_in "$T/out" "fault_disjoint failed: FAIL page 4096 (thread 2) word 30 corrupt"
expect_in "$T/out" "1 failed"

expect_fail "$T/out" boot_perf "ptltest.corrupt=all"
for t in $(grep -l corrupt_if_asked "$ROOT"/testvm/guest/*.c); do
	expect_in "$T/out" "perf-smp2: $(basename "$t" .c) failed: FAIL "
done
grep -q "^ptlock_mode  *ok" "$T/out" || { cat "$T/out"; fail "ptlock_mode did not pass"; }
grep -q "^boot_log  *ok" "$T/out" || { cat "$T/out"; fail "boot_log did not pass"; }
exit 0
