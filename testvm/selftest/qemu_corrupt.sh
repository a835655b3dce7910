#!/bin/sh
# The data checks can fail: one byte flipped by the test-only knob
# ptltest.corrupt= turns fault_disjoint and fault_shared_table red.
. "$(dirname "$0")/lib.sh"

expect_fail "$T/out" env BUILD="$T" TIMEOUT=120 KERNEL="$BUILD/kernel/perf/arch/x86/boot/bzImage" \
	INITRAMFS="$BUILD/initramfs.cpio" \
	APPEND='ptltest.only=fault_disjoint ptltest.corrupt=fault_disjoint' \
	sh -c "$ROOT/testvm/qemu-run.sh perf-smp2 '$T/runs/perf-smp2' &&
	       $ROOT/testvm/ktap.py --out '$T/results' perf-smp2"
expect_in "$T/out" "fault_disjoint failed: FAIL page 4096 (thread 2) word 30 corrupt"
expect_in "$T/out" "1 failed"

expect_fail "$T/out2" env BUILD="$T" TIMEOUT=120 KERNEL="$BUILD/kernel/perf/arch/x86/boot/bzImage" \
	INITRAMFS="$BUILD/initramfs.cpio" \
	APPEND='ptltest.only=fault_shared_table ptltest.corrupt=fault_shared_table' \
	sh -c "$ROOT/testvm/qemu-run.sh perf-smp2 '$T/runs/perf-smp2' &&
	       $ROOT/testvm/ktap.py --out '$T/results' perf-smp2"
expect_in "$T/out2" "fault_shared_table failed: FAIL round 15 page 1 word 30 corrupt"
exit 0
