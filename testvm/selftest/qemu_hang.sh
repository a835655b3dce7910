#!/bin/sh
# needs: kernels (the built kernels and initramfs; not in make selftest-host)
# A guest that never powers off is killed at the bound, reported as a hang
# with its last console lines, and no QEMU is left behind.
. "$(dirname "$0")/lib.sh"

start=$(date +%s)
expect_fail "$T/out" env TIMEOUT=10 APPEND="rdinit=/bin/idle" KERNEL="$(cell_kernel perf-smp2)" \
	"$ROOT/testvm/qemu-run.sh" perf-smp2 "$T/run"
took=$(($(date +%s) - start))
expect_in "$T/out" "did not finish within 10s (hang)"
expect_in "$T/out" "last console lines"
expect_in "$T/out" "idle: sleeping"
[ $took -le 20 ] || fail "took ${took}s for a 10s bound"
pgrep -f "qemu-system-i386.*$T/run" >/dev/null && fail "QEMU still running"
exit 0
