#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh [-o RUNS] [-l LABEL] [-g LOG] CELL...
#
# Boot each cell with qemu-run.sh, one stage line each ("LABEL CELL", the
# output in $BUILD/logs/LOG-CELL.log), into RUNS/CELL (default
# $BUILD/runs), BOOT_JOBS at a time (default: one per host core; each guest
# is one TCG thread).  Every cell is booted even when one fails; the exit
# status is 1 if any did.  TIMEOUT, APPEND, INITRAMFS, SMP, KERNEL and REUSE
# pass through to qemu-run.sh.  The one loop over cells that make's run,
# report, historical, torture, quick and mm-selftests share, and bench.sh's
# measured boots (one guest at a time).

set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/kernel.sh"

# one cell, run by xargs below
if [ "${1:-}" = --one ]; then
	exec "$here/../lib/stage" "$BOOT_LABEL $2" "$BUILD/logs/$BOOT_LOG-$2.log" \
		"$here/qemu-run.sh" "$2" "$BOOT_RUNS/$2"
fi

BOOT_RUNS=$BUILD/runs
BOOT_LABEL=boot
BOOT_LOG=run
while getopts o:l:g: opt; do
	case $opt in
	o) BOOT_RUNS=$OPTARG ;;
	l) BOOT_LABEL=$OPTARG ;;
	g) BOOT_LOG=$OPTARG ;;
	*) echo "usage: $0 [-o RUNS] [-l LABEL] [-g LOG] CELL..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
jobs=${BOOT_JOBS:-$(nproc)}
case $jobs in
'' | *[!0-9]* | 0) echo "boot: error: BOOT_JOBS=$jobs: a whole number above 0" >&2; exit 2 ;;
esac
export BOOT_RUNS BOOT_LABEL BOOT_LOG BUILD

[ $# -gt 0 ] || exit 0
printf '%s\n' "$@" | xargs -P "$jobs" -n 1 "$0" --one || exit 1
