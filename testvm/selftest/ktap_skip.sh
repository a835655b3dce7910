#!/bin/sh
# A cell that was not booted (a "skip" marker in its run directory) is
# reported SKIP and counted once as skipped, never as passed, whatever a
# stale console says; 'make run' marks the historical cell so while there is
# no 2.6.14 kernel, and boots it (dropping the marker) once there is one.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/runs/debug-on-smp4" "$T/runs/historical-smp4"
echo "kernel" >"$T/runs/debug-on-smp4/cmdline"
printf 'KTAP version 1\n1..2\nok 1 boot_log\nok 2 fault_disjoint\n# ptltest: done\n' \
	>"$T/runs/debug-on-smp4/console.log"
cp "$T/runs/debug-on-smp4/"* "$T/runs/historical-smp4/"	# stale, passing
echo "no 2.6.14 kernel: because" >"$T/runs/historical-smp4/skip"
BUILD=$T "$ROOT/testvm/ktap.py" --out "$T/r" debug-on-smp4 historical-smp4 >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "a skipped cell failed the run"; }
expect_in "$T/out" "historical-smp4: skipped: no 2.6.14 kernel: because"
expect_in "$T/out" "guest: 2 passed, 0 failed, 1 skipped"
grep -q '^(cell) *ok *SKIP' "$T/out" || { cat "$T/out"; fail "no SKIP in the (cell) row"; }
python3 - "$T/r" <<'PY' || fail "JSON of the skipped cell"
import json, sys
r = json.load(open(sys.argv[1] + "/historical-smp4.json"))
s = json.load(open(sys.argv[1] + "/summary.json"))
b = json.load(open(sys.argv[1] + "/debug-on-smp4.json"))
assert r["skip"] == "no 2.6.14 kernel: because", r["skip"]
assert r["tests"] == {} and r["errors"] == [], r
assert b["skip"] is None
assert (s["passed"], s["failed"], s["skipped"]) == (2, 0, 1), s
PY

# make run without a 2.6.14 kernel: the marker and SKIP, no boot
mk() {
	make -s -C "$ROOT" -o kernels -o guest run CELLS=historical-smp4 BUILD="$T/b" TIMEOUT=30
}
mk >"$T/out" 2>&1 || { cat "$T/out"; fail "make run failed on the skipped cell"; }
expect_in "$T/out" "note: historical-smp4: SKIP (no 2.6.14 kernel: make historical HISTORICAL_SRC="
expect_in "$T/out" "guest: 0 passed, 0 failed, 1 skipped"
[ -f "$T/b/runs/historical-smp4/skip" ] || fail "no skip marker"
expect_in "$T/b/runs/historical-smp4/cell" "KERNEL=historical"
[ ! -e "$T/b/runs/historical-smp4/console.log" ] || fail "the historical cell was booted"

# with one (here not a kernel): booted, the marker gone, not a skip
mkdir -p "$T/b/kernel/historical/arch/i386/boot"
echo "not a kernel" >"$T/b/kernel/historical/arch/i386/boot/bzImage"
touch "$T/b/initramfs.cpio"
expect_fail "$T/out" mk
expect_in "$T/out" "boot historical-smp4"
expect_in "$T/b/runs/historical-smp4/cmdline" "$T/b/kernel/historical/arch/i386/boot/bzImage"
[ ! -e "$T/b/runs/historical-smp4/skip" ] || fail "stale skip marker kept after a boot"
expect_in "$T/out" "guest: 0 passed, 3 failed, 0 skipped"
exit 0
