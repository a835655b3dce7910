#!/bin/sh
# needs: kernels (the built kernels and initramfs; not in make selftest-host)
# A kernel panic in the guest is a failure that quotes the panic.
. "$(dirname "$0")/lib.sh"

# pid 1 exiting panics the kernel ("Attempted to kill init!")
expect_fail "$T/out" env TIMEOUT=120 APPEND="rdinit=/bin/fault_shared_table" KERNEL="$(cell_kernel perf-smp2)" \
	"$ROOT/testvm/qemu-run.sh" perf-smp2 "$T/run"
expect_in "$T/out" "kernel panic: "
expect_in "$T/out" "Attempted to kill init"
exit 0
