#!/bin/sh
# needs: kernels (the built kernels and initramfs; not in make selftest-host)
# The data checks can fail: one byte flipped by the test-only knob
# ptltest.corrupt= turns a test red, naming where; with ptltest.corrupt=all
# every test that verifies data fails, and the others still pass.  The
# huge-page tests, which skip on the perf kernel, are corrupted in the PAE
# cell instead; a test that runs on no kernel of this base (declared in
# testvm/base-differences.txt: uffd_move on 6.1) is not, nor one that runs
# on no i386 kernel (testvm/arch-differences.txt: mremap_pud,
# hugetlb_pmd_share; the x86_64 cells are make matrix's).
. "$(dirname "$0")/lib.sh"

expect_fail "$T/out" boot_perf "ptltest.only=fault_disjoint ptltest.corrupt=fault_disjoint"
expect_in "$T/out" "fault_disjoint failed: FAIL page 4096 (thread 2) word 30 corrupt"
expect_in "$T/out" "1 failed"

expect_fail "$T/out" boot_perf "ptltest.corrupt=all"
# the huge-page tests skip on the perf kernel (no PAE): their turn below
huge=
for t in $(grep -l corrupt_if_asked "$ROOT"/testvm/guest/tests/*.c); do
	t=$(basename "$t" .c)
	if grep -q "^perf-smp2: $t skipped: SKIP i386" "$T/out" &&
	   grep -qE "^${t}[[:space:]]+i386[[:space:]]" "$ROOT/testvm/arch-differences.txt"; then
		continue
	fi
	if grep -q "^perf-smp2: $t skipped: SKIP kernel without" "$T/out"; then
		huge="$huge${huge:+,}$t"
		continue
	fi
	expect_in "$T/out" "perf-smp2: $t failed: FAIL "
done
grep -q "^ptlock_mode  *ok" "$T/out" || { cat "$T/out"; fail "ptlock_mode did not pass"; }
grep -q "^boot_log  *ok" "$T/out" || { cat "$T/out"; fail "boot_log did not pass"; }

# in the PAE cell, where they run: each fails, and not for want of a huge page
[ -n "$huge" ] || fail "no huge-page test skipped on the perf kernel: expected thp_*, hugetlb_*"
expect_fail "$T/out" boot_cell pae-off-smp4 "ptltest.only=$huge ptltest.corrupt=all"
for t in $(echo "$huge" | tr ',' ' '); do
	# a test that cannot run on this base at all, as declared
	if grep -q "^pae-off-smp4: $t skipped: SKIP kernel without" "$T/out" &&
	   grep -qE "^${t}[[:space:]]+${SELFTEST_BASE}[[:space:]]" "$ROOT/testvm/base-differences.txt"; then
		continue
	fi
	expect_in "$T/out" "pae-off-smp4: $t failed: FAIL "
	if grep -q "pae-off-smp4: $t failed: FAIL no huge page" "$T/out"; then
		cat "$T/out"; fail "$t failed before it had a huge page to check"
	fi
done
exit 0
