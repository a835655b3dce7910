#!/bin/sh
# needs: kernels (the built kernels and initramfs; not in make selftest-host)
# make bench, shortened: one round of every part (scaling on the perf kernel,
# lock_stat contention on the debug kernel, stock against split=on, huge
# pages on PAE: here the debug-pae kernel for both huge parts and
# stock-debug-pae for stock, in the PAE cell (a PAE kernel wants NX), as
# make check builds no perf-pae or stock-perf) at 300 ms a
# measurement.  It must finish, with a median for every part, the goals
# table and the plot.  The numbers themselves are not checked: a
# benchmark on a shared CI machine is not a test.  Single-threaded TCG: the
# pipeline is what is tested, and multi-threaded TCG resets guests that
# patch their jump labels now and then (testvm/qemu-run.sh).
. "$(dirname "$0")/lib.sh"

BENCH_OUT=$T/bench BENCH_TCG=single BENCH_MS=300 BENCH_ROUNDS=1 BENCH_LOCK_ROUNDS=1 \
	BENCH_COST_ROUNDS=1 BENCH_HUGE_ROUNDS=1 BENCH_KINDS="pf1 lameter" \
	BENCH_BASE=$SELFTEST_BASE PERF_PAE_KERNEL=${PRE}debug-pae STOCK_KERNEL=${PRE}stock-debug-pae BENCH_CELL=pae-on-smp4 \
	"$ROOT/testvm/bench.sh" >"$T/out" 2>&1 || { cat "$T/out"; fail "bench.sh failed"; }
expect_in "$T/out" "bench: cost round 1 pf1 stock: threads=1: "
expect_in "$T/bench/bench.md" "| Lameter, 2 threads on 2 vCPUs: split >= 1.8x off | "
expect_in "$T/bench/bench.md" "| ptlock contentions (split) <= 1% of page_table_lock contentions (off) | "
expect_in "$T/bench/bench.md" "| pf1 T=1: patched split=on vs stock $SELFTEST_BASE, <= 1% slower | "
python3 - "$T/bench/bench.json" <<'PY' || fail "bench.json incomplete"
import json, sys
j = json.load(open(sys.argv[1]))
want = {"scaling": 8, "contention": 2, "cost": 2, "huge": 4, "hugelock": 2}
for part, n in want.items():
    rows = j["rows"][part]
    assert len(rows) == n, (part, len(rows))
    assert all(r["faults_per_s"]["median"] > 0 for r in rows), part
off = [r for r in j["rows"]["contention"] if r["mode"] == "off"][0]
assert off["mm_acq"]["median"] > 0, "no page_table_lock acquisitions in lock_stat"
on = [r for r in j["rows"]["hugelock"] if r["mode"] == "on"][0]
assert on["ptl_acq"]["median"] > 0, "no split pmd lock acquisitions for huge faults"
PY
head -c 4 "$T/bench/bench.png" | grep -q PNG || fail "no PNG plot"
exit 0
