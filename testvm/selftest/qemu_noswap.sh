#!/bin/sh
# needs: kernels (the built kernels and initramfs; not in make selftest-host)
# without a swap disk the swap tests and mm_torture fail with "no swap active"
# (not pass, not skip) and the runner says there is no swap
. "$(dirname "$0")/lib.sh"

export SWAP_MB=0
expect_fail "$T/out" boot_perf "ptltest.only=swapoff_fill,swapoff_many,mm_torture"
expect_in "$T/out" "swapoff_fill failed: FAIL no swap active"
expect_in "$T/out" "swapoff_many failed: FAIL no swap active"
expect_in "$T/out" "mm_torture failed: FAIL no swap active"
expect_in "$T/out" "3 failed"
grep -q "^# swap: none" "$T/runs/perf-smp2/console.log" || fail "the runner did not say there is no swap"
exit 0
