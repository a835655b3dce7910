#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# qemu-run.sh CELL [OUTDIR]
#
# Boot one cell of the matrix (testvm/cell.py reads it from testvm/cells/):
# it names the kernel (a build under $BUILD/kernel; historical,
# historical-before, historical-off are the 2.6.14 ones 'make historical'
# builds; or a bzImage path), vCPUs (SMP;
# MAXCPUS lists more, hot-pluggable, slots to the firmware), memory, CPU
# model, swap disk size and extra kernel arguments.  QEMU runs under TCG
# (/dev/kvm here cannot run an ordinary guest) with a fresh raw swap disk,
# under a hard time bound; the serial console goes to OUTDIR/console.log
# (default $BUILD/runs/CELL).
#
# Exit status: 0 when the runner reported it finished (ktap.py --finished;
# the verdicts are parse's business), 1 on a hang, a panic or any other
# early end - with the last console lines shown.
#
# The run describes itself: OUTDIR/cell (the cell file as booted), kernel
# (the bzImage), cmdline, console.log, qemu.rc.  A historical cell whose
# 2.6.14 (or 2.6.15) kernel was never built is not booted: OUTDIR/skip says why, the
# exit status is 0, and ktap.py reports the cell SKIP.
#
#   TIMEOUT    seconds before the guest is killed (default 600)
#   INITRAMFS  default $BUILD/initramfs.cpio: the i386 programs
#   INITRAMFS_X86_64  default $BUILD/initramfs-x86_64.cpio: the same built
#              for x86_64, which a cell whose kernel is x86_64 boots
#              (arch_of_kernel) with qemu-system-x86_64
#   KERNEL, APPEND, SWAP_MB, SMP override the cell's values (APPEND adds to
#              the cell's arguments).
#   TCG_THREAD single (default) or multi: one host thread per vCPU
#   ICOUNT     1: QEMU counts instructions (-icount shift=0,sleep=off), so
#              the guest's clocks advance 1 ns per guest instruction executed
#              (an idle guest's jump at once to its next timer): a time
#              measured in a busy guest is an instruction count, whatever the
#              host's load (single-threaded TCG; make bench's icount part)
#   BOOT_SET   check (make check sets it): a cell with CHECK_ONLY runs
#              those tests alone (ptltest.only=)
#   REUSE      1: do not boot again when OUTDIR holds a finished run with no
#              "not ok" line, of the same kernel image, initramfs, cell as
#              booted, command line, TIMEOUT and this script (OUTDIR/key);
#              say so instead ('make check' asks for it; RERUN=1 there boots
#              every cell again)

set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/kernel.sh"
. "$here/../modern/base.sh"
INITRAMFS=${INITRAMFS:-$BUILD/initramfs.cpio}
INITRAMFS_X86_64=${INITRAMFS_X86_64:-$BUILD/initramfs-x86_64.cpio}
TIMEOUT=${TIMEOUT:-600}	# make help reads the default here

die() {
	echo "qemu-run: error: $*" >&2
	exit 1
}

[ $# -ge 1 ] || die "usage: $0 CELL [OUTDIR]"
cell=$1
out=${2:-$BUILD/runs/$cell}

# a cell is data (KEY=value lines), not shell: cell.py reads and checks it
# (a missing cell too)
vals=$("$here/cell.py" sh "$cell") || exit 1
CELL_MAXCPUS=''
CELL_MATRIX=''
CELL_CHECK_ONLY=''
eval "$vals"
KERNEL=${KERNEL:-$CELL_KERNEL}
APPEND="$CELL_APPEND${APPEND:+ $APPEND}"
if [ "${BOOT_SET:-}" = check ] && [ -n "$CELL_CHECK_ONLY" ]; then
	APPEND="$APPEND ptltest.only=$CELL_CHECK_ONLY"
fi
SWAP_MB=${SWAP_MB:-$CELL_SWAP_MB}
SMP=${SMP:-$CELL_SMP}
# MAXCPUS: CPU slots the firmware lists beyond SMP, as hot-pluggable
MAXCPUS=${CELL_MAXCPUS:-$SMP}
MEM=$CELL_MEM
CPU=$CELL_CPU

kernel=$(kernel_image "$KERNEL")
# a bzImage path (mutant.sh's) is of the arch of the cell's own kernel
case $KERNEL in
*/*) arch=$(arch_of_kernel "$CELL_KERNEL") ;;
*) arch=$(arch_of_kernel "$KERNEL") ;;
esac
[ "$arch" = i386 ] || INITRAMFS=$INITRAMFS_X86_64
mkdir -p "$out"
# the cell as booted: its comments, with what the environment overrode
{
	"$here/cell.py" comments "$cell"
	printf 'KERNEL=%s\nSMP=%s\nMAXCPUS=%s\nMEM=%s\nCPU=%s\nSWAP_MB=%s\nAPPEND=%s\n' \
		"$KERNEL" "$SMP" "$MAXCPUS" "$MEM" "$CPU" "$SWAP_MB" "$APPEND"
	[ -z "$CELL_MATRIX" ] || echo "MATRIX=$CELL_MATRIX"
	[ "${ICOUNT:-0}" != 1 ] || echo "ICOUNT=1"
} >"$out/cell"
echo "$kernel" >"$out/kernel"
if [ ! -f "$kernel" ]; then
	case $KERNEL in
	historical*)
		rm -f "$out/console.log" "$out/cmdline"
		echo "no $(base_of_kernel "$KERNEL") kernel: $("$here/../historical/build.sh" hint "$KERNEL")" >"$out/skip"
		echo "note: $cell: SKIP ($(cat "$out/skip"))"
		exit 0 ;;
	esac
	if why=$(base_unavailable "$(base_of_kernel "$KERNEL")"); then
		rm -f "$out/console.log" "$out/cmdline"
		echo "no $(base_of_kernel "$KERNEL") kernel: base left out ($why)" >"$out/skip"
		echo "note: $cell: SKIP ($(cat "$out/skip"))"
		exit 0
	fi
	die "no kernel image $kernel (make kernels)"
fi
[ -f "$INITRAMFS" ] || die "no initramfs $INITRAMFS (make guest)"
command -v "qemu-system-$arch" >/dev/null || die "qemu-system-$arch not found (apt-get install qemu-system-x86)"

# what decides this run's outcome, short of the races it tests
key=$({ sha256sum "$kernel" "$INITRAMFS" "$0"; cat "$out/cell";
	echo "$kernel $APPEND $TIMEOUT"; } | sha256sum | cut -c1-16)
if [ "${REUSE:-0}" = 1 ] && [ "$(cat "$out/key" 2>/dev/null)" = "$key" ] &&
   "$here/ktap.py" --finished "$out/console.log" &&
   ! grep -q '^not ok' "$out/console.log"; then
	echo "note: $cell: not booted again: its last run ($(date -r "$out/console.log" +%H:%M)) had this kernel, initramfs and cell, and no failure (RERUN=1 boots it)"
	exit 0
fi
# a skip marker from a run without this kernel is stale now
rm -f "$out/console.log" "$out/swap.img" "$out/skip" "$out/key"
if [ "$SWAP_MB" -gt 0 ]; then
	truncate -s "${SWAP_MB}M" "$out/swap.img"
	disk="-drive file=$out/swap.img,format=raw,if=ide,index=0,media=disk"
else
	disk=
fi
# One host thread for all vCPUs unless TCG_THREAD=multi asks for one each
# (and there are host cores for them).  Multi-threaded TCG (QEMU 7.2) resets
# an i386 guest now and then when the kernel patches its code while other
# vCPUs run (jump labels, text_poke_bp): 7 of 40 boots of stock-debug at 2
# vCPUs ended silently right after "sched_clock: Marking stable", 0 of 40
# without CONFIG_JUMP_LABEL, 0 of 30 single-threaded.  Tests want boots
# that end by themselves; make bench asks for multi, and retries.
tcg=single
if [ "${TCG_THREAD:-single}" = multi ] && [ "$SMP" -le "$(nproc)" ]; then
	tcg=multi
fi

icount=
if [ "${ICOUNT:-0}" = 1 ]; then
	tcg=single
	icount="-icount shift=0,sleep=off"
fi

echo "$kernel $APPEND" >"$out/cmdline"
set +e
# shellcheck disable=SC2086
timeout -k 5 "$TIMEOUT" "qemu-system-$arch" -M pc -accel tcg,thread=$tcg \
	$icount -cpu "$CPU" -smp "$SMP,sockets=$MAXCPUS,maxcpus=$MAXCPUS" -m "$MEM" \
	-display none -monitor none -serial "file:$out/console.log" \
	-no-reboot -kernel "$kernel" -initrd "$INITRAMFS" $disk \
	-append "console=ttyS0 panic=-1 $APPEND" \
	</dev/null >"$out/qemu.log" 2>&1
rc=$?
set -e
rm -f "$out/swap.img"
echo "$rc" >"$out/qemu.rc"

last() {
	echo "---- last console lines ($out/console.log) ----" >&2
	tail -n 15 "$out/console.log" >&2 || true
	[ ! -s "$out/qemu.log" ] || { echo "---- qemu ----" >&2; tail -n 5 "$out/qemu.log" >&2; }
}

if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	last
	die "$cell: guest did not finish within ${TIMEOUT}s (hang): killed"
fi
if grep -q "Kernel panic" "$out/console.log" 2>/dev/null; then
	last
	die "$cell: kernel panic: $(grep -m1 "Kernel panic" "$out/console.log")"
fi
if [ $rc -ne 0 ]; then
	last
	die "$cell: qemu exited with status $rc"
fi
if ! "$here/ktap.py" --finished "$out/console.log"; then
	last
	[ "$tcg" = single ] ||
		echo "(multi-threaded TCG: a silent reset may be QEMU's, see TCG_THREAD)" >&2
	die "$cell: the guest ended before the test runner finished"
fi
echo "$key" >"$out/key"
echo "$cell: finished in the guest ($kernel)"
