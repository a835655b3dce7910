#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh [-o RUNS] [-l LABEL] [-g LOG] CELL...
#
# Boot each cell with qemu-run.sh, one stage line each ("LABEL CELL", the
# output in $BUILD/logs/LOG-CELL.log), into RUNS/CELL (default
# $BUILD/runs).  Every cell is booted even when one fails; the exit status
# is 1 if any did.  TIMEOUT, APPEND, INITRAMFS, SMP, KERNEL pass through to
# qemu-run.sh.  The one loop over cells that make's run, report, historical,
# torture, quick and mm-selftests share.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$here/../build}
runs=$BUILD/runs
label=boot
log=run
while getopts o:l:g: opt; do
	case $opt in
	o) runs=$OPTARG ;;
	l) label=$OPTARG ;;
	g) log=$OPTARG ;;
	*) echo "usage: $0 [-o RUNS] [-l LABEL] [-g LOG] CELL..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

rc=0
for c; do
	"$here/../lib/stage" "$label $c" "$BUILD/logs/$log-$c.log" \
		"$here/qemu-run.sh" "$c" "$runs/$c" || rc=1
done
exit $rc
