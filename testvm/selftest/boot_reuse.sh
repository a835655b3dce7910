#!/bin/sh
# needs: kernels (the built kernels and initramfs; not in make selftest-host)
# testvm/boot.sh boots its cells BOOT_JOBS at a time, each with its own stage
# line and run directory; with REUSE=1 (make check) a cell whose last run
# finished with no failure, with the same kernel, initramfs, cell and
# arguments, is not booted again and says so; other arguments, a failed last
# run or REUSE=0 boot it again.  With BOOT_SET=check (make check) a cell
# with CHECK_ONLY runs those tests alone, and without it all of them.
. "$(dirname "$0")/lib.sh"

K=$(cell_kernel perf-smp2)
boot() {
	env BUILD="$T" KERNEL="$K" INITRAMFS="$ROOT/build/initramfs.cpio" \
		APPEND="ptltest.only=ptlock_mode${1:+ $1}" BOOT_JOBS=2 REUSE="${2:-1}" \
		"$ROOT/testvm/boot.sh" -o "$T/runs" -l t -g t perf-smp2 debug-on-smp1 >"$T/out" 2>&1 ||
		{ cat "$T/out"; fail "boot.sh failed"; }
}
[ -f "$ROOT/build/initramfs.cpio" ] || fail "no build/initramfs.cpio (make guest)"
boot
for c in perf-smp2 debug-on-smp1; do
	expect_in "$T/out" "t $c"
	grep -q '^ok [0-9]* ptlock_mode' "$T/runs/$c/console.log" || fail "$c: no ptlock_mode result"
	[ -s "$T/runs/$c/key" ] || fail "$c: no key written"
done
[ "$(grep -c ' ok ' "$T/out")" = 2 ] || { cat "$T/out"; fail "not two stage lines"; }
boot
expect_in "$T/out" "perf-smp2: not booted again"
expect_in "$T/out" "debug-on-smp1: not booted again"
stamp=$(stat -c %Y "$T/runs/perf-smp2/console.log")
boot "ptltest.x=1"
grep -q "not booted again" "$T/out" && { cat "$T/out"; fail "booted with other arguments"; }
boot "ptltest.x=1" 0
grep -q "not booted again" "$T/out" && { cat "$T/out"; fail "REUSE=0 reused"; }
# a failed last run is booted again
boot
sed -i 's/^ok \([0-9]*\) ptlock_mode/not ok \1 ptlock_mode/' "$T/runs/perf-smp2/console.log"
boot
grep -q "perf-smp2: not booted again" "$T/out" && { cat "$T/out"; fail "a failed run was reused"; }
expect_in "$T/out" "debug-on-smp1: not booted again"
[ "$(stat -c %Y "$T/runs/perf-smp2/console.log")" -ge "$stamp" ] || fail "console not rewritten"
# CHECK_ONLY: its tests alone under BOOT_SET=check (the perf kernel for speed)
only=$("$ROOT/testvm/cell.py" get debug-auto-smp1 CHECK_ONLY)
[ -n "$only" ] || fail "debug-auto-smp1 has no CHECK_ONLY"
env BUILD="$T" KERNEL="$K" INITRAMFS="$ROOT/build/initramfs.cpio" BOOT_SET=check \
	"$ROOT/testvm/qemu-run.sh" debug-auto-smp1 "$T/runs/only" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "BOOT_SET=check boot failed"; }
grep -q "ptltest.only=$only" "$T/runs/only/cmdline" || { cat "$T/runs/only/cmdline"; fail "no ptltest.only=$only on the command line"; }
ran=$(tr -d '\r' <"$T/runs/only/console.log" | grep -E '^(not )?ok [0-9]+ ' | grep -v kunit | awk '{ print $3 }' | sort | tr '\n' ',' | sed 's/,$//')
[ "$ran" = "$(echo "$only" | tr ',' '\n' | sort | tr '\n' ',' | sed 's/,$//')" ] ||
	{ cat "$T/runs/only/console.log"; fail "ran $ran, not $only"; }
expect_fail "$T/out" env BOOT_JOBS=x "$ROOT/testvm/boot.sh" perf-smp2
expect_in "$T/out" "BOOT_JOBS=x: a whole number above 0"
exit 0
