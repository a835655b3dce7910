#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - page-fault scalability, split_ptlocks=on against off (issue 6).
#
# Boots the cell perf-smp2 (the perf kernel, 2 vCPUs) with
# ptltest.bench=bench_faults, once per round, kind and mode, the modes
# interleaved (on, off, on, off, ...) so that a drift of the host hits both
# alike.  Each boot measures every thread count of BENCH_THREADS
# (testvm/guest/bench_faults.c).  Consoles go to $BUILD/bench/ROUND-MODE-KIND;
# the medians, ranges and split/off ratios to $BUILD/report/bench.{json,md,png}.
#
#   BENCH_ROUNDS   rounds (default 5)
#   BENCH_MS       milliseconds per measurement (default 5000)
#   BENCH_KINDS    default "pf1 lameter"
#   BENCH_THREADS  default 1,2
#   KERNEL         overrides the cell's kernel (a name under $BUILD/kernel or a bzImage)
#
# Under TCG the figures measure the emulated machine on this host: compare
# the modes with each other, not with hardware.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$here/../build}
ROUNDS=${BENCH_ROUNDS:-5}
MS=${BENCH_MS:-5000}
KINDS=${BENCH_KINDS:-pf1 lameter}
THREADS=${BENCH_THREADS:-1,2}
CELL=perf-smp2
out=$BUILD/bench
report=$BUILD/report

die() {
	echo "bench: error: $*" >&2
	exit 1
}

command -v gnuplot >/dev/null || die "gnuplot not found (apt-get install gnuplot-nox)"
rm -rf "$out"
mkdir -p "$out" "$report"

r=1
while [ "$r" -le "$ROUNDS" ]; do
	for kind in $KINDS; do
		for mode in on off; do
			dir=$out/$r-$mode-$kind
			t0=$(date +%s)
			APPEND="split_ptlocks=$mode ptltest.bench=bench_faults ptlbench.kind=$kind ptlbench.threads=$THREADS ptlbench.ms=$MS" \
				TIMEOUT=$((120 + MS / 100)) "$here/qemu-run.sh" "$CELL" "$dir" >"$dir.log" 2>&1 ||
				{ cat "$dir.log" >&2; die "round $r $mode $kind: boot failed"; }
			grep -q "split_ptlocks: $mode (" "$dir/console.log" ||
				die "round $r: the kernel did not say 'split_ptlocks: $mode' ($dir/console.log)"
			! grep -q '^not ok\|FAIL' "$dir/console.log" ||
				die "round $r $mode $kind: $(grep -m1 'FAIL' "$dir/console.log")"
			echo "bench: round $r $kind split=$mode: $(sed -n 's/^# bench: kind=[a-z0-9]* //p' "$dir/console.log" |
				sed 's/ faults=.*faults_per_s=/: /' | tr '\n' ' ')($(($(date +%s) - t0)) s)"
		done
	done
	r=$((r + 1))
done

python3 - "$out" "$report" "$ROUNDS" "$MS" <<'EOF'
import json, os, re, statistics, sys

out, report, rounds, ms = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
runs = {}  # (kind, threads, mode) -> [faults/s per round]
for d in sorted(os.listdir(out)):
    m = re.fullmatch(r'(\d+)-(on|off)-(\w+)', d)
    if not m:
        continue
    for line in open(os.path.join(out, d, 'console.log'), errors='replace'):
        f = re.match(r'# bench: kind=(\w+) threads=(\d+) .*faults_per_s=(\d+)', line)
        if f:
            runs.setdefault((f[1], int(f[2]), m[2]), []).append(int(f[3]))

rows = []
for (kind, t, mode), v in sorted(runs.items()):
    rows.append(dict(kind=kind, threads=t, mode=mode, runs=v, median=statistics.median(v),
                     min=min(v), max=max(v)))
med = {(r['kind'], r['threads'], r['mode']): r['median'] for r in rows}
for r in rows:
    off = med.get((r['kind'], r['threads'], 'off'))
    r['ratio_to_off'] = round(r['median'] / off, 3) if off else None
json.dump(dict(cell='perf-smp2', rounds=rounds, ms=ms, unit='faults/s', rows=rows),
          open(os.path.join(report, 'bench.json'), 'w'), indent=1)

with open(os.path.join(report, 'bench.md'), 'w') as md:
    md.write('Page faults per second, perf kernel, 2 vCPUs (TCG), %d rounds of %d ms,\n'
             'modes interleaved; median and min..max over the rounds.\n\n' % (rounds, ms))
    md.write('| kind | T | mode | median faults/s | min..max | ratio split/off |\n')
    md.write('|---|---|---|---|---|---|\n')
    for r in rows:
        md.write('| %s | %d | %s | %d | %d..%d | %s |\n' % (
            r['kind'], r['threads'], r['mode'], r['median'], r['min'], r['max'],
            '%.3f' % r['ratio_to_off'] if r['mode'] == 'on' and r['ratio_to_off'] else ''))

plots = []
for kind in sorted({r['kind'] for r in rows}):
    for mode in ('on', 'off'):
        data = os.path.join(report, 'bench-%s-%s.dat' % (kind, mode))
        with open(data, 'w') as f:
            for r in rows:
                if r['kind'] == kind and r['mode'] == mode:
                    f.write('%d %d %d %d\n' % (r['threads'], r['median'], r['min'], r['max']))
        plots.append("'%s' using 1:2:3:4 with yerrorlines title '%s split=%s'" % (data, kind, mode))
with open(os.path.join(report, 'bench.gp'), 'w') as gp:
    gp.write('set terminal png size 900,560\nset output "%s"\n' % os.path.join(report, 'bench.png'))
    gp.write('set title "page faults/s vs threads (perf kernel, 2 vCPUs, TCG; median, min..max)"\n')
    gp.write('set xlabel "threads"\nset ylabel "faults/s"\nset xtics 1\nset yrange [0:*]\n')
    gp.write('set key top right\nset offsets 0.2, 0.2, 0, 0\n')
    gp.write('plot ' + ', '.join(plots) + '\n')
EOF
gnuplot "$report/bench.gp"
cat "$report/bench.md"
echo "bench: $report/bench.md, bench.json, bench.png"
