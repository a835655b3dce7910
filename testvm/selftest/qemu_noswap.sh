#!/bin/sh
# No swap disk: the swap tests fail, saying so; they neither pass nor skip.
. "$(dirname "$0")/lib.sh"

expect_fail "$T/out" env BUILD="$T" TIMEOUT=120 SWAP_MB=0 \
	KERNEL="$BUILD/kernel/perf/arch/x86/boot/bzImage" INITRAMFS="$BUILD/initramfs.cpio" \
	APPEND="ptltest.only=swapoff_fill,swapoff_many" \
	sh -c "$ROOT/testvm/qemu-run.sh perf-smp2 '$T/runs/perf-smp2' &&
	       BUILD='$T' $ROOT/testvm/ktap.py --out '$T/results' perf-smp2"
expect_in "$T/out" "swapoff_fill failed: FAIL no swap active"
expect_in "$T/out" "swapoff_many failed: FAIL no swap active"
expect_in "$T/out" "2 failed"
grep -q "^# swap: none" "$T/runs/perf-smp2/console.log" || fail "the runner did not say there is no swap"
exit 0
