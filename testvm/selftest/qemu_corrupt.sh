#!/bin/sh
# The data checks can fail: one byte flipped by the test-only knob
# ptltest.corrupt= turns a test red, naming where; with ptltest.corrupt=all
# every test that verifies data fails, and the others still pass.
. "$(dirname "$0")/lib.sh"

kernel=$BUILD/kernel/perf/arch/x86/boot/bzImage
initramfs=$BUILD/initramfs.cpio

boot() {	# APPEND: one perf boot into $T, then its verdicts
	BUILD=$T TIMEOUT=300 KERNEL=$kernel INITRAMFS=$initramfs APPEND="$1" \
		"$ROOT/testvm/qemu-run.sh" perf-smp2 "$T/runs/perf-smp2" &&
	BUILD=$T "$ROOT/testvm/ktap.py" --out "$T/results" perf-smp2
}

expect_fail "$T/out" boot "ptltest.only=fault_disjoint ptltest.corrupt=fault_disjoint"
expect_in "$T/out" "fault_disjoint failed: FAIL page 4096 (thread 2) word 30 corrupt"
expect_in "$T/out" "1 failed"

expect_fail "$T/out" boot "ptltest.corrupt=all"
for t in $(grep -l corrupt_if_asked "$ROOT"/testvm/guest/*.c); do
	expect_in "$T/out" "perf-smp2: $(basename "$t" .c) failed: FAIL "
done
grep -q "^ptlock_mode  *ok" "$T/out" || { cat "$T/out"; fail "ptlock_mode did not pass"; }
grep -q "^boot_log  *ok" "$T/out" || { cat "$T/out"; fail "boot_log did not pass"; }
exit 0
