#!/bin/sh
# needs: kernels (the built kernels and initramfs; not in make selftest-host)
# alone: run.sh runs it by itself, as its guests must not be starved of the host
# make bench, shortened: one round of every part (scaling on the perf kernel,
# lock_stat contention on the debug kernel, stock against split=on, huge
# pages on PAE: here the debug-pae kernel for both huge parts and
# stock-debug-pae for stock, in the PAE cell (a PAE kernel wants NX), as
# make check builds no perf-pae or stock-perf; icount, pf1 only, perf on
# and off (no stock perf kernel; a debug one under icount takes minutes); ptlmem, debug kernels only, i386 against
# stock-debug-pae; lockscale, debug-pae, lameter at 1 and 2 threads) at
# 300 ms a measurement.  It must finish, with a median for every part, the goals
# table and the plot.  The numbers themselves are not checked: a
# benchmark on a shared CI machine is not a test.  Single-threaded TCG: the
# pipeline is what is tested, and multi-threaded TCG resets guests that
# patch their jump labels now and then (testvm/qemu-run.sh).
. "$(dirname "$0")/lib.sh"

BENCH_OUT=$T/bench BENCH_TCG=single BENCH_MS=300 BENCH_ROUNDS=1 BENCH_LOCK_ROUNDS=1 \
	BENCH_COST_ROUNDS=1 BENCH_HUGE_ROUNDS=1 BENCH_KINDS="pf1 lameter" \
	BENCH_BASE=$SELFTEST_BASE PERF_PAE_KERNEL=${PRE}debug-pae STOCK_KERNEL=${PRE}stock-debug-pae BENCH_CELL=pae-on-smp4 \
	BENCH_PARTS="scaling contention cost huge hugelock icount ptlmem lockscale" \
	BENCH_ICOUNT_ARCHES=i386 BENCH_ICOUNT_KINDS=pf1 BENCH_ICOUNT_MS=100 BENCH_ICOUNT_ROUNDS=1 \
	BENCH_ICOUNT_MODES="on off" \
	BENCH_PTLMEM_ARCHES=i386 BENCH_PTLMEM_FLAVOURS=debug STOCK_DEBUG_KERNEL=${PRE}stock-debug-pae \
	BENCH_LOCKSCALE_KERNELS=debug BENCH_LOCKSCALE_KINDS=lameter BENCH_LOCKSCALE_THREADS=1,2 \
	"$ROOT/testvm/bench.sh" >"$T/out" 2>&1 || { cat "$T/out"; fail "bench.sh failed"; }
expect_in "$T/out" "bench: cost round 1 pf1 stock: pf1 threads=1: "
expect_in "$T/bench/bench.md" "| Lameter, 2 threads on 2 vCPUs: split >= 1.8x off | "
expect_in "$T/bench/bench.md" "| ptlock contentions (split) <= 1% of page_table_lock contentions (off) | "
expect_in "$T/bench/bench.md" "| pf1 T=1: patched split=on vs stock $SELFTEST_BASE, <= 1% slower | "
expect_in "$T/bench/bench.md" "| i386 pf1 T=1, instructions a fault: what off saves against on | "
expect_in "$T/bench/bench.md" "| icount: every comparison resolved to 0.1% or finer | "
expect_in "$T/bench/bench.md" "| i386 | debug | on | 256 | "
expect_in "$T/bench/bench.md" "| debug | lameter | 2 | "
python3 - "$T/bench/bench.json" <<'PY' || fail "bench.json incomplete"
import json, sys
j = json.load(open(sys.argv[1]))
want = {"scaling": 8, "contention": 2, "cost": 2, "huge": 4, "hugelock": 2,
        "icount": 2, "ptlmem": 3, "lockscale": 4}
for part, n in want.items():
    rows = j["rows"][part]
    assert len(rows) == n, (part, len(rows))
    assert all(r["faults_per_s"]["median"] > 0 for r in rows), part
# a fault takes some thousand guest instructions, whatever the host
assert all(500 < r["ipf"]["median"] < 100000 for r in j["rows"]["icount"]), j["rows"]["icount"]
# the debug kernels allocate one lock a table (ALLOC_SPLIT_PTLOCKS)
# (SLUB counts its objects in whole slabs: within two slabs of the tables)
assert all(r["ptl_cache"] == 1 and r["ptl_bytes_per_object"] >= 4 and
           abs(r["ptl_objects"] - r["tables"]) <= 2 * 4096 // r["ptl_bytes_per_object"]
           for r in j["rows"]["ptlmem"]), j["rows"]["ptlmem"]
assert all("predicted" in e for e in j["lockscale"]), "lockscale without lock_stat figures"
off = [r for r in j["rows"]["contention"] if r["mode"] == "off"][0]
assert off["mm_acq"]["median"] > 0, "no page_table_lock acquisitions in lock_stat"
on = [r for r in j["rows"]["hugelock"] if r["mode"] == "on"][0]
assert on["ptl_acq"]["median"] > 0, "no split pmd lock acquisitions for huge faults"
PY
head -c 4 "$T/bench/bench.png" | grep -q PNG || fail "no PNG plot"
exit 0
