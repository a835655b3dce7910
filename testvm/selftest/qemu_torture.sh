#!/bin/sh
# needs: kernels (the built kernels and initramfs; not in make selftest-host)
# The mm torture test can fail: the test-only knob ptltest.torture_skip_write=1
# leaves one of worker 0's writes out of its shadow model, and the run must
# name the mismatch (seed, worker, operation, address); with another seed the
# test passes and prints that seed, with pages swapped out and read back.
. "$(dirname "$0")/lib.sh"

expect_fail "$T/out" boot_perf "ptltest.only=mm_torture ptltest.torture_skip_write=1"
expect_in "$T/out" "mm_torture failed: FAIL seed="
expect_in "$T/out" " worker=0 op#"
expect_in "$T/out" "1 failed"

boot_perf "ptltest.only=mm_torture ptltest.seed=4242" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "mm_torture with ptltest.seed=4242 did not pass"; }
grep -q "^mm_torture  *ok" "$T/out" || { cat "$T/out"; fail "mm_torture did not pass"; }
expect_in "$T/runs/perf-smp2/console.log" "# mm_torture: seed=4242 "
grep -q "^# mm_torture: .* pulses=[1-9][0-9]* met=[1-9][0-9]* swapped=[1-9][0-9]* majflt=[1-9]" \
	"$T/runs/perf-smp2/console.log" || fail "no swap traffic figures from mm_torture"
exit 0
