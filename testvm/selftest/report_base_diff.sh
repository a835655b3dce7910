#!/bin/sh
# the bases side by side: a test ok on 6.12 and SKIP on 6.1 in cells of one
# mode passes when testvm/base-differences.txt declares it, and is a
# difference (the report fails) when it does not; the same across arches
# (6.1 x86_64 against i386 PAE, testvm/arch-differences.txt)
. "$(dirname "$0")/lib.sh"

# console CELL TEST VERDICT
console() {
	mkdir -p "$T/runs/$1"
	echo "/boot/bzImage split_ptlocks=on" >"$T/runs/$1/cmdline"
	if [ "$3" = ok ]; then
		r="ok 2 $2"
	else
		r="ok 2 $2 # SKIP kernel without it"
	fi
	printf 'KTAP version 1\n1..2\nok 1 boot_log\n%s\n# ptltest: done\n' "$r" \
		>"$T/runs/$1/console.log"
}

report() {
	BUILD=$T "$ROOT/testvm/ktap.py" --out "$T/results" pae-on-smp4 6.12-pae-on-smp4 $ARCH_CELLS \
		>"$T/ktap.out" 2>&1 || { cat "$T/ktap.out"; fail "ktap.py failed"; }
	BUILD=$T "$ROOT/testvm/report.py" >"$T/out" 2>&1
}

console pae-on-smp4 uffd_move skip
console 6.12-pae-on-smp4 uffd_move ok
report || { cat "$T/out"; fail "a declared difference failed the report"; }
expect_in "$T/report/report.md" "| uffd_move | SKIP | ok |"
expect_in "$T/report/report.md" "- uffd_move on 6.1: UFFDIO_MOVE came in 6.8"

console pae-on-smp4 thp_split skip
console 6.12-pae-on-smp4 thp_split ok
if report; then cat "$T/out"; fail "an undeclared difference between bases passed"; fi
expect_in "$T/out" "report: thp_split differs: base: 6.1 SKIP, 6.12 ok"
expect_in "$T/report/report.md" "**thp_split**: SKIP on one base, ok on another, in on PAE cells"

# an x86_64 cell of 6.1 in on mode: its own column, compared with i386's
# on cells of 6.1 (pae-on-smp4 here) through arch-differences.txt
console pae-on-smp4 thp_split ok
console 6.12-pae-on-smp4 thp_split ok
ARCH_CELLS=x86_64-on-smp4
console x86_64-on-smp4 mremap_pud ok
console pae-on-smp4 mremap_pud skip
console 6.12-pae-on-smp4 mremap_pud skip
mkdir -p "$T/kernel/debug-x86_64" # not booted: the arch comes from the name
report || { cat "$T/out"; fail "a declared arch difference failed the report"; }
expect_in "$T/report/report.md" "- mremap_pud on i386: two or three levels"
console x86_64-on-smp4 thp_split ok
console pae-on-smp4 thp_split skip
console 6.12-pae-on-smp4 thp_split skip
if report; then cat "$T/out"; fail "an undeclared difference between arches passed"; fi
expect_in "$T/out" "report: thp_split differs: arch: i386 SKIP, x86_64 ok"
exit 0
