#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - page-fault scalability and the cost of the switch.
# A benchmark, not a test: it reports numbers.  Three parts, each booting
# the cell perf-smp2 (2 vCPUs) with ptltest.bench=bench_faults, one boot per
# round, kind and mode, the modes interleaved (on, off, on, off, ...) so that
# a drift of the host hits both alike; a boot measures every thread count.
#
#   scaling     perf kernel, split_ptlocks=on vs off: BENCH_KINDS at
#               BENCH_THREADS, BENCH_ROUNDS rounds
#   contention  debug kernel (lock_stat), on vs off: lameter at 2 threads,
#               BENCH_LOCK_ROUNDS rounds; contentions and wait time of
#               &mm->page_table_lock and of the ptlock class
#   cost        stock (stock-perf) vs patched split_ptlocks=on, T=1,
#               BENCH_COST_KINDS, BENCH_COST_ROUNDS rounds
#   huge        the split pmd lock: perf-pae kernel in the PAE cell with 2
#               vCPUs, on vs off, kind thp (huge pages first-touched by each
#               thread in its own pmd table) at BENCH_THREADS,
#               BENCH_HUGE_ROUNDS rounds
#   hugelock    debug-pae kernel (lock_stat), on vs off: thp at 2 threads,
#               BENCH_LOCK_ROUNDS rounds; the same lock figures as contention
#   icount      the cost in instructions: QEMU's -icount shift=0 (ICOUNT=1
#               of qemu-run.sh), one vCPU, so that a fault's time in the
#               guest is the instructions it took, whatever the host does.
#               Stock, split=on and split=off, for each arch of
#               BENCH_ICOUNT_ARCHES (i386 pae x86_64: the perf kernels
#               PERF_KERNEL[-pae|-x86_64] and STOCK_KERNEL[-pae|-x86_64], in
#               the cells perf-smp2, pae-on-smp4, x86_64-on-smp4), T=1,
#               every kind of BENCH_ICOUNT_KINDS in one boot,
#               BENCH_ICOUNT_ROUNDS rounds (default 2: the repeatability)
#   lockscale   the scaling lockdep makes visible: the debug kernel
#               (lock_stat) and the perf one beside it, of the arch
#               BENCH_LOCKSCALE_ARCH (pae: debug-pae, perf-pae in the PAE
#               cell; x86_64) with BENCH_LOCKSCALE_VCPUS vCPUs, on vs off,
#               BENCH_LOCKSCALE_KINDS at BENCH_LOCKSCALE_THREADS,
#               BENCH_LOCK_ROUNDS rounds; lock_stat's wait and hold times
#               feed bench.py's model of the gain
#   ptlmem      the memory of the locks: kind=tables (bench_faults.c) in
#               stock, on and off, perf and debug kernels, each arch of
#               BENCH_PTLMEM_ARCHES, booted with slub_nomerge
#
# Consoles go to BENCH_OUT/runs/PART-ROUND-MODE-KIND/CELL (testvm/boot.sh,
# one guest at a time); testvm/bench.py writes
# the medians, spreads and goal ratios to BENCH_OUT/bench.{md,json,png}.
#
#   BENCH_BASE         6.1 (default) or 6.12: the kernels are that base's
#                      (6.12-perf, ...; modern/base.sh)
#   BENCH_OUT          default $BUILD/report, $BUILD/report/6.12 for 6.12
#   BENCH_MS           milliseconds per measurement (default 5000)
#   BENCH_ROUNDS       default 5;  BENCH_KINDS default "pf1 pf2 pf3 lameter"
#   BENCH_THREADS      default 1,2 (the vCPUs)
#   BENCH_LOCK_ROUNDS  default 3;  BENCH_COST_ROUNDS default 9
#   BENCH_COST_KINDS   default pf1
#   BENCH_HUGE_ROUNDS  default 3
#   BENCH_PARTS        default "scaling contention cost huge hugelock icount
#                      ptlmem lockscale"
#   BENCH_ICOUNT_KINDS default pf1,pf2,pf3,lameter;  BENCH_ICOUNT_MS 300 (of
#                      guest time: 3e8 instructions a kind)
#   BENCH_ICOUNT_ROUNDS default 2;  BENCH_ICOUNT_ARCHES default "i386 pae x86_64"
#   BENCH_ICOUNT_MODES default "stock on off"
#   BENCH_PTLMEM_ARCHES default "i386 pae x86_64"
#   BENCH_LOCKSCALE_KINDS default "lameter shared";  BENCH_LOCKSCALE_THREADS
#                      default 1,2,4;  BENCH_LOCKSCALE_VCPUS default 2
#   BENCH_LOCKSCALE_KERNELS default "debug perf" (DEBUG_PAE_KERNEL,
#                      PERF_PAE_KERNEL on pae);  BENCH_LOCKSCALE_ARCH pae
#   BENCH_PTLMEM_FLAVOURS default "perf debug"
#   BENCH_TCG          multi (default: a host thread per vCPU) or single
#   BENCH_CELL         the cell of every part but the huge ones (perf-smp2)
#   PERF_KERNEL, DEBUG_KERNEL, STOCK_KERNEL, PERF_PAE_KERNEL, DEBUG_PAE_KERNEL,
#   STOCK_DEBUG_KERNEL names under $BUILD/kernel or bzImage paths (default
#                      perf, debug, stock-perf, perf-pae, debug-pae,
#                      stock-debug); icount and ptlmem add -pae or -x86_64
#                      to the names of the perf, debug and stock ones
#
# Under TCG the figures measure the emulated machine on this host: compare
# the modes with each other, not with hardware, and on an otherwise idle host.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/kernel.sh"
. "$here/../modern/base.sh"
(base_check "${BENCH_BASE:-$BASE_FIRST}") 2>/dev/null ||
	{ echo "bench: error: BENCH_BASE: '${BENCH_BASE:-}' (one of: $BASES)" >&2; exit 1; }
base_set "${BENCH_BASE:-$BASE_FIRST}"
out=${BENCH_OUT:-$REPORT}
PERF_KERNEL=${PERF_KERNEL:-${PRE}perf}
DEBUG_KERNEL=${DEBUG_KERNEL:-${PRE}debug}
STOCK_KERNEL=${STOCK_KERNEL:-${PRE}stock-perf}
PERF_PAE_KERNEL=${PERF_PAE_KERNEL:-${PRE}perf-pae}
DEBUG_PAE_KERNEL=${DEBUG_PAE_KERNEL:-${PRE}debug-pae}
STOCK_DEBUG_KERNEL=${STOCK_DEBUG_KERNEL:-${PRE}stock-debug}
MS=${BENCH_MS:-5000}
THREADS=${BENCH_THREADS:-1,2}
PARTS=${BENCH_PARTS:-scaling contention cost huge hugelock icount ptlmem lockscale}
LOCKSCALE_KINDS=${BENCH_LOCKSCALE_KINDS:-lameter shared}
LOCKSCALE_THREADS=${BENCH_LOCKSCALE_THREADS:-1,2,4}
LOCKSCALE_VCPUS=${BENCH_LOCKSCALE_VCPUS:-2}
LOCKSCALE_KERNELS=${BENCH_LOCKSCALE_KERNELS:-debug perf}
LOCKSCALE_ARCH=${BENCH_LOCKSCALE_ARCH:-pae}
ICOUNT_KINDS=${BENCH_ICOUNT_KINDS:-pf1,pf2,pf3,lameter}
ICOUNT_MS=${BENCH_ICOUNT_MS:-300}
ICOUNT_ARCHES=${BENCH_ICOUNT_ARCHES:-i386 pae x86_64}
ICOUNT_MODES=${BENCH_ICOUNT_MODES:-stock on off}
PTLMEM_ARCHES=${BENCH_PTLMEM_ARCHES:-i386 pae x86_64}
PTLMEM_FLAVOURS=${BENCH_PTLMEM_FLAVOURS:-perf debug}
TCG=${BENCH_TCG:-multi}
CELL=${BENCH_CELL:-perf-smp2}
PAE_CELL=pae-on-smp4	# its memory and CPU; booted with 2 vCPUs
runs=$out/runs

die() {
	echo "bench: error: $*" >&2
	exit 1
}


# arch_cell ARCH, arch_sfx ARCH: an arch's cell, and its kernels' suffix
arch_cell() {
	case $1 in
	i386) echo "$CELL" ;;
	pae) echo "$PAE_CELL" ;;
	x86_64) echo x86_64-on-smp4 ;;
	*) die "BENCH_*_ARCHES, BENCH_LOCKSCALE_ARCH: unknown arch '$1' (i386 pae x86_64)" ;;
	esac
}
arch_sfx() {
	arch_cell "$1" >/dev/null
	[ "$1" = i386 ] || echo "-$1"
}

# flavour_kernels perf|debug ARCH: that flavour's stock and patched kernel
flavour_kernels() {
	sfx=$(arch_sfx "$2")
	case $1 in
	perf) echo "$STOCK_KERNEL$sfx $PERF_KERNEL$sfx" ;;
	debug) echo "$STOCK_DEBUG_KERNEL$sfx $DEBUG_KERNEL$sfx" ;;
	*) die "BENCH_PTLMEM_FLAVOURS: '$1' (perf debug)" ;;
	esac
}

# mode_kernel stock|on|off ARCH: icount's perf kernel for that mode
mode_kernel() {
	case $1 in
	stock) echo "$STOCK_KERNEL$(arch_sfx "$2")" ;;
	on|off) echo "$PERF_KERNEL$(arch_sfx "$2")" ;;
	*) die "BENCH_ICOUNT_MODES: '$1' (stock on off)" ;;
	esac
}

# scale_kernel debug|perf: lockscale's kernel of that flavour and its arch
scale_kernel() {
	case $1-$LOCKSCALE_ARCH in
	debug-pae) echo "$DEBUG_PAE_KERNEL" ;;
	perf-pae) echo "$PERF_PAE_KERNEL" ;;
	debug-*) echo "$DEBUG_KERNEL$(arch_sfx "$LOCKSCALE_ARCH")" ;;
	perf-*) echo "$PERF_KERNEL$(arch_sfx "$LOCKSCALE_ARCH")" ;;
	*) die "BENCH_LOCKSCALE_KERNELS: '$1' (debug perf)" ;;
	esac
}

case $TCG in single|multi) ;; *) die "BENCH_TCG: '$TCG' (single or multi)" ;; esac
for a in $ICOUNT_ARCHES $PTLMEM_ARCHES $LOCKSCALE_ARCH; do
	arch_cell "$a" >/dev/null	# an unknown arch stops here, once
done
command -v gnuplot >/dev/null || die "gnuplot not found (apt-get install gnuplot-nox)"
for part in $PARTS; do
	case $part in
	scaling) ks=$PERF_KERNEL ;;
	contention) ks=$DEBUG_KERNEL ;;
	cost) ks="$PERF_KERNEL $STOCK_KERNEL" ;;
	huge) ks=$PERF_PAE_KERNEL ;;
	hugelock) ks=$DEBUG_PAE_KERNEL ;;
	icount)
		ks=
		for a in $ICOUNT_ARCHES; do
			for m in $ICOUNT_MODES; do
				ks="$ks $(mode_kernel "$m" "$a")"
			done
		done ;;
	ptlmem)
		ks=
		for a in $PTLMEM_ARCHES; do
			for f in $PTLMEM_FLAVOURS; do
				ks="$ks $(flavour_kernels "$f" "$a")"
			done
		done ;;
	lockscale)
		ks=
		for f in $LOCKSCALE_KERNELS; do
			ks="$ks $(scale_kernel "$f")"
		done ;;
	*) die "BENCH_PARTS: unknown part '$part' (scaling contention cost huge hugelock icount ptlmem lockscale)" ;;
	esac
	for k in $ks; do
		[ -f "$(kernel_image "$k")" ] || die "no kernel $(kernel_image "$k") (make kernel-$k)"
	done
done
rm -rf "$runs" "$out/resets.txt"
mkdir -p "$runs"
{
	echo "base=$BASE"
	echo "host_cores=$(nproc)"
	echo "qemu=$(qemu-system-i386 --version | head -n 1)"
	echo "guest_mem_mib=$("$here/cell.py" get "$CELL" MEM)"
	echo "guest_vcpus=$("$here/cell.py" get "$CELL" SMP)"
	echo "ms=$MS"
	echo "lockscale_vcpus=$LOCKSCALE_VCPUS"
	echo "lockscale_arch=$LOCKSCALE_ARCH"
	echo "icount_ms=$ICOUNT_MS"
	echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/host.txt"

# tcg_glitch LOG CONSOLE: the boot ended by multi-threaded TCG while the
# kernel patched its code, before the runner started: a silent reset (no
# bad kernel line), or an int3 oops from text_poke_bp()
tcg_glitch() {
	if grep -q "the guest ended before the test runner" "$1"; then
		! grep -v "^#" "$here/klog-bad.txt" | grep -q -F -f - "$2"
	else
		grep -q "Oops: int3" "$2" && ! grep -q "^KTAP version" "$2"
	fi
}

# boot PART ROUND MODE KIND KERNEL THREADS: one measured boot; MODE is on,
# off or stock (no split_ptlocks= at all: a kernel without the series).
# The huge parts boot the PAE cell with 2 vCPUs; its own split_ptlocks= is
# overridden by the one given after it.  For icount KIND is the arch (the
# kinds are ICOUNT_KINDS), for ptlmem FLAVOUR_ARCH (the kind is tables).
boot() {
	dir=$runs/$1-$2-$3-$4
	arg="split_ptlocks=$3"
	[ "$3" != stock ] || arg=
	cell=$CELL smp='' kinds=$4 ms=$MS icount=0 timeout=$((120 + MS * 3 / 100))
	case $1 in
	huge*) cell=$PAE_CELL smp=2 arg="$arg ptltest.thp=1" ;;
	icount) cell=$(arch_cell "$4") smp=1 kinds=$ICOUNT_KINDS ms=$ICOUNT_MS icount=1 timeout=900 ;;
	ptlmem) cell=$(arch_cell "${4#*_}") smp=1 kinds=tables arg="$arg slub_nomerge" ;;
	lockscale) cell=$(arch_cell "$LOCKSCALE_ARCH") smp=$LOCKSCALE_VCPUS kinds=${4#*_} ;;
	esac
	t0=$(date +%s)
	# vCPUs in parallel (one host thread each) for the threads to contend;
	# that TCG resets a guest now and then while the kernel patches its
	# jump labels (qemu-run.sh; the debug kernel in 4 of 10 boots), and on
	# 6.12 the same race can end in "Oops: int3" from text_poke_bp() before
	# the runner starts: such a boot is tried again, five times at most,
	# and counted
	# one guest at a time: the figures are the emulated machine's alone
	try=1
	con=$dir/$cell/console.log
	until KERNEL=$(kernel_image "$5") TIMEOUT=$timeout TCG_THREAD=$TCG ICOUNT=$icount \
	      SMP=$smp APPEND="$arg ptltest.bench=bench_faults ptlbench.kind=$kinds ptlbench.threads=$6 ptlbench.ms=$ms" \
	      BOOT_JOBS=1 REUSE=0 "$here/boot.sh" -o "$dir" -l "bench $1-$2-$3-$4" -g "bench-$1-$2-$3-$4" \
		"$cell" >"$dir.log" 2>&1; do
		if [ $try -ge 6 ] || ! tcg_glitch "$dir.log" "$con"; then
			cat "$dir.log" >&2
			die "$1 round $2 $3 $4: boot failed"
		fi
		echo "bench: $1 round $2 $4 $3: the guest reset during boot (TCG), again"
		echo "$1-$2-$3-$4" >>"$out/resets.txt"
		try=$((try + 1))
	done
	if [ "$3" = stock ]; then
		! grep -q "split_ptlocks: " "$con" ||
			die "$1 round $2: the stock kernel says split_ptlocks ($con)"
	else
		grep -q "split_ptlocks: $3 (" "$con" ||
			die "$1 round $2: the kernel did not say 'split_ptlocks: $3' ($con)"
	fi
	! grep -q '^not ok\|FAIL' "$con" ||
		die "$1 round $2 $3 $4: $(grep -m1 'FAIL\|^not ok' "$con")"
	echo "bench: $1 round $2 $4 $3: $(sed -n 's/^# bench: kind=\([a-z0-9]*\) /\1 /p' "$con" |
		sed 's/ faults=.*faults_per_s=/: /; s/ us=[0-9]* tsc=[0-9]*//; s/ tables=.*ptl_bytes_per_object=/ bytes_per_lock=/;
		     s/ mm_hold_us=[0-9]* ptl_hold_us=[0-9]*//; s/ mm_acq=.* mm_con=/ mm_con=/; s/ mm_wait_us=[0-9]*//; s/ ptl_acq=[0-9]*//; s/ ptl_wait_us=[0-9]*//' |
		tr '\n' ' ')($(($(date +%s) - t0)) s)"
}

for part in $PARTS; do
	case $part in
	scaling) rounds=${BENCH_ROUNDS:-5} ;;
	contention|hugelock) rounds=${BENCH_LOCK_ROUNDS:-3} ;;
	cost) rounds=${BENCH_COST_ROUNDS:-9} ;;
	huge) rounds=${BENCH_HUGE_ROUNDS:-3} ;;
	icount) rounds=${BENCH_ICOUNT_ROUNDS:-2} ;;
	ptlmem) rounds=1 ;;
	lockscale) rounds=${BENCH_LOCK_ROUNDS:-3} ;;
	esac
	r=1
	while [ "$r" -le "$rounds" ]; do
		case $part in
		scaling)
			for kind in ${BENCH_KINDS:-pf1 pf2 pf3 lameter}; do
				boot scaling $r on "$kind" "$PERF_KERNEL" "$THREADS"
				boot scaling $r off "$kind" "$PERF_KERNEL" "$THREADS"
			done ;;
		contention)
			boot contention $r on lameter "$DEBUG_KERNEL" 2
			boot contention $r off lameter "$DEBUG_KERNEL" 2 ;;
		cost)
			for kind in ${BENCH_COST_KINDS:-pf1}; do
				boot cost $r stock "$kind" "$STOCK_KERNEL" 1
				boot cost $r on "$kind" "$PERF_KERNEL" 1
			done ;;
		huge)
			boot huge $r on thp "$PERF_PAE_KERNEL" "$THREADS"
			boot huge $r off thp "$PERF_PAE_KERNEL" "$THREADS" ;;
		hugelock)
			boot hugelock $r on thp "$DEBUG_PAE_KERNEL" 2
			boot hugelock $r off thp "$DEBUG_PAE_KERNEL" 2 ;;
		icount)
			for a in $ICOUNT_ARCHES; do
				for m in $ICOUNT_MODES; do
					boot icount $r "$m" "$a" "$(mode_kernel "$m" "$a")" 1
				done
			done ;;
		lockscale)
			for f in $LOCKSCALE_KERNELS; do
				for kind in $LOCKSCALE_KINDS; do
					boot lockscale $r on "${f}_$kind" "$(scale_kernel "$f")" "$LOCKSCALE_THREADS"
					boot lockscale $r off "${f}_$kind" "$(scale_kernel "$f")" "$LOCKSCALE_THREADS"
				done
			done ;;
		ptlmem)
			for a in $PTLMEM_ARCHES; do
				for f in $PTLMEM_FLAVOURS; do
					# shellcheck disable=SC2046
					set -- $(flavour_kernels "$f" "$a")
					boot ptlmem $r stock "${f}_$a" "$1" 1
					boot ptlmem $r on "${f}_$a" "$2" 1
					boot ptlmem $r off "${f}_$a" "$2" 1
				done
			done ;;
		esac
		r=$((r + 1))
	done
done
{
	echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "boots_reset_by_tcg=$(cat "$out/resets.txt" 2>/dev/null | wc -l)"
} >>"$out/host.txt"
"$here/bench.py" "$out"
