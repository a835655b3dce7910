#!/bin/sh
# Every variable a user sets (CELLS, TORTURE_CELLS, MM_CELLS, TIMEOUT,
# MM_TIMEOUT, SEED, TORTURE_OPS, BENCH_*, BASE, BUILD, RERUN, BOOT_JOBS,
# SELFTEST_JOBS, KCACHE*, HISTORICAL_*) is checked when make reads its Makefile
# (testvm/vars.mk): a bad value stops make with one line naming the variable
# and what it takes, before anything is built or booted; good values pass.
. "$(dirname "$0")/lib.sh"

# bad TARGET VAR=VALUE TEXT: make TARGET with VAR=VALUE fails, saying TEXT
bad() {
	expect_fail "$T/out" env HISTORICAL_SRC="${HISTORICAL_SRC:-}" make -s -n -C "$ROOT" BUILD="$T/build" "$1" "$2"
	expect_in "$T/out" "$3"
	[ "$(grep -c . "$T/out")" = 1 ] || { cat "$T/out"; fail "$2: more than one line"; }
	[ ! -e "$T/build" ] || fail "$2: $T/build was created"
}

bad run CELLS=no-such-cell "CELLS: no cell 'no-such-cell' (testvm/cells/: "
bad run TIMEOUT=abc "TIMEOUT=abc: expected seconds per boot"
bad run TIMEOUT=0 "TIMEOUT=0: expected seconds per boot"
bad run BASE=5.10 "BASE=5.10: no such base; one of: $BASES all"
bad check RERUN=yes "RERUN=yes: expected 0 or 1"
bad kernels KCACHE=yes "KCACHE=yes: expected 0 or 1"
bad kernels KCACHE_SIZE=big "KCACHE_SIZE=big: expected a cache size"
bad kernels KCACHE_DIR=cache "KCACHE_DIR=cache: expected an absolute directory path"
bad run BOOT_JOBS=0 "BOOT_JOBS=0: expected guests booted at once"
bad check SELFTEST_JOBS=two "SELFTEST_JOBS=two: expected host tests run at once"
bad torture SEED=abc "SEED=abc: expected the torture seed"
bad torture TORTURE_OPS=-3 "TORTURE_OPS=-3: expected operations per torture worker"
bad torture TORTURE_CELLS=nope "TORTURE_CELLS: no cell 'nope'"
bad mm-selftests MM_CELLS=nope "MM_CELLS: no cell 'nope'"
bad mm-selftests MM_TIMEOUT=1m "MM_TIMEOUT=1m: expected seconds per mm selftest"
bad bench BENCH_THREADS=x "BENCH_THREADS=x: expected thread counts separated by commas"
bad bench BENCH_MS=1.5 "BENCH_MS=1.5: expected milliseconds per measurement"
for v in BENCH_ROUNDS BENCH_LOCK_ROUNDS BENCH_COST_ROUNDS BENCH_HUGE_ROUNDS; do
	bad bench $v=two "$v=two: expected a number of rounds"
done
bad bench BENCH_KINDS="pf1 pf9" "BENCH_KINDS: 'pf9' is not one of: pf1 pf2 pf3 lameter thp"
bad bench BENCH_COST_KINDS=x "BENCH_COST_KINDS: 'x' is not one of"
bad bench BENCH_PARTS=speed "BENCH_PARTS: 'speed' is not one of: scaling contention cost huge hugelock"
bad bench BENCH_TCG=kvm "BENCH_TCG=kvm: expected single or multi"
bad historical HISTORICAL_SRC= "HISTORICAL_SRC is not set: make historical HISTORICAL_SRC="
bad historical HISTORICAL_SRC="$T/nowhere" "HISTORICAL_SRC=$T/nowhere has no top-level Makefile"
mkdir -p "$T/src" && : >"$T/src/Makefile"
HISTORICAL_SRC=$T/src bad historical HISTORICAL_CC=no-such-cc "HISTORICAL_CC=no-such-cc: no such command"
HISTORICAL_SRC=$T/src bad historical HISTORICAL_MAKE=no-such-make "HISTORICAL_MAKE=no-such-make: no such command"
: >"$T/file"
expect_fail "$T/out" make -s -n -C "$ROOT" BUILD="$T/file" run
expect_in "$T/out" "BUILD=$T/file: exists and is not a directory"

# good values pass the door (help: a target that runs nothing)
make -s -C "$ROOT" BUILD="$T/build" help CELLS="perf-smp2 6.12-pae-on-smp4" TIMEOUT=30 \
	BENCH_THREADS=1,2,4 BENCH_KINDS="pf1 thp" SEED=28839 TORTURE_OPS=5 RERUN=1 BOOT_JOBS=1 \
	KCACHE=0 KCACHE_SIZE=800M KCACHE_DIR=/var/cache/k \
	>"$T/out" 2>&1 || { cat "$T/out"; fail "good values refused"; }
expect_in "$T/out" "CELLS='perf-smp2 6.12-pae-on-smp4'"
exit 0
